package mockserver

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/opsapi/mocktoolkit/internal/redact"
	"github.com/opsapi/mocktoolkit/internal/wireerr"
)

// This file holds the middleware around every request: panics, request ids, the log line, and
// the answers net/http gives on its own (D79).

// recoverPanics turns a panic into a logged 500 in shape (a), never a dropped connection.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.logger.Error("panic serving request", "path", s.loggedPath(r), "panic", v)
				writeShapeA(w, http.StatusInternalServerError, "Internal server error.")
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// requestID echoes X-Request-Id or gives the request a new one: the process's random prefix
// and a counter, unique without a call to the random source per request.
func (s *Server) requestID(next http.Handler) http.Handler {
	var prefix [4]byte
	_, _ = rand.Read(prefix[:])
	var seq atomic.Uint64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if id == "" || len(id) > 128 {
			b := make([]byte, 0, 25)
			b = hex.AppendEncode(b, prefix[:])
			b = append(b, '-')
			n := seq.Add(1)
			for shift := 60; shift >= 0; shift -= 4 { // 16 hex digits, fixed width
				b = append(b, "0123456789abcdef"[n>>uint(shift)&0xf])
			}
			id = string(b)
			r.Header["X-Request-Id"] = []string{id}
		}
		w.Header()["X-Request-Id"] = []string{id}
		next.ServeHTTP(w, r)
	})
}

// statusRecorder remembers the status written through it.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (rec *statusRecorder) WriteHeader(code int) {
	if rec.status == 0 {
		rec.status = code
	}
	rec.ResponseWriter.WriteHeader(code)
}

func (rec *statusRecorder) Write(b []byte) (int, error) {
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	return rec.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (rec *statusRecorder) Unwrap() http.ResponseWriter { return rec.ResponseWriter }

// logRequests logs one line per request.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.logger.Enabled(r.Context(), slog.LevelInfo) {
			next.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		s.logger.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("id", r.Header.Get("X-Request-Id")), slog.String("method", r.Method),
			slog.String("path", s.loggedPath(r)), slog.Int("status", rec.status),
			slog.Duration("duration", time.Since(start)))
	})
}

// loggedPath is r's path as the journal and the log show it (never the query): shownPath, with
// credentials in ';' parameters redacted by name, the admin token or the request's own bearer
// token and a password or token the world has seen replaced (D64, D200), and cut at
// redact.MaxTarget. The log is read where the journal is not: CI artifacts.
func (s *Server) loggedPath(r *http.Request) string {
	return redact.BoundTarget(s.scrubPath(r, s.shownPath(r)))
}

// shownPath is r's path as sent, its escapes kept (a "%3F" shown decoded reads as a query
// string, and a request copied from the dashboard would be another); decoded when only then
// would a credential in it be replaced, as scrubPath, and a journal's scrub of an answer
// quoting it, replace it.
func (s *Server) shownPath(r *http.Request) string {
	sent := pathAsSent(r)
	if decoded := r.URL.Path; s.scrubPath(r, sent) == sent && s.scrubPath(r, decoded) != decoded {
		return decoded
	}
	return sent
}

// scrubPath is path with what loggedPath hides replaced.
func (s *Server) scrubPath(r *http.Request, path string) string {
	path = redact.PathParams(path)
	if t := s.cfg.AdminToken; t != "" && strings.Contains(path, t) {
		path = strings.ReplaceAll(path, t, redact.Placeholder)
	}
	if t, ok := bearer(r); ok && redact.Distinctive(t) && strings.Contains(path, t) {
		path = strings.ReplaceAll(path, t, redact.Placeholder)
	}
	return s.worldOf(r).journal.known.Replace(path)
}

// Listener returns ln with the answers net/http writes by itself, before any handler runs, put
// into the interface's shape (a) with the rate-limit headers of the client's address: a request
// it cannot parse (400), headers past its limit (431), a transfer coding it does not know (501)
// (D79, package wireerr, shared with the validating proxy). Serve the mock on it:
// http.Server{Handler: s}.Serve(s.Listener(ln)).
func (s *Server) Listener(ln net.Listener) net.Listener {
	return wireerr.Listener(ln, s.transportAnswer)
}

// transportAnswer is the whole HTTP answer for a transport error, in shape (a).
func (s *Server) transportAnswer(status int, detail string, addr net.Addr) []byte {
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		host = addr.String()
	}
	// The window of unknown paths and 405s (D3), in the default world: a request net/http could
	// not read names no world (D100).
	v := s.worlds.def.limiter.take("addr:" + host)
	return wireerr.Answer(status, wireerr.Message(status, detail, "the mock"),
		"X-Ratelimit-Limit: "+strconv.Itoa(v.limit), "X-Ratelimit-Remaining: "+strconv.Itoa(v.remaining))
}
