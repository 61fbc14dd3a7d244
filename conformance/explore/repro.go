package explore

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/conformance"
)

// Script renders the failing case as a shell script: curl calls with the credentials as
// variables (BASE_URL, TOKEN, SUPERADMIN_TOKEN, ...), ids created by a call read with jq. It
// prints what the property is about (counts, item_count, pagination) and judges the property
// on the answers it received: it exits 1 when they break it, 0 when they keep it, and 2 for a
// rule only the suite's checker states (a shape, headers), after printing the last answer.
func (f *Failure) Script() string {
	var b strings.Builder
	b.WriteString("#!/bin/sh\n")
	fmt.Fprintf(&b, "# explore mode reproduction: %s (seed %d)\n", f.Rule, f.Seed)
	fmt.Fprintf(&b, "# %s\n# broken: %s\n", Statement(f.Rule), f.Reason)
	b.WriteString("# needs curl and jq; set BASE_URL and the variables below (tokens from /v1/authenticate)\n")
	if strings.Contains(f.ShCheck, "SETTLE_SECONDS") || slices.ContainsFunc(f.Calls, func(c Call) bool { return c.Settle }) {
		b.WriteString("# SETTLE_SECONDS (20 by default): how long a list may take to show a write, and a new record to be found, before the script calls it broken\n")
	}
	b.WriteString("set -eu\n")
	vars := map[string]bool{"BASE_URL": true}
	for _, c := range f.Calls {
		if v := c.As.tokenVar(); v != "" {
			vars[v] = true
		}
		for _, val := range c.Body {
			if s, ok := val.(secret); ok {
				vars[s.shell] = true
			}
		}
	}
	names := make([]string, 0, len(vars))
	for v := range vars {
		names = append(names, v)
	}
	sort.Strings(names)
	for _, v := range names {
		fmt.Fprintf(&b, ": \"${%s:?set %s}\"\n", v, v)
	}
	fmt.Fprintf(&b, "RULE=%s\n", f.Rule)
	b.WriteString(`post() { # path token body: prints the answer's body, then its status on a line of its own
  if [ -n "$2" ]; then auth="Authorization: Bearer $2"; else auth="X-No-Auth: 1"; fi
  curl -sS -X POST "$BASE_URL$1" -H 'Content-Type: application/json' -H 'Accept: application/json' \
    -H "$auth" --data-binary "$3" -w '\n%{http_code}\n'
}
postas() { # authorization path body: as post, with the Authorization header given
  curl -sS -X POST "$BASE_URL$2" -H 'Content-Type: application/json' -H 'Accept: application/json' \
    -H "Authorization: $1" --data-binary "$3" -w '\n%{http_code}\n'
}
body() { printf '%s\n' "$1" | sed '$d'; }     # an answer's body: all but its last line
status() { printf '%s\n' "$1" | tail -n 1; } # an answer's status
count() { body "$1" | jq "$2 | if type == \"array\" then length else . end"; } # answer, jq path
refused() { [ "$(status "$1")" -ge 400 ] || [ "$(body "$1" | jq '.error == true' 2>/dev/null)" = true ]; }
succeeded() { [ "$(status "$1")" -ge 200 ] && [ "$(status "$1")" -lt 300 ] && ! refused "$1"; }
broken() { echo "broken: $RULE: $*" >&2; exit 1; }
`)
	for i, c := range f.Calls {
		tok := ""
		if v := c.As.tokenVar(); v != "" {
			tok = "$" + v
		}
		fmt.Fprintf(&b, "\n# %d. %s as %s: the run saw %d\n", i+1, c.Op.ID, c.As, c.Status)
		// Each call is a function too, so that a judgment may send it again (a list read
		// until it shows a write, within the settle time).
		if c.Auth != nil {
			fmt.Fprintf(&b, "call%d() { postas \"%s\" %s %s; }\n", i+1, c.Auth.ShellOf(c.As.tokenVar()), c.Op.Path, shellBody(c.Body))
		} else {
			fmt.Fprintf(&b, "call%d() { post %s \"%s\" %s; }\n", i+1, c.Op.Path, tok, shellBody(c.Body))
		}
		fmt.Fprintf(&b, "out%d=$(call%d)\n", i+1, i+1)
		if c.Settle {
			fmt.Fprintf(&b, "waited=0 # it names a record just created, which may be found late (a replica): ask again, for up to SETTLE_SECONDS\n"+
				"while { [ \"$(status \"$out%d\")\" = 404 ] || [ \"$(status \"$out%d\")\" = 422 ]; } && [ \"$waited\" -lt \"${SETTLE_SECONDS:-20}\" ]; do\n"+
				"  sleep 1; waited=$((waited + 1)); out%d=$(call%d)\ndone\n", i+1, i+1, i+1, i+1)
		}
		fmt.Fprintf(&b, "echo \"%d. %s: $(status \"$out%d\")\"\n", i+1, c.Op.ID, i+1)
		if c.Var != "" {
			fmt.Fprintf(&b, "%s=$(body \"$out%d\" | jq -r '.%s')\n", c.Var, i+1, c.VarPath)
		}
		if c.Count != "" {
			fmt.Fprintf(&b, "echo \"   %s: $(count \"$out%d\" '.%s')\"\n", c.Count, i+1, c.Count)
		}
		if show := shown[c.Op.ID]; show != "" {
			fmt.Fprintf(&b, "echo \"   $(body \"$out%d\" | jq -c '%s' 2>/dev/null)\"\n", i+1, show)
		}
	}
	b.WriteString("\n# the property, judged on the answers above\n")
	if n := len(f.Calls); n > 0 {
		fmt.Fprintf(&b, "ex=$out%d\n", n)
	}
	if f.ShCheck == "" {
		b.WriteString("echo \"$RULE is judged on the whole answer by the suite's checker, which this script does not repeat (run the regression spec); the last answer:\"\n")
		if len(f.Calls) > 0 {
			b.WriteString("body \"$ex\"\n")
		}
		b.WriteString("exit 2\n")
		return b.String()
	}
	fmt.Fprintf(&b, "%s\necho \"holds: $RULE\"\n", f.ShCheck)
	return b.String()
}

// shown is what the script prints of an operation's answers beside their status: the values
// the properties across calls are about.
var shown = map[string]string{
	conformance.OpDomainCartRemove.ID: `{item_count: .data.cart.item_count, items: [.data.cart.items[]?.id]}`,
	conformance.OpCommentsList.ID:     `{pagination: .data.pagination, comments: (.data.comments | length?)}`,
}

// GoSpec renders the failing case as a spec to paste into the suite (package conformance_test,
// whose helpers call, callInvalid, member, superadmin, anonymous and manifest it uses).
func (f *Failure) GoSpec() string {
	check := f.Check
	var b strings.Builder
	fmt.Fprintf(&b, "// Regression found by explore mode (seed %d): %s — %s\n", f.Seed, f.Rule, Statement(f.Rule))
	// Serial: the properties explore judges across calls (a list's count, a cart, a limit)
	// hold only while no other spec writes meanwhile, as explore is its target's only client.
	labels := `Label("contract", "regression")`
	if op, ok := conformance.OperationByID(f.Op()); ok {
		labels = fmt.Sprintf(`Contract(Op%s, %q, %q), Label("regression")`, exported(op.ID), aspectOf(f.Rule), f.Rule)
	}
	fmt.Fprintf(&b, "It(%q, Serial, %s, func(ctx SpecContext) {\n", "explore regression: "+f.Reason, labels)
	if strings.Contains(check, "count(") {
		b.WriteString("\tcount := func(ex *Exchange, path string) int64 {\n\t\tif n, ok := ex.Int(path); ok {\n\t\t\treturn n\n\t\t}\n\t\tv, _ := ex.Get(path)\n\t\ta, _ := v.([]any)\n\t\treturn int64(len(a))\n\t}\n")
	}
	var used []string
	for i, c := range f.Calls {
		fn := "call"
		if c.Invalid {
			fn = "callInvalid"
		}
		if c.Auth != nil {
			fmt.Fprintf(&b, "\tex%d := func() *Exchange { tok := token(%s, Op%s); return send(Request{Op: Op%s, As: %q, Authorization: %s, Body: %s}) }() // the run saw %d\n",
				i+1, c.As.goName(), exported(c.Op.ID), exported(c.Op.ID), c.Auth.What, c.Auth.Go, goBody(c.Body), c.Status)
		} else if c.Op.ID == conformance.OpThumbnailsRegenerate.ID && !c.Invalid {
			// LIMIT-3 counts what a burst accepts: a 429 is an answer to count, not to wait out
			// (its Retry-After may be ten minutes).
			fmt.Fprintf(&b, "\tex%d := send(Request{Op: Op%s, As: %q, Token: token(%s, Op%s), Body: %s, NoRetry: true}) // the run saw %d\n",
				i+1, exported(c.Op.ID), c.As.goName(), c.As.goName(), exported(c.Op.ID), goBody(c.Body), c.Status)
		} else if c.Settle { // a record just created may be found late: finding asks again (ERR-8)
			fmt.Fprintf(&b, "\tex%d := finding(ctx, func() *Exchange { return %s(%s, Op%s, %s) }) // the run saw %d\n", i+1, fn, c.As.goName(), exported(c.Op.ID), goBody(c.Body), c.Status)
		} else {
			fmt.Fprintf(&b, "\tex%d := %s(%s, Op%s, %s) // the run saw %d\n", i+1, fn, c.As.goName(), exported(c.Op.ID), goBody(c.Body), c.Status)
		}
		used = append(used, fmt.Sprintf("ex%d", i+1))
		if c.Var != "" {
			fmt.Fprintf(&b, "\t%s, _ := ex%d.Int(%q)\n", c.Var, i+1, c.VarPath)
			used = append(used, c.Var)
		}
	}
	if n := len(f.Calls); n > 0 {
		fmt.Fprintf(&b, "\t_ = []any{%s}\n", strings.Join(used, ", "))
		if bareEx.MatchString(check) {
			fmt.Fprintf(&b, "\tex := ex%d\n", n)
		}
	}
	if check != "" {
		fmt.Fprintf(&b, "\t%s\n", check)
	}
	b.WriteString("})\n")
	return b.String()
}

// bareEx finds the last exchange, ex, in an assertion (not ex1, ex2, ...).
var bareEx = regexp.MustCompile(`\bex\b`)

func exported(id string) string { return strings.ToUpper(id[:1]) + id[1:] }

func sortedKeys(m map[string]any) []string {
	k := make([]string, 0, len(m))
	for x := range m {
		k = append(k, x)
	}
	sort.Strings(k)
	return k
}

// shellBody renders a body as a single-quoted shell word; ids of earlier calls and secrets are
// spliced in as variables.
func shellBody(body map[string]any) string {
	var b strings.Builder
	b.WriteString("'{")
	for i, k := range sortedKeys(body) {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(quoteShell(jsonText(k)) + ":")
		switch v := body[k].(type) {
		case ID:
			if v.Var != "" {
				b.WriteString(`'"$` + v.Var + `"'`)
			} else {
				b.WriteString(strconv.FormatInt(v.V, 10))
			}
		case secret:
			b.WriteString(`"'"$` + v.shell + `"'"`)
		default:
			b.WriteString(quoteShell(jsonText(v)))
		}
	}
	b.WriteString("}'")
	return b.String()
}

func jsonText(v any) string {
	out, _ := json.Marshal(v)
	return string(out)
}

// quoteShell escapes text for the inside of a single-quoted shell word.
func quoteShell(s string) string { return strings.ReplaceAll(s, "'", `'\''`) }

// goBody renders a body as a Go map literal; ids of earlier calls are variables, manifest ids
// and secrets read the manifest.
func goBody(body map[string]any) string {
	if len(body) == 0 {
		return "nil"
	}
	parts := make([]string, 0, len(body))
	for _, k := range sortedKeys(body) {
		parts = append(parts, strconv.Quote(k)+": "+goValue(body[k]))
	}
	return "map[string]any{" + strings.Join(parts, ", ") + "}"
}

func goValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case ID:
		if x.Var != "" {
			return x.Var
		}
		if x.Go != "" {
			return x.Go
		}
		return strconv.FormatInt(x.V, 10)
	case secret:
		return x.goExpr
	case string:
		return strconv.Quote(x)
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case json.Number:
		return x.String()
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = goValue(e)
		}
		return "[]any{" + strings.Join(parts, ", ") + "}"
	case map[string]any:
		return goBody(x)
	}
	return fmt.Sprintf("%#v", v)
}

// Report renders the failure for a person: the rule, what was seen, the shrunk calls, the
// seed, the script and the spec.
func (f *Failure) Report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "explore mode: %s broken — %s\n  rule: %s\n  seed: %d (CONFORMANCE_EXPLORE_SEED=%d reproduces the run)\n", f.Rule, f.Reason, Statement(f.Rule), f.Seed, f.Seed)
	fmt.Fprintf(&b, "  shrunk to %d calls:\n", len(f.Calls))
	for i, c := range f.Calls {
		who := c.As.String()
		if c.Auth != nil { // the caller's token in a wrong form: say so, or a refusal reads as the caller's
			who += " (Authorization: " + strings.Replace(c.Auth.What, "the member's", c.As.String()+"'s", 1) + ")"
		}
		fmt.Fprintf(&b, "    %d. %s as %s %s -> %d\n", i+1, c.Op.ID, who, redact(c.Raw), c.Status)
	}
	if f.Detail != "" {
		fmt.Fprintf(&b, "\n  what was seen:\n    %s\n", strings.ReplaceAll(f.Detail, "\n", "\n    "))
	}
	if slices.ContainsFunc(f.Calls, func(c Call) bool { return c.Op.Change() != "" && c.Status >= 200 && c.Status < 300 }) {
		// The shrinker replayed the case against the target: what it changed stays there.
		b.WriteString("\n  state: shrinking replayed these calls against the target, and what they changed stays there (records\n" +
			"  with these very texts, items removed); a failure that needs such an earlier record (a name used\n" +
			"  before) may show on a fresh deployment only from the reproduction's second run.\n")
	}
	fmt.Fprintf(&b, "\n--- reproduction (sh) ---\n%s\n--- regression spec (Go, paste into the suite) ---\n%s", f.Script(), f.GoSpec())
	return b.String()
}

var secretFields = regexp.MustCompile(`("(?:password|token|session_token)"\s*:\s*)"(?:[^"\\]|\\.)*"`)

// redact hides passwords and tokens in a JSON text.
func redact(s string) string { return secretFields.ReplaceAllString(s, `$1"<redacted>"`) }
