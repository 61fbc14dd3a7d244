package selftest_test

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The READMEs state how many broken and correct variants the self-test runs, and how many specs
// the suite holds; the numbers they give are the numbers there are, so a reader's count never
// goes stale.
func TestReadmesCountTheVariants(t *testing.T) {
	checks := []struct {
		file    string
		pattern string
		want    int
	}{
		{"../../README.md", `runs it against (\d+) broken\s+variants`, len(variants)},
		{"../../README.md", `against (\d+) \*correct\* variants`, len(corrects)},
		{"../README.md", `against the (\d+) broken\s+variants`, len(variants)},
		{"../README.md", `against the (\d+) correct variants`, len(corrects)},
		{"../README.md", `against (\d+) \*\*broken\*\* variants`, len(variants)},
		{"../README.md", `against (\d+) \*\*correct\*\* variants`, len(corrects)},
	}
	golden, err := os.ReadFile("../testdata/explore.golden")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`explore mode catches (\d+) of`).FindSubmatch(golden); m != nil {
		n, _ := strconv.Atoi(string(m[1]))
		checks = append(checks, struct {
			file    string
			pattern string
			want    int
		}{"../README.md", `it catches (\d+) of them`, n})
	}
	specs, err := os.ReadFile("../testdata/specs.golden")
	if err != nil {
		t.Fatal(err)
	}
	all, contract := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(string(specs)), "\n") {
		all++
		if i := strings.LastIndex(line, " ["); i >= 0 && slices.Contains(strings.Split(strings.Trim(line[i+2:], "]"), ", "), "contract") {
			contract++
		}
	}
	checks = append(checks, []struct {
		file    string
		pattern string
		want    int
	}{{"../../README.md", `\(` + "`conformance/`" + `, (\d+) specs:`, all}, {"../../README.md", `specs: (\d+) contract`, contract}}...)
	for _, c := range checks {
		text, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(c.pattern).FindSubmatch(text)
		if m == nil {
			t.Errorf("%s no longer says %q", c.file, c.pattern)
			continue
		}
		if n, _ := strconv.Atoi(string(m[1])); n != c.want {
			t.Errorf("%s says %d where %q counts, want %d", c.file, n, c.pattern, c.want)
		}
	}
}
