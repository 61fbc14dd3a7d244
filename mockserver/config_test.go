package mockserver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// New refuses what the binary's flags refuse, naming the field: an embedding test asking for a
// 45-second latency got answers later than the server timeouts MaxDelay sizes, and a negative
// rate limit served the default, silently.
func TestNewRefusesWhatTheFlagsRefuse(t *testing.T) {
	for _, c := range []struct {
		cfg   mockserver.Config
		field string
	}{
		{mockserver.Config{Latency: mockserver.Latency{Min: 45 * time.Second}}, "Config.Latency"},
		{mockserver.Config{Latency: mockserver.Latency{Min: time.Second, Max: 31 * time.Second}}, "Config.Latency"},
		{mockserver.Config{Latency: mockserver.Latency{Min: -time.Second}}, "Config.Latency"},
		{mockserver.Config{Latency: mockserver.Latency{Min: 2 * time.Second, Max: time.Second}}, "Config.Latency"},
		{mockserver.Config{RateLimit: -5}, "Config.RateLimit"},
		{mockserver.Config{JournalSize: -1}, "Config.JournalSize"},
		{mockserver.Config{MaxRecords: -1}, "Config.MaxRecords"},
		{mockserver.Config{MaxWorlds: mockserver.MostWorlds + 1}, "Config.MaxWorlds"},
		{mockserver.Config{MaxStateMB: -1}, "Config.MaxStateMB"},
		{mockserver.Config{MaxStateMB: mockserver.MostStateMB + 1}, "Config.MaxStateMB"},
		{mockserver.Config{Now: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, "Config.Now"},
		{mockserver.Config{Seed: fixtures.MaxSeed + 1}, "Config.Seed"},
		{mockserver.Config{Seed: -fixtures.MaxSeed - 1}, "Config.Seed"},
		// A header never carries it: every control answered 401 (the flag refused it already).
		{mockserver.Config{AdminToken: " "}, "Config.AdminToken"},
		{mockserver.Config{AdminToken: "x\n"}, "Config.AdminToken"},
		{mockserver.Config{AdminToken: "a b"}, "Config.AdminToken"},
		{mockserver.Config{AdminToken: "é"}, "Config.AdminToken"},
		{mockserver.Config{AdminToken: strings.Repeat("a", 2<<20)}, "Config.AdminToken"}, // answered 431, never read
		{mockserver.Config{RateLimit: mockserver.MostRateLimit + 1}, "Config.RateLimit"},
		// Each answered any origin, or turned the host guard off (the flags refused them).
		{mockserver.Config{CORSOrigins: []string{""}}, "Config.CORSOrigins"},
		{mockserver.Config{CORSOrigins: []string{"*", "http://a.example"}}, "Config.CORSOrigins"},
		{mockserver.Config{CORSOrigins: []string{"null"}}, "Config.CORSOrigins"},
		{mockserver.Config{AllowedHosts: []string{"*", "mock"}}, "Config.AllowedHosts"},
	} {
		_, err := mockserver.New(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("New(%+v): %v, want an error naming %s", c.cfg, err, c.field)
		}
	}
	_, err := mockserver.New(mockserver.Config{RateLimit: -1, MaxRecords: -1})
	if err == nil || !strings.Contains(err.Error(), "Config.RateLimit") || !strings.Contains(err.Error(), "Config.MaxRecords") {
		t.Errorf("two bad fields: %v, want both named at once", err)
	}
}

// The values the flags take, at their bounds, and the zero values' defaults, are taken.
func TestNewTakesWhatTheFlagsTake(t *testing.T) {
	for _, cfg := range []mockserver.Config{
		{},
		{Latency: mockserver.Latency{Min: mockserver.MaxLatency}},
		{Latency: mockserver.Latency{Min: time.Second, Max: mockserver.MaxLatency}},
		{MaxWorlds: -1},
		{MaxWorlds: mockserver.MostWorlds, MaxStateMB: mockserver.MostStateMB, MaxRecords: 1, RateLimit: 1, JournalSize: 1},
		{Now: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)},
		{Seed: fixtures.MaxSeed}, {Seed: -fixtures.MaxSeed},
		{AdminToken: "s3cret-!~"}, {AdminToken: strings.Repeat("a", mockserver.MaxAdminToken)},
		{RateLimit: mockserver.MostRateLimit},
		{CORSOrigins: []string{"http://localhost:5173", "https://app.example"}, AllowedHosts: []string{"mock", "staging.example.com"}},
	} {
		if _, err := mockserver.New(cfg); err != nil {
			t.Errorf("New(%+v): %v", cfg, err)
		}
	}
}
