package reference

import (
	"fmt"
	"math"
	"net/mail"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/opsapi/mocktoolkit/internal/text"
)

// MaxID is the largest id a record may hold (D76): the largest integer a JavaScript client
// reads exactly (2^53 − 1), far enough from int64's end that the next id never wraps.
const MaxID = 1<<53 - 1

const maxID = MaxID

// maxCredential bounds a user's e-mail and password in a snapshot (D76): a login must carry
// them, and a body holds at most 1 MiB (a snapshot gave a user a 1.5 MB password, and its
// login answered 413).
const maxCredential = 64 << 10

// maxPrice bounds a cart item's price in a snapshot (D76), so that totals stay finite.
const maxPrice = 1e9

// checkRecords checks every record of st against the rules the API's writes follow (D65,
// D76): enumerations, maximum lengths, required text that is not blank, valid UTF-8, positions
// and ids in range, and times the store can answer and save (D73). A snapshot that breaks one
// could not have been produced by the API. The error is a *RulesError naming every broken
// rule (up to maxProblems) by record kind, index and id, and the field: "cards[3] (id 17):
// priority must be one of low, normal, high, urgent".
func checkRecords(st State) error {
	var r ruleCheck
	checkAccountRecords(&r, st)
	checkBoardRecords(&r, st)
	checkChatAndCartRecords(&r, st)
	checkWebsiteRecords(&r, st)
	return r.result()
}

// checkAccountRecords checks projects, users and their tokens.
func checkAccountRecords(r *ruleCheck, st State) {
	for i, p := range st.Projects {
		r.at("projects", i, p.ID)
		r.id("id", p.ID)
		r.text("name", p.Name, 0, false)
		for _, tool := range p.Tools {
			r.text("tools", tool, maxToolKey, true)
		}
	}
	for i, u := range st.Users {
		r.at("users", i, u.ID)
		r.id("id", u.ID)
		r.text("name", u.Name, 0, false)
		r.text("email", u.Email, maxCredential, true)
		if a, err := mail.ParseAddress(u.Email); err != nil || a.Address != strings.TrimSpace(u.Email) {
			r.fail("email must be an e-mail address (the user could never log in)")
		}
		r.text("password", u.Password, maxCredential, true)
		r.optText("language", u.Language, 0)
	}
	held := map[int64]int{} // tokens per user so far: a user keeps MaxTokensPerUser (D10)
	for i, t := range st.Tokens {
		r.at("tokens", i, t.UserID)
		r.bearer(t.Token)
		r.time("issued_at", &t.IssuedAt)
		if held[t.UserID]++; held[t.UserID] == MaxTokensPerUser+1 {
			r.fail("user_id %d holds more than %d tokens, the most a user keeps (each login past it ends the oldest)", t.UserID, MaxTokensPerUser)
		}
	}
}

// checkBoardRecords checks boards, groups, cards, comments and tags.
func checkBoardRecords(r *ruleCheck, st State) {
	for i, b := range st.Boards {
		r.at("boards", i, b.ID)
		r.id("id", b.ID)
		r.platform(b.PlatformID)
		r.text("title", b.Title, maxTitle, true)
		r.optText("tool_key", b.ToolKey, maxToolKey)
		if b.IsMaster && (b.ToolKey == nil || strings.TrimSpace(*b.ToolKey) == "") {
			r.fail("tool_key is required on a master board: sync finds projects by it")
		}
		if b.MasterBoardID != nil && *b.MasterBoardID == b.ID {
			r.fail("master_board_id names the board itself")
		}
		r.optText("description", b.Description, 0)
		r.optText("color", b.Color, maxColor)
		r.optText("icon", b.Icon, maxIcon)
		r.position("position", b.Position)
		r.times(b.CreatedAt, b.UpdatedAt, b.DeletedAt)
	}
	for i, g := range st.Groups {
		r.at("groups", i, g.ID)
		r.id("id", g.ID)
		r.platform(g.PlatformID)
		r.text("title", g.Title, maxTitle, true)
		r.optText("description", g.Description, 0)
		r.text("type", g.Type, maxStatus, true)
		r.optText("color", g.Color, maxColor)
		r.optText("icon", g.Icon, maxIcon)
		r.position("position", g.Position)
		r.times(g.CreatedAt, g.UpdatedAt, g.DeletedAt)
	}
	for i, c := range st.Cards {
		r.at("cards", i, c.ID)
		checkCardRules(r, c)
	}
	for i, c := range st.Comments {
		r.at("comments", i, c.ID)
		r.id("id", c.ID)
		r.text("comment", c.Comment, 0, true)
		if c.ParentCommentID != nil && *c.ParentCommentID >= c.ID {
			r.fail("parent_comment_id must name an earlier comment (a reply comes after its parent)")
		}
		r.time("read_at", c.ReadAt)
		switch {
		case c.IsRead && c.ReadAt == nil:
			r.fail("read_at must be set when is_read is true (the time it was read)")
		case !c.IsRead && c.ReadAt != nil:
			r.fail("read_at must be null when is_read is false")
		}
		r.times(c.CreatedAt, c.UpdatedAt, c.DeletedAt)
	}
	for i, t := range st.Tags {
		r.at("tags", i, t.ID)
		r.id("id", t.ID)
		r.text("name", t.Name, maxTitle, true)
		r.optText("color", t.Color, maxColor)
		r.optText("icon", t.Icon, maxIcon)
		r.position("position", t.Position)
		r.times(t.CreatedAt, t.UpdatedAt, t.DeletedAt)
	}
}

// checkChatAndCartRecords checks conversations and carts: a session token and an item id
// each name one cart and one item.
func checkChatAndCartRecords(r *ruleCheck, st State) {
	for i, c := range st.Conversations {
		r.at("conversations", i, c.ID)
		r.id("id", c.ID)
		r.text("title", c.Title, maxTitle, false)
		r.time("updated_at", &c.UpdatedAt)
	}
	tokens, items := map[string]bool{}, map[int64]string{}
	for i, c := range st.Carts {
		r.at("carts", i, int64(i))
		checkCartRules(r, c)
		if tokens[c.SessionToken] && c.SessionToken != "" {
			r.fail("session_token %q names an earlier cart too: a token names one cart", clipText(c.SessionToken))
		}
		tokens[c.SessionToken] = true
		for j, it := range c.Items {
			if other, dup := items[it.ID]; dup {
				r.fail("items[%d].id %d is also an item of the cart %q: an item id names one item", j, it.ID, clipText(other))
			}
			items[it.ID] = c.SessionToken
		}
	}
}

// checkWebsiteRecords checks website entities, theme versions and thumbnail regenerations.
func checkWebsiteRecords(r *ruleCheck, st State) {
	for i, e := range st.Entities {
		r.at("website_entities", i, e.ID)
		r.id("id", e.ID)
		r.text("name", e.Name, 0, false)
		r.text("preview_image", e.PreviewImage, 0, false)
		if e.Revision < 0 || e.Revision > maxID {
			r.fail("revision must be between 0 and %d", int64(maxID))
		}
	}
	for i, v := range st.ThemeVersions {
		r.at("theme_versions", i, v.VersionID)
		r.id("version_id", v.VersionID)
		r.text("version", v.Version, 0, false)
		r.oneOf("theme_status", v.ThemeStatus, []string{ThemeDraft, ThemePublished, ThemeDeprecated})
		r.oneOf("approval_status", v.ApprovalStatus, []string{ApprovalPending, ApprovalApproved, ApprovalRejected})
	}
	entities := map[int64]bool{}
	for _, e := range st.Entities {
		entities[e.ID] = true
	}
	for i, g := range st.Regenerations {
		r.at("thumbnail_regenerations", i, g.EntityID)
		r.time("at", &g.At)
		if !entities[g.EntityID] {
			r.fail("entity_id names no website entity")
		}
	}
}

// checkCardRules checks a card as cards/create, cards/update and the master card operations
// would have left it (D19, D32).
func checkCardRules(r *ruleCheck, c Card) {
	r.id("id", c.ID)
	r.platform(c.PlatformID)
	r.text("title", c.Title, maxTitle, true)
	r.optText("description", c.Description, 0)
	r.optText("short_description", c.ShortDescription, 0)
	r.optText("unique_identifier", c.UniqueIdentifier, maxMasterKey)
	r.optText("evaluation_check", c.EvaluationCheck, maxMasterKey)
	r.optText("tour_key", c.TourKey, maxMasterKey)
	r.oneOf("card_type", c.CardType, cardTypes)
	r.oneOf("priority", c.Priority, priorities)
	if c.IsMaster {
		r.oneOf("status", c.Status, masterCardStatuses)
	} else {
		r.text("status", c.Status, maxStatus, true)
	}
	r.position("position", c.Position)
	r.position("sort_order", c.SortOrder)
	r.time("due_date", c.DueDate)
	r.time("snoozed_until", c.SnoozedUntil)
	r.times(c.CreatedAt, c.UpdatedAt, c.DeletedAt)
}

// checkCartRules checks a cart and its items (D34, D50).
func checkCartRules(r *ruleCheck, c Cart) {
	r.text("session_token", c.SessionToken, maxSession, true)
	r.oneOf("status", c.Status, []string{CartOpen, CartLocked})
	r.currency("currency", c.Currency)
	for j, it := range c.Items {
		field := fmt.Sprintf("items[%d]", j)
		r.id(field+".id", it.ID)
		r.text(field+".domain_name", it.DomainName, 0, true)
		r.text(field+".tld", it.TLD, 0, false)
		// A full name's tld is its last label; a name without a dot is the label before
		// the tld (a shape some registrars use), which tld completes.
		if strings.Contains(it.DomainName, ".") && it.TLD != DomainTLD(it.DomainName) {
			r.fail("%s.tld must be the last label of its domain_name (%q)", field, clipText(DomainTLD(it.DomainName)))
		}
		r.oneOf(field+".action", it.Action, CartItemActions)
		r.currency(field+".currency", it.Currency)
		if it.Currency != c.Currency {
			r.fail("%s.currency must be its cart's currency (%s)", field, clipText(c.Currency))
		}
		if math.IsNaN(it.Price) || it.Price < 0 || it.Price > maxPrice {
			r.fail("%s.price must be between 0 and %g", field, float64(maxPrice))
		}
		if it.Years < 1 || it.Years > MaxCartItemYears {
			r.fail("%s.years must be between 1 and %d", field, MaxCartItemYears)
		}
	}
	if c.ItemCount != len(c.Items) {
		r.fail("item_count must be the number of items (%d)", len(c.Items))
	}
	if r.clean() && c.TotalPrice != cartTotal(c.Items) {
		r.fail("total_price must be the sum of the item prices (%v)", cartTotal(c.Items))
	}
}

// maxProblems bounds the problems a RulesError lists: a file broken throughout (a wrong
// export, a sed gone astray) is told a screenful, not thousands of lines.
const maxProblems = 50

// RulesError is New's error for a state whose records break the rules of the API's writes
// (D76): every broken rule, each naming its record and field, in the state's order, and the
// references the records break where they still load (a duplicate id ends the load).
type RulesError struct {
	// Problems are "kind[index] (id N): field …", at most maxProblems of them.
	Problems []string
	// More counts the problems left out of Problems.
	More int
	// References are the broken references, "kind N: …" (a value the rules refuse may be
	// what a reference names).
	References *ReferencesError
}

func (e *RulesError) Error() string {
	listed, more := e.Listed()
	s := strings.Join(listed, "; ")
	if more > 0 {
		s += fmt.Sprintf("; and %d more", more)
	}
	return s
}

// ReferencesError is every reference a snapshot's records break (a card's group in another
// project, a comment on a card that does not exist), found once the rules hold (D76).
type ReferencesError struct {
	// Problems are "kind N: …", at most maxProblems of them.
	Problems []string
	// More counts the problems left out of Problems.
	More int
}

func (e *ReferencesError) Error() string {
	return (&RulesError{Problems: e.Problems, More: e.More}).Error()
}

// Listed is the broken references and the count of the rest.
func (e *ReferencesError) Listed() ([]string, int) { return e.Problems, e.More }

// Listed is the broken rules, then the broken references, at most maxProblems in all, and the
// count of the rest.
func (e *RulesError) Listed() ([]string, int) {
	listed, more := slices.Clone(e.Problems), e.More
	if e.References != nil {
		listed, more = append(listed, e.References.Problems...), more+e.References.More
	}
	if len(listed) > maxProblems {
		listed, more = listed[:maxProblems], more+len(listed)-maxProblems
	}
	return listed, more
}

// listedReferences bounds refs as a ReferencesError lists them; nil when there are none.
func listedReferences(refs []string) *ReferencesError {
	if len(refs) == 0 {
		return nil
	}
	e := &ReferencesError{Problems: refs}
	if len(e.Problems) > maxProblems {
		e.Problems, e.More = e.Problems[:maxProblems], len(e.Problems)-maxProblems
	}
	return e
}

// ProblemList is an error of many problems: a RulesError or a ReferencesError.
type ProblemList interface {
	error
	Listed() (problems []string, more int)
}

// ruleCheck collects the rules a snapshot breaks, each with the record it is in.
type ruleCheck struct {
	where string
	errs  RulesError
	// recordStart is how many problems there were when the current record's checks began.
	recordStart int
}

// result is the collected problems as an error, nil when there are none.
func (r *ruleCheck) result() error {
	if len(r.errs.Problems) == 0 {
		return nil
	}
	return &r.errs
}

// clean says whether the record being checked has broken no rule so far.
func (r *ruleCheck) clean() bool {
	return len(r.errs.Problems)+r.errs.More == r.recordStart
}

// at names the record the next checks are about: kind[index] (id N).
func (r *ruleCheck) at(kind string, index int, id int64) {
	r.where = fmt.Sprintf("%s[%d] (id %d)", kind, index, id)
	r.recordStart = len(r.errs.Problems) + r.errs.More
	if kind == "carts" || kind == "tokens" || kind == "thumbnail_regenerations" {
		r.where = fmt.Sprintf("%s[%d]", kind, index) // records without an id of their own
	}
}

func (r *ruleCheck) fail(format string, args ...any) {
	if len(r.errs.Problems) == maxProblems {
		r.errs.More++
		return
	}
	r.errs.Problems = append(r.errs.Problems, fmt.Sprintf("%s: %s", r.where, fmt.Sprintf(format, args...)))
}

// text checks a string field: valid UTF-8, at most limit characters (0: no bound) and, when
// required, not blank (D44).
func (r *ruleCheck) text(field, v string, limit int, required bool) {
	switch {
	case !utf8.ValidString(v):
		r.fail("%s must be valid UTF-8 text", field)
	case required && strings.TrimSpace(v) == "":
		r.fail("%s is required and must not be blank", field)
	case limit > 0 && utf8.RuneCountInString(v) > limit:
		r.fail("%s must not be greater than %d characters", field, limit)
	}
}

// MinTokenLength is the shortest bearer token a snapshot may hold (D76): the journals scrub a
// token wherever a text quotes it only from 4 characters on (shorter values are ordinary words).
const MinTokenLength = 4

// bearer checks an issued token (D76): one a client can send, "Authorization: Bearer <token>",
// so visible ASCII without spaces (a header's value loses its outer spaces and takes no control
// characters), and long enough for the journals to scrub.
func (r *ruleCheck) bearer(v string) {
	visible := len(v) >= MinTokenLength
	for i := 0; i < len(v) && visible; i++ {
		visible = v[i] > ' ' && v[i] < 0x7f
	}
	if !visible {
		r.fail("token must be at least %d characters, each a visible ASCII character (letters, digits, punctuation; no space): clients send it in the Authorization header", MinTokenLength)
	}
}

// currency checks a currency code (IsCurrencyCode).
func (r *ruleCheck) currency(field, v string) {
	if !IsCurrencyCode(v) {
		r.fail("%s must be a currency code of three capital letters, such as USD", field)
	}
}

// IsCurrencyCode tells whether v is written as a currency code: three capital letters, as
// ISO 4217 writes them (D34).
func IsCurrencyCode(v string) bool {
	return len(v) == 3 && strings.Trim(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
}

func (r *ruleCheck) optText(field string, v *string, limit int) {
	if v != nil {
		r.text(field, *v, limit, false)
	}
}

func (r *ruleCheck) oneOf(field, v string, allowed []string) {
	if !slices.Contains(allowed, v) {
		r.fail("%s must be one of %s", field, strings.Join(allowed, ", "))
	}
}

func (r *ruleCheck) id(field string, v int64) {
	if v < 1 || v > maxID {
		r.fail("%s must be positive and at most %d", field, int64(maxID))
	}
}

func (r *ruleCheck) platform(v int64) {
	if v != PlatformID {
		r.fail("platform_id must be %d", PlatformID)
	}
}

func (r *ruleCheck) position(field string, v int64) {
	if !validPosition(v) {
		r.fail("%s must be between %d and %d", field, minPosition, maxPosition)
	}
}

// time checks an optional time: the store answers and saves it in UTC as RFC 3339 (D73).
func (r *ruleCheck) time(field string, t *time.Time) {
	if t != nil && !writableTime(*t) {
		r.fail("%s must be a date-time between years 0000 and 9999 in UTC", field)
	}
}

func (r *ruleCheck) times(created, updated time.Time, deleted *time.Time) {
	r.time("created_at", &created)
	r.time("updated_at", &updated)
	r.time("deleted_at", deleted)
}

// clipText shortens a value quoted in a problem to 40 bytes (text.Clip).
func clipText(v string) string { return text.Clip(v, 40) }
