package redact_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/internal/redact"
)

// BenchmarkKnownDistinctTokens is the proxy's journal under clients that each send their own
// bearer token: every exchange notes a new value, then scrubs its texts.
func BenchmarkKnownDistinctTokens(b *testing.B) {
	k := redact.NewKnown(0)
	for i := range redact.DefaultKnownLimit {
		k.Note("tok-" + strconv.Itoa(i) + strings.Repeat("x", 40))
	}
	text := strings.Repeat(`{"title":"a card","description":"nothing secret here"} `, 40)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k.Note("new-" + strconv.Itoa(i) + strings.Repeat("y", 40))
		for range 4 { // path, body, answer, headers
			_ = k.Replace(text)
		}
	}
}

// BenchmarkKnownReplace scrubs a 64 KiB text under a full set that does not change.
func BenchmarkKnownReplace(b *testing.B) {
	k := redact.NewKnown(0)
	for i := range redact.DefaultKnownLimit {
		k.Note("tok-" + strconv.Itoa(i) + strings.Repeat("x", 40))
	}
	text := strings.Repeat(`{"title":"a card","description":"nothing secret here, tok-17 neither"} `, 900)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		_ = k.Replace(text)
	}
}
