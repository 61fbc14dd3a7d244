package conformance_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// manifestSchema loads manifest.schema.json, its local $refs inlined, as a kin-openapi schema.
func manifestSchema(t *testing.T) *openapi3.Schema {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(conformance.ManifestSchema, &doc); err != nil {
		t.Fatalf("manifest.schema.json: %v", err)
	}
	defs, _ := doc["$defs"].(map[string]any)
	var inline func(v any) any
	inline = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok {
				name, found := strings.CutPrefix(ref, "#/$defs/")
				if !found || defs[name] == nil {
					t.Fatalf("manifest.schema.json: unresolved $ref %q", ref)
				}
				return inline(defs[name])
			}
			out := map[string]any{}
			for k, e := range x {
				if k != "$defs" {
					out[k] = inline(e)
				}
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = inline(e)
			}
			return out
		}
		return v
	}
	flat, _ := json.Marshal(inline(doc))
	var s openapi3.Schema
	if err := json.Unmarshal(flat, &s); err != nil {
		t.Fatalf("manifest.schema.json as a schema: %v", err)
	}
	return &s
}

func validateManifest(t *testing.T, s *openapi3.Schema, raw []byte) error {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	return s.VisitJSON(v, openapi3.MultiErrors())
}

// The example manifest and the mock's own manifest validate against the schema, and the example
// holds everything the suite needs; a manifest with a wrong id or an unknown field does not.
func TestManifestSchema(t *testing.T) {
	s := manifestSchema(t)
	example := conformance.ManifestExample
	if err := validateManifest(t, s, example); err != nil {
		t.Errorf("manifest.example.json does not validate against manifest.schema.json: %v", err)
	}
	var m conformance.Manifest
	if err := json.Unmarshal(example, &m); err != nil {
		t.Fatal(err)
	}
	if missing := conformance.CheckManifest(m); len(missing) > 0 {
		t.Errorf("manifest.example.json lacks %v", missing)
	}

	h, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/__mock/fixtures", nil))
	if err := validateManifest(t, s, rec.Body.Bytes()); err != nil {
		t.Errorf("the mock's manifest does not validate against manifest.schema.json: %v", err)
	}

	for name, bad := range map[string]string{
		"an id of 0":        strings.Replace(string(example), `"card_id": 5120`, `"card_id": 0`, 1),
		"an unknown field":  strings.Replace(string(example), `"seed": 0,`, `"seed": 0, "colour": "red",`, 1),
		"an id as a string": strings.Replace(string(example), `"tag_id": 77`, `"tag_id": "77"`, 1),
	} {
		if bad == string(example) {
			t.Fatalf("%s: the example changed; update this test", name)
		}
		if err := validateManifest(t, s, []byte(bad)); err == nil {
			t.Errorf("a manifest with %s validates", name)
		}
	}
}

// A manifest that gives a user a token needs no credentials for that user.
func TestCheckManifestAcceptsTokensForCredentials(t *testing.T) {
	var m conformance.Manifest
	if err := json.Unmarshal(conformance.ManifestExample, &m); err != nil {
		t.Fatal(err)
	}
	m.Users.Superadmin.Email, m.Users.Superadmin.Password = "", ""
	m.Users.Member.Password = ""
	got := fmt.Sprint(conformance.CheckManifest(m))
	if strings.Contains(got, "superadmin") || !strings.Contains(got, "users.member.password") {
		t.Errorf("CheckManifest = %s; want users.member.password only (the superadmin has a token)", got)
	}
	if need := conformance.MissingFor(conformance.OpDomainCartRemove.ID, conformance.CheckManifest(m)); len(need) != 0 {
		t.Errorf("cart removal needs no user, but MissingFor names %v", need)
	}
	if need := conformance.MissingFor(conformance.OpTagsList.ID, conformance.CheckManifest(m)); len(need) != 1 {
		t.Errorf("tags/list needs the member, but MissingFor names %v", need)
	}
}
