package reference

import "time"

// Helpers for create and update inputs: omitted, null or a value (D18).

// optPtr returns a pointer to the value sent, or nil when omitted or null.
func optPtr[T any](o Optional[T]) *T {
	if !o.Present() {
		return nil
	}
	return ptr(o.Value)
}

// optTime is optPtr for a time, normalised to UTC seconds (D9).
func optTime(o Optional[time.Time]) *time.Time { return utcPtr(optPtr(o)) }

// orDefault returns the value sent, or def when omitted or null (D19).
func orDefault[T any](o Optional[T], def T) T {
	if !o.Present() {
		return def
	}
	return o.Value
}

// setClearable applies D18 to a field that can be empty: omitted leaves it, null clears it, a
// value replaces it. The old pointer is replaced, never written through.
func setClearable[T any](dst **T, o Optional[T]) {
	switch {
	case !o.Set:
	case o.Null:
		*dst = nil
	default:
		*dst = ptr(o.Value)
	}
}

// setClearableTime is setClearable for a time, normalised to UTC seconds (D9).
func setClearableTime(dst **time.Time, o Optional[time.Time]) {
	setClearable(dst, o)
	*dst = utcPtr(*dst)
}

// setRequired applies D18 to a field that cannot be empty: omitted and null leave it, a value
// replaces it.
func setRequired[T any](dst *T, o Optional[T]) {
	if o.Present() {
		*dst = o.Value
	}
}
