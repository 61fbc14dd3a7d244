package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// naiveReplace is the matcher's meaning, written plainly. Left to right, at each position the
// longest kept pattern there, or the longest start of one at least QuotedPart bytes long that
// ends on a whole character, is a part, and the reading goes on after it; right to left, the
// longest end of a pattern at least QuotedPart bytes long that begins on a whole character, the
// same way. Parts that overlap are replaced as one Placeholder.
func naiveReplace(kept []string, s string) string {
	var pats []string
	for _, v := range kept {
		pats = append(pats, patterns(v)...)
	}
	whole := func(i int) bool { return i == len(s) || utf8.RuneStart(s[i]) }
	var found []span
	for i := 0; i < len(s); {
		n := 0
		for _, p := range pats {
			for l := len(p); l >= 1; l-- {
				if strings.HasPrefix(s[i:], p[:l]) && (l == len(p) || l >= QuotedPart && whole(i+l)) {
					n = max(n, l)
					break
				}
			}
		}
		if n == 0 {
			i++
			continue
		}
		found = append(found, span{i, i + n})
		i += n
	}
	for e := len(s); e > 0; {
		n := 0
		for _, p := range pats {
			for l := len(p); l >= QuotedPart; l-- {
				if strings.HasSuffix(s[:e], p[len(p)-l:]) && whole(e-l) {
					n = max(n, l)
					break
				}
			}
		}
		if n == 0 {
			e--
			continue
		}
		found = append(found, span{e - n, e})
		e -= n
	}
	if len(found) == 0 {
		return s
	}
	return replaceSpans(s, found, false)
}

// Values of a small alphabet overlap, nest and share their starts and ends; texts quote kept
// values' starts and ends; after every note and every forgetting the matcher replaces exactly
// what the plain reading does.
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
			k.Note(word(8, 24))
			var kept []string
			for e := k.order.Front(); e != nil; e = e.Next() {
				kept = append(kept, e.Value.(string))
			}
			if len(kept) == 0 { // letters and spaces alone are not Distinctive
				continue
			}
			v, cut := kept[rng.IntN(len(kept))], 0
			cut = rng.IntN(len(v) + 1)
			quote := v[:cut] // its start, or its end
			if rng.IntN(2) == 0 {
				quote = v[cut:]
			}
			text := word(0, 20) + quote + word(0, 20)
			if got, want := k.Replace(text), naiveReplace(kept, text); got != want {
				t.Fatalf("round %d, kept %q: Replace(%q) = %q, want %q", round, kept, text, got, want)
			}
		}
	}
}
