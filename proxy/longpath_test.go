package proxy_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// A client sending a path of a megabyte, answered in breach of the contract, cannot make the
// proxy write a megabyte of log, or of journal, per exchange: the warning and the journal entry
// show the path cut, with a marker.
func TestAPathOfAMegabyteIsLoggedCut(t *testing.T) {
	s, logs := startLoggingProxy(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"not":"the envelope"}`) // breaks the answer's shape
	}))
	res, err := http.Post(s.url+"/services/operations/v1/operations/tags/list;"+strings.Repeat("E", 900<<10), "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if !strings.Contains(logs.String(), "contract violation") {
		t.Fatalf("no violation logged:\n%.500s", logs.String())
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		if len(line) > 8<<10 {
			t.Errorf("a log line of %d bytes for a long path: %.200s…", len(line), line)
		}
	}
	jr, err := http.Get(s.url + "/__proxy/exchanges?limit=1")
	if err != nil {
		t.Fatal(err)
	}
	defer jr.Body.Close()
	var j struct {
		Exchanges []struct{ Path string } `json:"exchanges"`
	}
	if err := json.NewDecoder(jr.Body).Decode(&j); err != nil || len(j.Exchanges) != 1 {
		t.Fatalf("exchanges: %v %+v", err, j)
	}
	if p := j.Exchanges[0].Path; len(p) > 4<<10 || !strings.HasSuffix(p, "[cut]") {
		t.Errorf("the journal shows a path of %d bytes (%.60q…), want it cut with a marker", len(p), p)
	}
}
