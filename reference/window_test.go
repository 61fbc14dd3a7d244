package reference_test

import (
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// stoppedClock is the mock's clock at its end: Now stands still, WindowNow runs on.
type stoppedClock struct{ fakeClock }

func (c *stoppedClock) Now() time.Time       { return t0 }
func (c *stoppedClock) WindowNow() time.Time { return c.fakeClock.Now() }

// The login and thumbnail windows are measured on the clock's WindowNow where it has one, so a
// window spent while the clock stands at its end still ends (D63).
func TestWindowsRunOnAStoppedClock(t *testing.T) {
	clock := &stoppedClock{fakeClock{t: t0}}
	s, err := reference.New(world(), reference.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	regenerate := func() error {
		_, err := s.RegenerateThumbnail(member, reference.RegenerateThumbnailInput{Type: "page", EntityID: 1})
		return err
	}
	for range reference.ThumbnailLimit {
		wantCode(t, regenerate(), "")
	}
	wantCode(t, regenerate(), reference.ERATELIMITED)
	clock.Advance(reference.ThumbnailWindow)
	wantCode(t, regenerate(), "")

	bad := reference.AuthenticateInput{Email: "nobody@example.com", Password: "wrong"}
	for range reference.LoginFailuresPerEmail {
		_, err := s.Authenticate(bad)
		wantCode(t, err, reference.EUNAUTHENTICATED)
	}
	_, err = s.Authenticate(bad)
	wantCode(t, err, reference.ERATELIMITED)
	clock.Advance(reference.LoginWindow)
	_, err = s.Authenticate(bad)
	wantCode(t, err, reference.EUNAUTHENTICATED)
}
