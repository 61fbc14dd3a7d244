package proxy

// maxDecodedAnswer bounds what one answer's JSON may take decoded for the recording (D95): the
// bytes read are bounded, but decoded into maps and slices an answer of tiny objects takes
// about 40 times its size (21.6 MB of {"id":1} took the proxy from 33 MB to 760 MB; 64 MiB
// would take 2-3 GB). 40 000 cards with their usual fields cost about 100 MB by the same
// measure, and the recording keeps at most maxRecorded records anyway.
const maxDecodedAnswer = 128 << 20

// What decoding each piece of JSON into map[string]any and []any costs, in bytes, as measured
// (Go 1.26): an object's map and its first group of slots, an array's slice and the box holding
// it, a member or element's slot, boxed value and key. Strings cost their bytes, bounded by the
// answer's size. The sum is within about 10% of the live heap a decoded answer holds, above it
// for empty objects and arrays.
const (
	costObject  = 320
	costArray   = 64
	costElement = 40 // each ',' and ':'
)

// decodedCostOver tells whether body's JSON decoded would take more than limit bytes, by a scan
// of its bytes outside strings; it stops as soon as it knows. Malformed JSON is scanned all
// the same: the decoder refuses it after.
func decodedCostOver(body []byte, limit int64) bool {
	var cost int64
	inString, escaped := false, false
	for _, c := range body {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{':
			cost += costObject
		case '[':
			cost += costArray
		case ',', ':':
			cost += costElement
		default:
			continue
		}
		if cost > limit {
			return true
		}
	}
	return false
}
