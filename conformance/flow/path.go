package flow

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/jsonnum"
	"github.com/opsapi/mocktoolkit/internal/jsonone"
)

// Lookup returns the value at a key path of a decoded JSON value: keys joined by dots, array
// elements as [n] or as a key of digits ("domains.carts[0].item_ids[1]", "data.cards.0.id").
func Lookup(v any, path string) (any, bool) {
	cur := v
	for _, key := range splitPath(path) {
		switch x := cur.(type) {
		case map[string]any:
			next, ok := x[key]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			cur = x[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// splitPath splits "a.b[0].c" into a, b, 0, c.
func splitPath(path string) []string {
	path = strings.ReplaceAll(strings.ReplaceAll(path, "[", "."), "]", "")
	var out []string
	for _, k := range strings.Split(path, ".") {
		if k != "" {
			out = append(out, k)
		}
	}
	return out
}

// leaf is a scalar of a JSON value and its key path.
type leaf struct {
	path  string
	key   string // the last object key on the path
	value any
}

// leaves lists the scalars (strings and numbers) of v with their paths, in a stable order
// (object keys sorted, arrays in order).
func leaves(v any) []leaf {
	var out []leaf
	var walk func(v any, path, key string)
	walk = func(v any, path, key string) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				p := k
				if path != "" {
					p = path + "." + k
				}
				walk(x[k], p, k)
			}
		case []any:
			for i, e := range x {
				walk(e, fmt.Sprintf("%s[%d]", path, i), key)
			}
		case string, float64, json.Number:
			out = append(out, leaf{path: path, key: key, value: v})
		}
	}
	walk(v, "", "")
	return out
}

// decode reads JSON into plain values, numbers as json.Number (an id past 2^53 keeps its
// digits); nil when b is not one JSON value.
func decode(b []byte) any {
	v, err := jsonone.Decode(b)
	if err != nil {
		return nil
	}
	return v
}

// same compares two scalars of decoded JSON (numbers by value, exactly: 9007199254740993 is not
// 9007199254740992, which float64 takes it for).
func same(a, b any) bool {
	ta, aNum := numberText(a)
	tb, bNum := numberText(b)
	if aNum || bNum {
		return aNum && bNum && ta == tb
	}
	sa, aStr := a.(string)
	sb, bStr := b.(string)
	return aStr && bStr && sa == sb
}

// numberText writes a number of decoded JSON so that equal values read alike: whole ones as
// integers (jsonnum.IntegerText), others as written.
func numberText(v any) (string, bool) {
	var text string
	switch n := v.(type) {
	case float64:
		text = strconv.FormatFloat(n, 'g', -1, 64)
	case json.Number:
		text = n.String()
	default:
		return "", false
	}
	if whole, ok := jsonnum.IntegerText(text); ok {
		return whole, true
	}
	return text, true
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}
