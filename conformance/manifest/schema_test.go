package manifest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/manifest"
	"github.com/opsapi/mocktoolkit/fixtures"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// The example manifest and the mock's own manifest validate against the schema, and the example
// holds everything the suite needs; a manifest with a wrong id or an unknown field does not.
func TestManifestSchema(t *testing.T) {
	example := manifest.Example
	if err := manifest.Validate(example); err != nil {
		t.Errorf("manifest.example.json does not validate against manifest.schema.json: %v", err)
	}
	var m manifest.Manifest
	if err := json.Unmarshal(example, &m); err != nil {
		t.Fatal(err)
	}
	if missing := manifest.Check(m); len(missing) > 0 {
		t.Errorf("manifest.example.json lacks %v", missing)
	}

	h, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/__mock/fixtures", nil))
	if err := manifest.Validate(rec.Body.Bytes()); err != nil {
		t.Errorf("the mock's manifest does not validate against manifest.schema.json: %v", err)
	}

	for name, bad := range map[string]string{
		"an id of 0":        strings.Replace(string(example), `"card_id": 5120`, `"card_id": 0`, 1),
		"an unknown field":  strings.Replace(string(example), `"seed": 0,`, `"seed": 0, "colour": "red",`, 1),
		"an id as a string": strings.Replace(string(example), `"tag_id": 77`, `"tag_id": "77"`, 1),
		"a key given twice": strings.Replace(string(example), `"tag_id": 77`, `"tag_id": 77, "tag_id": 78`, 1),
	} {
		if bad == string(example) {
			t.Fatalf("%s: the example changed; update this test", name)
		}
		if err := manifest.Validate([]byte(bad)); err == nil {
			t.Errorf("a manifest with %s validates", name)
		}
	}
}

// A manifest that gives a user a token needs no credentials for that user.
func TestCheckManifestAcceptsTokensForCredentials(t *testing.T) {
	var m manifest.Manifest
	if err := json.Unmarshal(manifest.Example, &m); err != nil {
		t.Fatal(err)
	}
	m.Users.Superadmin.Email, m.Users.Superadmin.Password = "", ""
	m.Tokens.Superadmin = "a-bearer-token-issued-by-an-identity-provider"
	m.Users.Member.Password = ""
	got := fmt.Sprint(manifest.Check(m))
	if strings.Contains(got, "superadmin") || !strings.Contains(got, "users.member.password") {
		t.Errorf("Check = %s; want users.member.password only (the superadmin has a token)", got)
	}
	if need := manifest.MissingFor("domainCartRemove", manifest.Check(m)); len(need) != 0 {
		t.Errorf("cart removal needs no user, but MissingFor names %v", need)
	}
	if need := manifest.MissingFor("tagsList", manifest.Check(m)); len(need) != 1 {
		t.Errorf("tags/list needs the member, but MissingFor names %v", need)
	}
}

// The teammate is optional, but one given must be whole: its e-mail without a password would
// make the thumbnail specs fail at the login instead of saying so.
func TestCheckManifestTeammateIsOptionalButWhole(t *testing.T) {
	var m manifest.Manifest
	if err := json.Unmarshal(manifest.Example, &m); err != nil {
		t.Fatal(err)
	}
	m.Users.Teammate = fixtures.Credentials{}
	if got := manifest.Check(m); len(got) != 0 {
		t.Fatalf("Check(example without the teammate) = %v; want nothing missing", got)
	}
	m.Users.Teammate.Email = "qa.second@vendor.example.com"
	got := manifest.Check(m)
	if fmt.Sprint(got) != "[users.teammate.password]" {
		t.Errorf("Check = %v; want [users.teammate.password]", got)
	}
	if need := manifest.MissingFor("thumbnailsRegenerate", got); len(need) != 1 {
		t.Errorf("the thumbnail specs use the teammate, but MissingFor names %v", need)
	}
	m.Tokens.Teammate = "a-token"
	if got := manifest.Check(m); len(got) != 0 {
		t.Errorf("with the teammate's token, Check = %v; want nothing missing", got)
	}
}

// Needs names operations by their OpenAPI operationId: a misspelt or removed one would never
// make a spec skip.
func TestNeedsNamesOperations(t *testing.T) {
	known := map[string]bool{}
	for _, op := range conformance.Operations {
		known[op.ID] = true
	}
	for id := range manifest.Needs {
		if !known[id] {
			t.Errorf("manifest.Needs names %q, which is no operation of the OpenAPI document", id)
		}
	}
}

// The suite binary checks a manifest file on its own: -check-manifest names a misspelt key and
// says what a good file still lacks.
func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	_ = os.WriteFile(good, manifest.Example, 0o644)
	_ = os.WriteFile(bad, []byte(strings.Replace(string(manifest.Example), `"board_id"`, `"bord_id"`, 1)), 0o644)
	if missing, err := manifest.CheckFile(good); err != nil || len(missing) > 0 {
		t.Errorf("the example: missing %v, error %v", missing, err)
	}
	if _, err := manifest.CheckFile(bad); err == nil || !strings.Contains(err.Error(), "bord_id") {
		t.Errorf("a file with bord_id: %v, want an error naming it", err)
	}
}

// A key given twice is named by where it is: encoding/json would keep the last silently.
func ExampleValidate_duplicateKey() {
	err := manifest.Validate([]byte(`{"users": {"member": {"email": "a@example.com", "email": "b@example.com"}}}`))
	fmt.Println(err)
	// Output: names /users/member/email twice: a manifest gives each key once
}
