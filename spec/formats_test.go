package spec_test

import (
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/opsapi/mocktoolkit/spec"
)

// A date-time is accepted only when the mock can answer and save it (D73): RFC 3339 offsets
// (hours 00–23, minutes 00–59) and an instant within years 0000–9999 once in UTC.
func TestDateTimeFormat(t *testing.T) {
	tests := []struct {
		value string
		ok    bool
	}{
		{"2026-11-21T09:30:00Z", true},
		{"2026-11-21T10:30:00.5+01:00", true},
		{"9999-12-31T23:59:59Z", true},
		{"9999-12-31T23:59:59.999999999Z", true},
		{"0000-01-01T00:00:00Z", true},
		{"0000-01-01T00:00:00+00:01", false}, // 23:59 the day before, in year -1
		{"0000-01-02T00:00:00+23:59", true},
		{"9999-12-31T23:59:59-23:59", false}, // year 10000 in UTC
		{"9999-12-31T00:00:00-23:59", true},
		{"2026-01-01T00:00:00+24:00", false},
		{"2026-01-01T00:00:00+23:60", false},
		{"2026-01-01T00:00:00-99:00", false},
		{"2026-01-01T00:00:60Z", false},
		{"2026-02-31T00:00:00Z", false},
		{"tomorrow", false},
	}
	for _, tt := range tests {
		if err := spec.ValidateDateTime(tt.value); (err == nil) != tt.ok {
			t.Errorf("ValidateDateTime(%q) = %v, want accepted %v", tt.value, err, tt.ok)
		}
	}
}

// Authenticate trims an e-mail on both sides (D49), so the format accepts surrounding spaces.
func TestEmailFormatAllowsSurroundingSpaces(t *testing.T) {
	for _, v := range []string{"ada@example.com", " ada@example.com", "ada@example.com ", "\tada@example.com \n"} {
		if err := spec.ValidateEmail(v); err != nil {
			t.Errorf("ValidateEmail(%q) = %v", v, err)
		}
	}
	for _, v := range []string{"ada.example.com", "ada@exa mple.com", "", "  "} {
		if spec.ValidateEmail(v) == nil {
			t.Errorf("ValidateEmail(%q) accepted", v)
		}
	}
}

// InvalidText names every place whose text is not valid UTF-8 (D74).
func TestInvalidText(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{"valid text", `{"title":"héllo \u00e9 \ud83d\ude00 \ufffd","n":[1,"a"]}`, nil},
		{"raw invalid byte", "{\"title\":\"a\xffb\",\"description\":\"ok\"}", []string{"title"}},
		{"truncated sequence", "{\"title\":\"\xe2\x82\"}", []string{"title"}},
		{"lone high surrogate", `{"comment":"\ud800"}`, []string{"comment"}},
		{"lone low surrogate", `{"comment":"x\udc00y"}`, []string{"comment"}},
		{"high surrogate then text", `{"comment":"\ud800\u0041"}`, []string{"comment"}},
		{"nested", `{"cards":[{"title":"ok"},{"title":"\udfff"}]}`, []string{"cards[1].title"}},
		{"bad member name", "{\"a\xff\":1}", []string{"body"}},
		{"escaped quote before bad byte", "{\"t\":\"\\\"\xc3\"}", []string{"t"}},
		{"several fields, once each", "{\"a\":\"\xff\xff\",\"b\":\"\\udc00\",\"a\":\"\xff\"}", []string{"a", "b"}},
		{"path after a deeper sibling", "{\"a\":{\"b\":[{\"c\":1}]},\"d\":[\"x\",{\"e\":\"\xff\"}]}", []string{"d[1].e"}},
		{"not JSON", "\xff", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := spec.InvalidText([]byte(tt.doc)); !slices.Equal(got, tt.want) {
				t.Errorf("InvalidText(%q) = %q, want %q", tt.doc, got, tt.want)
			}
		})
	}
}

// A document nested thousands of levels deep (every level a long member name) is scanned in
// time and memory in proportion to its length: the scan once built each level's path anew, so
// 117 KB took seconds and 1 MiB half a minute. Its memory, which grew with the square of the
// depth, is the measure here. Past 10000 levels, where every decoder refuses the document, the
// scan stops.
func TestInvalidTextDeepDocument(t *testing.T) {
	const depth = 9000
	key := `"password_confirmation_of_the_account":`
	doc := []byte(strings.Repeat("{"+key, depth) + "\"\xff\"" + strings.Repeat("}", depth))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	bad := spec.InvalidText(doc)
	runtime.ReadMemStats(&after)
	if len(bad) != 1 || strings.Count(bad[0], ".") != depth-1 {
		t.Fatalf("InvalidText found %d places, want the one at depth %d", len(bad), depth)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(20*len(doc)) {
		t.Errorf("InvalidText allocated %d bytes scanning a %d-byte document, want at most %d", alloc, len(doc), 20*len(doc))
	}
	tooDeep := []byte(strings.Repeat("[", 20000) + "\"\xff\"" + strings.Repeat("]", 20000))
	if bad := spec.InvalidText(tooDeep); len(bad) != 0 {
		t.Errorf("InvalidText scanned past 10000 levels: %q", bad)
	}
}

// FuzzInvalidText: the scan never panics, and a document of valid UTF-8 without escapes is
// never reported.
func FuzzInvalidText(f *testing.F) {
	f.Add([]byte(`{"title":"\ud800"}`))
	f.Add([]byte("{\"a\":[\"\xff\",{\"b\":\"\\u12\"}]}"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		bad := spec.InvalidText(doc)
		if utf8Clean(doc) && len(bad) > 0 {
			t.Errorf("InvalidText(%q) = %q for valid UTF-8 without escapes", doc, bad)
		}
	})
}

func utf8Clean(b []byte) bool {
	return !slices.Contains(b, '\\') && validUTF8(b)
}

func validUTF8(b []byte) bool { return utf8.Valid(b) }
