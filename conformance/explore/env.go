package explore

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/manifest"
	"github.com/opsapi/mocktoolkit/fixtures"
)

// A role is who calls.
type role int

const (
	anonymous role = iota
	member
	superadmin
	outsider
)

// goName is the role's name in the suite's helpers (conformance/helpers_test.go).
func (r role) goName() string {
	return [...]string{"anonymous", "member", "superadmin", "outsider"}[r]
}

// tokenVar is the shell variable holding the role's bearer token in a reproduction script.
func (r role) tokenVar() string {
	return [...]string{"", "TOKEN", "SUPERADMIN_TOKEN", "OUTSIDER_TOKEN"}[r]
}

func (r role) String() string {
	return [...]string{"nobody", "the member", "the superadmin", "the outsider"}[r]
}

// An ID is a record id the run knows and where it came from: the manifest (Go is the
// expression that reads it in the suite) or an earlier call of the case (Var names the value
// that call's answer holds).
type ID struct {
	V   int64
	Go  string // manifest expression, e.g. manifest.Operations.CardID
	Var string // variable of the call that created it, e.g. card1
}

// ref is a body value resolved in each environment: an id drawn from one of its pools.
type ref struct {
	pool string
	idx  int
}

// secret is a body value that is a credential: rendered as a variable in reproductions.
type secret struct {
	v      string
	goExpr string // manifest.Users.Member.Password
	shell  string // MEMBER_PASSWORD
}

// An env is one deployment explore talks to (the target, or the reference of differential
// mode): its client, manifest, tokens and the records the current case created.
type env struct {
	name   string
	c      *conformance.Client
	m      fixtures.Manifest
	tokens map[role]string
	userID int64 // the member's user id, from its login

	pools    map[string][]ID
	comments map[int64][]ID      // created comments by card id
	cartSeen map[string]cartSeen // the cart's last answer in this case, by its token
	removed  map[string]bool     // "token/item" removed in this case
	deprec   map[int64]bool
	thumbs   int // accepted regenerations in this case
	// copiesAt is when the last push or sync that may copy master cards into the projects was
	// sent: a deployment may carry it out after answering (D210).
	copiesAt time.Time
	// createdAt is when the case's last create was answered with success (ERR-8's settle time).
	createdAt time.Time
	vars      map[string]int
	// texts are the text values sent for each operation's field ("tagsCreate.name=x", lower
	// case), so a repeated one is known (request.repeated).
	texts map[string]bool
}

// repeats notes body's text values as sent to op and returns the fields whose value was sent
// before, or is the manifest's tool key on a master board create (the manifest's master board
// holds it).
func (e *env) repeats(op string, body map[string]any) []string {
	if e.texts == nil {
		e.texts = map[string]bool{"masterBoardsCreate.tool_key=" + strings.ToLower(e.m.Operations.ToolKey): true}
	}
	var out []string
	for field, v := range body {
		s, ok := v.(string)
		if !ok {
			continue
		}
		key := op + "." + field + "=" + strings.ToLower(strings.TrimSpace(s))
		if e.texts[key] {
			out = append(out, field)
		}
		e.texts[key] = true
	}
	return out
}

func newEnv(ctx context.Context, name string, c *conformance.Client, m fixtures.Manifest) (*env, error) {
	e := &env{name: name, c: c, m: m, tokens: map[role]string{}}
	for _, r := range []role{member, superadmin, outsider} {
		if _, err := e.login(ctx, r); err != nil {
			return nil, err
		}
	}
	e.reset()
	return e, nil
}

func (e *env) creds(r role) fixtures.Credentials {
	switch r {
	case member:
		return e.m.Users.Member
	case superadmin:
		return e.m.Users.Superadmin
	case outsider:
		return e.m.Users.Outsider
	}
	return fixtures.Credentials{}
}

// login authenticates r with the manifest's credentials and keeps the token (that it is the
// bearer token of the other operations is D10: the only way to get one).
func (e *env) login(ctx context.Context, r role) (string, error) {
	c := e.creds(r)
	ex, err := e.c.Send(ctx, conformance.Request{Op: conformance.OpAuthenticate, As: r.String(),
		Body: map[string]any{"email": c.Email, "password": c.Password}})
	if err != nil {
		return "", fmt.Errorf("explore: log in as %s on the %s: %w", r, e.name, err)
	}
	tok, ok := ex.String("data.token")
	if ex.Status >= 300 || !ok || tok == "" {
		return "", fmt.Errorf("explore: log in as %s on the %s: answer %d\n%s", r, e.name, ex.Status, ex.Describe())
	}
	e.tokens[r] = tok
	if r == member {
		e.userID, _ = ex.Int("data.id")
	}
	return tok, nil
}

// reset forgets what the previous case created: each case starts from the manifest.
func (e *env) reset() {
	o, w := e.m.Operations, e.m.Websites
	e.pools = map[string][]ID{
		"card":              {{V: o.CardID, Go: "manifest.Operations.CardID"}},
		"createdCard":       nil,
		"tag":               {{V: o.TagID, Go: "manifest.Operations.TagID"}},
		"group":             {{V: o.GroupID, Go: "manifest.Operations.GroupID"}},
		"board":             {{V: o.BoardID, Go: "manifest.Operations.BoardID"}},
		"masterBoard":       {{V: o.MasterBoardID, Go: "manifest.Operations.MasterBoardID"}},
		"masterGroup":       {{V: o.MasterGroupID, Go: "manifest.Operations.MasterGroupID"}},
		"createdMasterGrp":  nil,
		"createdMasterCard": nil,
		"tourCard":          {{V: o.MasterTourCardID, Go: "manifest.Operations.MasterTourCardID"}},
		"page":              {{V: w.PageID, Go: "manifest.Websites.PageID"}},
		"template":          {{V: w.TemplateID, Go: "manifest.Websites.TemplateID"}},
		"layout":            {{V: w.LayoutID, Go: "manifest.Websites.LayoutID"}},
		"unapproved":        {{V: w.UnapprovedVersionID, Go: "manifest.Websites.UnapprovedVersionID"}},
		"missing":           {{V: manifest.AbsentID(e.m), Go: "missingID"}},
	}
	if e.userID > 0 {
		e.pools["owner"] = []ID{{V: e.userID, Go: fmt.Sprint(e.userID)}}
	}
	conv := []ID{{V: e.m.AI.ActiveConversationID, Go: "manifest.AI.ActiveConversationID"}}
	for i, id := range e.m.AI.ArchivedConversationIDs {
		conv = append(conv, ID{V: id, Go: fmt.Sprintf("manifest.AI.ArchivedConversationIDs[%d]", i)})
	}
	e.pools["conversation"] = conv
	var approved []ID
	for i, id := range w.ApprovedVersionIDs {
		approved = append(approved, ID{V: id, Go: fmt.Sprintf("manifest.Websites.ApprovedVersionIDs[%d]", i)})
	}
	e.pools["approved"] = approved
	e.comments = map[int64][]ID{}
	e.cartSeen = map[string]cartSeen{}
	e.removed = map[string]bool{}
	e.deprec = map[int64]bool{}
	e.thumbs = 0
	e.createdAt = time.Time{}
	e.vars = map[string]int{}
}

// pick resolves a ref: the idx-th id of the pool counting from the newest (past the oldest:
// the oldest), so dropping an earlier step while shrinking leaves the pick alone; false when
// the pool is empty.
func (e *env) pick(r ref) (ID, bool) {
	p := e.pools[r.pool]
	if len(p) == 0 {
		return ID{}, false
	}
	i := min(r.idx, len(p)-1)
	return p[len(p)-1-i], true
}

// add records a created id under pools, naming it after prefix (card1, card2, ...).
func (e *env) add(prefix string, v int64, pools ...string) ID {
	e.vars[prefix]++
	id := ID{V: v, Var: prefix + strconv.Itoa(e.vars[prefix])}
	for _, p := range pools {
		e.pools[p] = append(e.pools[p], id)
	}
	return id
}

// materialize resolves the refs of body in e: the JSON to send, and the body with IDs in place
// of refs (for reproductions). ok is false when a pool is empty.
func (e *env) materialize(body map[string]any) (send map[string]any, shown map[string]any, ok bool) {
	send, shown = map[string]any{}, map[string]any{}
	for k, v := range body {
		switch x := v.(type) {
		case ref:
			id, found := e.pick(x)
			if !found {
				return nil, nil, false
			}
			send[k], shown[k] = id.V, id
		case secret:
			send[k], shown[k] = x.v, x
		case cartRef:
			tok, item, found := e.cartAt(x.cart, x.item)
			if !found {
				return nil, nil, false
			}
			if x.token {
				send[k], shown[k] = tok.v, tok
			} else {
				send[k], shown[k] = item, item
			}
		case ID:
			send[k], shown[k] = x.V, x
		default:
			send[k], shown[k] = v, v
		}
	}
	return send, shown, true
}

// cartSeen is a cart as an answer of the case showed it, and the call of the trace that
// answered it (-1 outside the target).
type cartSeen struct {
	cart check.Cart
	at   int
}
