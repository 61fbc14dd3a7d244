package reference

import (
	"errors"
	"fmt"
	"time"
)

// Error codes of the domain. The HTTP adapter maps each one to a status code.
const (
	EINVALID         = "invalid"         // a request the domain cannot carry out (400)
	ECAPACITY        = "capacity"        // a bound of the mock's own is reached: --max-records, the id ceiling, --max-state-mb (400)
	EUNAUTHENTICATED = "unauthenticated" // missing or invalid credentials (401)
	EFORBIDDEN       = "forbidden"       // insufficient permissions (403)
	ENOTFOUND        = "not_found"       // the record does not exist for this caller (404)
	ECONFLICT        = "conflict"        // the record's state conflicts with the request (409)
	EVALIDATION      = "validation"      // fields violate their constraints (422)
	ERATELIMITED     = "rate_limited"    // a limit is spent (429)
	EINTERNAL        = "internal"        // a bug (500)
)

// Error is the domain error. Code is one of the E* constants; Message is safe to show to a
// client; Fields holds per-field messages for EVALIDATION; RetryAfter is set for ERATELIMITED.
type Error struct {
	Code       string
	Message    string
	Fields     map[string][]string
	RetryAfter time.Duration
	Err        error
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL for any other
// non-nil error and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the client-safe message of err: the Message of the first *Error in its
// chain, or a generic text for any other error.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "Internal server error."
}
