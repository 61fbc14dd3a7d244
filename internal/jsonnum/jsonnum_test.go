package jsonnum_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/opsapi/mocktoolkit/internal/jsonnum"
)

func TestWholeNumber(t *testing.T) {
	for num, want := range map[string]bool{
		"0": true, "-0": true, "5": true, "5.0": true, "5.000": true, "-12.50e1": true, "1e1": true,
		"1.5e1": true, "1E+2": true, "1e500": true, "1.5e400": true, "0e-500": true, "0.000e-99999999999999999999": true,
		"1e99999999999999999999": true, "9007199254740993": true,
		"1.5": false, "-0.5": false, "5e-1": false, "1.0000000000000000001": false, "1e-400": false,
		"5e-500": false, "1e-99999999999999999999": false, "1.25e1": false, "0.1e1": true, "0.01e1": false,
	} {
		if got := jsonnum.WholeNumber(num); got != want {
			t.Errorf("WholeNumber(%s) = %v, want %v", num, got, want)
		}
	}
}

// Integral numbers are integers whatever their form (D8), read from their digits.
func TestIntegerText(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"5", "5", true}, {"5.0", "5", true}, {"1e1", "10", true}, {"-12.50e1", "-125", true},
		{"0.0", "0", true}, {"-0", "0", true}, {"120e-1", "12", true}, {"9007199254740993.0", "9007199254740993", true},
		{"0e99999999999999999999", "0", true}, {"-0.0e-5", "0", true},
		{"0." + strings.Repeat("0", 999) + "1e1000", "1", true}, {"1e399", "1" + strings.Repeat("0", 399), true},
		{"1.5", "1.5", false}, {"1.0000000000000000001", "1.0000000000000000001", false},
		{"1e-400", "1e-400", false}, {"1e400", "1e400", false}, {"2147483647.0000000001", "2147483647.0000000001", false},
		{"1e99999999999999999999", "1e99999999999999999999", false},
	} {
		got, ok := jsonnum.IntegerText(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("IntegerText(%.40q) = %.40q, %v; want %.40q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func ExampleIntegral() {
	fmt.Println(string(jsonnum.Integral([]byte(`{"id":5.0,"n":[1e1,-2.50e1,0.5],"title":"5.0 and 1e1","x":7}`))))
	// Output: {"id":5,"n":[10,-25,0.5],"title":"5.0 and 1e1","x":7}
}
