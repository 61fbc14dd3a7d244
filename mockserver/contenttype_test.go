package mockserver_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A request body that is not declared JSON is refused, naming the header, in a status the
// operation lists (D6): a frontend that forgets the header fails against the mock as it would
// against a real framework. Config.LenientContentType reads it as JSON instead.
func TestContentTypeMustBeJSON(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member := m.login(m.manifest.Users.Member)
	body := `{"title":"From a form"}`
	for _, tc := range []struct{ name, contentType string }{
		{"text/plain, as fetch sends a string", "text/plain;charset=UTF-8"},
		{"form-encoded, as curl -d sends", "application/x-www-form-urlencoded"},
		{"multipart", "multipart/form-data; boundary=x"},
		{"no header at all", ""},
		{"a malformed header", "application/"},
		{"JSON in another charset", "application/json; charset=latin1"},
	} {
		t.Run("refuses "+tc.name, func(t *testing.T) {
			status, answer := sendAs(t, m.url+pCardsCreate, member, tc.contentType, body)
			if status != http.StatusBadRequest || !strings.Contains(answer, `"message":"The Content-Type header`) || !strings.Contains(answer, `"data":[]`) {
				t.Errorf("%s: %d %s, want 400 shape (a) naming the header", tc.contentType, status, answer)
			}
		})
	}
	for _, ct := range []string{"application/json", "application/json; charset=utf-8", "application/vnd.api+json"} {
		t.Run("accepts "+ct, func(t *testing.T) {
			if status, answer := sendAs(t, m.url+pCardsCreate, member, ct, body); status != http.StatusOK {
				t.Errorf("%s: %d %s, want 200", ct, status, answer)
			}
		})
	}
	t.Run("names the charset of JSON declared in another", func(t *testing.T) {
		status, answer := sendAs(t, m.url+pCardsCreate, member, "application/json; charset=latin1", body)
		if status != http.StatusBadRequest || !strings.Contains(answer, `charset \"latin1\"`) || !strings.Contains(answer, "UTF-8") {
			t.Errorf("%d %s, want 400 naming the charset and UTF-8", status, answer)
		}
	})
	t.Run("names the header for a real form body, not its bytes", func(t *testing.T) {
		status, answer := sendAs(t, m.url+pCardsCreate, member, "application/x-www-form-urlencoded", "title=x")
		if status != http.StatusBadRequest || !strings.Contains(answer, `"message":"The Content-Type header`) {
			t.Errorf("%d %s, want 400 naming the header", status, answer)
		}
	})
	t.Run("refuses two Content-Type headers, even both JSON", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, m.url+pCardsCreate, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+member)
		req.Header["Content-Type"] = []string{"application/json", "application/json"}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(raw), "more than one Content-Type header") {
			t.Errorf("%d %s, want 400 saying the request carries more than one Content-Type header", res.StatusCode, raw)
		}
	})
	t.Run("accepts an empty body without a header", func(t *testing.T) {
		if status, answer := sendAs(t, m.url+pCardsList, member, "", ""); status != http.StatusOK {
			t.Errorf("%d %s, want 200", status, answer)
		}
	})
	t.Run("answers 422 keyed by the header where the operation lists no 400", func(t *testing.T) {
		status, answer := sendAs(t, m.url+pConvRestore, member, "text/plain", `{"conversation_id":1}`)
		if status != http.StatusUnprocessableEntity || !strings.Contains(answer, `"errors":{"Content-Type":["The Content-Type header must be application/json, not \"text/plain\"."]}`) {
			t.Errorf("%d %s, want 422 keyed by the header", status, answer)
		}
	})
	t.Run("reads any body as JSON when lenient", func(t *testing.T) {
		lenient := newMock(t, mockserver.Config{LenientContentType: true})
		token := lenient.login(lenient.manifest.Users.Member)
		if status, answer := sendAs(t, lenient.url+pCardsCreate, token, "text/plain", body); status != http.StatusOK {
			t.Errorf("%d %s, want 200", status, answer)
		}
	})
}

// sendAs posts body with exactly the given Content-Type (none when empty) and the token.
func sendAs(t *testing.T, url, token, contentType, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}
