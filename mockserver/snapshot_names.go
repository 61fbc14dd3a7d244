package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// inexactStateName finds the first member of a snapshot (valid JSON) whose name no record of a
// snapshot has as written, and words it by its line and place: "line 3: The cards[0].TITLE
// field is not known." Go's decoder matches member names in any case, so a card's "TITLE"
// loaded as its title and "Cards" as the cards, where every name the mock reads is exact (D8).
// A snapshot's records hold no maps, so every member name is a field's: a scan of the bytes
// for names, against every field name of the snapshot's types, finds them without decoding.
func inexactStateName(b []byte) string {
	names := stateNames()
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		end, escaped := i+1, false
		for ; end < len(b) && b[end] != '"'; end++ {
			if b[end] == '\\' {
				end++
				escaped = true
			}
		}
		after := end + 1
		for after < len(b) && (b[after] == ' ' || b[after] == '\t' || b[after] == '\n' || b[after] == '\r') {
			after++
		}
		if after < len(b) && b[after] == ':' {
			name := string(b[i+1 : min(end, len(b))])
			if escaped {
				_ = json.Unmarshal(b[i:min(end+1, len(b))], &name)
			}
			if at := ""; !names[name] {
				if at = pathAt(b, int64(i)); at == "clock" || !holdsRecord(at) {
					// The saved clock words its own (SavedClock.check); an object where a
					// text or a number belongs (a title) is the decoder's type error to word.
					i = end
					continue
				}
				path := name
				if at != "" {
					path = at + "." + name
				}
				return fmt.Sprintf("line %d: the member %s is not known%s", lineAt(b, int64(i)), path, exactly(names, name))
			}
		}
		i = end
	}
	return ""
}

// holdsRecord tells whether the member at path (pathAt's, "" for the top) is one whose value is
// an object of the snapshot's types, so that every name in it must be a field's.
func holdsRecord(path string) bool {
	for strings.HasSuffix(path, "]") {
		path = path[:strings.LastIndexByte(path, '[')]
	}
	if path == "" {
		return true
	}
	return objectNames()[path[strings.LastIndexByte(path, '.')+1:]]
}

// objectNames are the member names whose value is an object (or a list of objects) of the
// snapshot's types, which stateNames walks into.
var objectNames = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	walkState(func(t reflect.Type) {
		for f := range t.Fields() {
			ft := f.Type
			for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array {
				ft = ft.Elem()
			}
			if !f.IsExported() || f.Anonymous || ft.Kind() != reflect.Struct || reflect.PointerTo(ft).Implements(reflect.TypeFor[json.Unmarshaler]()) {
				continue
			}
			switch name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name {
			case "-":
			case "":
				out[f.Name] = true
			default:
				out[name] = true
			}
		}
	})
	return out
})

// stateNames are the member names a snapshot may hold, at any depth: the JSON names of
// StateFile's fields and of every struct within them; a type that reads itself (a date-time,
// the saved clock) has its own.
var stateNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	walkState(func(t reflect.Type) {
		for n := range jsonNames(t) {
			names[n] = true
		}
	})
	return names
})

// walkState calls visit on StateFile and every struct type within it, once each; a type that
// reads itself (a date-time, the saved clock) is not walked into.
func walkState(visit func(reflect.Type)) {
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) {
			return
		}
		seen[t] = true
		visit(t)
		for f := range t.Fields() {
			if f.IsExported() {
				walk(f.Type)
			}
		}
	}
	walk(reflect.TypeFor[StateFile]())
}

// exactly words the name a member's name stands for in another case, if any.
func exactly(names map[string]bool, name string) string {
	for n := range names {
		if strings.EqualFold(n, name) {
			return fmt.Sprintf(" (names are written exactly: %s)", n)
		}
	}
	return ""
}

// nullRecord words the first record of a snapshot's lists that is null, or "": the decoder
// reads null as a record of zero values, which the record rules then refused field by field
// ("cards[0] (id 0): id must be positive", and five more) where the record is missing.
func nullRecord(b []byte) string {
	var top map[string]json.RawMessage
	if json.Unmarshal(b, &top) != nil {
		return ""
	}
	names := make([]string, 0, len(top))
	for name := range top {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		var list []json.RawMessage
		if json.Unmarshal(top[name], &list) != nil {
			continue
		}
		for i, rec := range list {
			if string(bytes.TrimSpace(rec)) == "null" {
				return fmt.Sprintf("%s[%d] is null: each record of %s is an object", name, i, name)
			}
		}
	}
	return ""
}
