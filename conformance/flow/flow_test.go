package flow_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/opsapi/mocktoolkit/conformance/flow"
)

var ops = []string{"authenticate", "cardsCreate", "commentsCreate", "domainCartRemove"}

type manifest struct {
	Users struct {
		Member struct {
			Email    string `json:"email"`
			Password string `json:"password"`
		} `json:"member"`
	} `json:"users"`
	Operations struct {
		GroupID int64 `json:"group_id"`
		BoardID int64 `json:"board_id"`
	} `json:"operations"`
	Domains struct {
		Carts []struct {
			SessionToken string  `json:"session_token"`
			ItemIDs      []int64 `json:"item_ids"`
		} `json:"carts"`
	} `json:"domains"`
}

func testManifest() manifest {
	var m manifest
	m.Users.Member.Email, m.Users.Member.Password = "ann@example.com", "s3cret-pass"
	m.Operations.GroupID = 7
	m.Operations.BoardID = 0 // a manifest may name no board: 0 is no reference
	m.Domains.Carts = append(m.Domains.Carts, struct {
		SessionToken string  `json:"session_token"`
		ItemIDs      []int64 `json:"item_ids"`
	}{"cart-token-1", []int64{40, 41}})
	return m
}

func calls() []flow.Call {
	return []flow.Call{
		{Operation: "authenticate", As: flow.AsNone, Request: []byte(`{"email":"ann@example.com","password":"s3cret-pass"}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{"token":"tok-1","id":3}}`)},
		{Operation: "cardsCreate", As: flow.AsMember, Request: []byte(`{"title":"A","group_id":7,"position":7}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{"card":{"id":900,"group_id":7}}}`)},
		{Operation: "commentsCreate", As: flow.AsMember, Request: []byte(`{"card_id":900,"comment":"hi"}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{"comment":{"id":5,"card_id":900}}}`)},
		{Operation: "domainCartRemove", As: flow.AsNone, Header: http.Header{"Content-Type": {"text/plain"}}, Request: []byte(`{"session_token":"cart-token-1","cart_item_id":41}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{"cart":{"items":[]}}}`)},
		{Operation: "authenticate", As: flow.AsNone, Request: []byte(`{"email":"ann@example.com","password":"wrong"}`), Status: 401, Answer: []byte(`{"error":true,"message":"no"}`)},
		{Operation: "cardsCreate", As: flow.AsMember, Request: []byte(`{"title":"B","group_id":0}`), Status: 422, Answer: []byte(`not json`)},
		{Operation: "cardsCreate", As: flow.AsMember, Request: nil, Status: 422, Answer: nil},
	}
}

func TestBuildWritesReferencesAndNoCredentials(t *testing.T) {
	doc := flow.Build("run", calls(), testManifest())
	raw, _ := json.Marshal(doc)
	for _, want := range []string{
		`"email":{"manifest":"users.member.email"}`, `"password":{"manifest":"users.member.password"}`,
		`"group_id":{"manifest":"operations.group_id"}`, `"position":7`, `"card_id":{"path":"data.card.id","step":2}`,
		`"session_token":{"manifest":"domains.carts[0].session_token"}`, `"cart_item_id":{"manifest":"domains.carts[0].item_ids[1]"}`,
		`"password":"[redacted]"`, `"group_id":0`, `"outline":"text"`, `"raw_body":"","answer"`, `"headers":{"Content-Type":"text/plain"}`, `"outline":{"data":{"card":{"group_id":"integer","id":"integer"}},"error":"boolean","message":"string"}`,
	} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("the flow lacks %s:\n%s", want, raw)
		}
	}
	for _, secret := range []string{"s3cret-pass", "cart-token-1", "wrong", "tok-1"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("the flow holds %q:\n%s", secret, raw)
		}
	}
	if _, err := flow.Parse(raw, ops); err != nil {
		t.Errorf("a built flow does not parse: %v", err)
	}
	checkSchema(t, raw, true)
}

func checkSchema(t *testing.T, doc []byte, valid bool) {
	t.Helper()
	schema, err := jsonschema.UnmarshalJSON(bytes.NewReader(flow.Schema))
	if err != nil {
		t.Fatalf("flow.schema.json: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("flow.schema.json", schema); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("flow.schema.json")
	if err != nil {
		t.Fatalf("compile flow.schema.json: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); (err == nil) != valid {
		t.Errorf("schema says valid=%v (%v), want %v for\n%s", err == nil, err, valid, doc)
	}
}

func TestSchemaRejectsWhatParseRejects(t *testing.T) {
	for name, doc := range map[string]string{
		"an unknown caller":              `{"flow":1,"name":"x","steps":[{"step":1,"operation":"cardsCreate","as":"root","answer":{"status":200,"outline":"null"}}]}`,
		"an object that is no reference": `{"flow":1,"name":"x","steps":[{"step":1,"operation":"cardsCreate","as":"member","body":{"id":{"x":1}},"answer":{"status":200,"outline":"null"}}]}`,
		"another version":                `{"flow":2,"name":"x","steps":[{"step":1,"operation":"cardsCreate","as":"member","answer":{"status":200,"outline":"null"}}]}`,
		"an unknown field":               `{"flow":1,"name":"x","extra":1,"steps":[{"step":1,"operation":"cardsCreate","as":"member","answer":{"status":200,"outline":"null"}}]}`,
	} {
		t.Run("rejects "+name, func(t *testing.T) {
			checkSchema(t, []byte(doc), false)
			if _, err := flow.Parse([]byte(doc), ops); err == nil {
				t.Errorf("Parse accepts it")
			}
		})
	}
}

func TestParseNamesEachProblemByStep(t *testing.T) {
	for name, c := range map[string]struct{ doc, want string }{
		"malformed JSON":               {`{"flow":1,`, "not a flow document"},
		"an unknown operation":         {`{"flow":1,"name":"x","steps":[{"step":1,"operation":"cardsDestroy","as":"member","answer":{"status":200,"outline":"null"}}]}`, `step 1: unknown operation "cardsDestroy"`},
		"a forward reference":          {`{"flow":1,"name":"x","steps":[{"step":1,"operation":"cardsCreate","as":"member","body":{"id":{"step":1,"path":"data.card.id"}},"answer":{"status":200,"outline":"null"}}]}`, `step 1: field "id" refers to step 1, which is not an earlier step`},
		"steps out of order":           {`{"flow":1,"name":"x","steps":[{"step":2,"operation":"cardsCreate","as":"member","answer":{"status":200,"outline":"null"}}]}`, `step 1: "step" is 2`},
		"no steps":                     {`{"flow":1,"name":"x","steps":[]}`, "it has no steps"},
		"a status out of range":        {`{"flow":1,"name":"x","steps":[{"step":1,"operation":"cardsCreate","as":"member","answer":{"status":42,"outline":"null"}}]}`, "no HTTP status"},
		"a body that is no object":     {"{\"flow\":1,\"name\":\"x\",\"steps\":[\n{\"step\":1,\"operation\":\"cardsCreate\",\"as\":\"member\",\"body\":[1],\"answer\":{\"status\":200}}]}", "line 2: steps[].body is an array; the flow format wants an object there"},
		"a step that is a string":      {`{"flow":1,"name":"x","steps":[{"step":"1"}]}`, "steps[].step is a string; the flow format wants a whole number there"},
		"a key of no flow":             {"{\"flow\":1,\n\"colour\":2}", `line 2: the key "colour" is not one a flow document has`},
		"an empty file":                {``, "the file is empty"},
		"a key in another case":        {"{\"flow\":1,\"name\":\"x\",\n\"Steps\":[]}", `line 2: the key "Steps" is not one a flow document has; names are written exactly: "steps"`},
		"a step's key in another case": {"{\"flow\":1,\"name\":\"x\",\"steps\":[{\"step\":1,\n\"OPERATION\":\"cardsCreate\",\"as\":\"member\",\"answer\":{\"status\":200,\"outline\":\"null\"}}]}", `line 2: the key "OPERATION"`},
		"a negative index":             {`{"flow":1,"name":"x","steps":[{"step":1,"operation":"domainCartRemove","as":"none","body":{"cart_item_id":{"manifest":"domains.carts[-1].item_ids[0]"}},"answer":{"status":200,"outline":"null"}}]}`, `step 1: field "cart_item_id": the key path "domains.carts[-1].item_ids[0]" holds the index [-1]: an index is a whole number from 0`},
		"an index past int":            {`{"flow":1,"name":"x","steps":[{"step":1,"operation":"domainCartRemove","as":"none","body":{"session_token":{"manifest":"domains.carts[99999999999999999999].session_token"}},"answer":{"status":200,"outline":"null"}}]}`, `holds the index [99999999999999999999]`},
		"an unclosed bracket":          {`{"flow":1,"name":"x","steps":[{"step":2,"operation":"cardsCreate","as":"member","body":{"id":{"step":1,"path":"data.cards[0.id"}},"answer":{"status":200,"outline":"null"}}]}`, `has a [ without its ]`},
	} {
		t.Run("rejects "+name, func(t *testing.T) {
			_, err := flow.Parse([]byte(c.doc), ops)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestBindResolvesReferencesOrNamesTheMissingKey(t *testing.T) {
	doc := flow.Build("run", calls(), testManifest())
	answers := map[int]any{2: map[string]any{"data": map[string]any{"card": map[string]any{"id": float64(31)}}}}
	got, err := flow.Bind("run", doc.Steps[2], testManifest(), answers)
	if err != nil || got["card_id"] != float64(31) || got["comment"] != "hi" {
		t.Errorf("Bind = %v, %v; want card_id 31 from step 2's answer", got, err)
	}
	other := testManifest()
	other.Domains.Carts = nil
	_, err = flow.Bind("run", doc.Steps[3], other, answers)
	var be *flow.BindError
	if !errors.As(err, &be) || be.Step != 4 || !strings.Contains(err.Error(), `"domains.carts[0]`) || !strings.Contains(err.Error(), `flow "run", step 4`) {
		t.Errorf("Bind without the manifest's cart: %v; want a BindError naming the flow, step 4 and the key", err)
	}
	zero := testManifest()
	zero.Operations.GroupID = 0
	if _, err := flow.Bind("run", doc.Steps[1], zero, nil); err == nil || !strings.Contains(err.Error(), `add the key "operations.group_id"`) {
		t.Errorf("Bind with a manifest id of 0: %v; want the key named as missing", err)
	}
	_, err = flow.Bind("run", doc.Steps[2], testManifest(), map[int]any{2: map[string]any{"data": map[string]any{"card": "a string"}}})
	if err == nil || !strings.Contains(err.Error(), `step 2's answer at "data.card.id", which that answer does not have`) {
		t.Errorf("Bind with an answer lacking the path: %v", err)
	}
	if !errors.As(err, &be) || !be.Target || errors.As(flow.CheckManifest(doc, other), &be) && be.Target {
		t.Errorf("an earlier answer of the target lacking the path is the target's difference (Target), a manifest's missing key is not: %+v", be)
	}
}

// A record a flow picked from a list by its place binds only where the target's list is as
// long: a shorter one is the target's other records (Target), said with the list's length.
func TestBindFromAShorterList(t *testing.T) {
	st := flow.Step{Step: 3, Operation: "cardsUpdate", Body: map[string]any{"id": map[string]any{"step": float64(2), "path": "data.cards[30].id"}}}
	cards := make([]any, 10)
	for i := range cards {
		cards[i] = map[string]any{"id": float64(i + 1)}
	}
	_, err := flow.Bind("run", st, testManifest(), map[int]any{2: map[string]any{"data": map[string]any{"cards": cards}}})
	var be *flow.BindError
	if !errors.As(err, &be) || !be.Target || !strings.Contains(err.Error(), "its data.cards holds 10 entries, and the recording picked entry 31") {
		t.Errorf("Bind from a list of 10 at [30]: %v (%+v); want the target's difference, naming the list's length", err, be)
	}
	st.Body["id"] = map[string]any{"step": float64(2), "path": "data.token"}
	if _, err := flow.Bind("run", st, testManifest(), map[int]any{2: map[string]any{"data": map[string]any{}}}); !errors.As(err, &be) || be.Target {
		t.Errorf("a token bound into a field that takes none: %v; a flow's fault, not the target's", err)
	}
}

func TestLoadReadsAFolderAndReportsEachBadFile(t *testing.T) {
	dir := t.TempDir()
	good, _ := json.Marshal(flow.Build("good one", calls(), testManifest()))
	for name, b := range map[string][]byte{"a.json": good, "b.json": []byte("not json"), "c.txt": []byte("ignored")} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub.json"), 0o755); err != nil { // a subfolder, whatever its name, is not read
		t.Fatal(err)
	}
	files, err := flow.Load(dir, ops)
	if err != nil || len(files) != 2 {
		t.Fatalf("Load = %d files, %v; want 2", len(files), err)
	}
	if files[0].Err != nil || files[0].Doc.Name != "good one" {
		t.Errorf("a.json: %+v", files[0])
	}
	if files[1].Err == nil || !strings.Contains(files[1].Err.Error(), "b.json") || files[1].Doc.Name != "b" {
		t.Errorf("b.json: want an error naming the file, got %+v", files[1])
	}
	if _, err := flow.Load(filepath.Join(dir, "none"), ops); err == nil {
		t.Error("Load of a missing path: no error")
	}
}

// The flow format is shared by the mock and the suite: it imports neither, nor any test
// framework, so the judge never imports the judged through it. Its imports of the module are the
// shared redaction, duplicate-key finder, number reader, nesting reader, one-JSON-text reader,
// JSON error wording and clipping of quoted text, themselves standard library only.
func TestImportsOnlyTheStandardLibrary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/opsapi/mocktoolkit/conformance/flow").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(strings.SplitN(dep, "/", 2)[0], ".") && dep != "github.com/opsapi/mocktoolkit/conformance/flow" && dep != "github.com/opsapi/mocktoolkit/internal/redact" && dep != "github.com/opsapi/mocktoolkit/internal/jsondup" && dep != "github.com/opsapi/mocktoolkit/internal/jsonnum" && dep != "github.com/opsapi/mocktoolkit/internal/jsonwords" && dep != "github.com/opsapi/mocktoolkit/internal/jsonnest" && dep != "github.com/opsapi/mocktoolkit/internal/jsonone" && dep != "github.com/opsapi/mocktoolkit/internal/text" {
			t.Errorf("conformance/flow imports %s", dep)
		}
	}
}

// A client's object where an operation wants a scalar is recorded as a literal and replayed as
// sent: {"en": "Hello"} made the flow unreadable ("an object in a body is a reference"), and
// {"manifest": "users.member.password"} sent as a title was replayed as the member's password.
func TestObjectsInABodyReplayAsSent(t *testing.T) {
	manifest := map[string]any{"users": map[string]any{"member": map[string]any{"email": "m@example.com", "password": "Secret-1"}}}
	calls := []flow.Call{
		{Operation: "cardsCreate", As: "member", Request: []byte(`{"title":{"en":"Hello"}}`), Status: 422, Answer: []byte(`{"message":"m","errors":{"title":["t"]}}`)},
		{Operation: "cardsCreate", As: "member", Request: []byte(`{"title":{"manifest":"users.member.password"},"description":{"literal":1}}`), Status: 422, Answer: []byte(`{"message":"m","errors":{"title":["t"]}}`)},
	}
	doc := flow.Build("objects", calls, manifest)
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	read, err := flow.Parse(raw, []string{"cardsCreate"})
	if err != nil {
		t.Fatalf("the mock's own flow does not load: %v\n%s", err, raw)
	}
	want := []string{`{"title":{"en":"Hello"}}`, `{"description":{"literal":1},"title":{"manifest":"users.member.password"}}`}
	for i, st := range read.Steps {
		body, err := flow.Bind("objects", st, manifest, nil)
		if err != nil {
			t.Fatalf("step %d: %v", st.Step, err)
		}
		if got, _ := json.Marshal(body); string(got) != want[i] {
			t.Errorf("step %d replays %s, want %s as sent", st.Step, got, want[i])
		}
	}
	if strings.Contains(string(raw), "Secret-1") {
		t.Errorf("the flow holds the password: %s", raw)
	}
}

// A step names no header but Content-Type and Accept: an Authorization or X-Mock-World in a
// hand-edited flow was replayed as is, sending a token for a step "as": "none" and making a
// world on the target. A FIFO named as the flows, or in their folder, is refused instead of
// hanging the suite.
func TestFlowHeadersAndFilesAreChecked(t *testing.T) {
	doc := `{"flow":1,"name":"h","steps":[{"step":1,"operation":"tagsList","as":"none","headers":{"Authorization":"Bearer x","X-Mock-World":"other"},"answer":{"status":401,"outline":{}}}]}`
	_, err := flow.Parse([]byte(doc), []string{"tagsList"})
	if err == nil || !strings.Contains(err.Error(), `"Authorization"`) || !strings.Contains(err.Error(), `"X-Mock-World"`) {
		t.Errorf("Parse of a step with Authorization and X-Mock-World: %v, want both refused", err)
	}
	injected := `{"flow":1,"name":"h","steps":[{"step":1,"operation":"tagsList","as":"none","headers":{"Content-Type":"text/plain\r\nX-Injected: 1"},"answer":{"status":401,"outline":{}}}]}`
	if _, err := flow.Parse([]byte(injected), []string{"tagsList"}); err == nil || !strings.Contains(err.Error(), "step 1") || !strings.Contains(err.Error(), "control character") {
		t.Errorf("Parse of a header value with a line break: %v, want it refused naming the step", err)
	}
	dir := t.TempDir()
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, flow.MaxFile+1); err != nil {
		t.Fatal(err)
	}
	if files, err := flow.Load(big, []string{"tagsList"}); err != nil || len(files) != 1 || files[0].Err == nil || !strings.Contains(files[0].Err.Error(), "split the flow") {
		t.Errorf("Load of a flow file past MaxFile: %v %+v, want it refused, asking to split it", err, files)
	}
	fifo := filepath.Join(dir, "f.json")
	if err := exec.Command("mkfifo", fifo).Run(); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := flow.Load(fifo, []string{"tagsList"}); err == nil {
		t.Errorf("Load of a FIFO: no error")
	}
	files, err := flow.Load(dir, []string{"tagsList"})
	if err != nil || len(files) != 1 || files[0].Err == nil {
		t.Errorf("Load of a folder holding a FIFO: %v, %+v; want the FIFO's file refused", err, files)
	}
}

// A flow cannot make the target post its own credentials, or a whole object of its manifest,
// as data: a reference to a password goes only into a credential's field, and a reference names
// one value. CheckManifest finds such a step, and a key the manifest lacks, before anything is
// sent.
func TestBindKeepsCredentialsInTheirFields(t *testing.T) {
	manifest := map[string]any{"users": map[string]any{"member": map[string]any{"email": "m@example.com", "password": "Secret-1"}},
		"operations": map[string]any{"card_id": 7}}
	step := func(n int, body map[string]any) flow.Step {
		return flow.Step{Step: n, Operation: "commentsCreate", As: flow.AsMember, Body: body}
	}
	for name, body := range map[string]map[string]any{
		"a password as a comment": {"card_id": 7, "comment": map[string]any{"manifest": "users.member.password"}},
		"an object as a comment":  {"card_id": 7, "comment": map[string]any{"manifest": "users"}},
	} {
		if _, err := flow.Bind("f", step(1, body), manifest, nil); err == nil {
			t.Errorf("%s: bound", name)
		}
	}
	answers := map[int]any{1: map[string]any{"data": map[string]any{"token": "live-token-1", "id": 3}}}
	if _, err := flow.Bind("f", step(2, map[string]any{"card_id": 7, "comment": map[string]any{"step": 1, "path": "data.token"}}), manifest, answers); err == nil {
		t.Errorf("an earlier answer's token as a comment: bound (the reports would show a live token)")
	}
	if got, err := flow.Bind("f", step(2, map[string]any{"card_id": map[string]any{"step": 1, "path": "data.id"}, "comment": "x"}), manifest, answers); err != nil || got["card_id"] != 3 {
		t.Errorf("an earlier answer's id as card_id: %v, %v", got, err)
	}
	ok := flow.Step{Step: 1, Operation: "authenticate", As: flow.AsNone, Body: map[string]any{
		"email": map[string]any{"manifest": "users.member.email"}, "password": map[string]any{"manifest": "users.member.password"}}}
	if got, err := flow.Bind("f", ok, manifest, nil); err != nil || got["password"] != "Secret-1" {
		t.Errorf("a password into authenticate's password: %v, %v", got, err)
	}
	doc := flow.Document{Name: "f", Steps: []flow.Step{ok, step(2, map[string]any{"card_id": map[string]any{"manifest": "operations.no_such_key"}, "comment": "x"})}}
	var be *flow.BindError
	if err := flow.CheckManifest(doc, manifest); !errors.As(err, &be) || be.Step != 2 {
		t.Errorf("CheckManifest: %v, want step 2's missing key named before any step is sent", err)
	}
}

// A flow naming a key twice is refused, naming the key, as a manifest or a scenario is: a
// reader would keep the last silently.
func TestParseRefusesDuplicateKeys(t *testing.T) {
	doc := `{"flow":1,"name":"f","steps":[{"step":1,"operation":"tagsList","as":"member","as":"superadmin","body":{},"answer":{"status":200}}]}`
	_, err := flow.Parse([]byte(doc), []string{"tagsList"})
	if err == nil || !strings.Contains(err.Error(), "/steps/0/as") {
		t.Errorf("a flow with \"as\" twice: %v, want a refusal naming /steps/0/as", err)
	}
}

// An id is a reference only to an equal id, compared exactly: 9007199254740993 is not the
// manifest's 9007199254740992, though float64 reads both alike.
func TestReferencesCompareNumbersExactly(t *testing.T) {
	manifest := map[string]any{"operations": map[string]any{"card_id": json.Number("9007199254740992")}}
	for body, want := range map[string]string{
		`{"id":9007199254740993}`:   `9007199254740993`,
		`{"id":9007199254740992.0}`: `{"manifest":"operations.card_id"}`,
	} {
		doc := flow.Build("run", []flow.Call{{Operation: "cardsUpdate", As: flow.AsMember, Request: []byte(body), Status: 404}}, manifest)
		got, _ := json.Marshal(doc.Steps[0].Body["id"])
		if string(got) != want {
			t.Errorf("%s: id written as %s, want %s", body, got, want)
		}
	}
}

// A credential that is not a string (a number, an object, an array) is kept out of the flow
// too, in the same shape: its strings become the placeholder and its numbers 0, so a replay
// is refused for the same reason (a password that is a number is still one), and no value
// leaves the recording.
func TestNonStringCredentialsAreRedactedInShape(t *testing.T) {
	manifest := map[string]any{"users": map[string]any{"member": map[string]any{"email": "m@example.com", "password": "Secret-1"}}}
	calls := []flow.Call{
		{Operation: "authenticate", As: "none", Request: []byte(`{"email":"m@example.com","password":987654321}`), Status: 422, Answer: []byte(`{"message":"m","errors":{"password":["p"]}}`)},
		{Operation: "authenticate", As: "none", Request: []byte(`{"email":"m@example.com","password":{"value":"Obj-Secret-9"},"api_key":[{"k":"Arr-Secret-7"}],"pin":4321}`), Status: 422, Answer: []byte(`{"message":"m","errors":{"password":["p"]}}`)},
	}
	raw, err := json.Marshal(flow.Build("shapes", calls, manifest))
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"987654321", "Obj-Secret-9", "Arr-Secret-7", "4321"} {
		if strings.Contains(string(raw), leak) {
			t.Errorf("the flow holds %s:\n%s", leak, raw)
		}
	}
	if _, err := flow.Parse(raw, []string{"authenticate"}); err != nil {
		t.Fatalf("the flow does not load: %v\n%s", err, raw)
	}
	if !strings.Contains(string(raw), `"password":0`) && !strings.Contains(string(raw), `"password": 0`) {
		t.Errorf("the numeric password is not kept a number:\n%s", raw)
	}
}

// A body full of credential-named junk does not push the manifest's credentials out of what
// the flow scrubs: a later title quoting the member's password is still scrubbed.
func TestJunkCredentialsDoNotCrowdOutTheManifests(t *testing.T) {
	var junk strings.Builder
	junk.WriteString(`{"card_id":900,"comment":"x","meta":[`)
	for i := range 70000 {
		if i > 0 {
			junk.WriteByte(',')
		}
		fmt.Fprintf(&junk, `{"password":"junk-%06d"}`, i)
	}
	junk.WriteString(`]}`)
	cs := []flow.Call{
		{Operation: "commentsCreate", As: flow.AsMember, Request: []byte(junk.String()), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{"comment":{"id":6}}}`)},
		{Operation: "cardsCreate", As: flow.AsMember, Request: []byte(`{"title":"ann's password is s3cret-pass"}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{"card":{"id":901}}}`)},
	}
	raw, _ := json.Marshal(flow.Build("run", cs, testManifest()))
	if strings.Contains(string(raw), "s3cret-pass") {
		t.Error("the manifest's password is in the flow, quoted in a title after a body of 70000 junk credentials")
	}
}

// A credential a refused call sent (a wrong password, often a mistyped real one; a cart token
// naming no cart) never leaves the recording, yet other fields that quote it keep their length
// (asterisks, one a character), so a refused create stays refused and an accepted one
// accepted. A login e-mail sent in another case or with spaces refers to the manifest's user,
// so the replay logs in as the target's.
func TestRefusedCredentialsDoNotRewriteOtherFields(t *testing.T) {
	long := strings.Repeat("x", 256)
	cs := []flow.Call{
		{Operation: "domainCartRemove", As: flow.AsNone, Request: []byte(`{"session_token":"` + strings.Repeat("x", 64) + `","cart_item_id":1}`), Status: 404, Answer: []byte(`{"error":true,"message":"no","data":[]}`)},
		{Operation: "authenticate", As: flow.AsNone, Request: []byte(`{"email":"ann@example.com","password":"x1x1x1x1"}`), Status: 401, Answer: []byte(`{"error":true,"message":"no"}`)},
		{Operation: "cardsCreate", As: flow.AsMember, Request: []byte(`{"title":"` + long + `","group_id":7}`), Status: 422, Answer: []byte(`{"message":"m","errors":{"title":["t"]}}`)},
		{Operation: "cardsCreate", As: flow.AsMember, Request: []byte(`{"title":"x1x1x1x1 twice x1x1x1x1","group_id":7}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{"card":{"id":900}}}`)},
		{Operation: "authenticate", As: flow.AsNone, Request: []byte(`{"email":" ANN@Example.com ","password":"s3cret-pass"}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{"token":"tok-1"}}`)},
	}
	raw, _ := json.Marshal(flow.Build("run", cs, testManifest()))
	for _, want := range []string{`"title":"` + strings.Repeat("*", 256) + `"`, `"title":"******** twice ********"`, `"email":{"manifest":"users.member.email"},"password":{"manifest":"users.member.password"}`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("the flow lacks %s:\n%s", want, raw)
		}
	}
	if strings.Contains(string(raw), "x1x1x1x1") || strings.Contains(string(raw), long[:64]) {
		t.Errorf("a refused call's credential left the recording:\n%s", raw)
	}
	if strings.Contains(string(raw), "ANN@") {
		t.Errorf("the e-mail stayed as typed:\n%s", raw)
	}
}

// A thumbnail's entity_id refers to the manifest's record of its type (websites.page_id for a
// page), so a replay regenerates the target's page, not the recording's id.
func TestEntityIDRefersByItsType(t *testing.T) {
	manifest := map[string]any{"websites": map[string]any{"page_id": 1, "template_id": 2, "layout_id": 3}}
	cs := []flow.Call{
		{Operation: "thumbnailsRegenerate", As: flow.AsMember, Request: []byte(`{"type":"page","entity_id":1}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{}}`)},
		{Operation: "thumbnailsRegenerate", As: flow.AsMember, Request: []byte(`{"type":"layout","entity_id":3}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{}}`)},
		{Operation: "thumbnailsRegenerate", As: flow.AsMember, Request: []byte(`{"type":"layout","entity_id":1}`), Status: 404, Answer: []byte(`{"error":true,"message":"no","data":[]}`)},
	}
	raw, _ := json.Marshal(flow.Build("thumbs", cs, manifest))
	for _, want := range []string{`"entity_id":{"manifest":"websites.page_id"}`, `"entity_id":{"manifest":"websites.layout_id"}`, `"entity_id":1,"type":"layout"`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("the flow lacks %s:\n%s", want, raw)
		}
	}
}

// The master tour card's id refers to the manifest's operations.master_tour_card_id, in a tour
// card update and in a master card update alike, so a replay acts on the target's tour card.
func TestTourCardIDRefersToTheManifest(t *testing.T) {
	manifest := map[string]any{"operations": map[string]any{"card_id": 3, "master_card_id": 1, "master_tour_card_id": 7}}
	cs := []flow.Call{
		{Operation: "tourCardsUpdate", As: flow.AsMember, Request: []byte(`{"id":7,"status":"closed"}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{}}`)},
		{Operation: "masterCardsUpdate", As: flow.AsSuperadmin, Request: []byte(`{"id":7}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{}}`)},
		{Operation: "masterCardsUpdate", As: flow.AsSuperadmin, Request: []byte(`{"id":1}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{}}`)},
		{Operation: "cardsUpdate", As: flow.AsMember, Request: []byte(`{"id":3}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{}}`)},
	}
	raw, _ := json.Marshal(flow.Build("tour", cs, manifest))
	if n := strings.Count(string(raw), `"id":{"manifest":"operations.master_tour_card_id"}`); n != 2 {
		t.Errorf("%d references to the tour card, want 2:\n%s", n, raw)
	}
	for _, want := range []string{`"id":{"manifest":"operations.master_card_id"}`, `"id":{"manifest":"operations.card_id"}`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("the flow lacks %s:\n%s", want, raw)
		}
	}
}

// A user id a list showed as a record's owner (data.cards[0].owner_id) is a reference for a
// later owner_id, as a login's data.id is: kept literal, the replay named a user of the
// recording's numbering, and a deployment numbering users otherwise answered 404.
func TestBuildBindsAnOwnerSeenInAList(t *testing.T) {
	doc := flow.Build("run", []flow.Call{
		{Operation: "cardsList", As: flow.AsMember, Request: []byte(`{}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{"cards":[{"id":9,"owner_id":2}]}}`)},
		{Operation: "cardsUpdate", As: flow.AsMember, Request: []byte(`{"id":9,"owner_id":2}`), Status: 200, Answer: []byte(`{"error":false,"message":"ok","data":{"card":{"id":9,"owner_id":2}}}`)},
	}, testManifest())
	raw, _ := json.Marshal(doc.Steps[1].Body)
	if !strings.Contains(string(raw), `"owner_id":{"path":"data.cards[0].owner_id","step":1}`) {
		t.Errorf("step 2's body: %s, want owner_id bound to step 1's data.cards[0].owner_id", raw)
	}
}

// The names of the format are exact; a request body's and an outline's keys are data, in any
// case.
func TestParseKeepsBodyKeysInAnyCase(t *testing.T) {
	doc := `{"flow":1,"name":"x","steps":[{"step":1,"operation":"cardsCreate","as":"member","headers":{"Content-Type":"text/plain"},"body":{"Title":"x"},"answer":{"status":200,"outline":{"Data":"string"}}}]}`
	if _, err := flow.Parse([]byte(doc), []string{"cardsCreate"}); err != nil {
		t.Errorf("a body with capitalised keys: %v", err)
	}
}
