package redact

import (
	"slices"
	"strings"
)

// matcher finds the values a Known keeps, and their encodings, in a text: each pattern is
// indexed by its first 4 bytes (every kept value has at least MinKnownLength characters), and a
// bitmap of first 2 bytes skips most positions of a text at the cost of one bit test. Adding or
// removing a value costs the value's own patterns, not the whole set: a strings.Replacer was
// rebuilt over every value each time the set changed, which a client sending a new bearer token
// with every request made cost milliseconds per exchange.
type matcher struct {
	first [1 << 16 / 64]uint64 // bit set: some pattern starts with these 2 bytes (never cleared)
	index map[uint32]*bucket   // first 4 bytes → the patterns starting with them
	refs  map[string]int       // pattern → how many kept values give it
}

// bucket holds the patterns of one 4-byte start, looked up whole by each of their lengths,
// longest first: many tokens share their first bytes (every JWT of an issuer starts alike), so
// trying each pattern in turn would cost as many comparisons as values at every such start.
type bucket struct {
	patterns map[string]bool
	lengths  []int       // the patterns' distinct lengths, longest first
	count    map[int]int // length → how many patterns have it
}

func newMatcher() *matcher {
	return &matcher{index: map[uint32]*bucket{}, refs: map[string]int{}}
}

// patterns are v, v in capitals and in small letters (a hex token quoted in capitals is the
// token to whoever lowers it), and the forms v takes in a form body, a URL and a JSON string.
func patterns(v string) []string {
	out := []string{v}
	for _, c := range []string{strings.ToUpper(v), strings.ToLower(v)} {
		if len(c) == len(v) && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	for _, enc := range encodings(v) {
		if !slices.Contains(out, enc) {
			out = append(out, enc)
		}
	}
	return out
}

func key4(s string) uint32 {
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

func key2(s string) uint16 { return uint16(s[0])<<8 | uint16(s[1]) }

// add indexes v's patterns.
func (m *matcher) add(v string) {
	for _, p := range patterns(v) {
		if m.refs[p]++; m.refs[p] > 1 {
			continue
		}
		b := m.index[key4(p)]
		if b == nil {
			b = &bucket{patterns: map[string]bool{}, count: map[int]int{}}
			m.index[key4(p)] = b
		}
		b.patterns[p] = true
		if b.count[len(p)]++; b.count[len(p)] == 1 {
			at, _ := slices.BinarySearchFunc(b.lengths, len(p), func(e, t int) int { return t - e })
			b.lengths = slices.Insert(b.lengths, at, len(p))
		}
		m.first[key2(p)/64] |= 1 << (key2(p) % 64)
	}
}

// remove forgets v's patterns (those no other kept value gives).
func (m *matcher) remove(v string) {
	for _, p := range patterns(v) {
		if m.refs[p]--; m.refs[p] > 0 {
			continue
		}
		delete(m.refs, p)
		b := m.index[key4(p)]
		delete(b.patterns, p)
		if b.count[len(p)]--; b.count[len(p)] == 0 {
			delete(b.count, len(p))
			b.lengths = slices.DeleteFunc(b.lengths, func(n int) bool { return n == len(p) })
		}
		if len(b.patterns) == 0 {
			delete(m.index, key4(p))
		}
	}
}

// replace returns s with every pattern found replaced by Placeholder, scanning left to right,
// the longest pattern at a position first; s itself when none is found.
func (m *matcher) replace(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i+4 <= len(s); {
		if k2 := key2(s[i:]); m.first[k2/64]&(1<<(k2%64)) == 0 {
			i++
			continue
		}
		n := 0
		if b := m.index[key4(s[i:])]; b != nil {
			for _, l := range b.lengths {
				if i+l <= len(s) && b.patterns[s[i:i+l]] {
					n = l
					break
				}
			}
		}
		if n == 0 {
			i++
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(Placeholder)
		i += n
		last = i
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}
