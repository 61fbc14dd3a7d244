package spec

import (
	"bytes"
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// WholeNumber tells whether a JSON number's value is a whole number, read exactly from its
// digits as written: "5.0", "1e1", "1.5e1" and "1e500" are whole; "1.0000000000000000001",
// "5e-1" and "1e-400" are not (float64 reads the last two as 1 and 0). Every reader of the
// toolkit (the mock's decoder, the checker) asks this one question the same way. num is a
// number in JSON's grammar.
func WholeNumber(num string) bool {
	mant, exp := num, int64(0)
	if i := strings.IndexAny(num, "eE"); i >= 0 {
		mant = num[:i]
		e, err := strconv.ParseInt(strings.TrimPrefix(num[i+1:], "+"), 10, 64)
		if err != nil { // past int64: as far out as anything can be
			e = 1 << 62
			if strings.HasPrefix(num[i+1:], "-") {
				e = -e
			}
		}
		exp = e
	}
	whole, frac, _ := strings.Cut(strings.TrimPrefix(mant, "-"), ".")
	digits := whole + frac
	// digits[:point] is the whole part; the rest must be zeros.
	point := min(max(int64(len(whole))+min(max(exp, -1<<40), 1<<40), 0), int64(len(digits)))
	return strings.Trim(digits[point:], "0") == ""
}

// NotIntegers lists the places of a JSON document where schema types a value integer and the
// value is a number that is not whole (WholeNumber), members in name order, as paths from the top
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
		if s.Type.Is("integer") && !WholeNumber(t.String()) {
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
