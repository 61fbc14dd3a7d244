package redact

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// What a Known replaces: every value kept, longest first, short values never, the oldest
// forgotten past its bound (D200).
func TestKnownReplace(t *testing.T) {
	cases := []struct {
		name  string
		limit int
		note  []string
		in    string
		want  string
	}{
		{"nothing kept", 0, nil, "my password is hunter22", "my password is hunter22"},
		{"every occurrence", 0, []string{"hunter22"}, "hunter22 and again hunter22.", "[redacted] and again [redacted]."},
		{"shorter than 8 ignored", 0, []string{"abc", "ab1", "é中x-1", "hunter2"}, "abc ab1 é中x-1 hunter2", "abc ab1 é中x-1 hunter2"},
		{"8 characters of two kinds kept", 0, []string{"é中xy-123"}, "is é中xy-123", "is [redacted]"},
		// A word, a number or a phrase could be ordinary text: a wrong password "password" blanked
		// every "password" (JSON keys too) in the journals; 16 characters of anything are kept.
		{"words, numbers and phrases ignored", 0, []string{"password", "Organized", "12345678", "new password"}, `{"password":"x"} Organized 12345678 new password`, `{"password":"x"} Organized 12345678 new password`},
		{"16 characters of one kind kept", 0, []string{"abcdefghijklmnop"}, "t=abcdefghijklmnop", "t=[redacted]"},
		{"longest first", 0, []string{"tok-1234", "tok-1234-refresh"}, "tok-1234-refresh then tok-1234", "[redacted] then [redacted]"},
		{"longest first, noted in the other order", 0, []string{"tok-1234-refresh", "tok-1234"}, "xtok-1234-refreshx", "x[redacted]x"},
		{"bounded: oldest forgotten", 2, []string{"first-secret", "second-secret", "third-secret"}, "first-secret second-secret third-secret", "first-secret [redacted] [redacted]"},
		{"bounded: noting again makes recent", 2, []string{"first-secret", "second-secret", "first-secret", "third-secret"}, "first-secret second-secret third-secret", "[redacted] second-secret [redacted]"},
		{"empty text", 0, []string{"hunter22"}, "", ""},
		{"form-encoded", 0, []string{"Sup3r Secret<&>pw"}, "name=Sup3r+Secret%3C%26%3Epw&x=1", "name=[redacted]&x=1"},
		{"percent-encoded in a path or query", 0, []string{"MyPlain Pass#42"}, "/p/MyPlain%20Pass%2342?h=MyPlain%20Pass%2342", "/p/[redacted]?h=[redacted]"},
		{"JSON-escaped", 0, []string{`pw"with\quote<`}, `{"hint":"pw\"with\\quote\u003c"}`, `{"hint":"[redacted]"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := NewKnown(c.limit)
			for _, v := range c.note {
				k.Note(v)
			}
			if got := k.Replace(c.in); got != c.want {
				t.Errorf("Replace(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// The replacer is rebuilt only when the set changes: noting a value already kept changes
// nothing, a new one does, and the new value is replaced at once.
func TestKnownVersion(t *testing.T) {
	k := NewKnown(0)
	v0 := k.Version()
	k.Note("password")
	if k.Version() != v0 || k.Len() != 0 {
		t.Fatalf("a word changed the set: version %d → %d, %d kept", v0, k.Version(), k.Len())
	}
	k.Note("hunter22")
	v1 := k.Version()
	if v1 == v0 || k.Replace("hunter22") != Placeholder {
		t.Fatalf("a new value: version %d → %d, Replace %q", v0, v1, k.Replace("hunter22"))
	}
	k.Note("hunter22")
	if k.Version() != v1 {
		t.Errorf("noting a kept value again changed the version")
	}
	k.Note("s3cr3t-token")
	if got := k.Replace("hunter22 s3cr3t-token"); got != "[redacted] [redacted]" {
		t.Errorf("after a second value: %q", got)
	}
}

// Bearer tokens and the strings under credential names of JSON bodies are kept; other fields
// and bodies that are not JSON are not.
func TestKnownNotes(t *testing.T) {
	k := NewKnown(0)
	h := http.Header{}
	h.Set("Authorization", "Bearer bearer-tok-123")
	k.NoteHeaders(h)
	h.Set("Authorization", "Basic dXNlcjpzZWNyZXQtcGFzcw==") // user:secret-pass
	h.Set("X-Api-Key", "header-key-777")
	h.Set("Cookie", "sid=cookie-sid-555; theme=dark; _opaque=0123456789abcdef0")
	h.Set("Set-Cookie", `session="set-cookie-9"; Path=/; HttpOnly`)
	h.Set("X-Request-Id", "request-id-1")
	h.Set("Referer", "https://app.example/login?user=a&password=referer-pass-3")
	k.NoteHeaders(h)
	k.NoteBody([]byte(`{"email":"a@example.com","password":"pass-word-1","data":{"accessToken":"acc-tok-1","secrets":["arr-tok-1"],"title":"plain title","token_count":"1234"}}`))
	k.NoteBody([]byte(`password=form-secret`))
	k.NoteValue(map[string]any{"session_token": "cart-session-1", "code": 123456})
	k.NoteQuery("page=2&password=query-pass-1&title=query+title")
	// A validation error's messages are keyed by the field they are about, not its value.
	k.NoteBody([]byte(`{"message":"The password field is required.","errors":{"password":["The password field is required."]}}`))
	for _, v := range []string{"bearer-tok-123", "pass-word-1", "acc-tok-1", "arr-tok-1", "cart-session-1", "query-pass-1",
		"dXNlcjpzZWNyZXQtcGFzcw==", "secret-pass", "header-key-777", "cookie-sid-555", "0123456789abcdef0", "set-cookie-9", "form-secret", "referer-pass-3"} {
		if got := k.Replace("x " + v + " x"); got != "x [redacted] x" {
			t.Errorf("%s not kept: %q", v, got)
		}
	}
	for _, v := range []string{"request-id-1", "dark", "The name field is required.", "a@example.com", "plain title", "1234", "query title"} {
		if got := k.Replace(v); got != v {
			t.Errorf("%s kept, want it left: %q", v, got)
		}
	}
}

// Scrub returns a copy of a decoded body with values replaced in every string, keys included;
// ScrubHeaders in header values.
func TestKnownScrub(t *testing.T) {
	k := NewKnown(0)
	k.Note("hunter22")
	body := map[string]any{"title": "pw hunter22", "list": []any{"hunter22!", 3.0}, "hunter22": "key"}
	got := k.Scrub(body).(map[string]any)
	if body["title"] != "pw hunter22" {
		t.Errorf("Scrub changed its argument: %v", body)
	}
	if got["title"] != "pw [redacted]" || got["list"].([]any)[0] != "[redacted]!" || got["[redacted]"] != "key" || got["hunter22"] != nil {
		t.Errorf("Scrub: %v", got)
	}
	h := k.ScrubHeaders(map[string]string{"X-Note": "hunter22"})
	if h["X-Note"] != Placeholder {
		t.Errorf("ScrubHeaders: %v", h)
	}
}

// Many goroutines note and replace at once (run under -race); the bound holds.
func TestKnownConcurrent(t *testing.T) {
	k := NewKnown(64)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				v := fmt.Sprintf("secret-%d-%d", g, i)
				k.Note(v)
				if got := k.Replace("say " + v); strings.Contains(got, v) && k.Len() > 0 {
					// v may already be forgotten by others' notes; only check the bound then.
					if k.Len() > 64 {
						t.Errorf("bound passed: %d", k.Len())
					}
				}
				_ = k.Scrub(map[string]any{"t": v})
			}
		}()
	}
	wg.Wait()
	if k.Len() != 64 {
		t.Errorf("kept %d values, want the bound 64", k.Len())
	}
}

// A very long value is kept by its start, and the values kept hold at most MaxKnownBytes in
// all, the oldest going first: no client sends a set whose replacer costs the recorder seconds.
func TestKnownBoundsItsBytes(t *testing.T) {
	k := NewKnown(0)
	long := strings.Repeat("q", 500_000)
	k.Note(long)
	out := k.Replace("token " + long)
	if !strings.HasPrefix(out, "token "+Placeholder) || len(out) > len(long)-MaxKnownValue+len("token ")+len(Placeholder) {
		t.Errorf("a 500 kB value quoted: %d bytes left of %d, starting %q", len(out), len(long)+6, out[:min(len(out), 40)])
	}
	k = NewKnown(0)
	val := func(i int) string { return fmt.Sprintf("%04d", i) + strings.Repeat("v", MaxKnownValue-4) }
	n := 2 * MaxKnownBytes / MaxKnownValue
	for i := range n {
		k.Note(val(i))
	}
	if got := k.Len() * MaxKnownValue; got > MaxKnownBytes {
		t.Errorf("%d values of %d bytes kept: %d bytes, more than %d", k.Len(), MaxKnownValue, got, MaxKnownBytes)
	}
	if out := k.Replace(val(n - 1)); out != Placeholder {
		t.Errorf("the newest value is not replaced: %q…", out[:20])
	}
	if out := k.Replace(val(0)); out == Placeholder {
		t.Error("the oldest value is still kept past the byte bound")
	}
}

// A kept value quoted in capitals or small letters is replaced too: a hex token written in
// capitals is the working token to whoever lowers it.
func TestKnownReplacesOtherCases(t *testing.T) {
	k := NewKnown(0)
	k.Note("9f8e7d6c5b4a")
	for _, s := range []string{"t=9F8E7D6C5B4A.", "t=9f8e7d6c5b4a."} {
		if got := k.Replace(s); got != "t="+Placeholder+"." {
			t.Errorf("Replace(%q) = %q", s, got)
		}
	}
}

// A refused login's password is kept whatever shape its body had (a byte order mark, text
// after the JSON, JSON cut short, the password as an object, a multipart form), so a later
// text quoting it is scrubbed: each of these stayed in clear.
func TestNoteBodyReadsEveryLoginShape(t *testing.T) {
	for body, secret := range map[string]string{
		"\xef\xbb\xbf{\"email\":\"x@y.z\",\"password\":\"BomPw7788hhzz\"}": "BomPw7788hhzz",
		`{"email":"x@y.z","password":"TrailPw7788mmzz"} x`:                 "TrailPw7788mmzz",
		`{"email":"x@y.z","password":"TruncPw7788nnzz"`:                    "TruncPw7788nnzz",
		`{"email":"x@y.z","password":{"v":"ObjPw7788aazz"}}`:               "ObjPw7788aazz",
		"--XyZ\r\nContent-Disposition: form-data; name=\"email\"\r\n\r\nx@y.z\r\n--XyZ\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nMultiPw7788jjzz\r\n--XyZ--\r\n": "MultiPw7788jjzz",
		`{"email":"x@y.z","password":"PlainPw7788qqzz"}`: "PlainPw7788qqzz",
	} {
		k := NewKnown(0)
		k.NoteBody([]byte(body))
		if got := k.Replace("a card quoting " + secret); strings.Contains(got, secret) {
			t.Errorf("after %q: %q keeps the password", body, got)
		}
	}
}
