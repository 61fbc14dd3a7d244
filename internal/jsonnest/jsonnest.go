// Package jsonnest reads how deep the arrays and objects of a JSON text nest, and cuts what lies
// deeper than a bound, without decoding it: a decoder refuses (encoding/json past 10000 levels)
// or tools choke on (jq, Python) what nests too deep. Standard library only, so the flow format
// and the journal's redaction can use it.
package jsonnest

// Nesting is how deep the arrays and objects of a JSON text nest (brackets inside strings do
// not count). A text shorter than 2×n cannot nest deeper than n: callers skip the scan then.
func Nesting(doc []byte) int {
	depth, deepest := 0, 0
	brackets(doc, func(_ int, open bool) {
		if open {
			depth++
			deepest = max(deepest, depth)
		} else {
			depth--
		}
	})
	return deepest
}

// Prune returns doc with every array or object that starts deeper than limit levels written as
// null, and the rest as it was: a document nested past what a JSON decoder reads (MaxDepth)
// can still be judged by the fields of the levels above, where every field of the interface
// lies. A doc that is not JSON stays not JSON.
func Prune(doc []byte, limit int) []byte {
	out := make([]byte, 0, len(doc))
	from, depth, start := 0, 0, -1 // start: where the value being pruned opened
	brackets(doc, func(i int, open bool) {
		if open {
			if depth++; depth == limit+1 {
				start = i
			}
			return
		}
		if depth == limit+1 && start >= 0 {
			out = append(append(out, doc[from:start]...), "null"...)
			from, start = i+1, -1
		}
		depth--
	})
	if start >= 0 { // a pruned value that never closes: the rest is part of it
		return append(append(out, doc[from:start]...), "null"...)
	}
	return append(out, doc[from:]...)
}

// brackets calls fn with the index of every '{' and '[' (open) and '}' and ']' of doc outside
// its strings.
func brackets(doc []byte, fn func(i int, open bool)) {
	inString, escaped := false, false
	for i, c := range doc {
		switch {
		case escaped:
			escaped = false
		case inString:
			escaped = c == '\\'
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			fn(i, true)
		case c == '}' || c == ']':
			fn(i, false)
		}
	}
}
