package flow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/jsondup"
	"github.com/opsapi/mocktoolkit/internal/text"
)

// File is a flow read from a file, or the error that makes it no flow.
type File struct {
	Path string
	Doc  Document
	Err  error
}

// MaxFile bounds a flow file: every process of a run reads every flow, and a file is held at
// several times its size while it is read.
const MaxFile = 32 << 20

// Load reads the flows at path: one file, or every *.json file of a folder (not its
// subfolders), sorted by name. A file that cannot be read or is no valid flow is a File with
// Err set, so each reports on its own; the error is for a path that is neither.
func Load(path string, operations []string) ([]File, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("load flows: %w", err)
	}
	if !info.IsDir() && !info.Mode().IsRegular() {
		return nil, fmt.Errorf("load flows: %s is neither a file nor a folder (a FIFO or a device would never end)", path)
	}
	paths := []string{path}
	if info.IsDir() {
		paths, err = filepath.Glob(filepath.Join(path, "*.json"))
		if err != nil {
			return nil, fmt.Errorf("load flows: %w", err)
		}
		// Subfolders are not read, whatever they are called (a folder named x.json too).
		paths = slices.DeleteFunc(paths, func(p string) bool {
			fi, err := os.Stat(p)
			return err == nil && fi.IsDir()
		})
		sort.Strings(paths)
		if len(paths) == 0 {
			return nil, fmt.Errorf("load flows: the folder %s holds no *.json file", path)
		}
	}
	out := make([]File, 0, len(paths))
	for _, p := range paths {
		f := File{Path: p}
		var b []byte
		fi, err := os.Stat(p)
		switch {
		case err == nil && !fi.Mode().IsRegular():
			err = errors.New("not a regular file (a FIFO or a device would never end)")
		case err == nil && fi.Size() > MaxFile:
			err = fmt.Errorf("%d bytes, past the %d MiB a flow file may hold (the mock records at most 16 MiB of bodies in all): split the flow", fi.Size(), MaxFile>>20)
		case err == nil:
			b, err = os.ReadFile(p)
		}
		if err == nil {
			f.Doc, err = Parse(b, operations)
		}
		if err != nil {
			f.Err = fmt.Errorf("flow %s: %w", p, err)
		}
		if f.Doc.Name == "" {
			f.Doc.Name = strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))
		}
		out = append(out, f)
	}
	return out, nil
}

// maxProblems is how many problems of a flow Parse's error names before it counts the rest: a
// flow of thousands of bad steps made an error of megabytes, copied into every report.
const maxProblems = 20

// Parse reads and checks a flow document: one JSON value (nothing but white space after it),
// the format version, steps numbered from 1, known
// operations (operations lists the operationIds), known callers, well-formed references that
// name earlier steps. The problems found are in the error, by step (the first maxProblems, and
// how many more), each quoting the flow's text cut to 200 bytes (quote).
func Parse(b []byte, operations []string) (Document, error) {
	var d Document
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	dec.UseNumber() // a body's 1.0000000000000000001 is replayed as written, not as 1
	if err := dec.Decode(&d); err != nil {
		return d, fmt.Errorf("not a flow document (JSON, conformance/flow/flow.schema.json): %s", decodeProblem(b, err, dec.InputOffset()))
	}
	if at := moreAfter(b, dec); at >= 0 {
		return d, fmt.Errorf("not a flow document (JSON, conformance/flow/flow.schema.json): line %d: the file holds more after its first JSON value; a flow file is one JSON object, as GET /__mock/flow answers, so give each flow its own file", lineAt(b, at))
	}
	if key, want, at := inexactKey(b); key != "" {
		return d, fmt.Errorf("not a flow document (JSON, conformance/flow/flow.schema.json): line %d: the key %s is not one a flow document has; names are written exactly: %s", lineAt(b, at), quote(key), quote(want))
	}
	switch at, err := jsondup.DuplicateKey(b); {
	case err != nil:
		return d, fmt.Errorf("not a flow document (JSON, conformance/flow/flow.schema.json): %s", decodeProblem(b, err, 0))
	case at != "":
		return d, fmt.Errorf("names %s twice: a flow gives each key once (JSON readers keep the last silently)", text.Clip(at, maxQuoted))
	}
	var problems []string
	more := 0
	add := func(format string, args ...any) {
		if len(problems) == maxProblems {
			more++
			return
		}
		problems = append(problems, fmt.Sprintf(format, args...))
	}
	listed := false // the operationIds are listed once, with the first unknown operation
	if d.Flow != Version {
		add("\"flow\" is %d; this suite reads version %d", d.Flow, Version)
	}
	if len(d.Steps) == 0 {
		add("it has no steps")
	}
	for i, st := range d.Steps {
		at := fmt.Sprintf("step %d", i+1)
		if st.Step != i+1 {
			add("%s: \"step\" is %d; steps are numbered 1, 2, 3… in order", at, st.Step)
		}
		if !slices.Contains(operations, st.Operation) {
			if listed {
				add("%s: unknown operation %s", at, quote(st.Operation))
			} else {
				add("%s: unknown operation %s (the OpenAPI document's operationIds: %s)", at, quote(st.Operation), strings.Join(operations, ", "))
				listed = true
			}
		}
		for _, name := range slices.Sorted(maps.Keys(st.Headers)) {
			if !slices.Contains(StepHeaders, name) {
				add("%s: the header %s is not one a step names (only %s: the caller gives the bearer token)", at, quote(name), strings.Join(StepHeaders, " and "))
			} else if v := st.Headers[name]; strings.ContainsFunc(v, func(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }) {
				add("%s: the header %s holds a control character (a line break, say), which no HTTP header carries", at, quote(name))
			}
		}
		if !slices.Contains(Callers, st.As) {
			add("%s: \"as\" is %s; want one of %s", at, quote(st.As), strings.Join(Callers, ", "))
		}
		if st.Answer.Status < 100 || st.Answer.Status > 599 {
			add("%s: the answer's status %d is no HTTP status", at, st.Answer.Status)
		}
		if st.Body != nil && st.RawBody != nil {
			add("%s: it has both \"body\" and \"raw_body\"", at)
		}
		for _, k := range sortedKeys(st.Body) {
			ref, isObject, err := AsRef(st.Body[k])
			switch {
			case err != nil:
				add("%s: field %s: %s", at, quote(k), err)
			case isObject && ref.Step != 0 && ref.Step >= i+1:
				add("%s: field %s refers to step %d, which is not an earlier step", at, quote(k), ref.Step)
			}
		}
	}
	if more > 0 {
		problems = append(problems, fmt.Sprintf("and %d more problems", more))
	}
	if len(problems) > 0 {
		return d, errors.New(strings.Join(problems, "; "))
	}
	return d, nil
}

// moreAfter is the offset of what follows the JSON value dec has read from b, or -1 when only
// white space does. A file is one JSON text, as the suite's answer checks judge a body (the
// next token is the end of the input): a flow recorded twice into one file was replayed as its
// first document alone, the rest ignored.
func moreAfter(b []byte, dec *json.Decoder) int64 {
	at := dec.InputOffset()
	if _, err := dec.Token(); errors.Is(err, io.EOF) {
		return -1
	}
	rest := b[min(max(at, 0), int64(len(b))):]
	return at + int64(len(rest)-len(bytes.TrimLeft(rest, " \t\r\n")))
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
