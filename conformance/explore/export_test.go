package explore

import (
	"encoding/json"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/manifest"
	"github.com/opsapi/mocktoolkit/conformance/nearmiss"
	"github.com/opsapi/mocktoolkit/conformance/rules"
	"github.com/opsapi/mocktoolkit/fixtures"
)

// missingID is the absent id of the mock's manifests (its ids are all far below it).
var missingID = manifest.AbsentID(fixtures.Manifest{})

// AcrossAnswers are failures of every property explore mode judges across answers, as its
// steps record them, for the tests of their reproductions.
func AcrossAnswers() []*Failure {
	list := func(op conformance.Operation, as role) Call {
		return Call{Op: op, As: as, Body: map[string]any{}, Status: 200}
	}
	card := Call{Op: conformance.OpCardsCreate, As: member, Body: map[string]any{"title": "a"}, Status: 200, Var: "card1", VarPath: "data.card.id"}
	remove := func(item int64) Call {
		return Call{Op: conformance.OpDomainCartRemove, As: anonymous, Status: 200,
			Body: map[string]any{"session_token": secret{goExpr: "manifest.Domains.Carts[0].SessionToken", shell: "CART0_TOKEN"}, "cart_item_id": item}}
	}
	thumb := Call{Op: conformance.OpThumbnailsRegenerate, As: member, Status: 200,
		Body: map[string]any{"type": "page", "entity_id": ID{V: 1, Go: "manifest.Websites.PageID"}}}
	var out []*Failure
	add := func(id rules.ID, reason string, calls []Call, goCode, sh string) {
		out = append(out, &Failure{Rule: id, Reason: reason, Check: goCode, ShCheck: sh, Calls: calls})
	}
	g, s := listFollowed(0, 1, 2, "data.cards", false)
	add(rules.LIST1, "cards/create and the count did not follow", []Call{list(conformance.OpCardsList, member), card, list(conformance.OpCardsList, member)}, g, s)
	g, s = listFollowed(0, 1, 2, "data.pagination.total", true)
	add(rules.LIST1, "a reply and the count did not follow", []Call{list(conformance.OpCommentsList, member), card, list(conformance.OpCommentsList, member)}, g, s)
	g, s = countKept(1, 3, "data.cards")
	sync := Call{Op: conformance.OpMasterBoardsSync, As: superadmin, Status: 200, Body: map[string]any{"board_id": ID{V: 1, Go: "manifest.Operations.MasterBoardID"}}}
	add(rules.SYNC1, "a second sync changed the count", []Call{sync, list(conformance.OpCardsList, member), sync, list(conformance.OpCardsList, member)}, g, s)
	g, s = cartLowered(0, 1)
	add(rules.CART2, "domain-cart/remove did not lower item_count", []Call{remove(1), remove(2)}, g, s)
	g, s = cardKept(1, 3, "card1", `"$card1"`)
	tour := Call{Op: conformance.OpTourCardsUpdate, As: member, Status: 404, Body: map[string]any{"id": ID{Var: "card1"}, "status": "open"}}
	add(rules.SCOPE1, "the card changed", []Call{card, list(conformance.OpCardsList, member), tour, list(conformance.OpCardsList, member)}, g, s)
	g, s = sameStatus(0, 1)
	add(rules.AUTH7, "the header changed the answer", []Call{remove(missingID), remove(missingID)}, g, s)
	g, s = acceptedAtMost([]int{0, 1, 2, 3, 4, 5}, 5)
	add(rules.LIMIT3, "a 6th regeneration", []Call{thumb, thumb, thumb, thumb, thumb, thumb}, g, s)
	return out
}

// OnSuccesses are failures of every rule explore mode judges on one successful answer, each
// with a call the reference refuses (it names a record no world holds), for the tests of their
// scripts: a refusal is nothing such a rule judges.
func OnSuccesses() []*Failure {
	missing := func(op conformance.Operation, as role, body map[string]any) Call {
		return Call{Op: op, As: as, Body: body, Status: 200}
	}
	checker := func(id rules.ID, c Call) *Failure {
		ex := &conformance.Exchange{Op: c.Op}
		ex.ReqBody, _ = json.Marshal(c.Body)
		return &Failure{Rule: id, Reason: "refused", ShCheck: shChecker(id, ex), Calls: []Call{c}}
	}
	field := func(id rules.ID, path, want string, c Call) *Failure {
		return &Failure{Rule: id, Reason: "refused", ShCheck: shField(path, want), Calls: []Call{c}}
	}
	cart := secret{goExpr: "manifest.Domains.Carts[0].SessionToken", shell: "CART0_TOKEN"}
	return []*Failure{
		checker(rules.TRANS3, missing(conformance.OpThemeVersionsDeprecate, member, map[string]any{"version_id": missingID})),
		checker(rules.CART1, missing(conformance.OpDomainCartRemove, anonymous, map[string]any{"session_token": cart, "cart_item_id": missingID})),
		checker(rules.PAGE1, missing(conformance.OpCommentsList, member, map[string]any{"card_id": missingID, "page": 2})),
		field(rules.TRANS1, "data.card.status", "open", missing(conformance.OpTourCardsUpdate, member, map[string]any{"id": missingID, "status": "open"})),
		field(rules.TRANS5, "data.theme_status", "deprecated", missing(conformance.OpThemeVersionsDeprecate, member, map[string]any{"version_id": missingID})),
	}
}

// WrongFormCall is a failure of one call by the superadmin whose token went in the fourth wrong
// form (the scheme twice), answered 401.
func WrongFormCall() *Failure {
	form := nearmiss.WrongAuthForms[4]
	return &Failure{Rule: rules.AUTH6, Reason: "r", Calls: []Call{{Op: conformance.OpMasterGroupsUpdate, As: superadmin, Auth: &form, Status: 401, Raw: "{}"}}}
}
