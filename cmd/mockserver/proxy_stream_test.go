package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// An answer the proxy streams through unchecked (here a mock's world path, which is none of the
// operations) reaches a keep-alive client whole after a request with a body: net/http drained
// and closed the request body when the answer's header went out, under the transport still
// forwarding it, which then closed the upstream connection a few KiB into the answer.
func TestProxyStreamsUncheckedAnswersWhole(t *testing.T) {
	mock := startProcess(t, "--rate-limit", "1000000") // apart from the proxy, as a deployment is
	px, stopProxy := startProxyCmd(t, nil, "--upstream", mock)
	defer stopProxy()
	token := loginMember(t, mock) // the default world, reached through its world path
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	cut := 0
	for range 1500 {
		req, _ := http.NewRequest(http.MethodPost, px+"/__worlds/default/services/operations/v1/operations/cards/list", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%d %s", res.StatusCode, body)
		}
		if err != nil || len(body) < 4096 {
			cut++
		}
	}
	if cut > 0 {
		t.Errorf("%d of 1500 answers were cut short", cut)
	}
}
