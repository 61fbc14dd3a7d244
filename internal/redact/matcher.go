package redact

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// MinQuotedPrefix is the shortest start of a kept value that is replaced on its own, in bytes: a
// text quoting the first 20 characters of a 64-character token ("token abc123… expired") gives
// away most of it. 16 characters of a random token are never ordinary text; 16 characters of a
// password are still its most part.
const MinQuotedPrefix = 16

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
	// starts holds, by their first MinQuotedPrefix bytes, the patterns at least that long, so
	// that a quoted start of one is found too (D200).
	starts map[string][]string
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
	return &matcher{index: map[uint32]*bucket{}, refs: map[string]int{}, starts: map[string][]string{}}
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
		if len(p) >= MinQuotedPrefix {
			m.starts[p[:MinQuotedPrefix]] = append(m.starts[p[:MinQuotedPrefix]], p)
		}
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
		if len(p) >= MinQuotedPrefix {
			k := p[:MinQuotedPrefix]
			if m.starts[k] = slices.DeleteFunc(m.starts[k], func(e string) bool { return e == p }); len(m.starts[k]) == 0 {
				delete(m.starts, k)
			}
		}
	}
}

// replace returns s with every pattern found, and every start of one at least MinQuotedPrefix
// bytes long, replaced by Placeholder, scanning left to right, the longest at a position first;
// s itself when none is found.
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
			// A start of a pattern shares the pattern's first 4 bytes, so only a position with
			// a bucket can begin one.
			n = max(n, m.quotedStart(s[i:]))
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

// quotedStart is the length of the longest start of a pattern that s begins with, when it is at
// least MinQuotedPrefix bytes, cut back to a whole character of s; 0 otherwise.
func (m *matcher) quotedStart(s string) int {
	if len(s) < MinQuotedPrefix {
		return 0
	}
	n := 0
	for _, p := range m.starts[s[:MinQuotedPrefix]] {
		l := MinQuotedPrefix
		for l < len(p) && l < len(s) && p[l] == s[l] {
			l++
		}
		for l < len(s) && !utf8.RuneStart(s[l]) {
			l--
		}
		if l >= MinQuotedPrefix {
			n = max(n, l)
		}
	}
	return n
}
