package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// naiveReplace is the matcher's meaning, written plainly: left to right, at each position the
// longest kept pattern that starts there is replaced.
func naiveReplace(kept []string, s string) string {
	var pats []string
	for _, v := range kept {
		pats = append(pats, patterns(v)...)
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		n := 0
		for _, p := range pats {
			if strings.HasPrefix(s[i:], p) && len(p) > n {
				n = len(p)
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

// Values of a small alphabet overlap, nest and share their starts; after every note and every
// forgetting the matcher replaces exactly what the plain reading does.
func TestMatcherAgreesWithThePlainReading(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(min, max int) string {
		b := make([]byte, min+rng.IntN(max-min+1))
		for i := range b {
			b[i] = "ab c+%"[rng.IntN(6)]
		}
		return string(b)
	}
	for round := range 300 {
		k := NewKnown(1 + rng.IntN(6))
		for range 1 + rng.IntN(12) {
			k.Note(word(4, 9))
			text := word(0, 60)
			var kept []string
			for e := k.order.Front(); e != nil; e = e.Next() {
				kept = append(kept, e.Value.(string))
			}
			if got, want := k.Replace(text), naiveReplace(kept, text); got != want {
				t.Fatalf("round %d, kept %q: Replace(%q) = %q, want %q", round, kept, text, got, want)
			}
		}
	}
}
