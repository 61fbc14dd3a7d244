package mockserver_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// HEAD asks what GET would answer, without the body: HEAD / and HEAD /healthz are not 405.
func TestHeadAnswersAsGet(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, path := range []string{"/", "/healthz"} {
		get, err := client.Get(m.url + path)
		if err != nil {
			t.Fatal(err)
		}
		get.Body.Close()
		head, err := client.Head(m.url + path)
		if err != nil {
			t.Fatal(err)
		}
		head.Body.Close()
		if head.StatusCode != get.StatusCode || head.StatusCode == http.StatusMethodNotAllowed {
			t.Errorf("HEAD %s answered %d, GET %d", path, head.StatusCode, get.StatusCode)
		}
	}
}

// A preflight's Date is the world's clock, as on every other answer (a browser app reading the
// service's time from Date sees the mock's).
func TestPreflightDateIsTheWorldsClock(t *testing.T) {
	m := newMock(t, mockserver.Config{}) // the clock pinned at testNow
	req, _ := http.NewRequest(http.MethodOptions, m.url+pAuthenticate, nil)
	req.Header.Set("Origin", "http://app.example.com")
	req.Header.Set("Access-Control-Request-Method", "POST")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("preflight answered %d", res.StatusCode)
	}
	date, err := http.ParseTime(res.Header.Get("Date"))
	if err != nil {
		t.Fatalf("preflight Date %q: %v", res.Header.Get("Date"), err)
	}
	if d := date.Sub(testNow); d < 0 || d > time.Minute {
		t.Errorf("preflight Date %s, want the world's clock near %s", date, testNow)
	}
}
