package proxy

import (
	"io"

	"github.com/opsapi/mocktoolkit/internal/answerbound"
)

// maxHeldAnswers bounds the answer bytes the proxy holds for checking at once, over every
// exchange: past it an answer streams through unjudged (counted in bodies_unjudged), so a burst
// of large answers to slow clients cannot take the proxy to gigabytes (D95).
const maxHeldAnswers = 64 << 20

// largeAnswer is the size past which an answer is judged one at a time (Proxy.largeChecks): the
// size past which the proxy's own pages count against the bytes being written, one "large"
// for the whole proxy.
const largeAnswer = answerbound.Large

// reserveAnswer takes n bytes of the budget of answers held for checking, or reports false,
// taking nothing, when they would pass maxHeldAnswers: reserved before the bytes are read, so
// that many answers arriving at once cannot each see room and all be read.
func (p *Proxy) reserveAnswer(n int64) bool {
	for {
		held := p.heldAnswers.Load()
		if held+n > maxHeldAnswers {
			return false
		}
		if p.heldAnswers.CompareAndSwap(held, held+n) {
			return true
		}
	}
}

// firstGrowth is the buffer a body of unknown length is first read into; it doubles from there.
const firstGrowth = 16 << 10

// readGrowing reads r to its end, or to most bytes, into a buffer that grows as the bytes come,
// each growth granted before it is made: stopped says grant refused one, and buf holds what
// came before. A body of unknown length (a chunked answer) so holds about what it is: reserving
// the most an answer may be before reading let eight small chunked answers in flight fill the
// whole budget and pass the next unjudged.
func readGrowing(r io.Reader, most int64, grant func(n int64) bool) (buf []byte, stopped bool, err error) {
	for int64(len(buf)) < most {
		if len(buf) == cap(buf) {
			size := min(max(2*int64(cap(buf)), firstGrowth), most)
			if !grant(size - int64(cap(buf))) {
				return buf, true, nil
			}
			buf = append(make([]byte, 0, size), buf...)
		}
		n, rerr := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if rerr == io.EOF {
			return buf, false, nil
		}
		if rerr != nil {
			return buf, false, rerr
		}
	}
	return buf, false, nil
}

// anyGrowth grants every growth: for bodies whose bytes are bounded elsewhere (a request's,
// held under maxBodiesHeld before its reading starts).
func anyGrowth(int64) bool { return true }
