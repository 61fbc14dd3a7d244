package spec

import (
	"mime"
	"net/http"
	"strings"
)

// BodyType is what a request's Content-Type says of the JSON body it comes with.
type BodyType int

const (
	// BodyJSON: application/json or a +json type, with no charset or UTF-8 (JSON is UTF-8,
	// RFC 8259).
	BodyJSON BodyType = iota
	// BodyUntyped: no Content-Type at all.
	BodyUntyped
	// BodyNotJSON: a media type other than JSON, or one that does not parse.
	BodyNotJSON
	// BodyOtherCharset: JSON declared in another charset (latin1, utf-16).
	BodyOtherCharset
	// BodyTwoTypes: more than one Content-Type header. Servers and proxies disagree on which
	// one counts (the first, the last, or a refusal), so neither is taken (D6).
	BodyTwoTypes
)

// RequestBodyType judges the Content-Type of a request that has a body, for the mock's refusal
// (D6) and the proxy's client verdict (D91) alike; charset is the one it names when it is not
// UTF-8.
func RequestBodyType(h http.Header) (t BodyType, charset string) {
	if len(h.Values("Content-Type")) > 1 {
		return BodyTwoTypes, ""
	}
	contentType := h.Get("Content-Type")
	if contentType == "" {
		return BodyUntyped, ""
	}
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || !jsonType(mt) {
		return BodyNotJSON, ""
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return BodyOtherCharset, cs
	}
	return BodyJSON, ""
}

// jsonType tells whether the media type mt is JSON: application/json, or a type/name+json
// (application/vnd.api+json); "+json" or "application/+json" name no media type.
func jsonType(mt string) bool {
	typ, sub, ok := strings.Cut(mt, "/")
	if !ok || typ == "" {
		return false
	}
	return mt == "application/json" || (strings.HasSuffix(sub, "+json") && len(sub) > len("+json"))
}
