package spec_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/opsapi/mocktoolkit/spec"
)

var update = flag.Bool("update", false, "rewrite testdata/operations.golden from openapi.yaml")

func load(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := spec.Load(context.Background())
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return doc
}

func TestLoadValidatesOnceAndSharesTheDocument(t *testing.T) {
	first := load(t)
	if err := first.Validate(context.Background(), openapi3.EnableSchemaFormatValidation()); err != nil {
		t.Fatalf("document does not validate: %v", err)
	}
	if first.OpenAPI != "3.0.3" {
		t.Errorf("openapi = %q, want 3.0.3", first.OpenAPI)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	second, err := spec.Load(ctx)
	if err != nil {
		t.Fatalf("Load with a cancelled context after the first load: %v", err)
	}
	if first != second {
		t.Error("Load returned a different *openapi3.T on the second call")
	}
}

func TestBytesIsTheEmbeddedDocumentAndACopy(t *testing.T) {
	onDisk, err := os.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	b := spec.Bytes()
	if !bytes.Equal(b, onDisk) {
		t.Fatal("Bytes() differs from openapi.yaml")
	}
	b[0] = 'X'
	if spec.Bytes()[0] == 'X' {
		t.Error("Bytes() hands out the embedded slice itself")
	}
}

// The interface lists 24 operations, all POST; the golden file holds the operation model derived
// from the document (number, path, id, area, access, statuses, the interface's codes, fields).
func TestOperationsMatchTheGoldenList(t *testing.T) {
	doc := load(t)
	var got strings.Builder
	for _, op := range spec.Operations(doc) {
		fmt.Fprintf(&got, "%d POST %s %s area=%s access=%s statuses=%v codes=%v fields=%v required=%v\n",
			op.N, op.Path, op.ID, op.Area, op.Access, op.Statuses, codesOf(op), op.Fields, op.Required)
	}
	golden := filepath.Join("testdata", "operations.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./spec -run Golden -update to create it)", err)
	}
	if got.String() != string(want) {
		t.Errorf("operations differ from %s (rerun with -update if intended)\ngot:\n%s\nwant:\n%s", golden, got.String(), want)
	}
	if n := len(spec.OperationIDs(doc)); n != 24 {
		t.Errorf("%d operations, want 24", n)
	}
}

func TestEveryPathHasOnlyAPostOperationWithAUniqueID(t *testing.T) {
	doc := load(t)
	seen := map[string]string{}
	for path, item := range doc.Paths.Map() {
		ops := item.Operations()
		if len(ops) != 1 || item.Post == nil {
			t.Errorf("%s: operations %v, want POST only", path, keys(ops))
			continue
		}
		id := item.Post.OperationID
		if other, dup := seen[id]; dup {
			t.Errorf("operationId %s used by %s and %s", id, other, path)
		}
		seen[id] = path
	}
}

// Relative server URLs keep kin-openapi's route matching independent of host and port.
func TestServerURLsAreRelative(t *testing.T) {
	doc := load(t)
	if len(doc.Servers) == 0 {
		t.Fatal("no servers")
	}
	for _, s := range doc.Servers {
		u, err := url.Parse(s.URL)
		if err != nil {
			t.Errorf("server %q: %v", s.URL, err)
			continue
		}
		if u.IsAbs() || u.Host != "" || !strings.HasPrefix(s.URL, "/") {
			t.Errorf("server URL %q is not relative", s.URL)
		}
	}
}

// Interface, Endpoints and Authentication 4: the S operations are under /admin/.
func TestSuperadminOperationsAreTheAdminOnes(t *testing.T) {
	want := map[string]bool{
		"masterCardsCreate": true, "masterCardsUpdate": true, "masterGroupsUpdate": true,
		"masterBoardsSync": true, "masterBoardsCreate": true, "masterBoardsList": true,
		"masterGroupsCreate": true,
	}
	for _, op := range spec.Operations(load(t)) {
		underAdmin := strings.Contains(op.Path, "/admin/")
		if (op.Access == spec.Superadmin) != want[op.ID] {
			t.Errorf("%s: access %s, superadmin want %v", op.ID, op.Access, want[op.ID])
		}
		if underAdmin != want[op.ID] {
			t.Errorf("%s: under /admin/ %v, want %v", op.ID, underAdmin, want[op.ID])
		}
	}
}

// Interface, Authentication 1: every operation but the two public ones needs a bearer token.
func TestSecurityIsBearerExceptOnThePublicOperations(t *testing.T) {
	doc := load(t)
	public := map[string]bool{"authenticate": true, "domainCartRemove": true}
	for _, op := range spec.Operations(doc) {
		if op.Public() != public[op.ID] {
			t.Errorf("%s: public %v, want %v", op.ID, op.Public(), public[op.ID])
		}
		sec := doc.Paths.Value(op.Path).Post.Security
		if op.Public() {
			continue
		}
		if sec == nil || len(*sec) != 1 {
			t.Errorf("%s: security %v, want [{bearerAuth: []}]", op.ID, sec)
			continue
		}
		if _, ok := (*sec)[0]["bearerAuth"]; !ok {
			t.Errorf("%s: security %v, want bearerAuth", op.ID, *sec)
		}
	}
	scheme := doc.Components.SecuritySchemes["bearerAuth"]
	if scheme == nil || scheme.Value.Type != "http" || scheme.Value.Scheme != "bearer" {
		t.Errorf("bearerAuth scheme = %+v, want http bearer", scheme)
	}
}

func TestEveryResponseDeclaresTheRateLimitHeaders(t *testing.T) {
	doc := load(t)
	for _, op := range spec.Operations(doc) {
		for code, ref := range doc.Paths.Value(op.Path).Post.Responses.Map() {
			h := ref.Value.Headers
			for _, name := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining"} {
				hdr := h[name]
				if hdr == nil {
					t.Errorf("%s %s: no %s header", op.ID, code, name)
					continue
				}
				if wantRequired := code != "422"; hdr.Value.Required != wantRequired {
					t.Errorf("%s %s: %s required %v, want %v", op.ID, code, name, hdr.Value.Required, wantRequired)
				}
			}
			if _, ok := h["Retry-After"]; ok != (code == "429") {
				t.Errorf("%s %s: Retry-After declared %v", op.ID, code, ok)
			}
		}
	}
}

func TestRoute(t *testing.T) {
	doc := load(t)
	r, ok := spec.Route(doc, "/services/operations/v1/operations/comments/list")
	if !ok {
		t.Fatal("no route for comments/list")
	}
	if r.Method != http.MethodPost || r.Operation.OperationID != "commentsList" || r.Spec != doc || r.PathItem == nil {
		t.Errorf("route = %+v", r)
	}
	again, _ := spec.Route(doc, "/services/operations/v1/operations/comments/list")
	if again != r {
		t.Error("Route built a new route for the loaded document")
	}
	for _, path := range []string{"/v2/authenticate", "/v1/authenticate/", "", "/services/operations/v1/operations/comments"} {
		if _, ok := spec.Route(doc, path); ok {
			t.Errorf("Route(%q) found a route", path)
		}
	}
	if _, ok := spec.Route(nil, "/v1/authenticate"); ok {
		t.Error("Route(nil, ...) found a route")
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// codesOf renders the interface's codes of op ("not shown" when it does not show them).
func codesOf(op spec.Operation) string {
	if !op.CodesShown() {
		return "not-shown"
	}
	return fmt.Sprint(op.Codes)
}
