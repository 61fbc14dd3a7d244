package mockserver

import (
	"log/slog"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/reference"
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

	// Latency delays every operation by a fixed or ranged time (none when zero).
	Latency Latency
	// AdminToken, when set, is required by every /__mock/ endpoint in X-Mock-Admin-Token.
	AdminToken string
	// CORSOrigins are the origins browsers may call the API from; empty means any ("*"). The
	// mock's own endpoints answer only the origins listed here, never "*" (D103).
	CORSOrigins []string
	// JournalSize is how many requests GET /__mock/requests keeps (DefaultJournalSize when zero).
	JournalSize int
	// State, when set, is the world to start with instead of the seeded one (a snapshot, as
	// GET /__mock/state exports it); the manifest stays the seed's.
	State *reference.State
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
}
