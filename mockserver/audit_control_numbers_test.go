package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A number a control cannot take is named for what is wrong with it: a fraction is not an
// integer (saying "between -2^63 and 2^63-1" sent the user looking at the size), a whole number
// past the field's bits is out of its range (a clock advance by the clock's own range, not the
// 64 bits that read it); a position past 64 bits is named by the
// position's own range (D75), as a position past 32 bits is.
func TestControlAndFieldNumbersSayWhatIsWrong(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	for _, c := range []struct {
		path, body, want, not string
	}{
		{"/__mock/clock", `{"advance_seconds": 1.5}`, "must be an integer.", "2^63"},
		{"/__mock/reset", `{"seed": 1.5}`, "must be an integer.", "2^63"},
		{"/__mock/clock", `{"advance_seconds": 1e30}`, "not be greater than 315360000 (ten years)", "2^63"},
		{"/__mock/clock", `{"advance_seconds": 1e500}`, "not be greater than 315360000 (ten years)", "2^63"},
		{"/__mock/clock", `{"advance_seconds": -1e30}`, "at least 0", "2^63"},
		{"/__mock/clock", `{"advance_seconds": "1e30"}`, "must be an integer.", "ten years"},
		{"/__mock/reset", `{"seed": 1e30}`, "between -9007199254740991 and 9007199254740991, the largest", "2^63"},
	} {
		a := m.ctl(http.MethodPost, c.path, c.body)
		if a.status != http.StatusUnprocessableEntity || !strings.Contains(string(a.raw), c.want) || (c.not != "" && strings.Contains(string(a.raw), c.not)) {
			t.Errorf("%s %s: %d %s; want 422 saying %q", c.path, c.body, a.status, a.raw, c.want)
		}
	}
	tok := m.login(m.manifest.Users.Member)
	for _, pos := range []string{"1e30", "4294967296"} {
		a := m.post("/services/operations/v1/operations/tags/create", tok, `{"name":"t","position":`+pos+`}`).wantStatus(t, http.StatusUnprocessableEntity)
		if !strings.Contains(string(a.raw), "between -2147483648 and 2147483647") {
			t.Errorf("position %s: %s; want the position's range", pos, a.raw)
		}
	}
}
