package conformance_test

import (
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	. "github.com/onsi/ginkgo/v2"

	. "github.com/opsapi/mocktoolkit/conformance"
	mf "github.com/opsapi/mocktoolkit/conformance/manifest"
)

// probeContext declares the Context of op's probes; specs skip when the manifest lacks what op's
// specs use.
func probeContext(op Operation, body func()) {
	Context(fmt.Sprintf("%s (%d, POST %s)", op.ID, op.N, op.Path), func() {
		BeforeEach(func() {
			if need := mf.MissingFor(op.ID, missing); len(need) > 0 {
				Skip(fmt.Sprintf("the manifest lacks %s, which the specs of %s use", strings.Join(need, ", "), op.ID))
			}
		})
		body()
	})
}

// memberRecords gives, per id field name, the manifest's record of the member's project (or
// the master record, for operations under /admin/) the field names; `id` names the record of
// the kind op's path acts on. Fields without a record in the manifest (an owner, a comment)
// are not here.
var memberRecords = map[string]func(op Operation) int64{
	"id": func(op Operation) int64 { id, _ := recordOfPath(op.Path); return id },
	"group_id": func(op Operation) int64 {
		return pick(op.Access == Superadmin, manifest.Operations.MasterGroupID, manifest.Operations.GroupID)
	},
	"board_id": func(op Operation) int64 {
		return pick(op.Access == Superadmin, manifest.Operations.MasterBoardID, manifest.Operations.BoardID)
	},
	"card_id":         func(Operation) int64 { return manifest.Operations.CardID },
	"tag_id":          func(Operation) int64 { return manifest.Operations.TagID },
	"conversation_id": func(Operation) int64 { return manifest.AI.ActiveConversationID },
	"entity_id":       func(Operation) int64 { return manifest.Websites.PageID },
	"version_id":      func(Operation) int64 { return last(manifest.Websites.ApprovedVersionIDs) },
	"cart_item_id": func(Operation) int64 {
		if c := manifest.Domains.Carts; len(c) > 0 {
			return last(c[len(c)-1].ItemIDs)
		}
		return 0
	},
}

// memberRecord is the manifest's record that id field f of op names (memberRecords); false
// when the manifest names none.
func memberRecord(op Operation, f string) (int64, bool) {
	rec, ok := memberRecords[f]
	if !ok {
		return 0, false
	}
	id := rec(op)
	return id, id > 0
}

// projectRecord reports whether field f of op names a record of a project, which a user of
// another project must not reach: not a master record (they belong to no project, D17; the
// tour card update takes master tour cards, interface §Endpoints 9), and one the manifest
// names.
func projectRecord(op Operation, f string) bool {
	if _, ok := memberRecords[f]; !ok || op.Access != Bearer || f == "version_id" {
		return false // a theme version belongs to no project the interface names (D12 is our choice)
	}
	if f == "id" {
		_, master := recordOfPath(op.Path)
		return !master
	}
	return true
}

func last(ids []int64) int64 {
	if len(ids) == 0 {
		return 0
	}
	return ids[len(ids)-1]
}

func pick(admin bool, master, project int64) int64 {
	if admin {
		return master
	}
	return project
}

// recordOfPath is the manifest's record of the kind a path's resource names
// (…/<resource>/<action>), and whether it is a master record.
func recordOfPath(path string) (int64, bool) {
	o := manifest.Operations
	for _, r := range []struct {
		resource string
		id       int64
		master   bool
	}{{"/tour/cards/", o.MasterTourCardID, true}, {"/master-cards/", o.MasterCardID, true}, {"/cards/", o.CardID, false},
		{"/master-groups/", o.MasterGroupID, true}, {"/groups/", o.GroupID, false}, {"/master-boards/", o.MasterBoardID, true},
		{"/boards/", o.BoardID, false}} {
		if strings.Contains(path, r.resource) {
			return r.id, r.master
		}
	}
	return 0, false
}

// requiredBody is a valid body of op holding only its required fields, generated from the
// request schema: ids of the member's project (memberRecord), the first value of an
// enumeration, the newest cart's token, a text for other strings. False when an id has no
// record in the manifest.
func requiredBody(op Operation) (map[string]any, bool) {
	s := op.Request
	body := map[string]any{}
	if s == nil {
		return body, true
	}
	for _, name := range slices.Sorted(slices.Values(s.Required)) {
		ref := s.Properties[name]
		if ref == nil || ref.Value == nil {
			return nil, false
		}
		p := ref.Value
		switch {
		case p.Type.Is(openapi3.TypeInteger):
			id, ok := memberRecord(op, name)
			if !ok {
				return nil, false
			}
			body[name] = id
		case len(p.Enum) > 0:
			body[name] = p.Enum[0]
		case name == "tool_key" && op.Change() == "creates":
			// Unique, as every text the suite creates (D217): a deployment may keep one
			// master board per tool key.
			body[name] = strings.ReplaceAll(unique("probe-key"), " ", "-")
		case name == "tool_key":
			body[name] = manifest.Operations.ToolKey
		case name == "session_token":
			c := manifest.Domains.Carts
			if len(c) == 0 {
				return nil, false
			}
			body[name] = c[len(c)-1].SessionToken
		case p.Type.Is(openapi3.TypeString):
			body[name] = unique("Probe") // names and titles may have to be unique (D217)
		default:
			return nil, false
		}
	}
	return body, true
}

// harmless is op's required body with the record it acts on replaced by one that does not
// exist, so that a request wrongly let through changes nothing (operations without such a
// field keep their body: a create, a list).
func harmless(op Operation) map[string]any {
	GinkgoHelper()
	body, ok := requiredBody(op)
	if !ok {
		Skip(fmt.Sprintf("the manifest names no record for a required id of %s", op.ID))
	}
	for _, f := range IDFields() {
		if f.Op.ID == op.ID && f.Primary {
			body[f.Name] = missingID
		}
	}
	return body
}
