package mockclient_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockclient"
)

// An error answer that is not the mock's (a wrong base URL's 500 page of megabytes, with
// control characters) is quoted in the error by its start only, escaped, with its size: whole,
// it went into the error and from t.Fatal into the CI log.
func TestOtherServersErrorIsQuotedShort(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte("\x1b[31m" + strings.Repeat("A", 2<<20)))
	}))
	defer srv.Close()
	_, err := mockclient.New(srv.URL).Reset(context.Background(), mockclient.Reset{})
	if err == nil {
		t.Fatal("Reset against a server answering 500: no error")
	}
	msg := err.Error()
	if len(msg) > 1000 || strings.Contains(msg, "\x1b") || !strings.Contains(msg, "not the mock's JSON") {
		t.Errorf("error of %d bytes (escape kept: %v), want a short quote saying it is not the mock's: %.300q", len(msg), strings.Contains(msg, "\x1b"), msg)
	}
}
