package flow_test

import (
	"strings"
	"testing"
	"unicode"

	"github.com/opsapi/mocktoolkit/conformance/flow"
)

// A reference an answer cannot give is reported with the answer's outline, whose keys are the
// target's text: a key holding a right-to-left override, DEL or a C1 control is shown escaped,
// as the suite shows an answer, not handed raw to the terminal and the reports.
func TestBindEscapesTheAnswersKeys(t *testing.T) {
	doc := flow.Build("run", calls(), testManifest())
	answers := map[int]any{2: map[string]any{"data": map[string]any{"exe.gnp\u202e\u007f\u0085": "x"}}}
	_, err := flow.Bind("run", doc.Steps[2], testManifest(), answers)
	if err == nil {
		t.Fatal("Bind of a path the answer lacks: no error")
	}
	msg := err.Error()
	if strings.ContainsFunc(msg, func(r rune) bool {
		return r < ' ' || r == 0x7f || r >= 0x80 && r < 0xa0 || unicode.Is(unicode.Bidi_Control, r)
	}) {
		t.Errorf("the error holds the answer's hidden characters raw: %q", msg)
	}
	if want := `"exe.gnp\u202e\u007f\u0085":"string"`; !strings.Contains(msg, want) {
		t.Errorf("the error %q does not show the key escaped, %s", msg, want)
	}
}
