package redact

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// QuotedPart is the shortest part of a kept value that is replaced on its own, in bytes, when a
// text quotes the value's start or its end ("token abc123… expired", "the one ending in
// …9f3e07b1c2d4a5e6"), cut at a whole character (D200): 16 characters of a random token are
// never ordinary text. A part from inside a value, a shorter one, or a value quoted with spaces
// put into it, is not found.
const QuotedPart = 16

// matcher finds the values a Known keeps, and their encodings, in a text: each pattern is
// indexed by its first 4 bytes (every kept value has at least MinKnownLength characters), and a
// bitmap of first 2 bytes skips most positions of a text at the cost of one bit test. Adding or
// removing a value costs the value's own patterns, not the whole set: a strings.Replacer was
// rebuilt over every value each time the set changed, which a client sending a new bearer token
// with every request made cost milliseconds per exchange. Quoted starts and ends (QuotedPart)
// are found by starts, over the text, and by ends, over the text read backwards.
type matcher struct {
	first        [1 << 16 / 64]uint64 // bit set: some pattern starts with these 2 bytes (never cleared)
	index        map[uint32]*bucket   // first 4 bytes → the patterns starting with them
	refs         map[string]int       // pattern → how many kept values give it
	starts, ends partIndex            // the patterns, and the patterns written backwards
	mask         bool                 // a found run is written as asterisks of its length, not Placeholder
}

// bucket holds the patterns of one 4-byte start, looked up whole by each of their lengths,
// longest first: many tokens share their first bytes (every JWT of an issuer starts alike), so
// trying each pattern in turn would cost as many comparisons as values at every such start.
type bucket struct {
	patterns map[string]bool
	lengths  []int       // the patterns' distinct lengths, longest first
	count    map[int]int // length → how many patterns have it
}

// partIndex holds patterns at least QuotedPart bytes long, sorted, by their first QuotedPart
// bytes: the longest start of any of them that a text begins with is next to where the text
// would sort, so a position costs two comparisons however many tokens share their first bytes.
type partIndex struct {
	first [1 << 16 / 64]uint64
	by    map[string][]string
}

func (x *partIndex) add(p string) {
	if x.by == nil {
		x.by = map[string][]string{}
	}
	k := p[:QuotedPart]
	at, _ := slices.BinarySearch(x.by[k], p)
	x.by[k] = slices.Insert(x.by[k], at, p)
	setBit(&x.first, key2(p))
}

func (x *partIndex) remove(p string) {
	k := p[:QuotedPart]
	if at, ok := slices.BinarySearch(x.by[k], p); ok {
		x.by[k] = slices.Delete(x.by[k], at, at+1)
	}
	if len(x.by[k]) == 0 {
		delete(x.by, k)
	}
}

// longest is the length of the longest start of an indexed pattern that t begins with, when
// it is at least QuotedPart bytes; 0 otherwise.
func (x *partIndex) longest(t string) int {
	if len(t) < QuotedPart || !hasBit(&x.first, key2(t)) {
		return 0
	}
	list := x.by[t[:QuotedPart]]
	if len(list) == 0 {
		return 0
	}
	at := sort.SearchStrings(list, t)
	n := 0
	for _, j := range []int{at - 1, at} {
		if j >= 0 && j < len(list) {
			n = max(n, commonPrefix(list[j], t))
		}
	}
	if n < QuotedPart {
		return 0
	}
	return n
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
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

func hasBit(bits *[1 << 16 / 64]uint64, k uint16) bool { return bits[k/64]&(1<<(k%64)) != 0 }
func setBit(bits *[1 << 16 / 64]uint64, k uint16)      { bits[k/64] |= 1 << (k % 64) }

// backwards is s with its bytes in the other order.
func backwards(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

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
		setBit(&m.first, key2(p))
		if len(p) >= QuotedPart {
			m.starts.add(p)
			m.ends.add(backwards(p))
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
		if len(p) >= QuotedPart {
			m.starts.remove(p)
			m.ends.remove(backwards(p))
		}
	}
}

// span is a part [from, to) of a text to replace.
type span struct{ from, to int }

// replace returns s with every pattern found, and every quoted start or end of one at least
// QuotedPart bytes long, replaced by Placeholder; s itself when none is found. Patterns and
// starts are found left to right, the longest at a position first; ends right to left, the
// same way over the text read backwards; parts that overlap go as one.
func (m *matcher) replace(s string) string {
	var found []span
	for i := 0; i+4 <= len(s); {
		n := 0
		if hasBit(&m.first, key2(s[i:])) {
			// A start of a pattern shares the pattern's first 4 bytes: only a position with a
			// bucket can begin one.
			if b := m.index[key4(s[i:])]; b != nil {
				n = max(b.longest(s[i:]), wholeChars(s[i:], m.starts.longest(s[i:])))
			}
		}
		if n == 0 {
			i++
			continue
		}
		found = append(found, span{i, i + n})
		i += n
	}
	if len(m.ends.by) > 0 {
		var back string // s read backwards, made at the first position that may end a part
		for j := 0; j+QuotedPart <= len(s); {
			if !hasBit(&m.ends.first, uint16(s[len(s)-1-j])<<8|uint16(s[len(s)-2-j])) {
				j++
				continue
			}
			if back == "" {
				back = backwards(s)
			}
			n := m.ends.longest(back[j:])
			for n > 0 && !utf8.RuneStart(s[len(s)-j-n]) { // the part begins on a whole character
				n--
			}
			if n < QuotedPart {
				j++
				continue
			}
			found = append(found, span{len(s) - j - n, len(s) - j})
			j += n
		}
	}
	if len(found) == 0 {
		return s
	}
	return replaceSpans(s, found, m.mask)
}

// wholeChars is n, a part's length at the start of s, cut back to end on a whole character of
// s; 0 when that leaves less than QuotedPart bytes.
func wholeChars(s string, n int) int {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	if n < QuotedPart {
		return 0
	}
	return n
}

// longest is the length of the longest of the bucket's patterns s begins with; 0 when none.
func (b *bucket) longest(s string) int {
	for _, l := range b.lengths {
		if l <= len(s) && b.patterns[s[:l]] {
			return l
		}
	}
	return 0
}

// replaceSpans writes s with each run of overlapping spans replaced by one Placeholder, or by
// as many asterisks as it has characters when mask is set.
func replaceSpans(s string, found []span, mask bool) string {
	slices.SortFunc(found, func(a, b span) int { return a.from - b.from })
	var b strings.Builder
	last := 0
	for j := 0; j < len(found); {
		cur := found[j]
		for j++; j < len(found) && found[j].from < cur.to; j++ {
			cur.to = max(cur.to, found[j].to)
		}
		b.WriteString(s[last:cur.from])
		if mask {
			b.WriteString(strings.Repeat("*", utf8.RuneCountInString(s[cur.from:cur.to])))
		} else {
			b.WriteString(Placeholder)
		}
		last = cur.to
	}
	b.WriteString(s[last:])
	return b.String()
}
