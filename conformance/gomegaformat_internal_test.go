package conformance

import (
	"strings"
	"testing"

	"github.com/onsi/gomega"
)

// A failure of Gomega's own matchers on a deployment's text shows it escaped: no escape
// sequence or bidirectional control reaches the log.
func TestGomegaFailuresEscapeTheDeploymentsText(t *testing.T) {
	hostile := "ok\x1b[2J\x1b]0;pwned\x07 \u202egnp.exe"
	var failure string
	g := gomega.NewGomega(func(message string, _ ...int) { failure = message })
	g.Expect(hostile).To(gomega.ContainSubstring("absent"))
	if failure == "" {
		t.Fatal("ContainSubstring did not fail")
	}
	if strings.ContainsAny(failure, "\x1b\x07\u202e") {
		t.Errorf("the failure holds the text raw: %q", failure)
	}
	if !strings.Contains(failure, `ok\x1b[2J`) || !strings.Contains(failure, `\u202egnp.exe`) {
		t.Errorf("the failure does not show the text escaped: %q", failure)
	}
	failure = ""
	g.Expect("plain text").To(gomega.ContainSubstring("other"))
	if !strings.Contains(failure, "plain text") {
		t.Errorf("plain text is not shown as it is: %q", failure)
	}
}
