package flow_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/conformance/flow"
)

// A flow file is one JSON text: a second document appended to it, or junk after its value, is
// refused with the line it starts on, not replayed as its first document alone (the README's
// "Record and replay": a bad flow file fails its own spec).
func TestParseRefusesMoreAfterTheFirstJSONValue(t *testing.T) {
	one, err := json.Marshal(flow.Build("one", calls(), testManifest()))
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		doc  string
		line string
	}{
		"a second flow document":      {string(one) + "\n" + string(one) + "\n", "line 2"},
		"junk after the document":     {string(one) + "\ngarbage\n", "line 2"},
		"two documents and junk":      {string(one) + "\n" + string(one) + "\ngarbage\n", "line 2"},
		"a closing brace too many":    {string(one) + "}", "line 1"},
		"a value on the same line":    {string(one) + " 1", "line 1"},
		"junk after blank lines":      {string(one) + "\n\n\n[]", "line 4"},
		"a duplicate key in the rest": {string(one) + `{"flow":1,"flow":1}`, "line 1"},
	} {
		t.Run("refuses "+name, func(t *testing.T) {
			_, err := flow.Parse([]byte(c.doc), ops)
			if err == nil || !strings.Contains(err.Error(), "holds more after its first JSON value") || !strings.Contains(err.Error(), c.line) {
				t.Errorf("error %v, want one saying the file holds more after its first JSON value, at %s", err, c.line)
			}
		})
	}
	t.Run("accepts white space after the document", func(t *testing.T) {
		if _, err := flow.Parse(append(one, " \n\t\r\n"...), ops); err != nil {
			t.Errorf("a document followed by white space: %v", err)
		}
	})
}

// The audit's reproduction: a flow recorded twice into one file, then "garbage", fails on its
// own, naming the file; the folder's other flows still load.
func TestLoadRefusesAFileOfTwoFlows(t *testing.T) {
	dir := t.TempDir()
	one, _ := json.Marshal(flow.Build("one", calls(), testManifest()))
	twice := string(one) + "\n" + string(one) + "\ngarbage\n"
	if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte(twice), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.json"), one, 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := flow.Load(dir, ops)
	if err != nil || len(files) != 2 {
		t.Fatalf("Load = %d files, %v; want 2", len(files), err)
	}
	if e := files[0].Err; e == nil || !strings.Contains(e.Error(), "a.json") || !strings.Contains(e.Error(), "holds more after its first JSON value") {
		t.Errorf("a.json: %v, want an error naming the file and the extra text", e)
	}
	if files[1].Err != nil {
		t.Errorf("b.json: %v", files[1].Err)
	}
}

// A key path names a key between each pair of dots: "..data..token" was accepted and looked up
// as data.token. Parse refuses it, naming the step, the field and the path.
func TestParseRefusesEmptyKeyPathSegments(t *testing.T) {
	for _, path := range []string{"..data..token", ".data.token", "data.token.", "data..token", "data.[0].id", ".", "data.cards[0]..id"} {
		t.Run("refuses "+path, func(t *testing.T) {
			for _, ref := range []string{`{"manifest":` + quoteJSON(path) + `}`, `{"step":1,"path":` + quoteJSON(path) + `}`} {
				doc := `{"flow":1,"name":"x","steps":[` +
					`{"step":1,"operation":"authenticate","as":"none","answer":{"status":200,"outline":"null"}},` +
					`{"step":2,"operation":"cardsCreate","as":"member","body":{"token":` + ref + `},"answer":{"status":200,"outline":"null"}}]}`
				_, err := flow.Parse([]byte(doc), ops)
				want := `step 2: field "token": the key path ` + quoteJSON(path) + ` has an empty segment`
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("%s: error %v, want one containing %q", ref, err, want)
				}
			}
		})
	}
	for _, path := range []string{"data.token", "domains.carts[0].item_ids[1]", "data.cards.0.id", "a[0][1].b"} {
		t.Run("accepts "+path, func(t *testing.T) {
			doc := `{"flow":1,"name":"x","steps":[{"step":1,"operation":"cardsCreate","as":"member","body":{"id":{"manifest":` + quoteJSON(path) + `}},"answer":{"status":200,"outline":"null"}}]}`
			if _, err := flow.Parse([]byte(doc), ops); err != nil {
				t.Errorf("Parse: %v", err)
			}
		})
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
