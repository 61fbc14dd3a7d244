package spec

import (
	"bytes"
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/opsapi/mocktoolkit/internal/jsonnum"
)

// NotIntegers lists the places of a JSON document where schema types a value integer and the
// value is a number that is not whole (jsonnum.WholeNumber), members in name order, as paths from the top
// ("position", "data.cards[3].id"; "body" for the document itself). It reads numbers as
// written: a schema validator that reads them as float64 takes 1.0000000000000000001 for 1 and
// 1e-400 for 0. nil when doc is not JSON.
func NotIntegers(schema *openapi3.Schema, doc []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if schema == nil || dec.Decode(&v) != nil {
		return nil
	}
	var out []string
	notIntegers(schema, v, "", &out)
	return out
}

func notIntegers(s *openapi3.Schema, v any, path string, out *[]string) {
	switch t := v.(type) {
	case json.Number:
		if s.Type.Is("integer") && !jsonnum.WholeNumber(t.String()) {
			*out = append(*out, cmp.Or(path, "body"))
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			ref := s.Properties[k]
			if ref == nil {
				ref = s.AdditionalProperties.Schema
			}
			if ref != nil && ref.Value != nil {
				notIntegers(ref.Value, t[k], joinPath(path, k), out)
			}
		}
	case []any:
		if s.Items == nil || s.Items.Value == nil {
			return
		}
		for i, e := range t {
			notIntegers(s.Items.Value, e, path+"["+strconv.Itoa(i)+"]", out)
		}
	}
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
