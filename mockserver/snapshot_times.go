package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
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

// stateTimeRecords are, by collection, struct types holding a record's id and its date-times
// (stateTimes' order), each as the JSON text written: all snapshotTimeProblems reads of a record.
var stateTimeRecords = func() map[string]reflect.Type {
	raw := reflect.TypeFor[json.RawMessage]()
	out := map[string]reflect.Type{}
	for coll, fields := range stateTimes {
		fs := []reflect.StructField{{Name: "ID", Type: raw, Tag: `json:"id"`}}
		for i, f := range fields {
			fs = append(fs, reflect.StructField{Name: fmt.Sprintf("T%d", i), Type: raw, Tag: reflect.StructTag(`json:"` + f + `"`)})
		}
		out[coll] = reflect.StructOf(fs)
	}
	return out
}()

// recordPlace names a snapshot's record in a problem: "cards[3] (id 12)".
func recordPlace(coll string, i int, id json.RawMessage) string {
	where := fmt.Sprintf("%s[%d]", coll, i)
	var n json.Number
	if json.Unmarshal(id, &n) == nil {
		if f, err := n.Float64(); err == nil {
			where += " (id " + strconv.FormatFloat(f, 'f', -1, 64) + ")"
		}
	}
	return where
}

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
	var out []string
	more := 0
	add := func(p string) {
		if len(out) == 50 {
			more++
			return
		}
		out = append(out, p)
	}
	// One collection, then one record, at a time, each record read into a struct of its id
	// and its date-times only: a snapshot of a hundred megabytes decoded whole into maps took
	// a gigabyte and seconds.
	top := json.NewDecoder(bytes.NewReader(b))
	if tok, err := top.Token(); err != nil || tok != json.Delim('{') {
		return nil // not an object: the decoder says why
	}
	for top.More() {
		tok, err := top.Token()
		coll, _ := tok.(string)
		var raw json.RawMessage
		if err != nil || top.Decode(&raw) != nil {
			break // not JSON: the decoder says why
		}
		rt, ok := stateTimeRecords[coll]
		if !ok {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			continue // not an array: the decoder says why
		}
		for i := 0; dec.More(); i++ {
			rec := reflect.New(rt)
			if dec.Decode(rec.Interface()) != nil {
				break // not an array of objects: the decoder says why
			}
			for f, field := range stateTimes[coll] {
				v := rec.Elem().Field(f + 1).Bytes()
				if len(v) == 0 || string(v) == "null" {
					continue
				}
				var s string
				isText := json.Unmarshal(v, &s) == nil
				switch {
				case !isText:
					add(fmt.Sprintf("%s: %s must be a date-time string (RFC 3339)", recordPlace(coll, i, rec.Elem().Field(0).Bytes()), field))
				case spec.ValidateDateTime(s) != nil:
					add(fmt.Sprintf("%s: %s must be an RFC 3339 date-time between years 0000 and 9999 in UTC, with an offset of at most ±23:59 (%s: %v)", recordPlace(coll, i, rec.Elem().Field(0).Bytes()), field, strconv.Quote(clip(s, 40)), spec.ValidateDateTime(s)))
				}
			}
		}
	}
	if more > 0 {
		out = append(out, fmt.Sprintf("and %d more date-times of the same kind", more))
	}
	return out
}
