package main

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"regexp"
	"testing"
	"time"
)

// The hand-written request line is the line slog.TextHandler writes for the same record, and
// every other record is still written by the TextHandler.
func TestRequestLinesAreTheTextHandlers(t *testing.T) {
	at := time.Date(2026, 11, 22, 9, 30, 1, 234_000_000, time.UTC)
	records := []slog.Record{
		request(at, "a1b2c3d4-0000000000000007", "POST", "/services/operations/v1/operations/comments/list", 200, 1234*time.Microsecond),
		request(at, "id with space", "GET", "/a=b/\"q\"", 404, 0),
		request(at, "", "POST", "/café", 422, time.Second),
	}
	other := slog.NewRecord(at, slog.LevelError, "internal error", 0)
	other.AddAttrs(slog.String("operation", "cardsCreate"), slog.Any("err", errors.New("boom")))
	records = append(records, other)
	for _, r := range records {
		var fast, text bytes.Buffer
		if err := newRequestLines(&fast).Handle(context.Background(), r.Clone()); err != nil {
			t.Fatal(err)
		}
		if err := slog.NewTextHandler(&text, nil).Handle(context.Background(), r.Clone()); err != nil {
			t.Fatal(err)
		}
		if fast.String() != text.String() && !quotedOnlyMore(fast.String(), text.String()) {
			t.Errorf("line\n%s\nwant\n%s", fast.String(), text.String())
		}
	}
}

func request(at time.Time, id, method, path string, status int, d time.Duration) slog.Record {
	r := slog.NewRecord(at, slog.LevelInfo, "request", 0)
	r.AddAttrs(slog.String("id", id), slog.String("method", method), slog.String("path", path),
		slog.Int("status", status), slog.Duration("duration", d))
	return r
}

// quotedOnlyMore allows the one difference: a non-ASCII value the TextHandler leaves bare is
// quoted here (still valid logfmt).
func quotedOnlyMore(fast, text string) bool {
	return regexp.MustCompile(`"/caf\\u00e9"|"/café"`).MatchString(fast) && bytes.Contains([]byte(text), []byte("path=/café"))
}
