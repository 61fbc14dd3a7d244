package spec_test

import (
	"context"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/opsapi/mocktoolkit/spec"
)

const (
	pAuthenticate   = "/v1/authenticate"
	pCommentsList   = "/services/operations/v1/operations/comments/list"
	pMasterCardsNew = "/services/operations/v1/admin/master-cards/create"
	pMasterCardsUpd = "/services/operations/v1/admin/master-cards/update"
	pCardsUpdate    = "/services/operations/v1/operations/cards/update"
	pWidgetList     = "/services/operations/v1/operations/widget/cards/list"
	pTourUpdate     = "/services/operations/v1/operations/tour/cards/update"
	pGroupsDelete   = "/services/operations/v1/operations/groups/delete"
	pRestore        = "/services/ai/v1/conversations/restore"
	pMasterBoardNew = "/services/operations/v1/admin/master-boards/create"
	pBoardsList     = "/services/operations/v1/operations/boards/list"
	pCardsList      = "/services/operations/v1/operations/cards/list"
	pCardsCreate    = "/services/operations/v1/operations/cards/create"
	pTagsCreate     = "/services/operations/v1/operations/tags/create"
	pCartRemove     = "/services/domains/v1/domain-cart/remove"
	pThumbnails     = "/services/websites/v1/thumbnails/regenerate"
	pDeprecate      = "/services/websites/v1/themes/versions/deprecate"
)

// options are the request validation options the HTTP layer uses: authentication is done
// before validation, so the security requirement is satisfied by a no-op.
func options() *openapi3filter.Options {
	return &openapi3filter.Options{MultiError: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}
}

func requestInput(t *testing.T, path, body string) *openapi3filter.RequestValidationInput {
	t.Helper()
	route, ok := spec.Route(load(t), path)
	if !ok {
		t.Fatalf("no route for %s", path)
	}
	req, err := http.NewRequest(http.MethodPost, "http://mock.test"+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return &openapi3filter.RequestValidationInput{Request: req, Route: route, Options: options()}
}

func validateRequest(t *testing.T, path, body string) error {
	t.Helper()
	return openapi3filter.ValidateRequest(context.Background(), requestInput(t, path, body))
}

// failures lists the failed fields of err as "field keyword", sorted: the key the 422 errors
// object is keyed by, and the schema keyword that failed.
func failures(err error) []string {
	var out []string
	for _, e := range spec.SchemaErrors(err) {
		out = append(out, spec.Field(e)+" "+e.SchemaField)
	}
	sort.Strings(out)
	return out
}

func TestRequestValidationAcceptsValidBodies(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		name, path, body string
	}{
		{"authenticate with an e-mail and a password", pAuthenticate, `{"email":"ada@example.com","password":"secret"}`},
		{"authenticate with null optional fields", pAuthenticate, `{"email":"ada@example.com","password":"secret","token":null,"code":null,"is_recovery":null}`},
		{"comments list with bounds of per_page and page", pCommentsList, `{"card_id":1,"page":1,"per_page":100}`},
		{"comments list with per_page 1 and null page", pCommentsList, `{"card_id":1,"page":null,"per_page":1}`},
		{"master card create with every field", pMasterCardsNew, `{"group_id":1,"title":"` + long(255) + `","description":"d","unique_identifier":"` + long(100) + `","evaluation_check":"e","tour_key":"k","short_description":"s","card_type":"widget_tour","status":"to_check","is_active":true,"priority":"urgent","push_to_projects":false}`},
		{"master card create with null enumerations", pMasterCardsNew, `{"group_id":1,"title":"t","card_type":null,"status":null,"priority":null}`},
		{"master card update with only the id", pMasterCardsUpd, `{"id":3}`},
		{"card update with RFC 3339 dates", pCardsUpdate, `{"id":1,"due_date":"2026-11-21T09:30:00Z","snoozed_until":"2026-11-21T10:30:00.5+01:00"}`},
		{"card update clearing fields with null", pCardsUpdate, `{"id":1,"due_date":null,"owner_id":null,"status":null}`},
		{"widget list with a tool key of 50", pWidgetList, `{"tool_key":"` + long(50) + `"}`},
		{"tour card update closing", pTourUpdate, `{"id":1,"status":"closed"}`},
		{"conversation restore with id 1", pRestore, `{"conversation_id":1}`},
		{"master board create with a tool key of 100", pMasterBoardNew, `{"title":"b","tool_key":"` + long(100) + `"}`},
		{"boards list with an empty body", pBoardsList, ``},
		{"boards list with a null tool key", pBoardsList, `{"tool_key":null}`},
		{"cards list with an empty body", pCardsList, ``},
		{"cards list with an empty object", pCardsList, `{}`},
		{"cards list ignoring unknown fields (D7)", pCardsList, `{"anything":[1,2]}`},
		{"card create with a title of 255", pCardsCreate, `{"title":"` + long(255) + `"}`},
		{"card create ignoring unknown fields (D7)", pCardsCreate, `{"title":"t","colour":"red"}`},
		{"tag create with color 50 and icon 100", pTagsCreate, `{"name":"n","color":"` + long(50) + `","icon":"` + long(100) + `","position":null}`},
		{"cart removal with a token of 64", pCartRemove, `{"session_token":"` + long(64) + `","cart_item_id":7}`},
		{"thumbnail regeneration of a layout", pThumbnails, `{"type":"layout","entity_id":1}`},
		{"deprecation of a version", pDeprecate, `{"version_id":12}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := validateRequest(t, tt.path, tt.body); err != nil {
				t.Errorf("rejected %s: %v", tt.body, err)
			}
		})
	}
}

func TestRequestValidationRejectsInvalidFieldsByName(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		name, path, body string
		want             []string // "field keyword", sorted
	}{
		{"rejects a card id given as a string (D8)", pCommentsList, `{"card_id":"1"}`, []string{"card_id type"}},
		{"rejects a fractional id (D8)", pCardsUpdate, `{"id":1.5}`, []string{"id type"}},
		{"rejects a boolean given as a string", pWidgetList, `{"tool_key":"t","include_snoozed":"yes"}`, []string{"include_snoozed type"}},
		{"rejects a missing title", pCardsCreate, `{"description":"x"}`, []string{"title required"}},
		{"rejects a missing session token and item", pCartRemove, `{}`, []string{"cart_item_id required", "session_token required"}},
		{"rejects a priority outside the enumeration", pCardsCreate, `{"title":"t","priority":"asap"}`, []string{"priority enum"}},
		{"rejects a master card status outside the enumeration", pMasterCardsNew, `{"group_id":1,"title":"t","status":"done"}`, []string{"status enum"}},
		{"rejects a thumbnail type outside the enumeration", pThumbnails, `{"type":"video","entity_id":1}`, []string{"type enum"}},
		{"rejects page 0", pCommentsList, `{"card_id":1,"page":0}`, []string{"page minimum"}},
		{"rejects per_page 0", pCommentsList, `{"card_id":1,"per_page":0}`, []string{"per_page minimum"}},
		{"rejects conversation id 0", pRestore, `{"conversation_id":0}`, []string{"conversation_id minimum"}},
		{"rejects entity id 0", pThumbnails, `{"type":"page","entity_id":0}`, []string{"entity_id minimum"}},
		{"rejects per_page 101", pCommentsList, `{"card_id":1,"per_page":101}`, []string{"per_page maximum"}},
		{"rejects a title of 256 characters", pCardsCreate, `{"title":"` + long(256) + `"}`, []string{"title maxLength"}},
		{"rejects a tag name of 256 characters", pTagsCreate, `{"name":"` + long(256) + `"}`, []string{"name maxLength"}},
		{"rejects a widget tool key of 51 characters", pWidgetList, `{"tool_key":"` + long(51) + `"}`, []string{"tool_key maxLength"}},
		{"rejects a master board tool key of 101 characters", pMasterBoardNew, `{"title":"b","tool_key":"` + long(101) + `"}`, []string{"tool_key maxLength"}},
		{"rejects a boards list tool key that is not a string (D30)", pBoardsList, `{"tool_key":5}`, []string{"tool_key type"}},
		{"rejects a session token of 65 characters", pCartRemove, `{"session_token":"` + long(65) + `","cart_item_id":1}`, []string{"session_token maxLength"}},
		{"rejects a card status of 51 characters", pCardsUpdate, `{"id":1,"status":"` + long(51) + `"}`, []string{"status maxLength"}},
		{"rejects a malformed e-mail", pAuthenticate, `{"email":"ada.example.com","password":"p"}`, []string{"email format"}},
		{"rejects a due date of tomorrow", pCardsUpdate, `{"id":1,"due_date":"tomorrow"}`, []string{"due_date format"}},
		{"rejects a date without a time", pCardsCreate, `{"title":"t","due_date":"2026-11-21"}`, []string{"due_date format"}},
		{"rejects a date-time that names no day", pCardsUpdate, `{"id":1,"snoozed_until":"2026-02-31T00:00:00Z"}`, []string{"snoozed_until format"}},
		{"rejects a null title", pCardsCreate, `{"title":null}`, []string{"title nullable"}},
		{"rejects a null tool key on the widget list", pWidgetList, `{"tool_key":null}`, []string{"tool_key nullable"}},
		// kin-openapi checks the enumeration before nullability, so null on a non-nullable
		// enumerated field fails with keyword "enum"; the field is still named.
		{"rejects a null tour card status", pTourUpdate, `{"id":1,"status":null}`, []string{"status enum"}},
		{"reports every failed field at once", pCardsCreate, `{"title":5,"priority":"x","due_date":"soon"}`, []string{"due_date format", "priority enum", "title type"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := validateRequest(t, tt.path, tt.body)
			if err == nil {
				t.Fatalf("accepted %s", tt.body)
			}
			if got := failures(err); !slices.Equal(got, tt.want) {
				t.Errorf("failures = %q, want %q\nerror: %v", got, tt.want, err)
			}
		})
	}
}

// A body that is not a JSON object is no field's fault: D2 answers 400, not 422.
func TestRequestValidationOfBodiesThatAreNotObjects(t *testing.T) {
	t.Run("malformed JSON carries no schema error", func(t *testing.T) {
		err := validateRequest(t, pCardsCreate, `{"title":`)
		if err == nil {
			t.Fatal("accepted malformed JSON")
		}
		if got := spec.SchemaErrors(err); len(got) != 0 {
			t.Errorf("schema errors %v, want none", got)
		}
	})
	t.Run("an array carries one schema error about no field", func(t *testing.T) {
		err := validateRequest(t, pCardsCreate, `[1]`)
		got := spec.SchemaErrors(err)
		if len(got) != 1 || spec.Field(got[0]) != "" || got[0].SchemaField != "type" {
			t.Errorf("schema errors %v, want one type error with an empty pointer", got)
		}
	})
}

// Interface, Endpoints: the codes each operation lists; D1 for those the interface does not show;
// plus the reference's one addition: 413 everywhere (D41).
func TestResponseCodesPerOperation(t *testing.T) {
	const (
		full     = "200 400 401 403 404 413 422 429 500"
		no404    = "200 400 401 403 413 422 429 500"
		noFields = "200 400 401 403 413 429 500"
	)
	want := map[string]string{
		"authenticate": "200 400 401 413 422 429 500", "commentsList": no404,
		"masterCardsCreate": "201 400 401 403 404 413 422 429 500", "masterCardsUpdate": full,
		"cardsUpdate": full, "boardsUpdate": full, "masterGroupsUpdate": full, "widgetCardsList": no404,
		"tourCardsUpdate": full, "masterBoardsSync": full, "groupsDelete": full,
		"conversationsRestore": "200 401 403 404 413 422 429", "masterBoardsCreate": no404,
		"boardsList": noFields, "masterBoardsList": noFields, "cardsList": noFields, "tagsList": noFields,
		"cardsCreate": full, "masterGroupsCreate": full, "commentsCreate": full, "tagsCreate": no404,
		"domainCartRemove": "200 404 409 413 422 429", "thumbnailsRegenerate": "200 401 403 404 413 422 429",
		"themeVersionsDeprecate": full,
	}
	doc := load(t)
	for _, op := range spec.Operations(doc) {
		codes := keys(doc.Paths.Value(op.Path).Post.Responses.Map())
		sort.Strings(codes)
		if got := strings.Join(codes, " "); got != want[op.ID] {
			t.Errorf("%s: codes %s, want %s", op.ID, got, want[op.ID])
		}
	}
}

func validateResponse(t *testing.T, path string, status int, header http.Header, body string) error {
	t.Helper()
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: requestInput(t, path, `{}`),
		Status:                 status,
		Header:                 header,
		Options:                &openapi3filter.Options{MultiError: true, IncludeResponseStatus: true},
	}
	in.SetBodyBytes([]byte(body))
	return openapi3filter.ValidateResponse(context.Background(), in)
}

func headers(kv ...string) http.Header {
	h := http.Header{"Content-Type": {"application/json; charset=utf-8"}}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

const nullCard = `{"id":1,"project_id":null,"platform_id":1,"is_master":true,"is_active":true,"master_card_id":null,` +
	`"unique_identifier":null,"evaluation_check":null,"tour_key":null,"short_description":null,"card_type":"tour",` +
	`"group_id":2,"title":"t","description":null,"status":"open","owner_id":null,"tag_id":null,"due_date":null,` +
	`"snoozed_until":null,"priority":"normal","sort_order":0,"position":0,"is_overdue":false,"created_by":1,` +
	`"created_at":"2026-11-21T09:30:00Z","updated_at":"2026-11-21T09:30:00Z","deleted_at":null}`

func TestResponseValidation(t *testing.T) {
	limits := []string{"X-RateLimit-Limit", "1000", "X-RateLimit-Remaining", "999"}
	tests := []struct {
		name   string
		path   string
		status int
		header http.Header
		body   string
		ok     bool
	}{
		{"accepts a deprecation envelope", pDeprecate, 200, headers(limits...),
			`{"error":false,"message":"ok","data":{"version_id":"12","theme_status":"deprecated"}}`, true},
		{"rejects version_id as an integer", pDeprecate, 200, headers(limits...),
			`{"error":false,"message":"ok","data":{"version_id":12,"theme_status":"deprecated"}}`, false},
		{"rejects a success without the rate-limit headers", pDeprecate, 200, headers(),
			`{"error":false,"message":"ok","data":{"version_id":"12","theme_status":"deprecated"}}`, false},
		{"rejects a non-integer rate-limit header", pDeprecate, 200, headers("X-RateLimit-Limit", "many", "X-RateLimit-Remaining", "1"),
			`{"error":false,"message":"ok","data":{"version_id":"12","theme_status":"deprecated"}}`, false},
		{"rejects a success without message", pDeprecate, 200, headers(limits...),
			`{"error":false,"data":{"version_id":"12","theme_status":"deprecated"}}`, false},
		{"rejects a status the operation does not list", pDeprecate, 409, headers(limits...),
			`{"error":true,"message":"m","data":[]}`, false},
		{"accepts a 201 master card with null fields (D9)", pMasterCardsNew, 201, headers(limits...),
			`{"error":false,"message":"ok","data":{"card":` + nullCard + `,"projects_updated":"0"}}`, true},
		{"rejects projects_updated as an integer on create", pMasterCardsNew, 201, headers(limits...),
			`{"error":false,"message":"ok","data":{"card":` + nullCard + `,"projects_updated":0}}`, false},
		{"rejects a card missing a listed field", pCardsCreate, 200, headers(limits...),
			`{"error":false,"message":"ok","data":{"card":{"id":1}}}`, false},
		{"accepts any value where the interface types string or mixed (D21)", pMasterCardsUpd, 200, headers(limits...),
			`{"error":false,"message":"ok","data":{"card":"anything","projects_updated":2}}`, true},
		{"rejects a data without the untyped key", pMasterCardsUpd, 200, headers(limits...),
			`{"error":false,"message":"ok","data":{"projects_updated":2}}`, false},
		{"accepts an empty data array", pGroupsDelete, 200, headers(limits...),
			`{"error":false,"message":"ok","data":[]}`, true},
		{"rejects a non-empty data array", pGroupsDelete, 200, headers(limits...),
			`{"error":false,"message":"ok","data":[1]}`, false},
		{"accepts a 404 in shape (a)", pCartRemove, 404, headers(limits...),
			`{"error":true,"message":"not found","data":[]}`, true},
		{"rejects a 404 without data", pCartRemove, 404, headers(limits...),
			`{"error":true,"message":"not found"}`, false},
		{"accepts a 403 in shape (b)", pMasterBoardNew, 403, headers(limits...),
			`{"error":true,"message":"forbidden"}`, true},
		{"accepts a 403 in shape (a)", pWidgetList, 403, headers(limits...),
			`{"error":true,"message":"forbidden","data":[]}`, true},
		{"accepts a 401 of a failed login (D1)", pAuthenticate, 401, headers(limits...),
			`{"error":true,"message":"bad credentials","errors":["bad credentials"]}`, true},
		{"accepts a 422 without headers", pCardsCreate, 422, headers(),
			`{"message":"The title field is required.","errors":{"title":["The title field is required."]}}`, true},
		{"accepts a 422 whose errors hold a detail in another form (the interface gives none)", pCardsCreate, 422, headers(),
			`{"message":"m","errors":{"title":"required"}}`, true},
		{"rejects a 422 whose errors is not an object", pCardsCreate, 422, headers(),
			`{"message":"m","errors":["title is required"]}`, false},
		{"accepts a 429 with Retry-After", pThumbnails, 429, headers(append(limits, "Retry-After", "30")...),
			`{"error":true,"message":"slow down"}`, true},
		{"rejects a 429 without Retry-After", pThumbnails, 429, headers(limits...),
			`{"error":true,"message":"slow down"}`, false},
		{"accepts a login result with a null language", pAuthenticate, 200, headers(limits...),
			`{"error":false,"message":"ok","errors":[],"data":{"needs_code__regeneration":false,"warn_message":"","token":"abc","language":null,"id":1,"name":"Ada","email":"ada@example.com"}}`, true},
		{"accepts comments with pagination", pCommentsList, 200, headers(limits...),
			`{"error":false,"message":"ok","data":{"comments":[{"id":1}],"pagination":{"total":1,"per_page":15,"current_page":1,"total_pages":1}}}`, true},
		{"accepts a cart with items", pCartRemove, 200, headers(limits...),
			`{"error":false,"message":"ok","data":{"cart":{"session_token":"s","status":"open","currency":"EUR","total_price":12.5,"item_count":1,"is_claimed":false,"items":[{"id":3}]}}}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := validateResponse(t, tt.path, tt.status, tt.header, tt.body)
			if tt.ok && err != nil {
				t.Errorf("rejected: %v", err)
			}
			if !tt.ok && err == nil {
				t.Error("accepted")
			}
		})
	}
}

// The field a response schema error is about is its JSON pointer, from the body's root.
func TestResponseSchemaErrorNamesThePath(t *testing.T) {
	err := validateResponse(t, pDeprecate, 200, headers("X-RateLimit-Limit", "1", "X-RateLimit-Remaining", "1"),
		`{"error":false,"message":"ok","data":{"version_id":12,"theme_status":"deprecated"}}`)
	errs := spec.SchemaErrors(err)
	if len(errs) != 1 {
		t.Fatalf("schema errors %v, want 1", errs)
	}
	if got := strings.Join(errs[0].JSONPointer(), "/"); got != "data/version_id" {
		t.Errorf("pointer %q, want data/version_id", got)
	}
}
