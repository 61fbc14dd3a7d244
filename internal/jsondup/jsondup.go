// Package jsondup finds an object key a JSON text repeats: encoding/json keeps the last of two
// equal keys silently, so a manifest or a flow naming a key twice would run with whichever came
// last; its author meant one of them.
package jsondup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// DuplicateKey returns the JSON pointer of the first object key raw repeats, or "" when
// none does. encoding/json keeps the last of two equal keys silently, so a manifest naming
// "board_id" twice would run with whichever came last; the author meant one of them.
func DuplicateKey(raw []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var walk func(path []string) (string, error)
	walk = func(path []string) (string, error) {
		tok, err := dec.Token()
		if err != nil {
			return "", err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return "", err
				}
				key := kt.(string)
				at := append(path[:len(path):len(path)], pointerToken(key))
				if seen[key] {
					return "/" + strings.Join(at, "/"), nil
				}
				seen[key] = true
				if dup, err := walk(at); dup != "" || err != nil {
					return dup, err
				}
			}
			_, err = dec.Token()
			return "", err
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if dup, err := walk(append(path[:len(path):len(path)], fmt.Sprint(i))); dup != "" || err != nil {
					return dup, err
				}
			}
			_, err = dec.Token()
			return "", err
		}
		return "", nil
	}
	return walk(nil)
}

// pointerToken escapes a key as one JSON pointer token (RFC 6901).
func pointerToken(key string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
}
