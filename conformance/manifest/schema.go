package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsapi/mocktoolkit/internal/jsondup"
)

// schema is Schema (JSON Schema, local $refs inlined) read as a kin-openapi
// schema, once.
var schema = sync.OnceValues(func() (*openapi3.Schema, error) {
	var doc map[string]any
	if err := json.Unmarshal(Schema, &doc); err != nil {
		return nil, fmt.Errorf("manifest.schema.json: %w", err)
	}
	defs, _ := doc["$defs"].(map[string]any)
	var inline func(v any) (any, error)
	inline = func(v any) (any, error) {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok {
				name, found := strings.CutPrefix(ref, "#/$defs/")
				if !found || defs[name] == nil {
					return nil, fmt.Errorf("manifest.schema.json: unresolved $ref %q", ref)
				}
				return inline(defs[name])
			}
			out := map[string]any{}
			for k, e := range x {
				if k == "$defs" {
					continue
				}
				var err error
				if out[k], err = inline(e); err != nil {
					return nil, err
				}
			}
			return out, nil
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				var err error
				if out[i], err = inline(e); err != nil {
					return nil, err
				}
			}
			return out, nil
		}
		return v, nil
	}
	flat, err := inline(doc)
	if err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(flat)
	var s openapi3.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("manifest.schema.json as a schema: %w", err)
	}
	return &s, nil
})

// Validate checks a manifest's JSON against Schema: a key the schema does not
// know (a misspelt "bord_id"), a value of the wrong type or out of range are errors, each naming
// where it is. It does not say what a run needs (Check does).
func Validate(raw []byte) error {
	s, err := schema()
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if at, err := jsondup.DuplicateKey(raw); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	} else if at != "" {
		return fmt.Errorf("names %s twice: a manifest gives each key once", at)
	}
	if err := s.VisitJSON(v, openapi3.MultiErrors()); err != nil {
		return fmt.Errorf("does not match manifest.schema.json: %s", schemaProblems(err))
	}
	return nil
}

// schemaProblems words the schema errors of err in one line each, where and why, without the
// schema kin-openapi appends.
func schemaProblems(err error) string {
	var out []string
	var walk func(err error)
	walk = func(err error) {
		var multi openapi3.MultiError
		var se *openapi3.SchemaError
		switch {
		case errors.As(err, &multi):
			for _, e := range multi {
				walk(e)
			}
		case errors.As(err, &se):
			out = append(out, fmt.Sprintf("at /%s: %s", strings.Join(se.JSONPointer(), "/"), se.Reason))
		default:
			out = append(out, err.Error())
		}
	}
	walk(err)
	return strings.Join(out, "; ")
}

// MaxFileSize is the largest manifest file read: a manifest names a few hundred ids.
const MaxFileSize = 8 << 20

// ReadFile reads a manifest file: a regular file (a FIFO would never end, a device never stop)
// of at most MaxFileSize bytes.
func ReadFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file (a FIFO or a device would never end): a manifest is a JSON file", path)
	case fi.Size() > MaxFileSize:
		return nil, fmt.Errorf("%s is %d bytes; a manifest is at most %d", path, fi.Size(), MaxFileSize)
	}
	return os.ReadFile(path)
}

// CheckFile is what `conformance.test -check-manifest <file>` runs: the file must match
// Schema; it returns what the file lacks for a whole run (Check).
func CheckFile(path string) ([]string, error) {
	raw, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := Validate(raw); err != nil {
		return nil, fmt.Errorf("%s %w", path, err)
	}
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return Check(m), nil
}
