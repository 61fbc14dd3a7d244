package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// naiveReplace is the matcher's meaning, written plainly: left to right, at each position the
// longest kept pattern that starts there, or the longest start of one at least MinQuotedPrefix
// bytes long ending on a whole character, is replaced.
func naiveReplace(kept []string, s string) string {
	var pats []string
	for _, v := range kept {
		pats = append(pats, patterns(v)...)
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		n := 0
		for _, p := range pats {
			for l := len(p); l >= 1; l-- {
				if !strings.HasPrefix(s[i:], p[:l]) {
					continue
				}
				whole := i+l == len(s) || utf8.RuneStart(s[i+l])
				if l == len(p) || l >= MinQuotedPrefix && whole {
					n = max(n, l)
					break
				}
			}
		}
		if n == 0 {
			b.WriteByte(s[i])
			i++
			continue
		}
		b.WriteString(Placeholder)
		i += n
	}
	return b.String()
}

// Values of a small alphabet overlap, nest and share their starts; texts quote kept values'
// starts; after every note and every forgetting the matcher replaces exactly what the plain
// reading does.
func TestMatcherAgreesWithThePlainReading(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(min, max int) string {
		var b strings.Builder
		for range min + rng.IntN(max-min+1) {
			b.WriteString([]string{"a", "b", " ", "c", "+", "%", "é"}[rng.IntN(7)])
		}
		return b.String()
	}
	for round := range 300 {
		k := NewKnown(1 + rng.IntN(6))
		for range 1 + rng.IntN(12) {
			k.Note(word(4, 24))
			var kept []string
			for e := k.order.Front(); e != nil; e = e.Next() {
				kept = append(kept, e.Value.(string))
			}
			v := kept[rng.IntN(len(kept))]
			text := word(0, 20) + v[:rng.IntN(len(v)+1)] + word(0, 20)
			if got, want := k.Replace(text), naiveReplace(kept, text); got != want {
				t.Fatalf("round %d, kept %q: Replace(%q) = %q, want %q", round, kept, text, got, want)
			}
		}
	}
}
