package redact

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

// A body nested past what common JSON tools read (jq 1.6 stops at 256 levels) is journalled as
// text, its credentials still replaced; one within the bound keeps its JSON shape.
func TestDeepBodyKeptAsText(t *testing.T) {
	deep := strings.Repeat("[", 3000) + `{"password":"hunter2"}` + strings.Repeat("]", 3000)
	got, ok := Body([]byte(deep)).(string)
	if !ok {
		t.Fatalf("a body nested 3001 levels deep is kept as %T, want text", Body([]byte(deep)))
	}
	if strings.Contains(got, "hunter2") || !strings.Contains(got, redacted) {
		t.Errorf("the deep body's password is not redacted: %.80s…", got[3000:])
	}
	shallow := strings.Repeat("[", 150) + `{"password":"hunter2"}` + strings.Repeat("]", 150)
	if _, ok := Body([]byte(shallow)).([]any); !ok {
		t.Errorf("a body nested 151 levels deep is not kept as JSON")
	}
}

// Credentials are redacted whatever the body's format, and JSON keeps its shape (D64).
func TestRedactBody(t *testing.T) {
	tests := []struct {
		name, body string
		want       string // the redacted body, as JSON
	}{
		{"JSON at any depth", `{"user":{"password":"p1","name":"n"},"code":"123456","client_secret":"s"}`,
			`{"client_secret":"[redacted]","code":"[redacted]","user":{"name":"n","password":"[redacted]"}}`},
		{"arrays and objects keep their shape", `{"data":{"password":["too short","too weak"]},"tokens":{"refresh_token":{"v":"r","n":1,"ok":true,"x":null}}}`,
			`{"data":{"password":["[redacted]","[redacted]"]},"tokens":{"refresh_token":{"n":"[redacted]","ok":true,"v":"[redacted]","x":null}}}`},
		{"a validation error's messages stay readable", `{"message":"The password field is required.","errors":{"password":["The password field is required."],"token":["a=1&password=hunter2"]}}`,
			`{"errors":{"password":["The password field is required."],"token":["a=1\u0026password=[redacted]"]},"message":"The password field is required."}`},
		{"a form copied into a field", `{"note":"a=1&password=hunter2"}`, `{"note":"a=1\u0026password=[redacted]"}`},
		{"form-encoded", `email=a%40b.co&password=hunter2&session_token=abc&code=99`,
			`"email=a%40b.co\u0026password=[redacted]\u0026session_token=[redacted]\u0026code=[redacted]"`},
		{"percent-encoded name", `pass%77ord=hunter2&x=1`, `"pass%77ord=[redacted]\u0026x=1"`},
		{"multipart", "--b\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nhunter2\r\n--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nkept\r\n--b--",
			`"--b\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n[redacted]\r\n--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nkept\r\n--b--"`},
		{"text lines", "user: ada\nPassword: correct horse\napi_key = k-1", `"user: ada\nPassword: [redacted]\napi_key = [redacted]"`},
		{"JSON cut short", `{"email": "a@b.co", "password": "half-sent`, `"{\"email\": \"a@b.co\", \"password\": \"[redacted]\""`},
		{"JSON cut short, its key escaped", `{"pass\u0077ord": "half-sent`, `"{\"pass\\u0077ord\": \"[redacted]\""`},
		{"JSON in a JSON string cut short", `{"note": "{\"password\":\"hunter22\"}`, `"{\"note\": \"{\\\"password\\\":[redacted]}"`},
		{"a scheme's token in free text", `{"note":"call it with Bearer eyJhbGciOi.J9x, or Basic dXNlcjpwYXNz"}`,
			`{"note":"call it with Bearer [redacted], or Basic [redacted]"}`},
		{"a scheme before words stays", `{"title":"Bearer bonds and Basic understanding"}`, `{"title":"Bearer bonds and Basic understanding"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(Body([]byte(tt.body)))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("Body(%q)\n got %s\nwant %s", tt.body, got, tt.want)
			}
		})
	}
}

// Credential headers are redacted, Authorization-like ones keeping their scheme (D64).
func TestRedactHeaders(t *testing.T) {
	h := http.Header{}
	for _, k := range []string{"Proxy-Authorization", "Authorization"} {
		h.Set(k, "Basic c2VjcmV0")
	}
	for _, k := range []string{"X-Api-Key", "X-Auth-Token", "Cookie", "Set-Cookie", "X-Mock-Admin-Token", "X-Csrf-Token"} {
		h.Set(k, "s3cr3t")
	}
	h.Set("Accept", "application/json")
	// Credentials in the query or fragment of a URL a header holds (an OAuth callback as the
	// Referer, a redirect's Location, a Link); a Prefer code is no URL and stays.
	h.Set("Referer", "http://app.test/cb?access_token=s3cr3t&code=s3cr3t&state=ok")
	h.Set("Location", "https://idp.example/cb?x=1#id_token=s3cr3t")
	h.Set("Link", `<https://x.example/?api_key=s3cr3t>; rel="next"`)
	h.Set("Prefer", "code=413")
	got := Headers(h)
	for k, v := range got {
		if strings.Contains(v, "s3cr3t") || strings.Contains(v, "c2VjcmV0") {
			t.Errorf("%s: %q keeps its secret", k, v)
		}
	}
	if got["Proxy-Authorization"] != "Basic [redacted]" || got["Accept"] != "application/json" || got["Prefer"] != "code=413" || !strings.Contains(got["Referer"], "state=ok") {
		t.Errorf("redacted headers: %v", got)
	}
}

// A credential in a URL a header holds ends where the URL's part does: the Link's closing angle
// bracket and its parameters, the Referer's fragment, stay.
func TestRedactHeadersKeepsTheURLsShape(t *testing.T) {
	h := http.Header{}
	h.Set("Link", `<https://x.example/?api_key=s3cr3t>; rel="next", <https://x.example/?page=2>; rel="last"`)
	h.Set("Referer", "https://app.example/cb?code=s3cr3t#top")
	got := Headers(h)
	if want := `<https://x.example/?api_key=[redacted]>; rel="next", <https://x.example/?page=2>; rel="last"`; got["Link"] != want {
		t.Errorf("Link: %q, want %q", got["Link"], want)
	}
	if want := "https://app.example/cb?code=[redacted]#top"; got["Referer"] != want {
		t.Errorf("Referer: %q, want %q", got["Referer"], want)
	}
}

// FuzzRedact: whatever surrounds it, a credential sent in JSON, a form, multipart or text
// never survives redaction; any body gets an answer; JSON keeps its shape.
func FuzzRedact(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"c"}]}`), []byte(`x`), uint8(0), uint8(0), "abcd")
	f.Add([]byte(`"x": "`), []byte(`&`), uint8(1), uint8(3), "v4lue")
	f.Add([]byte("--b\r\n"), []byte("\r\n--b--"), uint8(2), uint8(5), "zz")
	f.Fuzz(func(t *testing.T, prefix, suffix []byte, format, nameIndex uint8, value string) {
		_ = Body(append(append([]byte{}, prefix...), suffix...)) // never panics
		checkShape(t, prefix)

		names := []string{"password", "token", "access_token", "session_token", "code", "client_secret", "api_key", "X-Api-Key", "new_password", "refresh_token"}
		name := names[int(nameIndex)%len(names)]
		secret := "Qz7" + fmt.Sprintf("%x", value) // letters and digits only, never empty
		var pair string
		switch format % 5 {
		case 0:
			pair = fmt.Sprintf(`{"%s": "%s"}`, name, secret)
		case 1:
			pair = fmt.Sprintf(`&%s=%s&`, name, secret)
		case 2:
			pair = fmt.Sprintf("\r\n--b\r\nContent-Disposition: form-data; name=%q\r\n\r\n%s\r\n--b", name, secret)
		case 3:
			pair = fmt.Sprintf("\n%s: %s\n", name, secret)
		default:
			pair = fmt.Sprintf(`{"outer":{"%s":[%q,{"x":%q}]}}`, name, secret, secret)
		}
		body := string(prefix) + " " + pair + " " + string(suffix)
		out, err := json.Marshal(Body([]byte(body)))
		if err != nil {
			t.Fatalf("redacted body does not encode: %v", err)
		}
		if strings.Contains(string(out), secret) {
			t.Errorf("secret survives in %s", out)
		}
	})
}

// checkShape: a JSON body and its redaction have the same arrays, objects and keys.
func checkShape(t *testing.T, body []byte) {
	var before any
	if json.Unmarshal(body, &before) != nil {
		return
	}
	var after any
	b, _ := json.Marshal(Body(body))
	if err := json.Unmarshal(b, &after); err != nil {
		t.Fatalf("redacted JSON does not decode: %v", err)
	}
	if !sameShape(before, after) {
		t.Errorf("shape changed: %s → %s", body, b)
	}
}

func sameShape(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !sameShape(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameShape(x[i], y[i]) {
				return false
			}
		}
		return true
	case nil, bool:
		return a == b
	default: // strings and numbers are leaves: a redacted one becomes a string
		switch b.(type) {
		case string, float64:
			return true
		}
		return false
	}
}

// A URL inside a URL's query, escaped as query values are (a login's next= or return_to=), has
// its credentials redacted too: in a request's target and in a header that holds a URL.
func TestNestedEscapedURLsAreRedacted(t *testing.T) {
	const secret = "NestTok77abcQ"
	target := Target("/x?next=%2Fcb%3Faccess_token%3D" + secret + "&a=1")
	if strings.Contains(target, secret) || !strings.Contains(target, "a=1") {
		t.Errorf("target: %s", target)
	}
	h := Headers(http.Header{"Referer": {"https://app.test/login?next=%2Fcb%3Faccess_token%3D" + secret}})
	if strings.Contains(h["Referer"], secret) || !strings.Contains(h["Referer"], "app.test/login") {
		t.Errorf("Referer: %s", h["Referer"])
	}
	if h := Headers(http.Header{"Referer": {"https://app.test/p?q=a%3Db"}}); h["Referer"] != "https://app.test/p?q=a%3Db" {
		t.Errorf("a Referer without a credential changed: %s", h["Referer"])
	}
}

// A body cut short ends on a whole character, whatever the text: Japanese without spaces has
// no word start within the bytes CutTail drops, and the cut fell inside a character (the journal
// showed U+FFFD the client never sent).
func TestCutTailEndsOnAWholeCharacter(t *testing.T) {
	for _, text := range []string{strings.Repeat("日本語のテキスト", 800), strings.Repeat("é🚀", 3000), strings.Repeat("a", 20000)} {
		for cut := 16000; cut < 16008; cut++ {
			if got := CutTail([]byte(text[:cut])); !utf8.Valid(got) || len(got) == 0 {
				t.Errorf("CutTail of %q… cut at %d: %d bytes, valid UTF-8 %v", text[:9], cut, len(got), utf8.Valid(got))
			}
		}
	}
}
