package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
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

// Every process orders the specs by one seed, the run's, whatever seed (or none) the run was
// given: processes started in different seconds chose different seeds by default, and ran some
// specs twice and others never, and the run still passed.
func TestParallelProcessesShareTheRunsSeed(t *testing.T) {
	p := ParallelRun{Procs: 3, Seed: 1795608017, Test: "TestConformance",
		Args: []string{"-ginkgo.seed=7", "--ginkgo.label-filter=contract", "-test.run=X", "-ginkgo.parallel.process=9", "--ginkgo.seed", "8", "-ginkgo.v"}}
	for n := 1; n <= p.Procs; n++ {
		args := p.processArgs(n, "http://127.0.0.1:1")
		var seeds, labels []string
		for _, a := range args {
			switch {
			case strings.HasPrefix(a, "-ginkgo.seed"), strings.HasPrefix(a, "--ginkgo.seed"):
				seeds = append(seeds, a)
			case strings.Contains(a, "label-filter"):
				labels = append(labels, a)
			}
		}
		if !slices.Equal(seeds, []string{"-ginkgo.seed=1795608017"}) || len(labels) != 1 {
			t.Errorf("process %d runs with %q: want the run's seed once and its label filter", n, args)
		}
		if !slices.Contains(args, fmt.Sprintf("-ginkgo.parallel.process=%d", n)) || !slices.Contains(args, "-test.run=^TestConformance$") ||
			!slices.Contains(args, "-ginkgo.v") || slices.Contains(args, "8") {
			t.Errorf("process %d runs with %q", n, args)
		}
	}
}

// A report holding a spec twice is not a verdict: the processes disagreed on which spec is
// which, so some specs may never have run.
func TestRanTwiceFindsSpecsRunTwice(t *testing.T) {
	spec := func(text string, line int) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: text,
			LeafNodeLocation: types.CodeLocation{FileName: "a_test.go", LineNumber: line}}
	}
	setup := types.SpecReport{LeafNodeType: types.NodeTypeBeforeSuite}
	r := types.Report{SpecReports: types.SpecReports{setup, spec("a", 1), spec("b", 2), setup}}
	if twice := ranTwice(r); len(twice) != 0 {
		t.Errorf("ranTwice = %q for specs run once", twice)
	}
	r.SpecReports = append(r.SpecReports, spec("b", 2))
	if twice := ranTwice(r); len(twice) != 1 || !strings.Contains(twice[0], "b") {
		t.Errorf("ranTwice = %q, want b", twice)
	}
}
