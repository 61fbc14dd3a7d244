package mockserver

import (
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/opsapi/mocktoolkit/reference"
)

// Hand-written JSON of the records the list operations answer in bulk (comments/list,
// cards/list), found by profiling to cost more than the rest of the pipeline together:
// encoding/json's reflection and its re-compaction of every time.Time. The output is byte for
// byte what encoding/json writes for the same value (a test and a fuzz target hold it to that),
// and whenever a value is outside what these appenders handle (a year encoding/json refuses),
// they report it and the answer is encoded by encoding/json instead. See docs/performance.md.

// fastData is envelope data with a hand-written encoding; plain is the value encoding/json
// encodes when appendJSON reports false.
type fastData interface {
	appendJSON(b []byte) ([]byte, bool)
	plain() any
}

// commentPage is the data of comments/list.
type commentPage reference.CommentPage

func (p commentPage) plain() any { return reference.CommentPage(p) }

func (p commentPage) appendJSON(b []byte) ([]byte, bool) {
	b = append(b, `{"comments":`...)
	if p.Comments == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range p.Comments {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendComment(b, c); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	}
	pg := p.Pagination
	b = append(b, `,"pagination":{"total":`...)
	b = strconv.AppendInt(b, pg.Total, 10)
	b = append(b, `,"per_page":`...)
	b = strconv.AppendInt(b, pg.PerPage, 10)
	b = append(b, `,"current_page":`...)
	b = strconv.AppendInt(b, pg.CurrentPage, 10)
	b = append(b, `,"total_pages":`...)
	b = strconv.AppendInt(b, pg.TotalPages, 10)
	return append(b, "}}"...), true
}

// cardList is the data of cards/list: {"cards": [...]}, never null.
type cardList []reference.Card

func (l cardList) plain() any { return map[string]any{"cards": []reference.Card(l)} }

func (l cardList) appendJSON(b []byte) ([]byte, bool) {
	b = append(b, `{"cards":[`...)
	for i, c := range l {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = appendCard(b, c); !ok {
			return b, false
		}
	}
	return append(b, "]}"...), true
}

// appendComment appends c as encoding/json encodes a reference.Comment.
func appendComment(b []byte, c reference.Comment) ([]byte, bool) {
	b = appendIntField(b, `{"id":`, c.ID)
	b = appendIntField(b, `,"project_id":`, c.ProjectID)
	b = appendIntField(b, `,"card_id":`, c.CardID)
	b = appendIntField(b, `,"user_id":`, c.UserID)
	b = appendString(append(b, `,"comment":`...), c.Comment)
	b = strconv.AppendBool(append(b, `,"is_read":`...), c.IsRead)
	ok := true
	b, ok = appendTimePtr(append(b, `,"read_at":`...), c.ReadAt, ok)
	b = appendIntPtr(append(b, `,"parent_comment_id":`...), c.ParentCommentID)
	b, ok = appendTime(append(b, `,"created_at":`...), c.CreatedAt, ok)
	b, ok = appendTime(append(b, `,"updated_at":`...), c.UpdatedAt, ok)
	b, ok = appendTimePtr(append(b, `,"deleted_at":`...), c.DeletedAt, ok)
	return append(b, '}'), ok
}

// appendCard appends c as encoding/json encodes a reference.Card.
func appendCard(b []byte, c reference.Card) ([]byte, bool) {
	b = appendIntField(b, `{"id":`, c.ID)
	b = appendIntPtr(append(b, `,"project_id":`...), c.ProjectID)
	b = appendIntField(b, `,"platform_id":`, c.PlatformID)
	b = strconv.AppendBool(append(b, `,"is_master":`...), c.IsMaster)
	b = strconv.AppendBool(append(b, `,"is_active":`...), c.IsActive)
	b = appendIntPtr(append(b, `,"master_card_id":`...), c.MasterCardID)
	b = appendStringPtr(append(b, `,"unique_identifier":`...), c.UniqueIdentifier)
	b = appendStringPtr(append(b, `,"evaluation_check":`...), c.EvaluationCheck)
	b = appendStringPtr(append(b, `,"tour_key":`...), c.TourKey)
	b = appendStringPtr(append(b, `,"short_description":`...), c.ShortDescription)
	b = appendString(append(b, `,"card_type":`...), c.CardType)
	b = appendIntPtr(append(b, `,"group_id":`...), c.GroupID)
	b = appendString(append(b, `,"title":`...), c.Title)
	b = appendStringPtr(append(b, `,"description":`...), c.Description)
	b = appendString(append(b, `,"status":`...), c.Status)
	b = appendIntPtr(append(b, `,"owner_id":`...), c.OwnerID)
	b = appendIntPtr(append(b, `,"tag_id":`...), c.TagID)
	ok := true
	b, ok = appendTimePtr(append(b, `,"due_date":`...), c.DueDate, ok)
	b, ok = appendTimePtr(append(b, `,"snoozed_until":`...), c.SnoozedUntil, ok)
	b = appendString(append(b, `,"priority":`...), c.Priority)
	b = appendIntField(b, `,"sort_order":`, c.SortOrder)
	b = appendIntField(b, `,"position":`, c.Position)
	b = strconv.AppendBool(append(b, `,"is_overdue":`...), c.IsOverdue)
	b = appendIntPtr(append(b, `,"created_by":`...), c.CreatedBy)
	b, ok = appendTime(append(b, `,"created_at":`...), c.CreatedAt, ok)
	b, ok = appendTime(append(b, `,"updated_at":`...), c.UpdatedAt, ok)
	b, ok = appendTimePtr(append(b, `,"deleted_at":`...), c.DeletedAt, ok)
	return append(b, '}'), ok
}

func appendIntField(b []byte, key string, v int64) []byte {
	return strconv.AppendInt(append(b, key...), v, 10)
}

func appendIntPtr(b []byte, v *int64) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, *v, 10)
}

func appendStringPtr(b []byte, v *string) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return appendString(b, *v)
}

// appendTime writes t as time.Time.MarshalJSON does (RFC 3339 with nanoseconds, quoted); ok
// turns false for a year MarshalJSON refuses, and stays false once it is.
func appendTime(b []byte, t time.Time, ok bool) ([]byte, bool) {
	if t.Location() == time.UTC && t.Nanosecond() == 0 {
		// The store's times (UTC, whole seconds, D9), by hand: several per record, and
		// AppendFormat was a fifth of encoding a page.
		y, mo, d := t.Date()
		if y < 0 || y > 9999 {
			return b, false
		}
		h, mi, sec := t.Clock()
		b = append(b, '"')
		b = appendDigits(b, y, 4)
		b = appendDigits(append(b, '-'), int(mo), 2)
		b = appendDigits(append(b, '-'), d, 2)
		b = appendDigits(append(b, 'T'), h, 2)
		b = appendDigits(append(b, ':'), mi, 2)
		b = appendDigits(append(b, ':'), sec, 2)
		return append(b, 'Z', '"'), ok
	}
	if y := t.Year(); y < 0 || y > 9999 {
		return b, false
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), ok
}

// appendDigits appends n (0 ≤ n < 10^width) in exactly width decimal digits.
func appendDigits(b []byte, n, width int) []byte {
	start := len(b)
	for range width {
		b = append(b, '0')
	}
	for i := len(b) - 1; i >= start && n > 0; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return b
}

func appendTimePtr(b []byte, t *time.Time, ok bool) ([]byte, bool) {
	if t == nil {
		return append(b, "null"...), ok
	}
	return appendTime(b, *t, ok)
}

const hexDigits = "0123456789abcdef"

// appendString quotes s as encoding/json does with HTML escaping on: <, >, & and control
// characters as \u00XX, invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			b = appendEscapedByte(b, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func appendEscapedByte(b []byte, c byte) []byte {
	switch c {
	case '\\', '"':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// bufPool holds answer buffers, so that an answer does not allocate its body.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// putBuf returns a buffer to the pool, unless a large answer (a long card list) grew it.
func putBuf(bp *[]byte) {
	if cap(*bp) <= 64<<10 {
		bufPool.Put(bp)
	}
}
