package spec_test

import (
	"net/http"
	"testing"

	"github.com/opsapi/mocktoolkit/spec"
)

// A request body is JSON under application/json or a type/name+json, in UTF-8; "+json" alone
// or with no name before it is no media type (D6).
func TestRequestBodyType(t *testing.T) {
	for ct, want := range map[string]spec.BodyType{
		"application/json":                 spec.BodyJSON,
		"application/json; charset=utf-8":  spec.BodyJSON,
		"application/vnd.api+json":         spec.BodyJSON,
		"":                                 spec.BodyUntyped,
		"+json":                            spec.BodyNotJSON,
		"application/+json":                spec.BodyNotJSON,
		"/json":                            spec.BodyNotJSON,
		"text/plain":                       spec.BodyNotJSON,
		"application/json; charset=latin1": spec.BodyOtherCharset,
	} {
		if got, _ := spec.RequestBodyType(http.Header{"Content-Type": {ct}}); got != want {
			t.Errorf("RequestBodyType(%q) = %v, want %v", ct, got, want)
		}
	}
	// Two headers, even both JSON: servers disagree on which one counts.
	two := http.Header{"Content-Type": {"application/json", "text/plain"}}
	if got, _ := spec.RequestBodyType(two); got != spec.BodyTwoTypes {
		t.Errorf("RequestBodyType(two Content-Type headers) = %v, want BodyTwoTypes", got)
	}
}
