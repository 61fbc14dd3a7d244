package reference

import (
	"bytes"
	"encoding/json"
)

// Optional is a request field that may be omitted, sent as null, or sent with a value. Decoded
// from JSON, an absent key leaves Set false; null sets Set and Null. See D18 for what each means
// on update operations.
type Optional[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// Some returns an Optional holding v.
func Some[T any](v T) Optional[T] { return Optional[T]{Set: true, Value: v} }

// Null returns an Optional that was sent as null.
func Null[T any]() Optional[T] { return Optional[T]{Set: true, Null: true} }

// Present reports whether a non-null value was sent.
func (o Optional[T]) Present() bool { return o.Set && !o.Null }

// UnmarshalJSON implements json.Unmarshaler. It is only called for keys that are present.
func (o *Optional[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		o.Null = true
		var zero T
		o.Value = zero
		return nil
	}
	o.Null = false
	return json.Unmarshal(b, &o.Value)
}

// MarshalJSON implements json.Marshaler: null unless a value is present.
func (o Optional[T]) MarshalJSON() ([]byte, error) {
	if !o.Present() {
		return []byte("null"), nil
	}
	return json.Marshal(o.Value)
}
