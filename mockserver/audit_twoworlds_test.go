package mockserver_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A request that names its world by the path or the header and another world by ?name= or
// ?world= is refused naming both, as a path and a header naming two worlds are: a worker whose
// base URL holds its world, deleting with a mistaken ?name=, deleted another worker's world.
func TestRequestNamingTwoWorldsIsRefused(t *testing.T) {
	mock, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	do := func(method, target, header string) int {
		r := httptest.NewRequest(method, target, nil)
		if header != "" {
			r.Header.Set(mockserver.WorldHeader, header)
		}
		rec := httptest.NewRecorder()
		mock.ServeHTTP(rec, r)
		if rec.Code == http.StatusBadRequest && !strings.Contains(rec.Body.String(), "use one") {
			t.Errorf("%s %s: 400 %s, want it to name both worlds", method, target, rec.Body)
		}
		return rec.Code
	}
	for _, w := range []string{"wa", "wb"} {
		if code := do(http.MethodPost, "/__worlds/"+w+"/__mock/reset", ""); code != http.StatusOK {
			t.Fatalf("reset %s: %d", w, code)
		}
	}
	for _, c := range []struct{ method, target, header string }{
		{http.MethodDelete, "/__worlds/wa/__mock/worlds?name=wb", ""},
		{http.MethodDelete, "/__mock/worlds?name=wb", "wa"},
		{http.MethodGet, "/__worlds/wa/__mock/requests/count?world=wb", ""},
		{http.MethodGet, "/__mock/requests?world=wb", "wa"},
	} {
		if code := do(c.method, c.target, c.header); code != http.StatusBadRequest {
			t.Errorf("%s %s (header %q): %d, want 400", c.method, c.target, c.header, code)
		}
	}
	if code := do(http.MethodGet, "/__worlds/wb/__mock/requests/count", ""); code != http.StatusOK {
		t.Errorf("wb is gone after the refused deletes: %d", code)
	}
	// Naming one world twice, or another from the default world, is one request for one world.
	for _, c := range []struct{ method, target, header string }{
		{http.MethodGet, "/__worlds/wa/__mock/requests/count?world=wa", ""},
		{http.MethodGet, "/__mock/requests/count?world=wb", ""},
		{http.MethodDelete, "/__worlds/wb/__mock/worlds?name=wb", ""},
		{http.MethodDelete, "/__mock/worlds?name=wa", ""},
	} {
		if code := do(c.method, c.target, c.header); code != http.StatusOK {
			t.Errorf("%s %s: %d, want 200", c.method, c.target, code)
		}
	}
}
