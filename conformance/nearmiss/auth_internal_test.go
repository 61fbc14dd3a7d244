package nearmiss

import (
	"os/exec"
	"slices"
	"testing"
)

// A reproduction script sends each auth form as its Shell word: in sh, with the token in a
// variable, the word is the header Header builds, for tokens of odd and even length, digits
// in the middle or not.
func TestAuthFormShellWordsAreTheirHeaders(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this machine")
	}
	tokens := []string{"abc123def456ghi789", "eyJhbGciOi.J9x-_y", "a1b2c", "Zz"}
	for _, form := range slices.Concat(WrongAuthForms, AlteredTokens, StrayAuthForms) {
		for _, tok := range tokens {
			cmd := exec.Command(sh, "-c", `printf '%s' "`+form.ShellOf("TOKEN")+`"`)
			cmd.Env = []string{"TOKEN=" + tok, "PATH=/usr/bin:/bin"}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s, token %q: %v", form.What, tok, err)
			}
			if want := form.Header(tok); string(out) != want {
				t.Errorf("%s, token %q: the shell word gives %q, the header is %q", form.What, tok, out, want)
			}
		}
	}
}
