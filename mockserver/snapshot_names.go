package mockserver

import (
	"encoding/json"
	"fmt"
	"reflect"
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
				if at = pathAt(b, int64(i)); at == "clock" {
					i = end
					continue // the saved clock words its own (SavedClock.check)
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

// stateNames are the member names a snapshot may hold, at any depth: the JSON names of
// StateFile's fields and of every struct within them; a type that reads itself (a date-time,
// the saved clock) has its own.
var stateNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
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
		for n := range jsonNames(t) {
			names[n] = true
		}
		for f := range t.Fields() {
			if f.IsExported() {
				walk(f.Type)
			}
		}
	}
	walk(reflect.TypeFor[StateFile]())
	return names
})

// exactly words the name a member's name stands for in another case, if any.
func exactly(names map[string]bool, name string) string {
	for n := range names {
		if strings.EqualFold(n, name) {
			return fmt.Sprintf(" (names are written exactly: %s)", n)
		}
	}
	return ""
}
