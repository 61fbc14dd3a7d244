package flow

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/redact"
)

// Call is one recorded call, as the recording deployment saw it.
type Call struct {
	Operation string
	As        string      // AsMember …, decided by the recorder from the bearer token
	Header    http.Header // the request's headers (only Content-Type and Accept are kept)
	Request   []byte      // the request body
	Status    int
	Answer    []byte // the answer body
	// Secrets are the credential values the request's headers carried (its bearer token, an
	// API key, a session cookie): the flow never holds one, wherever it is quoted (D200).
	Secrets []string
}

// Redacted stands in for a credential the manifest does not hold and no earlier answer gave
// (a wrong password, say): the flow never carries one (D171). It is the journals' placeholder.
const Redacted = redact.Placeholder

// Build writes calls as a flow named name. manifest is the fixture manifest of the recording
// deployment (any value that encodes to its JSON): a body value it holds becomes a reference
// to its key, an id an earlier answer gave becomes a reference to that answer (D170). secrets
// are credential values besides those the manifest and the calls show (the recorder's own,
// such as the mock's admin token), replaced wherever they stand.
func Build(name string, calls []Call, manifest any, secrets ...string) Document {
	raw, _ := json.Marshal(manifest)
	doc := Document{Flow: Version, Name: name, Steps: make([]Step, 0, len(calls))}
	ix := &refIndex{manifest: leaves(decode(raw))}
	known := knownSecrets(raw, calls, secrets)
	for i, c := range calls {
		st := Step{Step: i + 1, Operation: c.Operation, As: c.As, Headers: keptHeaders(c.Header)}
		if body, ok := decode(c.Request).(map[string]any); ok {
			st.Body = make(map[string]any, len(body))
			for k, v := range body {
				name := known.Replace(k) // a credential sent as a member's name is one too
				st.Body[name] = scrub(ix.reference(c.Operation, refField(k, body), v), known)
				if _, isObject := v.(map[string]any); isObject { // sent as it is, never read as a reference
					st.Body[name] = Literal(st.Body[name])
				}
			}
			ix.pairCredentials(st.Body, body)
		} else {
			// Not a JSON object, or no body at all: sent as it was, credentials in it replaced
			// by pattern (a form's password=…, JSON cut short).
			s := known.Replace(redact.Text(string(c.Request)))
			st.RawBody = &s
		}
		answer := decode(c.Answer)
		st.Answer = Answer{Status: c.Status, Outline: Outline(answer)}
		if answer == nil && len(bytes.TrimSpace(c.Answer)) > 0 {
			st.Answer.Outline = "text" // not JSON, or cut at the recorder's bound
		}
		doc.Steps = append(doc.Steps, st)
		if c.Status >= 200 && c.Status < 300 {
			ix.answers = append(ix.answers, answerLeaves{step: i + 1, op: c.Operation, leaves: idLeaves(answer)})
		}
	}
	return doc
}

// refField is the field a body member refers as: an entity_id names the record of the body's
// type (a thumbnail's page, template or layout), so it refers as page_id, template_id or
// layout_id would (a manifest's websites.page_id), not as a record named "entity".
func refField(k string, body map[string]any) string {
	if t, ok := body["type"].(string); ok && k == "entity_id" && t != "" && isWord(t) {
		return t + "_id"
	}
	return k
}

// isWord tells a name of lower-case letters alone.
func isWord(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < 'a' || r > 'z' }) < 0
}

// StepHeaders are the only headers a step may name: the bearer token comes from its caller,
// and a world or an admin token belongs to where the flow is replayed, not to the flow.
var StepHeaders = []string{"Content-Type", "Accept"}

// keptHeaders keeps Content-Type and Accept when they are not application/json; one that
// h holds empty was not sent, and is kept as "" (a replay sends none).
func keptHeaders(h http.Header) map[string]string {
	var out map[string]string
	for _, name := range StepHeaders {
		v := h.Get(name)
		if _, sent := h[name]; v == "" && !sent || strings.EqualFold(strings.TrimSpace(strings.SplitN(v, ";", 2)[0]), "application/json") {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[name] = v
	}
	return out
}

// refIndex finds references for body values: the manifest's scalars and the ids of earlier
// successful answers.
type refIndex struct {
	manifest []leaf
	answers  []answerLeaves
}

type answerLeaves struct {
	step   int
	op     string // the operation that answered
	leaves []leaf
}

// idLeaves keeps the leaves of an answer that name a record or a capability: keys "id",
// "…_id" and credentials' ("session_token", "token").
func idLeaves(v any) []leaf {
	var out []leaf
	for _, l := range leaves(v) {
		if idLike(l.key) || redact.IsSecretName(l.key) {
			out = append(out, l)
		}
	}
	return out
}

func idLike(key string) bool {
	return key == "id" || strings.HasSuffix(key, "_id") || strings.HasSuffix(key, "_ids")
}

// scrub redacts credentials inside a literal body value: under a credential's name at any depth
// (apiKey inside an object), name=value pairs inside text, and every credential value the
// recording saw (known) wherever it stands, a title that quotes a password or a token included.
// References pass unchanged.
func scrub(v any, known secrets) any {
	switch t := v.(type) {
	case string:
		return known.Replace(redact.Text(t))
	case map[string]any:
		if _, ref := t["manifest"]; ref && len(t) == 1 {
			return v
		}
		if _, ref := t["step"]; ref && len(t) == 2 {
			return v
		}
	case []any:
	default:
		return v
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	return redact.Body([]byte(known.Replace(string(b))))
}

// knownSecrets holds every credential value the manifest holds (passwords, cart tokens), a
// recorded answer carries under a credential's name (a token issued) or an accepted request
// sent under one (a password that logged in), to be replaced by Redacted wherever it stands,
// and those a refused call sent under one, to be masked (D200). Values that could be ordinary
// words are left alone (redact.Distinctive).
func knownSecrets(manifest []byte, calls []Call, own []string) secrets {
	known, refused := redact.NewKnown(flowSecrets), redact.NewMasking(flowSecrets)
	for _, c := range calls {
		if c.Status >= 200 && c.Status < 300 {
			known.NoteBody(c.Request)
		} else {
			refused.NoteBody(c.Request)
		}
		known.NoteBody(c.Answer)
		for _, s := range c.Secrets {
			known.Note(s)
		}
	}
	// Last, so they are the most recent: a body full of credential-named junk pushes out only
	// values of other calls, never the manifest's or the recorder's own.
	known.NoteBody(manifest)
	for _, s := range own { // the recorder's own, such as the mock's admin token
		known.Note(s)
	}
	return secrets{known, refused}
}

// secrets are the credential values a flow replaces wherever they stand: those of known by
// Redacted, and those refused calls sent (a wrong password, a guessed cart token) by asterisks
// of their length, so a text replayed keeps its length and its verdict (a 256-character tag
// name cut to 40 turned a refused create into a write), while no such value, often a
// mistyped real one, leaves the recording.
type secrets struct{ known, refused *redact.Known }

// Replace replaces every value of both sets in s.
func (k secrets) Replace(s string) string { return k.refused.Replace(k.known.Replace(s)) }

// flowSecrets bounds knownSecrets: far more than a manifest and the logins of a recording
// hold, and few enough that the replacer built from them costs milliseconds (a body of
// 45000 junk passwords made each GET /__mock/flow cost seconds).
const flowSecrets = 4096

// reference returns what the flow writes for field = v of operation op (D170): a manifest key
// holding v whose name fits the field, else an earlier answer's id (fromAnswers), else any
// manifest key holding v; credentials
// that none of them hold are Redacted; other values stay literal. Numbers count only in id
// fields, so a position or a page never becomes a reference.
func (ix *refIndex) reference(op, field string, v any) any {
	_, isString := v.(string)
	_, isNum := number(v)
	secret := redact.IsSecretName(field)
	if secret && !isString {
		return blankLeaves(v) // a credential that is a number, an object or a list: no value leaves
	}
	if n, _ := number(v); !(isString || isNum && idLike(field) && n >= 1) {
		return v // an id of 0 or less names no record: a validation probe stays as sent
	}
	if isString && !secret && !idLike(field) && len(v.(string)) < 2 {
		return v
	}
	var anyKey string
	for _, l := range ix.manifest {
		if !same(l.value, v) && !sameEmail(field, l, v) {
			continue
		}
		if fits(op, field, l.path) {
			return map[string]any{"manifest": l.path}
		}
		if anyKey == "" {
			anyKey = l.path
		}
	}
	if idLike(field) || secret {
		if ref, ok := ix.fromAnswers(op, field, v); ok {
			return ref
		}
	}
	// A key that holds the same value but names another kind of record is no reference: bound
	// to it, a vendor's manifest would send a conversation's id as a template's, or its tool
	// key as a card's title. Such a value stays as recorded.
	switch {
	case anyKey != "" && redact.IsSecretName(lastName(anyKey)) && !secret:
		return Redacted // a password quoted as a title: never a reference a replay would fill in
	case anyKey != "" && secret:
		return map[string]any{"manifest": anyKey}
	case secret:
		return Redacted
	}
	return v
}

// sameEmail tells a login e-mail sent in another case or with spaces around it (which a
// service may accept, as the mock does) from the manifest's e-mail l: it refers to that user,
// so a replay logs in as the target's user, not with the recording's address.
func sameEmail(field string, l leaf, v any) bool {
	sent, ok := v.(string)
	have, isString := l.value.(string)
	return ok && isString && field == "email" && l.key == "email" && strings.EqualFold(strings.TrimSpace(sent), have)
}

// blankLeaves is v in the same shape with every string the placeholder and every number 0, so a
// replay is refused for the same reason as the recording (a password that is a number is still
// a number) while none of v's values leaves the recording. Booleans and nulls carry no secret.
func blankLeaves(v any) any {
	switch t := v.(type) {
	case string:
		return Redacted
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = blankLeaves(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = blankLeaves(x)
		}
		return out
	}
	if _, ok := number(v); ok {
		return json.Number("0")
	}
	return v
}

// pairCredentials makes a password refer to the same user as the e-mail beside it, when that
// user's password is the one sent (two users may share a password in one manifest and not in
// another).
func (ix *refIndex) pairCredentials(out, body map[string]any) {
	ref, _ := out["email"].(map[string]any)
	key, _ := ref["manifest"].(string)
	user, found := strings.CutSuffix(key, ".email")
	if !found {
		return
	}
	for _, l := range ix.manifest {
		if l.path == user+".password" && same(l.value, body["password"]) {
			out["password"] = map[string]any{"manifest": l.path}
		}
	}
}

// fromAnswers finds the answer that first showed v as a record's own id: passes in order of
// trust (a record's "id" outside any list, another id field outside any list, then the same
// inside lists), each from the earliest step, since the answer that made a record names it
// most plainly (later answers may carry it in a shape another deployment chooses otherwise).
func (ix *refIndex) fromAnswers(op, field string, v any) (any, bool) {
	for pass := 0; pass < 4; pass++ {
		for _, a := range ix.answers {
			for _, l := range a.leaves {
				inList := strings.Contains(l.path, "[")
				if inList != (pass >= 2) || (l.key == "id") != (pass%2 == 0) || !same(l.value, v) || !answerFits(op, field, a.op, l) {
					continue
				}
				return map[string]any{"step": a.step, "path": l.path}, true
			}
		}
	}
	return nil, false
}

// fits tells whether a manifest key path names what field of operation op holds: the field's
// stem ("card" of card_id, "item" of cart_item_id, "version" of version_id) is in the key's
// last name, or for "id" the key's stem is in the operation's name (cardsUpdate: card_id);
// credentials and e-mails fit keys of the same name.
func fits(op, field, path string) bool {
	parts := splitPath(path)
	last := ""
	for i := len(parts) - 1; i >= 0; i-- {
		if !isDigits(parts[i]) {
			last = parts[i]
			break
		}
	}
	keyStem := stem(last)
	if field == "id" {
		return keyStem != "" && idFitsOperation(op, keyStem)
	}
	fs := fieldStem(field)
	return fs != "" && strings.Contains(keyStem, fs)
}

// idFitsOperation tells whether a manifest key's record (its stem: "card", "master_card",
// "master_tour_card") is what operation op's id names: the op's name holds the stem whole
// (masterCardsUpdate: master_card), or holds its last word and every other word of it is a
// kind of that record ("master", "tour"): a master tour card is the card of tourCardsUpdate and
// of masterCardsUpdate alike.
func idFitsOperation(op, keyStem string) bool {
	name := strings.ToLower(op)
	if strings.Contains(name, strings.ReplaceAll(keyStem, "_", "")) {
		return true
	}
	words := strings.Split(keyStem, "_")
	if !strings.Contains(name, words[len(words)-1]) {
		return false
	}
	for _, w := range words[:len(words)-1] {
		if !strings.Contains(name, w) && w != "master" && w != "tour" {
			return false
		}
	}
	return true
}

// answerFits tells whether an answer's id leaf names the kind of record field of operation op
// holds: the leaf's record ("comment" of data.comments[0].id, "card" of data.comment.card_id,
// the user of a login's bare data.id) fits the field's stem (card_id, cart_item_id: item), or
// for "id" the operation's name (cardsUpdate: card). A card's id is not a comment's because
// both are 2.
func answerFits(op, field, answeredBy string, l leaf) bool {
	kind := stem(l.key)
	if l.key == "id" {
		parts := splitPath(l.path)
		kind = ""
		for i := len(parts) - 2; i >= 0; i-- {
			if !isDigits(parts[i]) {
				kind = parts[i]
				break
			}
		}
	}
	if kind == "" || kind == "data" { // a bare id of the answer: the record its operation is about
		kind = opNoun(answeredBy)
	}
	kind = strings.TrimSuffix(strings.ReplaceAll(strings.ToLower(kind), "_", ""), "s")
	if kind == "owner" { // a record's owner_id names a user, as a login's data.id does
		kind = "user"
	}
	if field == "id" {
		return strings.Contains(strings.ToLower(op), kind)
	}
	fs := fieldStem(field)
	switch fs {
	case "entity": // a page, template or layout, by the request's type
		return kind == "page" || kind == "template" || kind == "layout"
	case "owner":
		fs = "user"
	}
	return strings.Contains(kind, fs) || strings.Contains(fs, kind)
}

// opNoun is what an operation is about: its name without the last word ("masterCards" of
// masterCardsUpdate), the user for authenticate.
func opNoun(op string) string {
	if op == "authenticate" {
		return "user"
	}
	for i := len(op) - 1; i > 0; i-- {
		if op[i] >= 'A' && op[i] <= 'Z' {
			return op[:i]
		}
	}
	return op
}

// fieldStem is the record a field names, the last word of its stem: "card" of card_id, "item"
// of cart_item_id, "version" of version_id.
func fieldStem(field string) string {
	fs := stem(field)
	if i := strings.LastIndex(fs, "_"); i >= 0 {
		fs = fs[i+1:]
	}
	return fs
}

func stem(name string) string {
	for _, suffix := range []string{"_ids", "_id"} {
		if s, ok := strings.CutSuffix(name, suffix); ok {
			return s
		}
	}
	return name
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
