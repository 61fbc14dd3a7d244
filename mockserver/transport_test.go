package mockserver_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/internal/wireerr/wireerrtest"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// What net/http answers by itself — a request it cannot parse, headers past its limit, an
// unknown transfer coding — comes back in shape (a) with the rate-limit headers (D79), not as
// plain text, when the mock is served on its Listener.
func TestTransportErrorsAnswerInTheEnvelope(t *testing.T) {
	mock, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(mock)
	srv.Config.MaxHeaderBytes = wireerrtest.MaxHeaderBytes
	srv.Listener = mock.Listener(srv.Listener)
	srv.Start()
	t.Cleanup(srv.Close)
	wireerrtest.Check(t, strings.TrimPrefix(srv.URL, "http://"), "X-RateLimit-Limit", "X-RateLimit-Remaining")
	t.Run("leaves the mock's own answers alone", func(t *testing.T) {
		res, err := http.Get(srv.URL + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if b, _ := io.ReadAll(res.Body); res.StatusCode != 200 || !strings.Contains(string(b), `"ok"`) {
			t.Errorf("%d %s", res.StatusCode, b)
		}
	})
}
