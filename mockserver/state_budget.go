package mockserver

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/reference"
)

// The records of every world together are held under Config.MaxStateMB (--max-state-mb, D206),
// the way the journals are (D143): each store keeps a running estimate of its size
// (reference.Store.Size), and the mock adds them up. When a write, a new world, a reset or a
// snapshot would pass the bound, the least recently used idle named worlds go first, as when
// --max-worlds is reached; when none can go, the request is refused and nothing changes.

// DefaultMaxStateMB bounds the records of all worlds when Config.MaxStateMB is zero: room for
// the seeded world hundreds of times over, or a few worlds of 100k cards, within what a
// laptop lends a mock left running.
const DefaultMaxStateMB = 256

// remeasureEvery is how much a store may grow by estimate before it is measured again: the
// estimate drifts (an update counts the record whole), and a walk costs about 1 ms per
// thousand records, so a store is walked again after a quarter of its size or 1 MiB.
const remeasureEvery = 1 << 20

// errNoRoom is a change refused because the worlds' records would pass --max-state-mb.
type errNoRoom struct {
	msg string
}

func (e *errNoRoom) Error() string { return e.msg }

// stateLimit is the bound in bytes.
func (s *Server) stateLimit() int64 { return int64(s.cfg.MaxStateMB) << 20 }

// stateTotal is what every world's records hold together; r.mu is held.
func (r *registry) stateTotal() int64 {
	n := r.def.state().store.Size()
	for _, w := range r.named {
		n += w.state().store.Size()
	}
	return n
}

// makeRoom tells whether need more bytes fit under the bound, once stores that grew are
// measured again and the least recently used idle named worlds other than keep have gone
// (none when evict is false: a page of another site never pushes a world out, D141). old is
// what the change gives back (the store a reset or a snapshot replaces). No world is dropped
// for a change that would not fit even with every idle one gone.
func (s *Server) makeRoom(keep *world, need, old int64, evict bool) bool {
	// A reset or a snapshot no larger than what it replaces fits: the same records built anew
	// measure a little apart (1/64 at most), so a world saved and loaded back is never refused.
	// Anything larger fits only under the limit itself.
	if old > 0 && need <= old+old/64 {
		return true
	}
	limit, r := s.stateLimit(), s.worlds
	r.mu.Lock()
	fits := r.stateTotal()-old+need <= limit
	r.mu.Unlock()
	if fits {
		return true
	}
	for _, w := range r.all() { // a measure takes the store's lock: never under r.mu
		if st := w.state().store; st.Growth() != 0 {
			st.Measure()
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !evict || r.stateTotal()-r.idleState(keep)-old+need > limit {
		return r.stateTotal()-old+need <= limit
	}
	for r.stateTotal()-old+need > limit {
		if !r.evictOldest(keep, fmt.Sprintf("the records of every world passed --max-state-mb %d", s.cfg.MaxStateMB)) {
			return false
		}
	}
	return true
}

// idleState is what the named worlds evictOldest may drop (idle, other than keep) hold; r.mu
// is held.
func (r *registry) idleState(keep *world) int64 {
	var n int64
	for _, w := range r.named {
		if w != keep && w.inflight.Load() == 0 {
			n += w.state().store.Size()
		}
	}
	return n
}

// roomToGrow refuses an operation that adds to the records of wl when every world's records
// together, with what its body may add (about its length), would pass the bound (D206); a login
// (login) may pass it by 1/64, as
// --max-records refuses a create (D70): 400 shape (a). Counting the body keeps what the writes
// build within what a snapshot of it, or the state file saved at stop, may load back.
func (s *Server) roomToGrow(wl *world, body int64, login, evict bool) error {
	if !evict && !login && s.totalState()+body > s.stateLimit()/2 {
		// A page of another site fills at most half the bound: the rest stays the mock's own
		// clients', whose writes would otherwise push their idle worlds out, or be refused, for
		// room the page took in a world that cannot go (the default one).
		return reference.Errorf(reference.ECAPACITY, "The mock's worlds hold %s of records together, and a page of another site may fill at most half of their limit (--max-state-mb %d), so this change is refused and nothing was changed: list the page's origin in --cors-origins to let it write more.", mib(s.totalState()), s.cfg.MaxStateMB)
	}
	if s.makeRoom(wl, body, 0, evict) {
		return nil
	}
	if login && s.totalState() <= s.stateLimit()+s.stateLimit()/64 {
		return nil // a token is a few hundred bytes: users are not locked out of a full mock
	}
	return reference.Errorf(reference.ECAPACITY, "The mock's worlds hold %s of records together, their limit (--max-state-mb %d), so this change is refused and nothing was changed (%s): reset or delete a world (DELETE /__mock/worlds?name=; GET /__mock/worlds lists each world's size), or start the mock with a higher --max-state-mb.", mib(s.totalState()), s.cfg.MaxStateMB, s.largestWorlds(nil))
}

// largestWorlds names the worlds holding the most, but except, for a refusal: which to reset
// or delete.
func (s *Server) largestWorlds(except *world) string {
	all := slices.DeleteFunc(s.worlds.all(), func(w *world) bool { return w == except })
	sort.Slice(all, func(i, j int) bool { return all[i].state().store.Size() > all[j].state().store.Size() })
	var names []string
	for _, w := range all[:min(3, len(all))] {
		names = append(names, fmt.Sprintf("%s %s", strconv.Quote(w.name), mib(w.state().store.Size())))
	}
	if len(names) == 0 {
		return "there is no other world"
	}
	return "the largest: " + strings.Join(names, ", ")
}

// settle measures wl's store again once its estimate has drifted far enough (remeasureEvery).
func (s *Server) settle(wl *world) {
	st := wl.state().store
	if g := st.Growth(); g > remeasureEvery && g > st.Size()/4 {
		st.Measure()
	}
}

// roomFor refuses a store of size bytes in place of old ones (a new world, a reset, a
// snapshot) that would pass the bound even with every idle world dropped (none when evict is
// false). what names the change.
func (s *Server) roomFor(keep *world, size, old int64, what string, evict bool) error {
	if s.makeRoom(keep, size, old, evict) {
		return nil
	}
	why := "more than dropping every idle world would free"
	if !evict {
		why = "and a request from a page of another site does not push out a world"
	}
	if size > s.stateLimit() { // no other world's room would make it fit
		return &errNoRoom{msg: fmt.Sprintf("%s needs about %s of records, more than the mock's limit for every world together (--max-state-mb %d): start the mock with a higher --max-state-mb", what, mib(size), s.cfg.MaxStateMB)}
	}
	return &errNoRoom{msg: fmt.Sprintf("%s needs about %s of records; with what the other worlds hold (%s; %s) that passes the mock's limit (--max-state-mb %d), %s: delete or reset another world, or start the mock with a higher --max-state-mb", what, mib(size), mib(s.totalState()-old), s.largestWorlds(keep), s.cfg.MaxStateMB, why)}
}

// roomIfDropped is roomFor without dropping any world: it refuses only a store that would not
// fit even with every idle world dropped (none when evict is false).
func (s *Server) roomIfDropped(keep *world, size, old int64, what string, evict bool) error {
	limit, r := s.stateLimit(), s.worlds
	r.mu.Lock()
	total, idle := r.stateTotal(), r.idleState(keep)
	r.mu.Unlock()
	if !evict {
		idle = 0
	}
	if total-idle-old+size <= limit {
		return nil
	}
	return s.roomFor(keep, size, old, what, false) // worded as roomFor words it; drops nothing
}

// RecordsBytes is what every world's records take in memory together, as --max-state-mb counts
// it (D206): the binary sets its soft memory limit above it.
func (s *Server) RecordsBytes() int64 { return s.totalState() }

func (s *Server) totalState() int64 {
	s.worlds.mu.Lock()
	defer s.worlds.mu.Unlock()
	return s.worlds.stateTotal()
}

// mib words a size for a message: "12.3 MiB".
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// largeRead is the size of a world's records past which reading them whole (GET /__mock/state,
// a list without pagination) takes one of bigReads: such an answer is built in memory at about
// four times the records' size, and several at once took a mock at the default bound to GBs.
var largeRead int64 = 16 << 20 // a var only so that tests may lower it (export_test.go)

// maxAnswersInFlight bounds the bytes of large answers already built and still being written
// to their clients. A large read gives up its turn once its answer is built, so a client that
// does not read holds its answer's bytes, not every other reader's turn; an answer that would
// pass the bound is refused with 503 (boundAnswers), as the memory bound needs.
var maxAnswersInFlight int64 = 256 << 20 // a var only so that tests may lower it (export_test.go)

// readWhole waits for the turn of whole reads of a large world (answerbound.Turn).
func (s *Server) readWhole(w http.ResponseWriter, r *http.Request, wl *world) (http.ResponseWriter, func(), bool) {
	if wl.state().store.Size() < largeRead {
		return w, func() {}, true
	}
	return s.bigReads.Take(r.Context(), w)
}

// boundAnswers counts every answer over answerbound.Large bytes against maxAnswersInFlight
// while it is written, and refuses one that would pass it with 503 shape (a) and Retry-After:
// a dozen clients not reading an 80 MB cards/list, or a 19 MB journal, each held their
// answer's bytes, taking the mock to gigabytes (only whole reads of the largest worlds were
// bounded).
func (s *Server) boundAnswers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bw := s.answers.Wrap(w, refuseLargeAnswer)
		defer bw.Done()
		next.ServeHTTP(bw, r)
	})
}

// refuseLargeAnswer answers in place of an answer past maxAnswersInFlight.
func refuseLargeAnswer(w http.ResponseWriter) {
	w.Header().Del("Content-Disposition")
	w.Header().Set("Retry-After", "5")
	writeShapeA(w, http.StatusServiceUnavailable, fmt.Sprintf("The mock is still writing %d MiB of large answers to clients that have not read them; try again in a moment.", maxAnswersInFlight>>20))
}

// noRoomStatus is how a control answers errNoRoom: 503, as for --max-worlds (D206).
const noRoomStatus = http.StatusServiceUnavailable
