package text_test

import (
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/opsapi/mocktoolkit/internal/text"
)

func ExampleClip() {
	fmt.Println(text.Clip("short", 40))
	fmt.Println(text.Clip("a world name far too long to quote", 12))
	fmt.Println(text.Clip("ééé", 3)) // never half a character
	// Output:
	// short
	// a world name…
	// é…
}

// Whatever the cut, a clipped value is valid UTF-8 and no longer than n bytes plus the mark.
func TestClipStaysValidText(t *testing.T) {
	for _, s := range []string{"", "x", "日本語のテキスト", "a\u0301b\u0301c", "🙂🙂🙂"} {
		for n := 0; n <= len(s)+1; n++ {
			got := text.Clip(s, n)
			if !utf8.ValidString(got) || (len(s) > n && len(got) > n+len("…")) {
				t.Errorf("Clip(%q, %d) = %q", s, n, got)
			}
		}
	}
}
