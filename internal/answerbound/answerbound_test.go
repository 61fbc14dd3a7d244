package answerbound_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/opsapi/mocktoolkit/internal/answerbound"
)

func answer(w http.ResponseWriter, n int) {
	w.Header().Set("Content-Length", strconv.Itoa(n))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(make([]byte, n))
}

// Large answers count while they are written; one past the budget gets the refusal instead,
// small ones and shared ones never count, and a finished answer gives its bytes back.
func TestLargeAnswersPastTheBudgetAreRefused(t *testing.T) {
	b := answerbound.New(3 << 20)
	refuse := func(w http.ResponseWriter) { w.WriteHeader(http.StatusServiceUnavailable) }
	first, second, small, shared := httptest.NewRecorder(), httptest.NewRecorder(), httptest.NewRecorder(), httptest.NewRecorder()
	w1 := b.Wrap(first, refuse)
	answer(w1, 2<<20) // still being written: not Done
	answer(b.Wrap(second, refuse), 2<<20)
	answer(b.Wrap(small, refuse), 1<<20)
	ws := b.Wrap(shared, refuse)
	answerbound.Share(ws)
	answer(ws, 2<<20)
	if first.Code != 200 || second.Code != 503 || second.Body.Len() != 0 || small.Code != 200 || shared.Code != 200 {
		t.Errorf("statuses %d, %d (%d bytes), %d, %d; want 200, 503 with none of the answer, 200, 200", first.Code, second.Code, second.Body.Len(), small.Code, shared.Code)
	}
	w1.Done()
	again := httptest.NewRecorder()
	answer(b.Wrap(again, refuse), 2<<20)
	if again.Code != 200 {
		t.Errorf("after the first answer was written: %d, want 200", again.Code)
	}
}

// An answer larger than the whole budget is written when it is the only one (refused, it was
// refused on every retry, however idle the server), and while it is written every other large
// answer waits its turn.
func TestAnAnswerLargerThanTheBudgetIsWrittenAlone(t *testing.T) {
	b := answerbound.New(2 << 20)
	refuse := func(w http.ResponseWriter) { w.WriteHeader(http.StatusServiceUnavailable) }
	huge, other := httptest.NewRecorder(), httptest.NewRecorder()
	wh := b.Wrap(huge, refuse)
	answer(wh, 5<<20)
	answer(b.Wrap(other, refuse), 3<<19)
	if huge.Code != 200 || huge.Body.Len() != 5<<20 || other.Code != 503 {
		t.Errorf("statuses %d (%d bytes), %d; want 200 with the whole answer, then 503", huge.Code, huge.Body.Len(), other.Code)
	}
	wh.Done()
	first, second := httptest.NewRecorder(), httptest.NewRecorder()
	answer(b.Wrap(first, refuse), 3<<19)
	answer(b.Wrap(second, refuse), 5<<20)
	if first.Code != 200 || second.Code != 503 {
		t.Errorf("a huge answer beside a held one: %d, %d; want 200, 503", first.Code, second.Code)
	}
}
