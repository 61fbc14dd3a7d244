package inflight_test

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/inflight"
)

// A budget of 1 KiB holds one 600-byte body; a second arriving meanwhile is refused unread,
// and taken once the first is released.
func Example() {
	budget := inflight.New(1 << 10)
	first := httptest.NewRequest("POST", "/", strings.NewReader(strings.Repeat("a", 600)))
	held, _ := budget.Hold(httptest.NewRecorder(), first, 1<<20)

	second := httptest.NewRequest("POST", "/", strings.NewReader(strings.Repeat("b", 600)))
	_, err := budget.Hold(httptest.NewRecorder(), second, 1<<20)
	fmt.Println(errors.Is(err, inflight.ErrFull))

	held.Release()
	_, err = budget.Hold(httptest.NewRecorder(), second, 1<<20)
	fmt.Println(err)
	// Output:
	// true
	// <nil>
}
