package mockserver_test

import (
	"context"
	"maps"
	"net/http"
	"testing"

	"github.com/opsapi/mocktoolkit/mockserver"
	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// The same failure reads the same whichever layer finds it (D5): every required field of every
// operation, sent absent, null, blank (strings) or of the wrong type, is worded by the one
// sentence writer — absent, null and blank alike as missing (D44), whether the spec's
// validation or the store's own check found it.
func TestRequiredFieldsAreWordedTheSameByEveryLayer(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	member, admin := m.login(m.manifest.Users.Member), m.login(m.manifest.Users.Superadmin)
	doc, err := spec.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range validCalls(m.manifest) {
		token := member
		switch {
		case c.superadmin:
			token = admin
		case c.public:
			token = ""
		}
		rt, _ := spec.Route(doc, c.path)
		schema := rt.Operation.RequestBody.Value.Content.Get("application/json").Schema.Value
		for _, field := range schema.Required {
			kind := schema.Properties[field].Value.Type.Slice()[0]
			cases := map[string]wordingCase{
				"absent": {want: reference.MsgRequired(field)},
				"null":   {value: nil, want: reference.MsgRequired(field)},
			}
			switch kind {
			case "string":
				cases["empty"] = wordingCase{"", reference.MsgRequired(field)}
				cases["blank"] = wordingCase{"   ", reference.MsgRequired(field)}
				wrongType := reference.MsgType(field, "a string")
				if enum := schema.Properties[field].Value.Enum; len(enum) > 0 {
					allowed := make([]string, 0, len(enum))
					for _, v := range enum {
						if v != nil {
							allowed = append(allowed, v.(string))
						}
					}
					wrongType = reference.MsgOneOf(field, allowed)
				}
				cases["a number"] = wordingCase{5, wrongType}
			case "integer":
				cases["a string"] = wordingCase{"5", reference.MsgType(field, "an integer")}
			}
			for name, tc := range cases {
				t.Run(c.name+"/"+field+" "+name, func(t *testing.T) {
					body := maps.Clone(c.body)
					if name == "absent" {
						delete(body, field)
					} else {
						body[field] = tc.value
					}
					a := m.post(c.path, token, body).wantStatus(t, http.StatusUnprocessableEntity)
					errs, _ := a.body["errors"].(map[string]any)
					msgs, _ := errs[field].([]any)
					if len(msgs) != 1 || msgs[0] != tc.want {
						t.Errorf("%s: errors.%s = %v, want [%q]", a.req, field, errs[field], tc.want)
					}
				})
				checked++
			}
		}
	}
	if checked < 60 {
		t.Errorf("only %d cases: the table of operations lost its required fields", checked)
	}
}

// wordingCase is a value sent in a required field (absent: left out) and the sentence wanted.
type wordingCase struct {
	value any
	want  string
}
