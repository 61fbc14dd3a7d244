package reference

import (
	"reflect"
	"sync"
	"sync/atomic"
	"time"
)

// A store's footprint is about how many bytes of memory its records hold, so that a server
// holding many stores can bound them together (the mock's --max-state-mb, D206). It is
// measured by walking the records once (Measure, and New) and kept up to date between walks
// by what each write adds (put): an estimate, calibrated against the heap, not an exact count.

// footprint is a store's size: the last measure and what writes added since.
type footprint struct {
	measured atomic.Int64
	growth   atomic.Int64
}

// Size is about how many bytes the store's records hold: the last measure plus what writes
// added since. It takes no lock.
func (s *Store) Size() int64 { return s.size.measured.Load() + s.size.growth.Load() }

// ProjectCount is how many projects the store holds: what a push or a sync may copy a master
// record into.
func (s *Store) ProjectCount() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.projects)
}

// Growth is what writes added since the last measure (Size less the measure).
func (s *Store) Growth() int64 { return s.size.growth.Load() }

// Measure walks every record to put an exact figure in place of the running estimate, and
// returns it. It costs about a millisecond per thousand records.
func (s *Store) Measure() int64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.measureLocked()
}

func (s *Store) measureLocked() int64 {
	v := reflect.ValueOf(s).Elem()
	var n int64
	for i := range v.NumField() {
		switch v.Type().Field(i).Name {
		case "mu", "cfg", "size":
			continue
		}
		n += deepSize(v.Field(i))
	}
	s.size.measured.Store(n)
	s.size.growth.Store(0)
	return n
}

// put stores v under k in m and counts what that adds to the store's size. Every write of a
// record goes through it, so that Size stays close between measures.
func put[K comparable, V any](s *Store, m map[K]V, k K, v V) {
	old, had := m[k]
	m[k] = v
	d := deepSize(reflect.ValueOf(&v).Elem())
	if had {
		d -= deepSize(reflect.ValueOf(&old).Elem())
	} else {
		d += entrySize(reflect.TypeFor[K](), reflect.TypeFor[V]()) + deepSize(reflect.ValueOf(&k).Elem())
	}
	s.size.growth.Add(d)
}

// grew counts n bytes added outside a map (an append to a log).
func (s *Store) grew(n int64) { s.size.growth.Add(n) }

// recordSize is v's inline size and what it points to.
func recordSize[V any](v V) int64 {
	return int64(reflect.TypeFor[V]().Size()) + deepSize(reflect.ValueOf(&v).Elem())
}

// entrySize is what one entry of a map[k]v costs besides what its key and value point to: the
// slot (Go's maps keep a control byte per slot and fill 7 slots of 8).
func entrySize(k, v reflect.Type) int64 {
	return (int64(k.Size()) + int64(v.Size()) + 1) * 8 / 7
}

var timeType = reflect.TypeFor[time.Time]()

// deepSize is what v points to: string bytes, pointed-to values, slice backing arrays and map
// entries, recursively; not v's own inline size (the map slot or struct field holding it).
// A time.Time's location is shared, so it counts nothing.
func deepSize(v reflect.Value) int64 {
	switch v.Kind() {
	case reflect.String:
		return int64(v.Len())
	case reflect.Pointer:
		if v.IsNil() {
			return 0
		}
		e := v.Elem()
		return int64(e.Type().Size()) + deepSize(e)
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		e := v.Elem()
		return int64(e.Type().Size()) + deepSize(e)
	case reflect.Slice:
		n := int64(v.Cap()) * int64(v.Type().Elem().Size())
		if indirect(v.Type().Elem()) {
			for i := range v.Len() {
				n += deepSize(v.Index(i))
			}
		}
		return n
	case reflect.Map:
		if v.IsNil() {
			return 0
		}
		t := v.Type()
		n := int64(v.Len()) * entrySize(t.Key(), t.Elem())
		if indirect(t.Key()) || indirect(t.Elem()) {
			it := v.MapRange()
			for it.Next() {
				n += deepSize(it.Key()) + deepSize(it.Value())
			}
		}
		return n
	case reflect.Array:
		var n int64
		if indirect(v.Type().Elem()) {
			for i := range v.Len() {
				n += deepSize(v.Index(i))
			}
		}
		return n
	case reflect.Struct:
		var n int64
		for _, i := range indirectFields(v.Type()) {
			n += deepSize(v.Field(i))
		}
		return n
	}
	return 0
}

// indirectFieldsOf caches, per struct type, the fields that point to more memory.
var indirectFieldsOf sync.Map // reflect.Type → []int

func indirectFields(t reflect.Type) []int {
	if f, ok := indirectFieldsOf.Load(t); ok {
		return f.([]int)
	}
	var fields []int
	if t != timeType {
		for i := range t.NumField() {
			if indirect(t.Field(i).Type) {
				fields = append(fields, i)
			}
		}
	}
	indirectFieldsOf.Store(t, fields)
	return fields
}

// indirect tells whether a value of t may point to memory deepSize counts.
func indirect(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
		return true
	case reflect.Array:
		return indirect(t.Elem())
	case reflect.Struct:
		return len(indirectFields(t)) > 0
	}
	return false
}
