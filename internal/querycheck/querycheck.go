// Package querycheck reads a control page's query string strictly: the mock's controls and the
// proxy's pages refuse a query they cannot read, and parameters they do not read, rather than
// act as if they were absent (a reset to the default seed, a journal listed unfiltered).
package querycheck

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Problem is why a page refuses its query string, or "": one that cannot be read, or
// parameters the page (method and path) does not read; reads are those it does, and
// settingsInBody says the page takes its settings in a JSON body instead.
func Problem(method, path, raw string, reads []string, settingsInBody bool) string {
	unread, err := Unread(raw, reads)
	switch {
	case err != nil:
		return fmt.Sprintf("The query string of %s %s cannot be read (%s): separate parameters with &, and %%-escape %%, & and ; in values.", method, path, queryProblem(err))
	case len(unread) == 0:
		return ""
	}
	takes := "takes no query parameters"
	if settingsInBody {
		takes += "; its settings go in the JSON body, as the README shows"
	}
	if len(reads) > 0 {
		takes = "reads only " + strings.Join(reads, ", ")
	}
	named := strings.Join(unread[:min(len(unread), namedMax)], ", ")
	if len(unread) > namedMax {
		named += fmt.Sprintf(" and %d more", len(unread)-namedMax)
	}
	return fmt.Sprintf("%s %s %s; it does not read %s.", method, path, takes, named)
}

// namedMax is how many parameters a refusal names: a client sending thousands would otherwise
// get them all back.
const namedMax = 5

// queryProblem words why net/url cannot read a query string.
func queryProblem(err error) string {
	var esc url.EscapeError
	switch {
	case errors.As(err, &esc):
		return fmt.Sprintf("%q is no %%-escape: a %% takes two hexadecimal digits", clip(string(esc), 20))
	case strings.Contains(err.Error(), "semicolon"):
		return "a ; stands between parameters, where only & separates them"
	}
	return err.Error()
}

// Unread returns the names of raw's parameters that are not in reads, quoted, sorted, each cut
// to 100 characters; or the error of a query string net/url cannot read (r.URL.Query drops
// what it cannot read: "?seed=7;scenario=empty" reads as nothing).
func Unread(raw string, reads []string) ([]string, error) {
	if raw == "" {
		return nil, nil
	}
	query, err := url.ParseQuery(raw)
	if err != nil {
		return nil, err
	}
	var unread []string
	for name := range query {
		if !slices.Contains(reads, name) {
			unread = append(unread, strconv.Quote(clip(name, 100)))
		}
	}
	slices.Sort(unread)
	return unread, nil
}

// clip cuts s to n characters.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// Limit reads a journal's ?limit=: a whole number of at least 1, one past the int range read
// as every entry kept (math.MaxInt); ok is false for anything else. The mock's and the
// proxy's journals read it alike.
func Limit(v string) (n int, ok bool) {
	n, err := strconv.Atoi(v)
	if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(v, "-") {
		return math.MaxInt, true
	}
	return n, err == nil && n >= 1
}
