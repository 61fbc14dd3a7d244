package mockserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Snapshots load one at a time across the server (D65): a PUT waits while another loads.
func TestSnapshotsLoadOneAtATime(t *testing.T) {
	s, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/__mock/state", nil))
	snapshot := rec.Body.Bytes()

	s.loading <- struct{}{} // another load is under way
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
