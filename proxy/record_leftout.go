package proxy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/text"
)

// This file keeps account of the records a recording leaves out (D197): the log names each one
// refused as seen by its id as the upstream wrote it ("tags 1152921504606846977"), the first
// maxNamed of one reason, and counts the rest; the stop's line counts them all by kind. One
// note per kind with no id and no count said neither which nor how many.

// maxNamed is how many records left out for one reason the log names; the rest it counts, so a
// deployment answering thousands of bad ids gives one short line per reason.
const maxNamed = 5

// leftOutReason is the records left out of a recording for one reason as they were seen.
type leftOutReason struct {
	named []string // "tags 1152921504606846977", at most maxNamed
	more  int      // the others, counted only
}

// LeftOutRecords counts the records a recording left out: refused as seen (an id past
// 2^53-1 or not a whole number from 1), past the records it keeps, refused by the mock's
// loader, given no free id, cut for the file's size, or gone: deleted, inactive where the
// scenario cannot say so, or naming such a record (record_gone.go) (D174, D197).
type LeftOutRecords struct {
	// ByKind counts them by the scenario's lists ("boards", "groups", "tags", "cards",
	// "comments", "carts") and "cart items".
	ByKind map[string]int
	// Counted is how many of them the log counts without naming them.
	Counted int
}

// Total is the number of records left out, every kind.
func (l LeftOutRecords) Total() int {
	n := 0
	for _, k := range l.ByKind {
		n += k
	}
	return n
}

// LeftOut counts the records the recording left out so far: those refused as it saw them and,
// once WriteScenario ran, those the file could not hold.
func (r *ScenarioRecorder) LeftOut() LeftOutRecords {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := LeftOutRecords{ByKind: map[string]int{}, Counted: r.over + r.fileCounted}
	for kind, n := range r.leftKinds {
		out.ByKind[kind] += n
	}
	for kind, n := range r.fileLeft {
		out.ByKind[kind] += n
	}
	for _, l := range r.left {
		out.Counted += l.more
	}
	return out
}

// pastExactReason and badIDReason are the reasons a record is refused as seen, for its kind.
func pastExactReason(kind string) string {
	return fmt.Sprintf("records of %s with an id past 9007199254740991 (2^53-1, the largest a JavaScript client reads exactly) left out of the recording", kind)
}

func badIDReason(kind string) string {
	return fmt.Sprintf("records of %s whose id is not a whole number from 1 left out of the recording", kind)
}

// leaveOut notes a record of kind left out for reason, named by name ("tags 7"); r.mu is held.
// once: a record of that name already left out is not counted again (an answer listed twice);
// the names remembered are bounded as the records kept are, and past them a record shown
// again is counted again.
func (r *ScenarioRecorder) leaveOut(kind, reason, name string, once bool) {
	key := name
	if len(name) > maxIDName {
		// A deployment's id may be megabytes of digits (1.000…e20): remembered by its hash,
		// named cut short, so neither the names kept nor the log grow with it (D95, D197).
		sum := sha256.Sum256([]byte(name))
		key, name = hex.EncodeToString(sum[:]), text.Clip(name, maxIDName)
	}
	if once {
		if r.leftIDs[key] {
			return
		}
		if len(r.leftIDs) < maxRecorded {
			r.leftIDs[key] = true
		}
	}
	r.leftKinds[kind]++
	addNamed(r.left, reason, name)
}

// addNamed names a record left out for reason in m, or counts it past the first maxNamed, so
// every way of leaving records out words its log alike and as short.
func addNamed(m map[string]*leftOutReason, reason, name string) {
	l := m[reason]
	if l == nil {
		l = &leftOutReason{}
		m[reason] = l
	}
	if len(l.named) < maxNamed {
		l.named = append(l.named, name)
	} else {
		l.more++
	}
}

// maxIDName is the longest name of a record left out kept whole ("tags 1152921504606846977").
const maxIDName = 80

// leftOutNotes words the records left out as seen, one note per reason; r.mu is held.
func (r *ScenarioRecorder) leftOutNotes() []string { return reasonNotes(r.left) }

// reasonNotes words the records of m, one note per reason: those named, then how many more.
func reasonNotes(m map[string]*leftOutReason) []string {
	var notes []string
	for _, reason := range slices.Sorted(maps.Keys(m)) {
		l := m[reason]
		n := reason + ": " + strings.Join(l.named, ", ")
		if l.more > 0 {
			n += fmt.Sprintf(", and %d more", l.more)
		}
		notes = append(notes, n)
	}
	return notes
}

// pastExact tells whether a JSON number's value is past what a float64 holds exactly, either way.
func pastExact(f float64) bool { return math.Abs(f) > maxExactInt }

// nameInexactIDs leaves out, named by their ids as body writes them, the records of an answer
// whose ids observe found past 2^53-1 either way: decoded as float64 such an id is already
// another one (2^60+1 reads as 2^60), and the log must not name another record. It reads only
// the records' "id" members, as observe found them (data's record keys, an object or a list of
// objects), and runs only for answers holding such an id.
func (r *ScenarioRecorder) nameInexactIDs(body []byte) {
	var answer struct {
		Data map[string]json.RawMessage `json:"data"`
	}
	if json.Unmarshal(body, &answer) != nil {
		return // observe read it: this does not happen
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, key := range slices.Sorted(maps.Keys(answer.Data)) {
		kind, ok := recordKinds[key]
		if !ok {
			continue
		}
		raw := answer.Data[key]
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			list = []json.RawMessage{raw}
		}
		for _, e := range list {
			var rec map[string]json.RawMessage
			if json.Unmarshal(e, &rec) != nil || rec == nil {
				continue
			}
			text := strings.TrimSpace(string(rec["id"]))
			f, err := strconv.ParseFloat(text, 64)
			if err != nil || !pastExact(f) {
				continue
			}
			reason := pastExactReason(kind)
			if f < 0 {
				reason = badIDReason(kind)
			}
			r.leaveOut(kind, reason, kind+" "+text, true)
		}
	}
}
