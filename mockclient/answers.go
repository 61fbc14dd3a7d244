package mockclient

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// This file holds what the mock always sends in each answer the client reads (its controls'
// plain JSON objects, D68, and the login's envelope), and the one check of an answer against
// it. Another JSON service at the base URL answers null, {} or objects of its own; decoded as
// they were, they read as a count of 0, a world of no users or the zero time, and a test's
// assertions passed without reaching the mock.

// A shape is the members the mock always sends in one answer, or in one object of it, in the
// order they are checked: the first one lacking is the one an error names. Members the mock
// adds, and the rows of its lists, are not checked; the rows are decoded into typed fields.
type shape []member

// member is one member of a shape: its name, its JSON kind and, for an object, the members
// the mock always sends in it.
type member struct {
	name string
	kind kind
	has  shape
}

// kind is the kind of a JSON text, as its first byte tells it.
type kind byte

const (
	noText kind = iota // an empty answer
	jsonString
	jsonNumber
	jsonBool
	jsonObject
	jsonArray
	jsonNull
)

var kindNames = [...]string{
	noText: "empty", jsonString: "a string", jsonNumber: "a number", jsonBool: "true or false",
	jsonObject: "an object", jsonArray: "an array", jsonNull: "null",
}

func (k kind) String() string { return kindNames[k] }

// kindOf is the kind of the JSON text b.
func kindOf(b []byte) kind {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return noText
	}
	switch b[0] {
	case '"':
		return jsonString
	case '{':
		return jsonObject
	case '[':
		return jsonArray
	case 't', 'f':
		return jsonBool
	case 'n':
		return jsonNull
	}
	return jsonNumber
}

// probe is what the check keeps of one member: its kind, and its text when it is an object,
// whose own members a shape may name. A list's text is not kept: a snapshot's lists are
// nearly all of an answer of up to a gigabyte, and a copy would double what State holds.
type probe struct {
	kind kind
	text []byte
}

// UnmarshalJSON implements json.Unmarshaler.
func (p *probe) UnmarshalJSON(b []byte) error {
	p.kind = kindOf(b)
	if p.kind == jsonObject {
		p.text = bytes.Clone(b) // b is the decoder's, not ours to keep
	}
	return nil
}

// check refuses the answer raw when it lacks a member of s, or holds one of another kind,
// naming the first such member; a nil shape checks nothing.
func (s shape) check(raw []byte) error {
	if len(s) == 0 {
		return nil
	}
	if k := kindOf(raw); k != jsonObject {
		return fmt.Errorf("the answer is %s, where the mock always sends an object holding %q (%s)", k, s[0].name, s[0].kind)
	}
	return s.lack(raw, "")
}

// lack is check for the object text b, found in the answer at the path at ("" for the answer
// itself, "data." for its data).
func (s shape) lack(b []byte, at string) error {
	var members map[string]probe
	if err := json.Unmarshal(b, &members); err != nil {
		return fmt.Errorf("decode answer: %w", err)
	}
	for _, m := range s {
		p, ok := members[m.name]
		switch {
		case !ok:
			return fmt.Errorf("the answer lacks %q (%s), which the mock always sends", at+m.name, m.kind)
		case p.kind != m.kind:
			return fmt.Errorf("the answer's %q is %s, where the mock always sends %s", at+m.name, p.kind, m.kind)
		case len(m.has) > 0:
			if err := m.has.lack(p.text, at+m.name+"."); err != nil {
				return err
			}
		}
	}
	return nil
}

// What the mock always sends in each answer: read from its handlers (mockserver), the first
// member the one that tells the answer apart.
var (
	// credentials are a manifest user's login; a user a snapshot took away keeps its members,
	// empty (D102).
	credentials = shape{{"email", jsonString, nil}, {"password", jsonString, nil}}

	// manifestAnswer is GET /__mock/fixtures, and a reset's fixtures: fixtures.Manifest, whose
	// shape never changes (D102). The teammate is left out of a manifest without one.
	manifestAnswer = shape{
		{"users", jsonObject, shape{{"member", jsonObject, credentials}, {"superadmin", jsonObject, credentials}, {"outsider", jsonObject, credentials}}},
		{"seed", jsonNumber, nil}, {"operations", jsonObject, nil}, {"ai", jsonObject, nil},
		{"domains", jsonObject, nil}, {"websites", jsonObject, nil},
	}

	// resetAnswer is POST /__mock/reset.
	resetAnswer = shape{
		{"fixtures", jsonObject, manifestAnswer}, {"world", jsonString, nil}, {"seed", jsonNumber, nil},
		{"scenario", jsonString, nil}, {"now", jsonString, nil},
	}

	// clockAnswer is GET, POST and DELETE /__mock/clock (D63, D104).
	clockAnswer = shape{{"now", jsonString, nil}, {"frozen", jsonBool, nil}, {"world", jsonString, nil}}

	// worldsAnswer is GET /__mock/worlds.
	worldsAnswer = shape{{"worlds", jsonArray, nil}, {"max_worlds", jsonNumber, nil}, {"max_state_bytes", jsonNumber, nil}}

	// worldDeletedAnswer is DELETE /__mock/worlds?name=…, and worldResetAnswer that of the
	// default world, which is reset instead (D147).
	worldDeletedAnswer = shape{{"deleted", jsonString, nil}}
	worldResetAnswer   = shape{{"reset", jsonString, nil}}

	// faultAnswer is POST /__mock/faults: the rule added (D61); its other members are left out
	// when unset.
	faultAnswer = shape{{"id", jsonNumber, nil}, {"operation", jsonString, nil}}

	// faultsAnswer is GET and DELETE /__mock/faults.
	faultsAnswer = shape{{"faults", jsonArray, nil}}

	// requestsAnswer is GET /__mock/requests, and requestsClearedAnswer DELETE (D64, D105).
	requestsAnswer        = shape{{"requests", jsonArray, nil}, {"world", jsonString, nil}}
	requestsClearedAnswer = shape{{"requests", jsonArray, nil}}

	// countAnswer is GET /__mock/requests/count (D105).
	countAnswer = shape{{"count", jsonNumber, nil}, {"world", jsonString, nil}, {"operation", jsonString, nil}, {"status", jsonString, nil}}

	// stateAnswer is GET /__mock/state: every list of reference.State, always a list (D65).
	stateAnswer = shape{
		{"users", jsonArray, nil}, {"projects", jsonArray, nil}, {"tokens", jsonArray, nil},
		{"boards", jsonArray, nil}, {"groups", jsonArray, nil}, {"cards", jsonArray, nil},
		{"comments", jsonArray, nil}, {"tags", jsonArray, nil}, {"conversations", jsonArray, nil},
		{"carts", jsonArray, nil}, {"website_entities", jsonArray, nil},
		{"theme_versions", jsonArray, nil}, {"thumbnail_regenerations", jsonArray, nil},
	}

	// stateLoadedAnswer is PUT /__mock/state.
	stateLoadedAnswer = shape{{"loaded", jsonBool, nil}, {"users", jsonNumber, nil}, {"cards", jsonNumber, nil}}

	// flowAnswer is GET /__mock/flow: a flow document (D170); its source and note are
	// optional members of the format.
	flowAnswer = shape{{"steps", jsonArray, nil}, {"flow", jsonNumber, nil}, {"name", jsonString, nil}}

	// loginAnswer is the success of /v1/authenticate: the envelope with the token, and the
	// errors list the mock's authenticate always holds.
	loginAnswer = shape{
		{"data", jsonObject, shape{{"token", jsonString, nil}}}, {"error", jsonBool, nil},
		{"message", jsonString, nil}, {"errors", jsonArray, nil},
	}
)

// notTheMock is the error of an answer that is not the mock's, one wording for all of them: a
// page, an answer past the bound, one that is no JSON or lacks what the mock always sends. It
// names the call, what is wrong, and asks whether the base URL is the mock's.
func (c *Client) notTheMock(method, path string, why error) error {
	return fmt.Errorf("%s %s: %w: is %s the mock's base URL?", method, path, why, c.base)
}
