package flow

import (
	"encoding/json"

	"github.com/opsapi/mocktoolkit/internal/redact"
)

// Skeleton is the part of an answer a flow refers to (D173): its ids and credentials at their
// places, every other value left out, arrays keeping every element so a place in a list
// (data.cards[1500].id) still names the same record. A list answer past what a recorder keeps
// whole (a busy world's card list is over 1 MiB) was cut, so not JSON, and an id a frontend
// took from it was written as a literal that names another record, or none, on replay. nil when
// answer is not JSON.
func Skeleton(answer []byte) []byte {
	v := decode(answer)
	if v == nil {
		return nil
	}
	b, err := json.Marshal(skeleton(v))
	if err != nil {
		return nil
	}
	return b
}

func skeleton(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			switch e.(type) {
			case map[string]any, []any:
				if idLike(k) || redact.IsSecretName(k) {
					out[k] = e // a list of ids, or a credential's parts
				} else {
					out[k] = skeleton(e)
				}
			default:
				if idLike(k) || redact.IsSecretName(k) {
					out[k] = e
				}
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = skeleton(e)
		}
		return out
	default:
		return nil // a value in a list: its place is kept
	}
}
