package jsonone_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/opsapi/mocktoolkit/internal/jsonone"
)

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		body string
		more bool // refused for what follows the value
		bad  bool // refused as not JSON at all
	}{
		{body: `{"a":1}`},
		{body: " \n{\"a\":[1,2]}\r\n\t "},
		{body: `{"a":1}}`, more: true},
		{body: `{"a":1}]]]`, more: true},
		{body: `{"a":1} xyz`, more: true},
		{body: `{"a":1}{"b":2}`, more: true},
		{body: `[1]]`, more: true},
		{body: `1 2`, more: true},
		{body: `{"a":`, bad: true},
		{body: ``, bad: true},
	} {
		_, err := jsonone.Decode([]byte(tc.body))
		if more := errors.Is(err, jsonone.ErrMore); more != tc.more || (err != nil) != (tc.more || tc.bad) {
			t.Errorf("Decode(%q): error %v, want more %v, bad %v", tc.body, err, tc.more, tc.bad)
		}
	}
}

func TestDecodeKeepsNumbersAsWritten(t *testing.T) {
	v, err := jsonone.Decode([]byte(`{"id":9007199254740993}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := v.(map[string]any)["id"]; got != json.Number("9007199254740993") {
		t.Fatalf("id read as %v (%T)", got, got)
	}
}
