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

// BenchmarkKnownSharedStarts scrubs a text made of what every kept token shares (a JWT
// issuer's header) under a full set: each position costs the same whatever the number of
// tokens sharing the start, since only the neighbours in sort order are compared.
func BenchmarkKnownSharedStarts(b *testing.B) {
	const header = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
	k := redact.NewKnown(0)
	for i := range redact.DefaultKnownLimit {
		k.Note(header + strconv.Itoa(i) + strings.Repeat("z", 20) + ".sig" + strconv.Itoa(i))
	}
	text := strings.Repeat(header+"x ", 64<<10/(len(header)+2))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		_ = k.Replace(text)
	}
}
