package main

import (
	"fmt"
	"regexp"
	"strings"
)

// flagErrors are the errors of Go's flag package, by what they say.
var flagErrors = []struct {
	re   *regexp.Regexp
	word func(m []string) string
}{
	{regexp.MustCompile(`^flag provided but not defined: -+(.*)$`), func(m []string) string { return fmt.Sprintf("unknown flag --%s", m[1]) }},
	{regexp.MustCompile(`^flag needs an argument: -+(.*)$`), func(m []string) string { return fmt.Sprintf("--%s needs a value", m[1]) }},
	{regexp.MustCompile(`^invalid boolean value (".*") for -+([^:]*): .*$`), func(m []string) string {
		return fmt.Sprintf("--%s: want true or false (or 1 or 0), got %s", m[2], m[1])
	}},
	{regexp.MustCompile(`^invalid value (".*") for flag -+([^:]*): .*$`), func(m []string) string { return fmt.Sprintf("--%s: the value %s is not one it takes", m[2], m[1]) }},
	{regexp.MustCompile(`^bad flag syntax: (.*)$`), func(m []string) string {
		return fmt.Sprintf("%q is not a flag (flags are written --name or --name=value)", m[1])
	}},
}

// flagError words an error of Go's flag package as the command's own: "mockserver: unknown
// flag --bogus", with the flags' double dash, rather than "flag provided but not defined: -bogus".
func flagError(err error) string {
	for _, f := range flagErrors {
		if m := f.re.FindStringSubmatch(err.Error()); m != nil {
			return "mockserver: " + f.word(m)
		}
	}
	return "mockserver: " + err.Error()
}

// badValue reports whether err is the flag package's refusal of a known flag's value (a
// boolean that is not one), not of an unknown flag or of the syntax.
func badValue(err error) bool {
	return strings.HasPrefix(err.Error(), "invalid boolean value ") || strings.HasPrefix(err.Error(), "invalid value ")
}
