package manifest

import (
	"reflect"

	"github.com/opsapi/mocktoolkit/fixtures"
)

// absentIDs are the ids AbsentID picks from, in order: positive, within 32 bits (a deployment
// may hold ids as int32) and far apart, so a deployment whose ids run through one of them has
// none near the next.
var absentIDs = []int64{2147480001, 1987654321, 1777777771, 1555555553, 1333333331, 1111111121, 987654323, 765432109, 543210989, 321098767}

// absentMargin is how far the absent id keeps from every id the manifest names: records the
// run creates take the ids after the deployment's (a run makes thousands, not a million).
const absentMargin = 1 << 20

// AbsentID is the id the suite and explore mode name as a record that does not exist (ERR-4,
// the absent-id probes): the first of a fixed list far from every id the manifest names. A
// fixed id failed a deployment whose ids were offset to run through it, and the suite's "group
// that does not exist" deleted the manifest's own group.
func AbsentID(m fixtures.Manifest) int64 {
	ids := manifestIDs(reflect.ValueOf(m), "")
	best, bestGap := absentIDs[0], int64(-1)
	for _, c := range absentIDs {
		gap := int64(1) << 62
		for _, id := range ids {
			gap = min(gap, max(id-c, c-id))
		}
		if gap >= absentMargin {
			return c
		}
		if gap > bestGap {
			best, bestGap = c, gap
		}
	}
	return best // every candidate is near an id: the farthest
}

// manifestIDs lists the ids v holds: its fields of a record kind (a `ref` tag), at any depth.
func manifestIDs(v reflect.Value, ref string) []int64 {
	var out []int64
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			out = append(out, manifestIDs(v.Field(i), v.Type().Field(i).Tag.Get("ref"))...)
		}
	case reflect.Slice:
		for i := range v.Len() {
			out = append(out, manifestIDs(v.Index(i), ref)...)
		}
	case reflect.Int64:
		if ref != "" && v.Int() != 0 {
			out = append(out, v.Int())
		}
	}
	return out
}
