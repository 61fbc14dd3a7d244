package proxy

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/opsapi/mocktoolkit/internal/redact"
)

// This file replaces personal data in what a recording writes (D175, D196).

// scrubber replaces personal data in texts by generated stand-ins, the same one each time:
// credentials by "[redacted]" (D196), e-mail addresses by person-N@example.com, the names of logged-in users by "Person N".
type scrubber struct {
	secrets *redact.Known
	emails  map[string]string
	names   []string
	parts   []namePartStandIn // words of the names, replaced on their own as whole words
	byName  map[string]string
}

// emailPattern finds an e-mail address in text: letters of any script (josé@bücher.de), and
// its "@" also percent-encoded, as it stands in a URL or a mailto link (jane.doe%40acme.com).
// namePartStandIn is a word of a logged-in user's name and the stand-in that replaces it.
type namePartStandIn struct {
	word    *regexp.Regexp
	standIn string
}

var emailPattern = regexp.MustCompile(`[\p{L}\p{N}._%+\-]+(?:@|%40)[\p{L}\p{N}.\-]+\.\p{L}{2,}`)

// namePart is one word of a logged-in user's name; parts of four letters or more are replaced
// on their own too ("Call Ann" with "Ann Lee" logged in keeps "Ann": too short to tell from
// a word; "Adelbert" goes).
var namePart = regexp.MustCompile(`\p{L}{4,}`)

func newScrubber(names map[string]bool, secrets *redact.Known) *scrubber {
	s := &scrubber{secrets: secrets, emails: map[string]string{}, byName: map[string]string{}}
	for n := range names {
		s.names = append(s.names, n)
	}
	slices.SortFunc(s.names, func(a, b string) int { // longest first, so a name inside another is replaced last
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	for i, n := range s.names {
		s.byName[n] = fmt.Sprintf("Person %d", i+1)
	}
	for i, n := range s.names {
		for _, part := range namePart.FindAllString(n, -1) {
			if _, taken := s.byName[part]; !taken {
				s.byName[part] = fmt.Sprintf("Person %d", i+1)
				// A whole word: after a start, a non-letter or a percent escape (a name in a URL,
				// name=Ann%20Realperson), before an end or a non-letter.
				s.parts = append(s.parts, namePartStandIn{regexp.MustCompile(`(?i)(^|[^\p{L}\p{N}]|%[0-9A-Fa-f]{2})` + regexp.QuoteMeta(part) + `([^\p{L}\p{N}]|$)`), s.byName[part]})
			}
		}
	}
	return s
}

func (s *scrubber) text(t string) string {
	// Credentials by pattern first (a URL's password, "Bearer …", api_key=…), as the journals
	// redact them (D142): the file is shared and committed.
	t = s.secrets.Replace(redact.Text(t))
	t = emailPattern.ReplaceAllStringFunc(t, func(e string) string {
		key := strings.ToLower(strings.ReplaceAll(e, "%40", "@"))
		if s.emails[key] == "" {
			s.emails[key] = fmt.Sprintf("person-%d@example.com", len(s.emails)+1)
		}
		return s.emails[key]
	})
	for _, n := range s.names {
		t = strings.ReplaceAll(t, n, s.byName[n])
	}
	for _, p := range s.parts { // whole words only: "Anna" is not "Annabel"
		for range 2 { // a match takes the character after it, which the next one may start with
			t = p.word.ReplaceAllString(t, "${1}"+strings.ReplaceAll(p.standIn, "$", "$$")+"${2}")
		}
	}
	return t
}
