package main

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
)

// requestLines is the binary's log handler. The mock writes one line per request (message
// "request", from mockserver's logRequests); under load slog.TextHandler's
// general formatting of it was a few percent of the server's CPU. This handler writes those
// lines by hand in the TextHandler's own format, and hands every other record to next, a
// TextHandler on the same writer.
type requestLines struct {
	w    io.Writer
	next slog.Handler
}

func newRequestLines(w io.Writer) slog.Handler {
	return requestLines{w: w, next: slog.NewTextHandler(w, nil)}
}

func (h requestLines) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h requestLines) WithAttrs(a []slog.Attr) slog.Handler { return h.next.WithAttrs(a) }

func (h requestLines) WithGroup(name string) slog.Handler { return h.next.WithGroup(name) }

var lineBufs = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// Handle writes a request line by hand, any other record through next.
func (h requestLines) Handle(ctx context.Context, r slog.Record) error {
	if r.Message != "request" || r.Level != slog.LevelInfo {
		return h.next.Handle(ctx, r)
	}
	bp := lineBufs.Get().(*[]byte)
	defer lineBufs.Put(bp)
	b := append((*bp)[:0], "time="...)
	b = r.Time.AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	b = append(b, " level=INFO msg=request"...)
	plain := true
	r.Attrs(func(a slog.Attr) bool {
		b = append(append(append(b, ' '), a.Key...), '=')
		switch v := a.Value; v.Kind() {
		case slog.KindString:
			b = appendLogString(b, v.String())
		case slog.KindInt64:
			b = strconv.AppendInt(b, v.Int64(), 10)
		case slog.KindDuration:
			b = append(b, v.Duration().String()...)
		default:
			plain = false
		}
		return plain
	})
	if !plain {
		return h.next.Handle(ctx, r)
	}
	b = append(b, '\n')
	*bp = b
	_, err := h.w.Write(b)
	return err
}

// appendLogString writes s bare when the TextHandler would, quoted otherwise (a value with
// spaces, '=', quotes, control or non-ASCII bytes, or none at all).
func appendLogString(b []byte, s string) []byte {
	if s == "" {
		return strconv.AppendQuote(b, s)
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c == '=' || c == '"' || c >= 0x7f {
			return strconv.AppendQuote(b, s)
		}
	}
	return append(b, s...)
}
