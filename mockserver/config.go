package mockserver

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/internal/hostguard"
	"github.com/opsapi/mocktoolkit/reference"
)

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

	// Latency delays every operation by a fixed or ranged time (none when zero).
	Latency Latency
	// AdminToken, when set, is required by every /__mock/ endpoint in X-Mock-Admin-Token:
	// visible ASCII characters only (CheckAdminToken).
	AdminToken string
	// CORSOrigins are the origins browsers may call the API from; empty means any ("*"). The
	// mock's own endpoints answer only the origins listed here, never "*" (D103).
	CORSOrigins []string
	// JournalSize is how many requests GET /__mock/requests keeps (DefaultJournalSize when zero).
	JournalSize int
	// State, when set, is the world to start with instead of the seeded one (a snapshot, as
	// GET /__mock/state exports it); the manifest stays the seed's, or StateSource's.
	State *reference.State
	// StateSource, when set with State, is the seed and scenario State's records were built
	// from (a state file keeps them): the default world reports them, and its fixture manifest
	// is theirs, checked against the records (D65, D102).
	StateSource *SavedSource
	// Clock, when set, is the default world's clock to start with (a state file's, D65),
	// instead of Now.
	Clock *SavedClock
	// Scenario is the scenario of the default world and of every new world (D101):
	// fixtures.DefaultScenario when empty, another shipped scenario, or one of Scenarios.
	Scenario string
	// Scenarios are user-authored scenarios (LoadScenarioFile), by name.
	Scenarios map[string]*fixtures.ScenarioFile
	// MaxWorlds is how many named worlds the mock keeps besides the default one, the least
	// recently used going first (DefaultMaxWorlds when zero; negative: named worlds are off).
	MaxWorlds int
	// AllowedHosts are host names, besides localhost and IP addresses, the mock's own endpoints
	// answer (D103); "*" turns the check off.
	AllowedHosts []string
	// LenientContentType reads every request body as JSON whatever its Content-Type; by
	// default a body not declared application/json is refused, as a real framework would (D6).
	LenientContentType bool
	// MaxRecords caps the cards, comments and tags of each project (D70); zero means no cap.
	MaxRecords int
	// MaxStateMB bounds, in MiB, what the records of every world hold together (D206),
	// DefaultMaxStateMB when zero.
	MaxStateMB int
}

// The largest values Config (and the binary's flags) take: past them the mock would hold more
// than a machine lends it.
const (
	// MostWorlds is the largest Config.MaxWorlds (--max-worlds).
	MostWorlds = 10000
	// MostStateMB is the largest Config.MaxStateMB (--max-state-mb), 1 TiB.
	MostStateMB = 1 << 20
)

// ConfigError is New's error when the Config cannot be used as given: a value out of its range,
// or a scenario whose records pass MaxStateMB. The binary exits 2 on it, as on a flag it
// cannot use.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return "new mock server: " + e.Err.Error() }

func (e *ConfigError) Unwrap() error { return e.Err }

// check refuses the values the binary's flags refuse, each named by its field, all at once: an
// embedding test gets the mock the binary would serve, or an error, never a value taken
// silently (a latency past MaxLatency outlives the server timeouts MaxDelay sizes; a negative
// rate limit served the default).
func (cfg Config) check() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if cfg.RateLimit < 0 || cfg.RateLimit > MostRateLimit {
		bad("Config.RateLimit %d: want a number of requests a minute from 1 to %d, or 0 for the default (%d)", cfg.RateLimit, MostRateLimit, DefaultRateLimit)
	}
	if cfg.JournalSize < 0 {
		bad("Config.JournalSize %d: want a positive number of requests, or 0 for the default (%d)", cfg.JournalSize, DefaultJournalSize)
	}
	if cfg.Seed != 0 {
		if err := fixtures.CheckSeed(cfg.Seed); err != nil {
			bad("Config.Seed %d: %v (0: the default, %d)", cfg.Seed, err, fixtures.DefaultSeed)
		}
	}
	if cfg.MaxRecords < 0 {
		bad("Config.MaxRecords %d: want a whole number, 0 for no cap", cfg.MaxRecords)
	}
	if cfg.MaxWorlds > MostWorlds {
		bad("Config.MaxWorlds %d: want at most %d (negative: named worlds off; 0: the default, %d)", cfg.MaxWorlds, MostWorlds, DefaultMaxWorlds)
	}
	if cfg.MaxStateMB < 0 || cfg.MaxStateMB > MostStateMB {
		bad("Config.MaxStateMB %d: want MiB from 1 to %d, or 0 for the default (%d)", cfg.MaxStateMB, MostStateMB, DefaultMaxStateMB)
	}
	if err := cfg.Latency.check(); err != nil {
		bad("Config.Latency %s: %v", cfg.Latency, err)
	}
	if err := CheckAdminToken(cfg.AdminToken); err != nil {
		bad("Config.AdminToken: %v", err)
	}
	if err := CheckCORSOrigins(cfg.CORSOrigins); err != nil {
		bad("Config.CORSOrigins: %v", err)
	}
	if err := hostguard.CheckNames(cfg.AllowedHosts); err != nil {
		bad("Config.AllowedHosts: %v", err)
	}
	if !cfg.Now.IsZero() {
		if err := CheckClockStart(cfg.Now); err != nil {
			bad("Config.Now %s: %v", cfg.Now.Format(time.RFC3339), err)
		}
	}
	return errors.Join(errs...)
}

// check says why l is not a latency ParseLatency could give: a negative delay, one past
// MaxLatency, or a range that ends before it starts (a Max of zero is a fixed Min).
func (l Latency) check() error {
	switch {
	case l.Min < 0 || l.Max < 0:
		return errors.New("a delay is not negative")
	case l.Min > MaxLatency || l.Max > MaxLatency:
		return fmt.Errorf("at most %s", MaxLatency)
	case l.Max != 0 && l.Max < l.Min:
		return errors.New("the range ends before it starts")
	}
	return nil
}

// MostRateLimit is the largest --rate-limit: the limit is sent in X-RateLimit-Limit, which a
// JavaScript client reads exactly up to 2^53-1 (as seeds and ids, D26).
const MostRateLimit = 1<<53 - 1

// MaxAdminToken is the longest admin token: one a header can carry within the mock's own bound
// on a request's headers, with room for the rest.
const MaxAdminToken = 4096

// CheckAdminToken says why token cannot be the admin token: it travels in the
// X-Mock-Admin-Token header, which carries visible ASCII characters only (HTTP trims spaces
// around a value and refuses control characters) and a bounded length, so a token past either
// could never be sent and every control would answer 401 (or 431).
func CheckAdminToken(token string) error {
	if len(token) > MaxAdminToken {
		return fmt.Errorf("want at most %d characters, got %d (it travels in the X-Mock-Admin-Token header)", MaxAdminToken, len(token))
	}
	for _, c := range token {
		if c <= ' ' || c > '~' {
			return errors.New("want visible ASCII characters only, no spaces (it travels in the X-Mock-Admin-Token header)")
		}
	}
	return nil
}
