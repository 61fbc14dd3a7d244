package main

import (
	"log"
	"log/slog"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/redact"
	"github.com/opsapi/mocktoolkit/internal/text"
)

// routeStdLog sends what net/http writes to Go's standard logger (an accept error, an
// upstream's bytes sent outside any answer) to logger, in the command's words and redacted:
// the proxy's transport printed an upstream's stray bytes, credentials included, in Go's
// format on standard error.
func routeStdLog(logger *slog.Logger) {
	log.SetFlags(0)
	log.SetOutput(stdLog{logger})
}

// stdLog is the standard logger's output, written to a slog.Logger.
type stdLog struct{ logger *slog.Logger }

func (s stdLog) Write(p []byte) (int, error) {
	line := strings.TrimSpace(string(p))
	switch {
	case strings.HasPrefix(line, "Unsolicited response received on idle HTTP channel"):
		s.logger.Warn("the upstream sent bytes outside any answer, on a connection between requests; they were dropped unread")
	default:
		s.logger.Warn("net/http: " + text.Clip(redact.Text(line), 300))
	}
	return len(p), nil
}
