package flow_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/flow"
)

// hostile is 40 KB of a flow's own text, as a hand-edited or generated flow may hold where a
// key, a name or a reference's path belongs.
var hostile = strings.Repeat("a.", 20000) + "id"

// assertShort fails unless msg, a failure a replay reports, quotes at most the start of the
// hostile text: every report copies it, once per run.
func assertShort(t *testing.T, what, msg string, limit int) {
	t.Helper()
	if len(msg) > limit || strings.Contains(msg, hostile[:400]) {
		t.Errorf("%s: a message of %d bytes quotes the flow's text whole: %.300q…", what, len(msg), msg)
	}
	if !strings.Contains(msg, "…") {
		t.Errorf("%s: %.300q does not show that the text was cut", what, msg)
	}
}

// A step's reference whose path is 40 KB long failed the replay with a 40,729-byte line.
func TestReplayFailuresClipTheFlowsText(t *testing.T) {
	raw := `{"flow":1,"name":"long","steps":[` +
		`{"step":1,"operation":"cardsCreate","as":"member","body":{"title":"t"},"answer":{"status":200,"outline":{}}},` +
		`{"step":2,"operation":"commentsCreate","as":"member","body":{"card_id":{"step":1,"path":"` + hostile + `"},"comment":"x"},"answer":{"status":200,"outline":{}}}]}`
	doc, err := flow.Parse([]byte(raw), ops)
	if err != nil {
		t.Fatalf("the flow does not load: %.300v", err)
	}
	answers := map[int]any{1: map[string]any{"data": map[string]any{"card": map[string]any{"id": json.Number("9")}}}}
	_, err = flow.Bind(doc.Name, doc.Steps[1], testManifest(), answers)
	if err == nil {
		t.Fatal("a path step 1's answer lacks was bound")
	}
	assertShort(t, "a long path the answer lacks", err.Error(), 1200)
	if !strings.Contains(err.Error(), `step 1's answer at "a.a.a.`) {
		t.Errorf("the failure no longer names the path's start: %.300q", err)
	}
	_, err = flow.Bind(doc.Name, doc.Steps[1], testManifest(), nil)
	if err == nil {
		t.Fatal("a reference to a step that gave no JSON answer was bound")
	}
	assertShort(t, "a long path of a step without an answer", err.Error(), 600)

	step := flow.Step{Step: 1, Operation: "commentsCreate", As: flow.AsMember, Body: map[string]any{
		hostile: map[string]any{"manifest": hostile}}}
	long := flow.Document{Flow: 1, Name: hostile, Steps: []flow.Step{step}}
	err = flow.CheckManifest(long, testManifest())
	if err == nil {
		t.Fatal("a manifest key the manifest lacks was bound")
	}
	assertShort(t, "a long name, field and manifest key", err.Error(), 1000)
	_, err = flow.Bind(long.Name, step, testManifest(), nil)
	assertShort(t, "Bind of a long name, field and manifest key", fmt.Sprint(err), 1000)

	for what, body := range map[string]map[string]any{
		"a step reference of long values": {"card_id": map[string]any{"step": hostile, "path": hostile}},
		"a manifest reference to a list":  {"card_id": map[string]any{"manifest": strings.Split(hostile, ".")}},
		"an object of long keys":          {"card_id": map[string]any{hostile: 1, hostile + "b": 2}},
	} {
		_, err := flow.Bind("f", flow.Step{Step: 1, Operation: "commentsCreate", As: flow.AsMember, Body: body}, testManifest(), nil)
		if err == nil {
			t.Errorf("%s: bound", what)
			continue
		}
		assertShort(t, what, err.Error(), 1000)
	}

	// A hand-edited recording's outline may be of any size: the failure shows its first 4 KB.
	outline := map[string]any{}
	for i := range 5000 {
		outline[fmt.Sprintf("key%04d", i)] = "string"
	}
	status := flow.Step{Step: 1, Operation: "cardsCreate", As: flow.AsMember, Answer: flow.Answer{Status: 200, Outline: outline}}
	long.Steps = []flow.Step{status}
	assertShort(t, "the step's context", long.StepContext(status), 5000)
	assertShort(t, "a status class mismatch", long.ClassMismatch(status, 500, false, "500 {}"), 5500)
	assertShort(t, "a check's failure", long.CheckFailure(status, "rule ENV-1"), 5500)
}

// Parse words each problem of a flow with what the flow wrote: each quote is cut, and a flow of
// thousands of bad steps names the first problems and counts the rest.
func TestParseClipsTheFlowsText(t *testing.T) {
	stepWith := func(fields string) string {
		return `{"flow":1,"name":"x","steps":[{"step":1,"operation":"cardsCreate","as":"member",` + fields + `"answer":{"status":200,"outline":{}}}]}`
	}
	for what, raw := range map[string]string{
		"an unknown operation":         strings.Replace(stepWith(""), `"cardsCreate"`, `"`+hostile+`"`, 1),
		"an unknown caller":            strings.Replace(stepWith(""), `"member"`, `"`+hostile+`"`, 1),
		"an unknown header":            stepWith(`"headers":{"` + hostile + `":"x"},`),
		"a bad reference":              stepWith(`"body":{"` + hostile + `":{"step":"` + hostile + `","path":1}},`),
		"a reference of long keys":     stepWith(`"body":{"id":{"` + hostile + `":1,"x":2}},`),
		"a forward reference":          stepWith(`"body":{"` + hostile + `":{"step":1,"path":"x"}},`),
		"an unknown key":               `{"flow":1,"` + hostile + `":1}`,
		"a duplicate key":              stepWith(`"body":{"` + hostile + `":1,"` + hostile + `":2},`),
		"a long number":                `{"flow":1` + strings.Repeat("0", 40000) + `,"name":"x","steps":[]}`,
		"a long number where a string": `{"flow":1,"name":1` + strings.Repeat("0", 40000) + `,"steps":[]}`,
		"thousands of bad steps":       `{"flow":1,"name":"x","steps":[` + strings.Repeat(`{"step":1,"operation":"x","as":"x","answer":{"status":1}},`, 4000) + `{"step":1,"operation":"x","as":"x","answer":{"status":1}}]}`,
	} {
		_, err := flow.Parse([]byte(raw), ops)
		if err == nil {
			t.Errorf("%s: Parse accepts it", what)
			continue
		}
		if strings.Contains(what, "number") {
			if len(err.Error()) > 600 || strings.Contains(err.Error(), strings.Repeat("0", 400)) {
				t.Errorf("%s: a message of %d bytes quotes the number whole: %.300q", what, len(err.Error()), err)
			}
			continue
		}
		if strings.HasPrefix(what, "thousands") {
			if len(err.Error()) > 3000 || !strings.HasSuffix(err.Error(), "; and 15983 more problems") {
				t.Errorf("%s: a message of %d bytes, ending %q; want the first 20 problems and a count of the rest", what, len(err.Error()), err.Error()[max(len(err.Error())-100, 0):])
			}
			continue
		}
		assertShort(t, what, err.Error(), 3000)
	}
}
