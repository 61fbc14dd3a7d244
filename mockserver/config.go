package mockserver

import (
	"log/slog"
	"time"
)

// DefaultRateLimit is the number of requests per minute per caller when Config.RateLimit is
// zero (D14).
const DefaultRateLimit = 1000

// Config configures a mock server. The zero value is a mock of the default seeded world on the
// system clock.
type Config struct {
	// Seed selects the seeded world (fixtures.DefaultSeed when zero).
	Seed int64
	// Now pins the mock's clock at start; zero means the system clock (D39).
	Now time.Time
	// RateLimit is the number of requests per minute per caller (DefaultRateLimit when zero).
	RateLimit int
	// Logger receives one line per request (discarded when nil).
	Logger *slog.Logger
}
