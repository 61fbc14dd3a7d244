package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
)

// The fuzz targets. `go test` runs their seeds (f.Add and testdata/fuzz/<Target>/); `make
// fuzz` runs each with -fuzz for a few seconds. The rule they hold: any input gets an answer in
// the interface's envelope, never a panic, never a 500.

var (
	fuzzOnce sync.Once
	fuzzMock *benchMock
	fuzzTok  map[byte]string
	fuzzErr  error
)

// fuzzTarget is one mock shared by every input of a fuzz run (a new one per input would make
// the fuzzer crawl); state changes between inputs are part of what it explores.
func fuzzTarget(t *testing.T) (*benchMock, map[byte]string) {
	fuzzOnce.Do(func() {
		fuzzErr = errors.New("the first input's set-up failed")
		fuzzMock = newBenchMock(t, nil)
		creds := fuzzMock.manifest.Users.Superadmin
		res, err := fuzzMock.s.worlds.def.state().store.Authenticate(reference.AuthenticateInput{Email: creds.Email, Password: creds.Password})
		fuzzErr = err
		fuzzTok = map[byte]string{1: "Bearer " + fuzzMock.token, 2: "Bearer " + res.Token}
	})
	if fuzzErr != nil {
		t.Fatalf("fuzz set-up: %v", fuzzErr)
	}
	return fuzzMock, fuzzTok
}

// FuzzHandler sends arbitrary methods, paths, Authorization and Content-Type headers and bodies
// through the whole handler. op picks one of the 24 operation paths when rawPath is empty; auth
// 1 and 2 send the member's and the superadmin's tokens, any other value sends authRaw.
func FuzzHandler(f *testing.F) {
	f.Add("POST", uint8(1), "", uint8(1), "", "application/json", []byte(`{"card_id":1,"per_page":15}`))
	f.Add("POST", uint8(0), "", uint8(0), "", "application/json", []byte(`{"email":"a@b.co","password":"x"}`))
	f.Add("POST", uint8(17), "", uint8(1), "", "text/plain", []byte(`{"title":"<b>\u2028</b>","due_date":"2026-02-31T00:00:00Z"}`))
	f.Add("GET", uint8(0), "/services/operations/v1/operations/cards/list", uint8(9), "Bearer nope", "", []byte(nil))
	f.Add("POST", uint8(21), "", uint8(0), "", "application/json", []byte(`{"session_token":null,"cart_item_id":1e400}`))
	f.Add("POST", uint8(2), "", uint8(2), "", "application/json", []byte(`[1,2,3]`))
	f.Add("POST", uint8(0), "/v2/authenticate/../x", uint8(0), "", "", []byte("\xff\xfe{"))
	f.Fuzz(func(t *testing.T, method string, op uint8, rawPath string, auth uint8, authRaw, contentType string, body []byte) {
		m, tokens := fuzzTarget(t)
		path := rawPath
		if path == "" {
			paths := slices.Sorted(maps.Keys(m.s.ops))
			path = paths[int(op)%len(paths)]
		}
		r := &http.Request{Method: method, URL: &url.URL{Path: path}, Header: http.Header{},
			Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)),
			RemoteAddr: "127.0.0.1:1234", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
		r = r.WithContext(t.Context())
		if tok, ok := tokens[auth]; ok {
			r.Header.Set("Authorization", tok)
		} else if auth != 0 {
			r.Header.Set("Authorization", authRaw)
		}
		r.Header.Set("Content-Type", contentType)
		rec := httptest.NewRecorder()
		m.h.ServeHTTP(rec, r)
		checkEnvelope(t, rec, method+" "+path, false)
	})
}

// checkEnvelope fails unless the answer is JSON in one of the interface's shapes (and not a
// 500 unless allow500).
func checkEnvelope(t *testing.T, rec *httptest.ResponseRecorder, what string, allow500 bool) {
	t.Helper()
	if rec.Code >= 500 && !allow500 {
		t.Fatalf("%s: status %d: %s", what, rec.Code, rec.Body.Bytes())
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("%s: Content-Type %q", what, ct)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("%s: answer is not a JSON object: %v: %q", what, err, rec.Body.Bytes())
	}
	if _, ok := body["message"]; !ok {
		t.Fatalf("%s: answer has no message: %s", what, rec.Body.Bytes())
	}
	_, hasErrors := body["errors"]
	_, hasError := body["error"]
	if rec.Code == http.StatusUnprocessableEntity && !hasErrors || rec.Code != http.StatusUnprocessableEntity && !hasError {
		t.Fatalf("%s: status %d in the wrong shape: %s", what, rec.Code, rec.Body.Bytes())
	}
}

// FuzzEnvelope writes arbitrary messages, field names and record text through every envelope
// writer: the answer is always valid JSON, and the hand-written encoding (encode.go) is byte
// for byte what encoding/json writes.
func FuzzEnvelope(f *testing.F) {
	f.Add("Comments retrieved successfully.", "title", "plain text", int64(1))
	f.Add("<script>&\u2028\u2029", "per_page", "\x00\x1f\"\\\b\f\n\r\t", int64(-1))
	f.Add("\xff\xfe invalid", "\xc3(", "émoji 🎉 \xed\xa0\x80", int64(1<<62))
	s, err := New(Config{}) // its logger discards: writeError logs unknown codes as internal errors
	if err != nil {
		f.Fatal(err)
	}
	rt := s.ops["/services/operations/v1/operations/comments/list"]
	f.Fuzz(func(t *testing.T, message, field, text string, n int64) {
		for _, write := range []func(http.ResponseWriter){
			func(w http.ResponseWriter) { writeShapeA(w, http.StatusNotFound, message) },
			func(w http.ResponseWriter) { writeShapeB(w, http.StatusUnauthorized, message) },
			func(w http.ResponseWriter) { writeValidation(w, map[string][]string{field: {message, text}}) },
			func(w http.ResponseWriter) { writeRateLimited(w, message, time.Duration(n)) },
			func(w http.ResponseWriter) { s.writeError(w, rt, &reference.Error{Code: field, Message: message}) },
		} {
			rec := httptest.NewRecorder()
			write(rec)
			checkEnvelope(t, rec, "envelope", true)
		}
		page := commentPage{Comments: []reference.Comment{fuzzComment(text, n)}, Pagination: reference.Pagination{Total: n}}
		sameAsEncodingJSON(t, message, page)
		sameAsEncodingJSON(t, message, cardList{fuzzCard(text, n)})
	})
}

// sameAsEncodingJSON fails unless writeSuccess writes data exactly as encoding/json does.
func sameAsEncodingJSON(t *testing.T, message string, data fastData) {
	t.Helper()
	fast := httptest.NewRecorder()
	writeSuccess(fast, http.StatusOK, message, data)
	slow := httptest.NewRecorder()
	writeJSON(slow, http.StatusOK, envelope{Message: message, Data: data.plain()})
	if !bytes.Equal(fast.Body.Bytes(), slow.Body.Bytes()) {
		t.Fatalf("hand-written JSON differs from encoding/json:\n%s\n%s", fast.Body.Bytes(), slow.Body.Bytes())
	}
}

func fuzzComment(text string, n int64) reference.Comment {
	at := time.Unix(n%(1<<36), n%1e9).UTC()
	return reference.Comment{ID: n, ProjectID: -n, CardID: n / 3, UserID: 7, Comment: text, IsRead: n%2 == 0,
		ReadAt: &at, ParentCommentID: &n, CreatedAt: at, UpdatedAt: at.Add(time.Second)}
}

func fuzzCard(text string, n int64) reference.Card {
	at := time.Unix(n%(1<<36), 0).UTC()
	return reference.Card{ID: n, ProjectID: &n, PlatformID: 1, IsActive: true, UniqueIdentifier: &text,
		TourKey: &text, CardType: text, GroupID: &n, Title: text, Description: &text, Status: text,
		DueDate: &at, Priority: text, SortOrder: n, Position: -n, IsOverdue: true, CreatedAt: at, UpdatedAt: at}
}
