package flow

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/text"
)

// maxQuoted bounds a flow's own text (its name, a body key, a reference's path or key, an
// operation or a caller it names) quoted in a message: a flow file may hold 32 MiB, and a
// replay's failure is copied into every report; a 40 KB path made a 40 KB line.
const maxQuoted = 200

// maxOutline bounds the recorded outline a failure shows: the mock's outlines stop at a depth
// of six and run to a few KB, but a hand-edited flow may hold any.
const maxOutline = 4 << 10

// quote is s cut to maxQuoted bytes, in double quotes as %q writes it, for a message.
func quote(s string) string { return strconv.Quote(text.Clip(s, maxQuoted)) }

// clipped is v as %v writes it, cut to maxQuoted bytes, for a message.
func clipped(v any) string { return text.Clip(fmt.Sprint(v), maxQuoted) }

// Title is the By text of the step when a flow is replayed.
func (st Step) Title() string {
	return fmt.Sprintf("step %d: %s as %s (recorded: %d)", st.Step, st.Operation, st.As, st.Answer.Status)
}

// StepContext says which flow and step an answer belongs to and what the recording answered,
// for the failure report beside the target's answer.
func (d Document) StepContext(st Step) string {
	outline, _ := json.MarshalIndent(st.Answer.Outline, "    ", "  ")
	return fmt.Sprintf("flow %s, step %d (%s as %s)\n  recorded answer: %d, outline:\n    %s\n", quote(d.Name), st.Step, st.Operation, st.As, st.Answer.Status, text.Clip(string(outline), maxOutline))
}

// ClassMismatch is the failure of a step the target answered with status (described by
// answer) when its status class differs from the recording's (D172), or "" when the classes
// match. refused says the answer is a 2xx whose body says `error: true` on an operation whose
// codes are not shown: a refusal, of the class of a 4xx (D209).
func (d Document) ClassMismatch(st Step, status int, refused bool, answer string) string {
	class, said := Class(status), Class(status)
	if refused {
		class, said = Class(http.StatusBadRequest), Class(status)+" with `error: true`, a refusal"
	}
	if class == Class(st.Answer.Status) {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "flow %s, step %d: the target answered %d (%s) where the recording answered %d (%s)\n", quote(d.Name), st.Step, status, said, st.Answer.Status, Class(st.Answer.Status))
	b.WriteString("rule: a replayed step answers the status class its recording did\n\n")
	b.WriteString(d.StepContext(st))
	b.WriteString("\n  the target's answer:\n")
	b.WriteString(answer)
	return b.String()
}

// CheckFailure is the failure of a step whose answer the suite's answer checks refuse: the
// flow, the step and the recorded answer before the checks' own message (the rule and the
// target's answer).
func (d Document) CheckFailure(st Step, failure string) string {
	return fmt.Sprintf("flow %s, step %d: the target's answer breaks a rule every answer keeps\n\n%s\n%s", quote(d.Name), st.Step, d.StepContext(st), failure)
}
