package mockserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Large snapshots load one at a time across the server (D65): such a PUT waits while another
// loads; a small one, read whole before it waits, loads at once.
func TestSnapshotsLoadOneAtATime(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/__mock/state", nil))
	small := bytes.Clone(rec.Body.Bytes())
	snapshot := append(bytes.Repeat([]byte(" "), smallSnapshot), small...) // large by its blanks

	s.loading <- struct{}{} // another load is under way
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPut, "/__mock/state", bytes.NewReader(small)))
	if rec.Code != http.StatusOK {
		t.Errorf("a small snapshot while another loads: %d %s, want 200 at once", rec.Code, rec.Body)
	}
	done := make(chan int, 1)
	go func() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(http.MethodPut, "/__mock/state", bytes.NewReader(snapshot)))
		done <- rec.Code
	}()
	select {
	case code := <-done:
		t.Fatalf("the PUT answered %d while another load held the server's turn", code)
	case <-time.After(200 * time.Millisecond):
	}
	<-s.loading
	select {
	case code := <-done:
		if code != http.StatusOK {
			t.Errorf("the PUT answered %d once its turn came, want 200", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the PUT never loaded")
	}
}
