package main

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// exitError ends the command with an exit code of its own: 2 for a usage error (unknown
// subcommand or flag), as flag-based tools do. Its message, if any, is printed by main.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// errHelp is --help (or `help`) answered: exit 0, nothing more to print.
var errHelp = errors.New("help printed")

// usage is the text of `mockserver help` and `mockserver --help`.
const usage = `mockserver — a stateful mock of the operations, account, domain and website API.

Usage:
  mockserver [serve] [flags]       serve the API and its controls (the default subcommand)
  mockserver fixtures [flags]      print the fixture manifest of --seed and --scenario, and exit
  mockserver proxy --upstream URL  a validating proxy in front of a deployment (mockserver proxy --help)
  mockserver healthcheck [--addr]  exit 0 when the mock at --addr (MOCK_ADDR) answers GET /healthz (a container's HEALTHCHECK)
  mockserver help [proxy]          this text (or the proxy's)
  mockserver --version             the build's version

Flags of serve and fixtures (each with an environment fallback):
%s
Worlds: every path may be prefixed with /__worlds/<name> (or sent with the header
X-Mock-World: <name>) to use an isolated world of its own, created on first use.

Example:
  mockserver --addr 127.0.0.1:4010 --scenario busy --latency 100ms-300ms
  open http://127.0.0.1:4010/ (the dashboard)
  curl -s -X POST http://127.0.0.1:4010/__worlds/w1/__mock/reset -d '{"scenario": "empty"}'
`

// printUsage writes the usage with the flag list of fs's defaults.
func printUsage(w io.Writer, flags string) {
	fmt.Fprintf(w, usage, flags)
}

// version is the module version and VCS revision the binary was built from.
// commit is the commit the binary was built from, set by the Makefile (-X main.commit=…) for
// builds whose GOFLAGS leave the version control stamp out (-buildvcs=false).
var commit string

func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "mockserver (unknown version)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if rev == "" {
		rev = commit
	}
	out := "mockserver " + v + " " + info.GoVersion
	if rev != "" {
		out += " (" + rev[:min(12, len(rev))] + modified + ")"
	}
	return out
}

// isFlag tells whether an argument is a flag rather than a subcommand.
func isFlag(arg string) bool { return strings.HasPrefix(arg, "-") }
