package spec_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// mockNow pins the clock of the mocks these tests start.
var mockNow = time.Date(2026, 11, 21, 9, 30, 0, 0, time.UTC)

// startMock runs the in-process mock of the default world and returns its URL and manifest.
func startMock(t *testing.T) (string, fixtures.Manifest) {
	t.Helper()
	h, err := mockserver.New(mockserver.Config{Now: mockNow})
	if err != nil {
		t.Fatalf("mockserver.New: %v", err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL, fixtures.Build(fixtures.DefaultSeed, mockNow).Manifest
}

// postJSON sends body to the mock and decodes the answer.
func postJSON(t *testing.T, url, token, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(res.Body); err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatalf("%s: answer is not a JSON object: %v\n%s", url, err, buf.Bytes())
	}
	return res.StatusCode, v
}

func loginAs(t *testing.T, base string, c fixtures.Credentials) string {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"email": c.Email, "password": c.Password})
	status, v := postJSON(t, base+pAuthenticate, "", string(b))
	data, _ := v["data"].(map[string]any)
	token, _ := data["token"].(string)
	if status != http.StatusOK || token == "" {
		t.Fatalf("login %s: %d %v", c.Email, status, v)
	}
	return token
}

// A nullable enumeration lists null among its values; the mock still accepts null and still
// names only the real values when it refuses one.
func TestNullableEnumsAcceptNullAndNameOnlyTheirValues(t *testing.T) {
	base, m := startMock(t)
	member := loginAs(t, base, m.Users.Member)
	admin := loginAs(t, base, m.Users.Superadmin)
	o := m.Operations
	cases := []struct {
		name, token, path, body string
		status                  int
		field, sentence         string
	}{
		{"cards/create accepts a null priority", member, pCardsCreate,
			`{"title": "Null priority", "priority": null}`, 200, "", ""},
		{"cards/update accepts a null priority", member, pCardsUpdate,
			jsonf(`{"id": %d, "priority": null}`, o.CardID), 200, "", ""},
		{"master-cards/update accepts null card_type, status and priority", admin, pMasterCardsUpd,
			jsonf(`{"id": %d, "card_type": null, "status": null, "priority": null}`, o.MasterCardID), 200, "", ""},
		{"cards/create refuses an unknown priority, naming the four values", member, pCardsCreate,
			`{"title": "Bad priority", "priority": "asap"}`, 422, "priority",
			"The selected priority is invalid (allowed: low, normal, high, urgent)."},
		{"master-cards/create refuses an unknown status, naming the five values", admin, pMasterCardsNew,
			jsonf(`{"group_id": %d, "title": "Bad status", "status": "done"}`, o.MasterGroupID), 422, "status",
			"The selected status is invalid (allowed: open, in_progress, closed, to_check, blocked)."},
		{"master-cards/update refuses an unknown card type, naming the three values", admin, pMasterCardsUpd,
			jsonf(`{"id": %d, "card_type": "banner"}`, o.MasterCardID), 422, "card_type",
			"The selected card type is invalid (allowed: widget, widget_tour, tour)."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, v := postJSON(t, base+c.path, c.token, c.body)
			if status != c.status {
				t.Fatalf("status %d, want %d: %v", status, c.status, v)
			}
			if c.field == "" {
				return
			}
			errs, _ := v["errors"].(map[string]any)
			got, _ := errs[c.field].([]any)
			if len(got) != 1 || got[0] != c.sentence {
				t.Errorf("errors.%s = %v, want [%q]", c.field, got, c.sentence)
			}
		})
	}
}

func jsonf(format string, args ...any) string {
	return strings.TrimSpace(fmt.Sprintf(format, args...))
}
