package mockserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// A frontend test starts the mock in process, reads the fixture manifest, logs the member in
// and calls an operation with the bearer token.
func ExampleNew() {
	h, err := mockserver.New(mockserver.Config{Now: time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		panic(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()

	var manifest fixtures.Manifest
	getJSON(srv.URL+"/__mock/fixtures", &manifest)

	creds, _ := json.Marshal(manifest.Users.Member)
	var login struct {
		Data struct{ Token string } `json:"data"`
	}
	postJSON(srv.URL+"/v1/authenticate", "", string(creds), &login)

	var cards struct {
		Error bool `json:"error"`
		Data  struct {
			Cards []struct {
				ID int64 `json:"id"`
			} `json:"cards"`
		} `json:"data"`
	}
	res := postJSON(srv.URL+"/services/operations/v1/operations/cards/list", login.Data.Token, "{}", &cards)
	fmt.Println(res.StatusCode, cards.Error, len(cards.Data.Cards) > 0, res.Header.Get("X-RateLimit-Limit"))
	// Output: 200 false true 1000
}

func getJSON(url string, v any) {
	res, err := http.Get(url)
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		panic(err)
	}
}

func postJSON(url, token, body string, v any) *http.Response {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		panic(err)
	}
	return res
}
