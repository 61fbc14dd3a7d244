package mockserver_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A fault rule for the next N calls answers its status N times, counts down in the list, then
// goes away; DELETE clears every rule.
func TestFaultRuleForTheNextCalls(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	rule := m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "tagsList", "status": 500, "times": 2}).wantStatus(t, 201)
	if rule.field("id") == nil || rule.field("remaining") != float64(2) {
		t.Fatalf("added rule: %s", rule.raw)
	}
	m.post(pTagsList, member, nil).wantStatus(t, 500).wantShape(t, "a")
	if l := m.ctl(http.MethodGet, "/__mock/faults", nil).list(t, "faults"); len(l) != 1 || l[0]["remaining"] != float64(1) {
		t.Errorf("after one call the rule list is %v, want one rule with 1 remaining", l)
	}
	m.post(pTagsList, member, nil).wantStatus(t, 500)
	m.post(pTagsList, member, nil).wantStatus(t, 200)
	if l := m.ctl(http.MethodGet, "/__mock/faults", nil).list(t, "faults"); len(l) != 0 {
		t.Errorf("a spent rule is still listed: %v", l)
	}
	// Other operations are untouched; a rule without times holds until cleared.
	m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "cardsList", "status": 429}).wantStatus(t, 201)
	m.post(pTagsList, member, nil).wantStatus(t, 200)
	for range 3 {
		a := m.post(pCardsList, member, nil).wantStatus(t, 429)
		if a.header.Get("Retry-After") == "" {
			t.Error("a fault 429 has no Retry-After")
		}
	}
	m.ctl(http.MethodDelete, "/__mock/faults", nil).wantStatus(t, 200)
	m.post(pCardsList, member, nil).wantStatus(t, 200)
}

// Probabilities draw from a source seeded by the world's seed: the same seed gives the same
// sequence of faults, so tests that use them are deterministic.
func TestFaultProbabilityIsDeterministic(t *testing.T) {
	run := func() []int {
		m := newMock(t, mockserver.Config{})
		m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "authenticate", "status": 500, "probability": 0.5}).wantStatus(t, 201)
		var got []int
		for range 20 {
			got = append(got, m.post(pAuthenticate, "", map[string]any{"email": "a@b.co", "password": "x"}).status)
		}
		return got
	}
	first, second := run(), run()
	faults := 0
	for i := range first {
		if first[i] != second[i] {
			t.Fatalf("two runs with the same seed differ: %v and %v", first, second)
		}
		if first[i] == 500 {
			faults++
		}
	}
	if faults == 0 || faults == 20 {
		t.Errorf("probability 0.5 gave %d faults in 20 calls", faults)
	}
}

// A latency rule delays the operation and then lets it run.
func TestFaultRuleLatency(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "authenticate", "latency_ms": 150, "times": 1}).wantStatus(t, 201)
	start := time.Now()
	m.post(pAuthenticate, "", map[string]any{"email": "a@b.co", "password": "x"}).wantStatus(t, 401)
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Errorf("answer after %s, want at least 150ms", d)
	}
}

func TestFaultRuleRejectsBadInput(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	tests := []struct {
		name   string
		body   string
		status int
		field  string
	}{
		{"an unknown operation id is refused", `{"operation": "cardsDestroy", "status": 500}`, 422, "operation"},
		{"a missing operation is refused", `{"status": 500}`, 422, "operation"},
		{"a success status is refused", `{"operation": "tagsList", "status": 200}`, 422, "status"},
		{"a status that is not an HTTP error is refused", `{"operation": "tagsList", "status": 99}`, 422, "status"},
		{"a status the operation does not list is refused", `{"operation": "tagsList", "status": 404}`, 422, "status"},
		{"neither status nor latency is refused", `{"operation": "tagsList"}`, 422, "status"},
		{"a negative latency is refused", `{"operation": "tagsList", "latency_ms": -5}`, 422, "latency_ms"},
		// It would do nothing but shadow the rules added after it.
		{"a latency of 0 without a status is refused", `{"operation": "tagsList", "latency_ms": 0}`, 422, "latency_ms"},
		{"times 0 is refused", `{"operation": "tagsList", "status": 500, "times": 0}`, 422, "times"},
		{"times with probability is refused", `{"operation": "tagsList", "status": 500, "times": 1, "probability": 0.5}`, 422, "times"},
		{"a probability over 1 is refused", `{"operation": "tagsList", "status": 500, "probability": 1.5}`, 422, "probability"},
		{"a status as a string is refused", `{"operation": "tagsList", "status": "500"}`, 422, "status"},
		{"malformed JSON is a bad request", `{"operation": `, 400, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := m.ctl(http.MethodPost, "/__mock/faults", tt.body).wantStatus(t, tt.status)
			if tt.status == 400 {
				a.wantShape(t, "a")
				return
			}
			a.wantShape(t, "c")
			if !a.fieldErrorOf(tt.field) {
				t.Errorf("no error for %q: %s", tt.field, a.raw)
			}
		})
	}
	if l := m.ctl(http.MethodGet, "/__mock/faults", nil).list(t, "faults"); len(l) != 0 {
		t.Errorf("refused rules were added: %v", l)
	}
}

// Times and probability together are refused in words that say what to do, not in a
// validation framework's phrasing.
func TestFaultTimesWithProbabilitySaysSendOne(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	a := m.ctl(http.MethodPost, "/__mock/faults", `{"operation": "tagsList", "status": 500, "times": 1, "probability": 0.5}`).wantStatus(t, 422)
	if !strings.Contains(string(a.raw), "cannot be sent together: send one of them") {
		t.Errorf("the refusal does not say to send one of times and probability: %s", a.raw)
	}
}

// --latency delays every operation, not the mock's own endpoints.
func TestLatencyDelaysOperations(t *testing.T) {
	m := newMock(t, mockserver.Config{Latency: mockserver.Latency{Min: 100 * time.Millisecond, Max: 150 * time.Millisecond}})
	start := time.Now()
	m.post(pAuthenticate, "", map[string]any{"email": "a@b.co", "password": "x"}).wantStatus(t, 401)
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("operation answered after %s, want at least 100ms", d)
	}
	start = time.Now()
	m.ctl(http.MethodGet, "/__mock/clock", nil).wantStatus(t, 200)
	if d := time.Since(start); d >= 100*time.Millisecond {
		t.Errorf("a control answered after %s: controls are not delayed", d)
	}
}

func TestParseLatency(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		in       string
		min, max time.Duration
		bad      bool
		says     string // a part of the error, for a bad one
	}{
		{in: ""},
		{in: "250ms", min: 250 * ms, max: 250 * ms},
		{in: "250", min: 250 * ms, max: 250 * ms},
		{in: "1s", min: time.Second, max: time.Second},
		{in: "100ms-400ms", min: 100 * ms, max: 400 * ms},
		{in: "100-400", min: 100 * ms, max: 400 * ms},
		{in: "400-100", bad: true},
		{in: "-5", bad: true, says: "not negative"},
		{in: "-5ms", bad: true, says: "not negative"},
		{in: "soon", bad: true},
		{in: "1m", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			l, err := mockserver.ParseLatency(tt.in)
			if (err != nil) != tt.bad {
				t.Fatalf("ParseLatency(%q) error %v, want error %v", tt.in, err, tt.bad)
			}
			if err != nil && !strings.Contains(err.Error(), tt.says) {
				t.Errorf("ParseLatency(%q) error %q, want it to say %q", tt.in, err, tt.says)
			}
			if !tt.bad && (l.Min != tt.min || l.Max != tt.max) {
				t.Errorf("ParseLatency(%q) = %v, want %s-%s", tt.in, l, tt.min, tt.max)
			}
		})
	}
}

// A world keeps at most 100 fault rules: the 101st answers 409 in shape (a) and adds nothing,
// and a clear makes room again; times is at most a million (a count a JavaScript client reads
// exactly). 20,000 rules were once kept, and times 9223372036854775807.
func TestFaultRulesAreBounded(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	rule := map[string]any{"operation": "tagsList", "latency_ms": 1}
	for range 100 {
		m.ctl(http.MethodPost, "/__mock/faults", rule).wantStatus(t, http.StatusCreated)
	}
	m.ctl(http.MethodPost, "/__mock/faults", rule).wantStatus(t, http.StatusConflict).wantShape(t, "a")
	if n := len(m.ctl(http.MethodGet, "/__mock/faults", nil).list(t, "faults")); n != 100 {
		t.Errorf("the world holds %d rules, want 100", n)
	}
	m.ctl(http.MethodDelete, "/__mock/faults", nil).wantStatus(t, http.StatusOK)
	m.ctl(http.MethodPost, "/__mock/faults", rule).wantStatus(t, http.StatusCreated)
	for _, times := range []any{1_000_001, 9223372036854775807} {
		m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "tagsList", "status": 500, "times": times}).wantFieldError(t, "times")
	}
	m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "tagsList", "status": 500, "times": 1_000_000}).wantStatus(t, http.StatusCreated)
}

// The controls read numbers and names as the operations do (D8): 5.0 and 1e1 are the integers
// 5 and 10 (they were refused as "must be an integer"), a fraction float64 rounds to a whole
// number is still a fraction, and a name in another case is an unknown field, not the field it
// resembles.
func TestControlsReadNumbersAndNamesAsTheOperations(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	a := m.ctl(http.MethodPost, "/__mock/faults", `{"operation":"tagsList","status":500,"times":1e1}`).wantStatus(t, http.StatusCreated)
	if a.body["times"] != float64(10) {
		t.Errorf("times 1e1 was kept as %v, want 10", a.body["times"])
	}
	m.ctl(http.MethodPost, "/__mock/reset", `{"seed":7.0}`).wantStatus(t, http.StatusOK)
	before := m.ctl(http.MethodGet, "/__mock/clock", nil).body["now"]
	m.ctl(http.MethodPost, "/__mock/clock", `{"advance_seconds":60.0}`).wantStatus(t, http.StatusOK)
	if after := m.ctl(http.MethodGet, "/__mock/clock", nil).body["now"]; after == before {
		t.Errorf("advance_seconds 60.0 left the clock at %v", after)
	}
	m.ctl(http.MethodPost, "/__mock/clock", `{"advance_seconds":1.0000000000000000001}`).wantFieldError(t, "advance_seconds")
	m.ctl(http.MethodPost, "/__mock/clock", `{"ADVANCE_SECONDS":60}`).wantFieldError(t, "ADVANCE_SECONDS")
	m.ctl(http.MethodPost, "/__mock/faults", `{"operation":"tagsList","Status":500}`).wantFieldError(t, "Status")
}
