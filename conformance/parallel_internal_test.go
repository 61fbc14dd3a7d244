package conformance

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
)

// The coordinator answers Ginkgo's parallel protocol as the processes expect it (D160): too
// early while process 1 has not shared its setup, gone once it died without it, the setup once
// shared; the report of the other processes once they ended; one counter for all.
func TestParallelServerSpeaksGinkgosProtocol(t *testing.T) {
	var proc1Alive atomic.Bool
	proc1Alive.Store(true)
	s := newParallelServer(2, reporters.NoopReporter{}, &bytes.Buffer{}, func(p int) bool { return p != 1 || proc1Alive.Load() })
	srv := httptest.NewServer(s.handler())
	defer srv.Close()
	get := func(path string) (int, []byte) {
		t.Helper()
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var b bytes.Buffer
		_, _ = b.ReadFrom(res.Body)
		return res.StatusCode, b.Bytes()
	}
	post := func(path string, v any) {
		t.Helper()
		raw, _ := json.Marshal(v)
		res, err := http.Post(srv.URL+path, "application/json", bytes.NewReader(raw))
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("POST %s: %v %v", path, err, res.Status)
		}
		res.Body.Close()
	}
	if code, _ := get("/before-suite-state"); code != http.StatusTooEarly {
		t.Errorf("setup state before process 1 shared it: %d, want 425", code)
	}
	proc1Alive.Store(false)
	if code, _ := get("/before-suite-state"); code != http.StatusGone {
		t.Errorf("setup state after process 1 died: %d, want 410", code)
	}
	post("/before-suite-completed", beforeSuiteState{Data: []byte("http://target"), State: types.SpecStatePassed})
	var st beforeSuiteState
	if code, body := get("/before-suite-state"); code != http.StatusOK || json.Unmarshal(body, &st) != nil || string(st.Data) != "http://target" {
		t.Errorf("setup state once shared: %d %s", code, body)
	}
	for want := range 3 {
		var c struct{ Index int }
		if _, body := get("/counter"); json.Unmarshal(body, &c) != nil || c.Index != want {
			t.Errorf("counter %s, want %d", body, want)
		}
	}
	proc1Alive.Store(true)
	if code, _ := get("/aggregated-nonprimary-procs-report"); code != http.StatusTooEarly {
		t.Errorf("the others' report before process 2 ended: %d, want 425", code)
	}
	r := types.Report{SuiteConfig: types.SuiteConfig{ParallelProcess: 2}, SpecReports: types.SpecReports{{LeafNodeText: "a spec of process 2"}}}
	post("/suite-did-end", r)
	var agg types.Report
	if code, body := get("/aggregated-nonprimary-procs-report"); code != http.StatusOK || json.Unmarshal(body, &agg) != nil || len(agg.SpecReports) != 1 {
		t.Errorf("the others' report once process 2 ended: %d %s", code, body)
	}
	if _, whole := s.Report(); whole {
		t.Error("the run's report is whole before process 1 ended")
	}
}
