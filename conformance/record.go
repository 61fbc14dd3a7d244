package conformance

import (
	"encoding/json"
	"sort"
	"sync"

	"github.com/onsi/ginkgo/v2/types"
)

// ExchangeRecord counts the exchanges of one kind a spec made: the operation, the credential it
// carried, what the suite meant the request to be, the status answered and, for a request that
// breaks or probes one field constraint, the constraint (field and kind, e.g. "title maxLength").
// The suite attaches a spec's records to its report (ReportEntryExchanges), so the HTML report's
// coverage and the self-test's check of the effect labels read what was really sent.
type ExchangeRecord struct {
	Op string `json:"op"`
	// Credential is "none" (no Authorization header), "invalid" (a token no deployment issued,
	// BadToken), "token" (a token the deployment issued or the manifest gave) or "malformed"
	// (an Authorization header sent as it is: a token without its scheme, another scheme).
	Credential string `json:"credential"`
	// Intent is "valid", "invalid" or "raw" (Intent).
	Intent string `json:"intent"`
	// Status is the status answered (0: no answer).
	Status int `json:"status"`
	// Constraint is the field constraint the request probes, "" for none.
	Constraint string `json:"constraint,omitempty"`
	// NoRetry is set when the spec meant to receive a 429 itself (Request.NoRetry) instead of
	// having it waited out.
	NoRetry bool `json:"no_retry,omitempty"`
	// WaitedOut is set on a 429 the client waited out (Retry-After) and sent again.
	WaitedOut bool `json:"waited_out,omitempty"`
	Count     int  `json:"count"`
}

// ReportEntryExchanges names the report entry holding a spec's []ExchangeRecord.
const ReportEntryExchanges = "exchanges"

// Changes reports whether the exchange may have changed the target (D110): a request to an
// operation that changes it, with a credential the target accepts (or to a public one), or a
// create with a token in a wrong form (D130).
func (r ExchangeRecord) Changes() bool {
	op, ok := OperationByID(r.Op)
	if !ok || op.Change() == "" {
		return false
	}
	// A token in a wrong form (a raw Authorization header) carries no body that names a record
	// the operation acts on, except on a create: a target that wrongly accepts it creates
	// (D130).
	return op.Access == Public || r.Credential == "token" || (r.Credential == "malformed" && op.Change() == "creates")
}

// Recorder counts the exchanges a client makes until they are taken. It is safe for
// concurrent use (the rate-limit specs send from many goroutines).
type Recorder struct {
	mu sync.Mutex
	m  map[ExchangeRecord]int
}

func (rec *Recorder) add(r ExchangeRecord) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.m == nil {
		rec.m = map[ExchangeRecord]int{}
	}
	rec.m[r]++
}

// Take returns the records counted since the last Take, sorted, and forgets them.
func (rec *Recorder) Take() []ExchangeRecord {
	rec.mu.Lock()
	m := rec.m
	rec.m = nil
	rec.mu.Unlock()
	out := make([]ExchangeRecord, 0, len(m))
	for r, n := range m {
		r.Count = n
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Op != b.Op:
			return a.Op < b.Op
		case a.Status != b.Status:
			return a.Status < b.Status
		case a.Credential != b.Credential:
			return a.Credential < b.Credential
		case a.Intent != b.Intent:
			return a.Intent < b.Intent
		case a.NoRetry != b.NoRetry:
			return b.NoRetry
		}
		return a.Constraint < b.Constraint
	})
	return out
}

func credentialOf(token, authorization string) string {
	if authorization != "" {
		return "malformed"
	}
	switch token {
	case "":
		return "none"
	case BadToken:
		return "invalid"
	}
	return "token"
}

func (i Intent) String() string {
	switch i {
	case Valid:
		return "valid"
	case Invalid:
		return "invalid"
	}
	return "raw"
}

// Records returns the exchanges a spec report holds (ReportEntryExchanges), in process or
// read back from another process's report.
func Records(sr types.SpecReport) []ExchangeRecord {
	var out []ExchangeRecord
	for _, e := range sr.ReportEntries {
		if e.Name != ReportEntryExchanges {
			continue
		}
		if rs, ok := e.Value.GetRawValue().([]ExchangeRecord); ok {
			out = append(out, rs...)
			continue
		}
		var rs []ExchangeRecord
		if json.Unmarshal([]byte(e.Value.AsJSON), &rs) == nil {
			out = append(out, rs...)
		}
	}
	return out
}
