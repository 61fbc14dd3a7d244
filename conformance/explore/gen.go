package explore

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf16"

	"pgregory.net/rapid"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/manifest"
	"github.com/opsapi/mocktoolkit/conformance/nearmiss"
)

// idPools names the pool an id field draws from, per operation: records the manifest names and
// records the case created. Updates act on records the case created (or on manifest records
// whose update cannot break the suite's fixed specs), so a run never spoils the fixtures.
var idPools = map[string]string{
	"commentsList.card_id":                 "card",
	"commentsCreate.card_id":               "card",
	"masterCardsCreate.group_id":           "masterGroup",
	"masterCardsUpdate.id":                 "createdMasterCard",
	"masterCardsUpdate.group_id":           "masterGroup",
	"cardsUpdate.id":                       "createdCard",
	"cardsUpdate.group_id":                 "group",
	"cardsUpdate.owner_id":                 "owner",
	"cardsUpdate.tag_id":                   "tag",
	"cardsCreate.group_id":                 "group",
	"cardsCreate.owner_id":                 "owner",
	"cardsCreate.tag_id":                   "tag",
	"boardsUpdate.id":                      "board",
	"masterGroupsUpdate.id":                "createdMasterGrp",
	"tourCardsUpdate.id":                   "tourCard",
	"masterBoardsSync.board_id":            "masterBoard",
	"masterGroupsCreate.board_id":          "masterBoard",
	"groupsDelete.id":                      "missing", // a run deletes no group the fixed specs need
	"conversationsRestore.conversation_id": "conversation",
	"themeVersionsDeprecate.version_id":    "approved",
}

// primaryID is the field naming the record an operation acts on, for ERR-4: only on
// operations that list 404.
var primaryID = map[string]string{
	"masterCardsUpdate": "id", "cardsUpdate": "id", "boardsUpdate": "id", "masterGroupsUpdate": "id",
	"tourCardsUpdate": "id", "masterBoardsSync": "board_id", "groupsDelete": "id",
	"conversationsRestore": "conversation_id", "themeVersionsDeprecate": "version_id",
	"thumbnailsRegenerate": "entity_id", "domainCartRemove": "cart_item_id",
}

// A request is a generated call before it is resolved in an environment.
type request struct {
	op   conformance.Operation
	as   role
	body map[string]any // values may be ref or secret
	// intent says what the answer must show: accepted (ERR-7), a validation error for
	// field (ERR-1), not found (ERR-4), or nothing beyond the answer checks.
	intent intent
	field  string             // the broken field of an invalid body
	how    string             // how it is broken: required, type, enum, maxLength, minimum, maximum
	auth   *nearmiss.AuthForm // the wrong form the token is sent in (intent unauthenticated), or nil
	// refuse marks a refusedID request the interface asks a refusal of (MustRefuseAbsent).
	refuse bool
	// broken marks a body that breaks a field rule on purpose where no property is about which
	// field (AUTH-7's login with no password).
	broken bool
	// repeated are the text fields whose value a record already holds (sent before in the run,
	// or the manifest's tool key), and the date-time fields sent: a 422 naming only them may be
	// a uniqueness refusal or a rule on dates (a snooze in the past), which the interface
	// neither states nor rules out ("business rules ... not shown"); also the text fields past
	// their maximum length in UTF-16 units though within it in characters (wideIn, D219).
	repeated []string
	// found marks a request whose ids all name records that exist and that its caller may act
	// on, and fresh one of them created in the case (namesFound); retried marks a request sent
	// again after a 404 while such a record settled.
	found, fresh, retried bool
}

// datesIn lists the date-time fields of fields that body sends a date in.
func datesIn(fields []field, body map[string]any) []string {
	var out []string
	for _, f := range fields {
		if _, sent := body[f.Name].(string); sent && f.Format == "date-time" {
			out = append(out, f.Name)
		}
	}
	return out
}

// wideIn names the text fields of body within their maximum length in characters (code points)
// but past it in UTF-16 units (emoji): what a character is, is not shown (D219), so a deployment
// counting UTF-16 units may refuse them, as it may refuse a value a record holds already.
func wideIn(fields []field, body map[string]any) []string {
	var out []string
	for _, f := range fields {
		if s, sent := body[f.Name].(string); sent && f.MaxLength > 0 && len(utf16.Encode([]rune(s))) > f.MaxLength {
			out = append(out, f.Name)
		}
	}
	return out
}

// invalid reports whether req's body breaks a field rule on purpose.
func (req request) invalid() bool { return req.intent == invalidField || req.broken }

type intent int

const (
	anyAnswer intent = iota
	accepted
	invalidField
	notFound
)

// callerOf is who calls op in generated requests: the superadmin on S operations, the member on
// A operations, nobody on public ones.
func callerOf(op conformance.Operation) role {
	switch op.Access {
	case conformance.Superadmin:
		return superadmin
	case conformance.Bearer:
		return member
	}
	return anonymous
}

// Characters of generated text: ASCII, accented Latin, CJK, emoji, right-to-left; never a
// string of spaces only (a blank required string is a gap of the interface).
var alphabets = []string{
	"abcdefghijklmnopqrstuvwxyz0123456789",
	"ÀÉÎõüßçñøåÆ",
	"東京日本語漢字",
	"🚀🎉👍🏽✨",
	"שלוםعربي",
	"-_.,:;!?'\"\\/<>&%$#@()[]{}",
}

func drawText(t *rapid.T, label string, maxLen int) string {
	if maxLen <= 0 {
		maxLen = 300
	}
	var n int
	switch rapid.IntRange(0, 3).Draw(t, label+".len") {
	case 0:
		n = 1
	case 1:
		n = maxLen // at the bound
	case 2:
		n = max(1, maxLen-1) // just inside it
	default:
		n = rapid.IntRange(1, min(maxLen, 40)).Draw(t, label+".n")
	}
	alpha := []rune(alphabets[rapid.IntRange(0, len(alphabets)-1).Draw(t, label+".alphabet")])
	first := []rune(alphabets[0])
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch {
		case i == 0:
			b.WriteRune(first[i%len(first)]) // never blank
		case i%7 == 3:
			b.WriteRune(' ')
		default:
			b.WriteRune(alpha[(i*31+n)%len(alpha)])
		}
	}
	return b.String()
}

// drawValue draws a valid value of f (null where nullable), ids from pools.
func drawValue(t *rapid.T, opID string, f field) any {
	label := f.Name
	if f.Nullable && rapid.IntRange(0, 5).Draw(t, label+".null") == 0 {
		return nil
	}
	if pool, ok := idPools[opID+"."+f.Name]; ok {
		return ref{pool: pool, idx: rapid.IntRange(0, 7).Draw(t, label+".pick")}
	}
	switch f.Type {
	case "boolean":
		return rapid.Bool().Draw(t, label)
	case "integer":
		lo, hi := int64(-1000), int64(1<<40)
		if f.Min != nil {
			lo = *f.Min
		}
		if f.Max != nil {
			hi = *f.Max
		}
		switch rapid.IntRange(0, 2).Draw(t, label+".at") {
		case 0:
			return lo
		case 1:
			if f.Max != nil {
				return hi
			}
		}
		return rapid.Int64Range(lo, min(hi, lo+500)).Draw(t, label)
	case "string":
		if len(f.Enum) > 0 {
			return rapid.SampledFrom(f.Enum).Draw(t, label)
		}
		if f.Format == "date-time" {
			base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			at := base.Add(time.Duration(rapid.IntRange(0, 3*365*24).Draw(t, label+".hours")) * time.Hour)
			zone := rapid.SampledFrom([]string{"UTC", "+02:00", "-05:30"}).Draw(t, label+".zone")
			if zone == "UTC" {
				return at.Format(time.RFC3339)
			}
			loc, _ := time.Parse("-07:00", zone)
			return at.In(loc.Location()).Format(time.RFC3339)
		}
		return drawText(t, label, f.MaxLength)
	}
	return nil
}

// validBody draws a body that satisfies every field rule of op. ok is false when it cannot be
// expected to be accepted whatever the target chose for the interface's gaps (a version that is
// not approved).
func validBody(t *rapid.T, op conformance.Operation, fields []field, m manifestView) (map[string]any, bool) {
	body := map[string]any{}
	for _, f := range fields {
		if !f.Required && (f.OpenValues || !rapid.Bool().Draw(t, f.Name+".send")) {
			continue
		}
		body[f.Name] = drawValue(t, op.ID, f)
	}
	switch op.ID {
	case conformance.OpAuthenticate.ID:
		r := rapid.SampledFrom([]role{member, superadmin, outsider}).Draw(t, "login.as")
		c := m.creds(r)
		prefix := strings.ToUpper(strings.TrimPrefix(r.String(), "the "))
		body["email"] = secret{v: c.Email, goExpr: "manifest.Users." + goRole(r) + ".Email", shell: prefix + "_EMAIL"}
		body["password"] = secret{v: c.Password, goExpr: "manifest.Users." + goRole(r) + ".Password", shell: prefix + "_PASSWORD"}
		if body["token"] != nil || body["code"] != nil || body["is_recovery"] != nil {
			return body, false // what token and code mean is not shown: a refusal may be any
		}
	case conformance.OpWidgetCardsList.ID:
		body["tool_key"] = m.toolKey()
	case conformance.OpMasterBoardsCreate.ID:
		if rapid.Bool().Draw(t, "tool_key.member") {
			body["tool_key"] = m.toolKey()
		}
	case conformance.OpBoardsList.ID:
		if _, ok := body["tool_key"]; ok {
			body["tool_key"] = m.toolKey()
		}
	case conformance.OpThumbnailsRegenerate.ID:
		kind := rapid.SampledFrom([]string{"page", "template", "layout"}).Draw(t, "entity.type")
		body["type"], body["entity_id"] = kind, ref{pool: kind}
	case conformance.OpDomainCartRemove.ID:
		cart, item := m.cartItem(t)
		body["session_token"], body["cart_item_id"] = cart, item
		return body, true // items are spent by earlier runs: 404 is a fair answer, 422 never
	case conformance.OpThemeVersionsDeprecate.ID:
		if rapid.IntRange(0, 3).Draw(t, "version.unapproved") == 0 {
			body["version_id"] = ref{pool: "unapproved"}
		}
		// An unapproved version's refusal status is not shown: 422 is allowed. So is a
		// deprecation of an approved version deprecated before (by an earlier case, the fixed
		// specs or another client: explore cannot know), whose answer is a further transition
		// the interface leaves open.
		return body, false
	case conformance.OpCommentsCreate.ID:
		delete(body, "parent_comment_id") // replies come from the model, which knows the card
	case conformance.OpConversationsRestore.ID:
		// Whether the conversation is still archived is not known (the suite, or an earlier
		// case, may have restored it; one of the pool is active), and a restore of one that is
		// not archived has no stated answer: 422 is allowed.
		return body, false
	}
	return body, true
}

func goRole(r role) string {
	return [...]string{"", "Member", "Superadmin", "Outsider"}[r]
}

// manifestView is what generation reads of the manifest.
type manifestView struct{ e *env }

func (m manifestView) creds(r role) (c struct{ Email, Password string }) {
	cr := m.e.creds(r)
	c.Email, c.Password = cr.Email, cr.Password
	return c
}

func (m manifestView) toolKey() secret {
	return secret{v: m.e.m.Operations.ToolKey, goExpr: "manifest.Operations.ToolKey", shell: "TOOL_KEY"}
}

// cartItem draws an open cart of the target's manifest and one of its items, as positions each
// environment resolves in its own manifest (cartRef): the reference of differential mode may
// list fewer carts, or fewer items, than the target.
func (m manifestView) cartItem(t *rapid.T) (cartRef, cartRef) {
	carts := m.e.m.Domains.Carts
	if len(carts) == 0 {
		return cartRef{item: -1, token: true}, cartRef{item: -1} // no cart: materialize finds none
	}
	i := rapid.IntRange(0, len(carts)-1).Draw(t, "cart")
	j := -1
	if n := len(carts[i].ItemIDs); n > 0 {
		j = rapid.IntRange(0, n-1).Draw(t, "cart.item")
	}
	return cartRef{cart: i, item: j, token: true}, cartRef{cart: i, item: j}
}

// cartRef is a body value naming a cart of the manifest by position (its session token when
// token is set, else its item-th item; item -1: an item no cart holds), resolved in each
// environment by cartAt.
type cartRef struct {
	cart, item int
	token      bool
}

// cartAt resolves the cart at position i (modulo the manifest's carts) and its j-th item
// (modulo its items; the absent id when j < 0 or the cart has none); ok is false when the manifest
// lists no cart.
func (e *env) cartAt(i, j int) (tok secret, item int64, ok bool) {
	carts := e.m.Domains.Carts
	if len(carts) == 0 {
		return secret{}, 0, false
	}
	i %= len(carts)
	tok = secret{v: carts[i].SessionToken, goExpr: fmt.Sprintf("manifest.Domains.Carts[%d].SessionToken", i),
		shell: fmt.Sprintf("CART%d_TOKEN", i)}
	item = manifest.AbsentID(e.m)
	if items := carts[i].ItemIDs; j >= 0 && len(items) > 0 {
		item = items[j%len(items)]
	}
	return tok, item, true
}

// breakField makes body invalid in exactly one field the interface declares, drawing the field
// and how to break it (its type, its required flag, its enumeration or a bound). ok is false
// when op has no such field.
func breakField(t *rapid.T, fields []field, body map[string]any) (string, string, bool) {
	var cands []field
	for _, f := range fields {
		if !f.Gap {
			cands = append(cands, f)
		}
	}
	if len(cands) == 0 {
		return "", "", false
	}
	f := cands[rapid.IntRange(0, len(cands)-1).Draw(t, "break.field")]
	hows := []string{"type"}
	if f.Required {
		hows = append(hows, "required")
	}
	if len(f.Enum) > 0 {
		hows = append(hows, "enum")
	}
	if f.MaxLength > 0 {
		hows = append(hows, "maxLength")
	}
	if f.Min != nil {
		hows = append(hows, "minimum")
	}
	if f.Max != nil {
		hows = append(hows, "maximum")
	}
	if f.Format == "date-time" || f.Format == "email" {
		hows = append(hows, "format")
	}
	how := rapid.SampledFrom(hows).Draw(t, "break.how")
	switch how {
	case "required":
		delete(body, f.Name)
	case "type":
		body[f.Name] = wrongType(t, f)
	case "enum":
		kind := rapid.SampledFrom(outsideEnum(f.Name, f.Enum)).Draw(t, "break.enumKind")
		body[f.Name] = rapid.SampledFrom(kind).Draw(t, "break.enum")
	case "format":
		bad := []string{nearmiss.Unformatted(f.Format)}
		if f.Format == "date-time" {
			bad = append(bad, nearmiss.Date)
		}
		body[f.Name] = rapid.SampledFrom(bad).Draw(t, "break.format")
	case "maxLength":
		body[f.Name] = strings.Repeat("x", f.MaxLength) + rapid.SampledFrom([]string{"y", "é", "東", "🚀"}).Draw(t, "break.char")
	case "minimum":
		body[f.Name] = *f.Min - rapid.Int64Range(1, 3).Draw(t, "break.below")
	case "maximum":
		body[f.Name] = *f.Max + rapid.Int64Range(1, 3).Draw(t, "break.above")
	}
	return f.Name, how, true
}

// outsideEnum are the kinds of value field's enumeration enum does not hold: each value
// prefixed, each in capitals (a deployment comparing without case takes them), the field's
// values in another operation (nearmiss.InEnum) and the words a deployment might add
// (nearmiss.Words). A kind is drawn first, so that a short kind is drawn as often as a long one.
func outsideEnum(field string, enum []string) [][]string {
	var prefixed, capitals []string
	for _, v := range enum {
		prefixed = append(prefixed, "not-"+v)
		if up := strings.ToUpper(v); up != v {
			capitals = append(capitals, up)
		}
	}
	kinds := [][]string{prefixed, capitals, nearmiss.InEnum(field, enum), nearmiss.Words(enum)}
	return slices.DeleteFunc(kinds, func(k []string) bool { return len(k) == 0 })
}

// wrongType is a value of another JSON type than f's (null only where f is not nullable).
func wrongType(t *rapid.T, f field) any {
	var opts []any
	switch f.Type {
	case "integer":
		opts = []any{"12", "abc", true, 1.5, []any{1}}
	case "boolean":
		opts = []any{"true", 1, map[string]any{}}
	default:
		opts = []any{12345, true, []any{"a"}, map[string]any{"a": 1}}
	}
	if !f.Nullable {
		opts = append(opts, nil)
	}
	return opts[rapid.IntRange(0, len(opts)-1).Draw(t, "break.type")]
}
