package mockserver

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/reference"
	"github.com/opsapi/mocktoolkit/spec"
)

// stateTimes are the date-time fields of each record collection of a snapshot, by the
// collection's JSON name: read from reference.State's types, so a field added there is checked.
var stateTimes = func() map[string][]string {
	timeType := reflect.TypeFor[time.Time]()
	out := map[string][]string{}
	for f := range reflect.TypeFor[reference.State]().Fields() {
		coll := jsonName(f)
		if f.Type.Kind() != reflect.Slice || f.Type.Elem().Kind() != reflect.Struct {
			continue
		}
		for rf := range f.Type.Elem().Fields() {
			t := rf.Type
			if t.Kind() == reflect.Pointer {
				t = t.Elem()
			}
			if t == timeType {
				out[coll] = append(out[coll], jsonName(rf))
			}
		}
	}
	return out
}()

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

// snapshotTimeProblems names every date-time of a snapshot that the API would refuse (D73):
// not a string, not RFC 3339, an offset past ±23:59, outside years 0000–9999 in UTC. They are
// checked on the text as written, since Go's decoder takes "+24:00" and words its refusals with
// its own layout strings; each problem names the record and the field as the snapshot's other
// rules do ("cards[0] (id 1): due_date …"). At most 50, then how many more.
func snapshotTimeProblems(b []byte) []string {
	var doc map[string]json.RawMessage
	if json.Unmarshal(b, &doc) != nil {
		return nil // not an object: the decoder says why
	}
	var out []string
	more := 0
	add := func(p string) {
		if len(out) == 50 {
			more++
			return
		}
		out = append(out, p)
	}
	for _, coll := range slices.Sorted(maps.Keys(stateTimes)) {
		var recs []map[string]any
		if json.Unmarshal(doc[coll], &recs) != nil {
			continue // not an array of objects: the decoder says why
		}
		for i, rec := range recs {
			where := fmt.Sprintf("%s[%d]", coll, i)
			if id, ok := rec["id"].(float64); ok {
				where += " (id " + strconv.FormatFloat(id, 'f', -1, 64) + ")"
			}
			for _, field := range stateTimes[coll] {
				v, ok := rec[field]
				if !ok || v == nil {
					continue
				}
				s, isText := v.(string)
				switch {
				case !isText:
					add(fmt.Sprintf("%s: %s must be a date-time string (RFC 3339)", where, field))
				case spec.ValidateDateTime(s) != nil:
					add(fmt.Sprintf("%s: %s must be an RFC 3339 date-time between years 0000 and 9999 in UTC, with an offset of at most ±23:59 (%s: %v)", where, field, strconv.Quote(clip(s, 40)), spec.ValidateDateTime(s)))
				}
			}
		}
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("and %d more date-times of the same kind", more))
	}
	return out
}
