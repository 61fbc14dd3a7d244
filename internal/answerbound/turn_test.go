package answerbound_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/internal/answerbound"
)

// One answer is built at a time: a second waits until the first has written its header (it
// is built then), not until it is written to its client; a wait ends with its request.
func TestTurnPassesOnOnceTheHeaderIsWritten(t *testing.T) {
	turn := answerbound.NewTurn()
	first, release, ok := turn.Take(context.Background(), httptest.NewRecorder())
	if !ok {
		t.Fatal("the free turn was not taken")
	}
	defer release()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, _, ok := turn.Take(ctx, httptest.NewRecorder()); ok {
		t.Fatal("a second build took the turn while the first was building")
	}
	first.WriteHeader(200)
	second, release2, ok := turn.Take(context.Background(), httptest.NewRecorder())
	if !ok || second == nil {
		t.Fatal("the turn did not pass on once the first answer's header was written")
	}
	release2()
}
