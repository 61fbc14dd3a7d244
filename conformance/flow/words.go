package flow

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Title is the By text of the step when a flow is replayed.
func (st Step) Title() string {
	return fmt.Sprintf("step %d: %s as %s (recorded: %d)", st.Step, st.Operation, st.As, st.Answer.Status)
}

// StepContext says which flow and step an answer belongs to and what the recording answered,
// for the failure report beside the target's answer.
func (d Document) StepContext(st Step) string {
	outline, _ := json.MarshalIndent(st.Answer.Outline, "    ", "  ")
	return fmt.Sprintf("flow %q, step %d (%s as %s)\n  recorded answer: %d, outline:\n    %s\n", d.Name, st.Step, st.Operation, st.As, st.Answer.Status, outline)
}

// ClassMismatch is the failure of a step the target answered with status (described by
// answer) when its status class differs from the recording's (D172), or "" when the classes
// match.
func (d Document) ClassMismatch(st Step, status int, answer string) string {
	if Class(status) == Class(st.Answer.Status) {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "flow %q, step %d: the target answered %d (%s) where the recording answered %d (%s)\n", d.Name, st.Step, status, Class(status), st.Answer.Status, Class(st.Answer.Status))
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
	return fmt.Sprintf("flow %q, step %d: the target's answer breaks a rule every answer keeps\n\n%s\n%s", d.Name, st.Step, d.StepContext(st), failure)
}
