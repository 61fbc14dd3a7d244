package explore

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/conformance"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// The shell half of a violation: the lines of the reproduction script that judge the property
// on the answers the script itself received (out1, out2, ...; ex is the last), printing the
// values the property is about and calling broken, which exits 1, when it does not hold. A
// property across answers compares them with each other, never with a value the run saw: a
// deployment broken another way must fail the script too. The helpers (body, status, count,
// refused, succeeded, broken) are the script's preamble.

// out names the script's variable of the call at index i of the trace.
func out(i int) string { return fmt.Sprintf(`"$out%d"`, i+1) }

// shStatus judges that the last answer's status is code.
func shStatus(code int) string {
	return fmt.Sprintf(`[ "$(status "$ex")" = %d ] || broken "the answer is $(status "$ex"), want %d"`, code, code)
}

// shNotStatus judges that the last answer's status is not code.
func shNotStatus(code int) string {
	return fmt.Sprintf(`[ "$(status "$ex")" != %d ] || broken "the answer is %d"`, code, code)
}

// shRefused judges that the last answer is a refusal (as HaveErrorStatus).
func shRefused() string {
	return `refused "$ex" || broken "the answer is $(status "$ex"), not a refusal"`
}

// shSucceeded is the first line of a judgment of a rule that judges successful answers only: a
// refusal (a correct deployment may refuse where the run's target accepted) is nothing it can
// judge, and the script exits 2 saying so.
const shSucceeded = `succeeded "$ex" || { echo "the answer is $(status "$ex"), a refusal: $RULE judges successful answers only"; exit 2; }` + "\n"

// shField judges that the last answer, a success, holds want at path (a text).
func shField(path, want string) string {
	return shSucceeded + fmt.Sprintf("v=$(body \"$ex\" | jq -r '.%s')\necho \"%s: $v\"\n[ \"$v\" = '%s' ] || broken \"%s is $v, want %s\"",
		path, path, quoteShell(want), path, quoteShell(strings.ReplaceAll(want, `"`, `\"`)))
}

// shKeyed judges that the last answer's errors name field (as check.Names reads a key).
func shKeyed(field string) string {
	f := quoteShell(field)
	return fmt.Sprintf("echo \"errors: $(body \"$ex\" | jq -c '.errors | keys' 2>/dev/null)\"\n"+
		"body \"$ex\" | jq -e --arg f '%s' '.errors | keys | map(ltrimstr(\"/\") | gsub(\"/\"; \".\") | ltrimstr(\"body.\")) | any(. == $f or startswith($f + \".\") or startswith($f + \"[\"))' >/dev/null || broken \"errors do not name %s\"", f, f)
}

// cartLowered is CART-2 between the cart's previous answer (call prev) and this removal's
// (call cur): item_count went down.
func cartLowered(prev, cur int) (goCode, sh string) {
	goCode = fmt.Sprintf(`Expect(count(ex%d, "data.cart.item_count")).To(BeNumerically("<", count(ex%d, "data.cart.item_count")), "item_count after this removal against the cart's previous answer")`, cur+1, prev+1)
	sh = fmt.Sprintf("before=$(body %s | jq '.data.cart.item_count')\nafter=$(body %s | jq '.data.cart.item_count')\n"+
		"echo \"item_count: $before after call %d, $after after call %d\"\n"+
		"[ \"$(jq -n \"$after < $before\")\" = true ] || broken \"item_count went from $before to $after\"", out(prev), out(cur), prev+1, cur+1)
	return goCode, sh
}

// listFollowed is LIST-1 on the counts at path read before (call bi) and after (call ai) the
// create (call ci): one more when the create succeeded, as many when it did not (a reply may
// also be listed under its parent, D210). A list may show a write late (a replica, a cache:
// D210), so the list after is read again until it counts what it should, for up to the
// suite's push wait (the spec) or SETTLE_SECONDS (the script, 20 by default), as explore waits.
func listFollowed(bi, ci, ai int, path string, reply bool) (goCode, sh string) {
	var g strings.Builder
	fmt.Fprintf(&g, "want := count(ex%d, %q)\n\tif ex%d.Succeeded() {\n\t\twant++\n\t}\n", bi+1, path, ci+1)
	fmt.Fprintf(&g, "\tafter := cfg.Reaching(ctx, want, func() int64 { return count(send(ex%d.Resend()), %q) }) // a list may show a write late\n", ai+1, path)
	if reply {
		fmt.Fprintf(&g, "\tExpect(after).To(Or(Equal(want), Equal(count(ex%d, %q))), \"a reply is listed, or under its parent\")", bi+1, path)
	} else {
		g.WriteString("\tExpect(after).To(Equal(want), \"the count after the create against the count before it\")")
	}
	var s strings.Builder
	fmt.Fprintf(&s, "before=$(count %s '.%s')\nafter=$(count %s '.%s')\nwant=$before\n", out(bi), path, out(ai), path)
	fmt.Fprintf(&s, "if succeeded %s; then want=$((before + 1)); fi\n", out(ci))
	fmt.Fprintf(&s, "waited=0 # a list may show a write late (a replica): read it again, for up to SETTLE_SECONDS\n"+
		"while [ \"$after\" -lt \"$want\" ] && [ \"$waited\" -lt \"${SETTLE_SECONDS:-20}\" ]; do\n"+
		"  sleep 1; waited=$((waited + 1)); out%d=$(call%d); after=$(count \"$out%d\" '.%s')\ndone\n", ai+1, ai+1, ai+1, path)
	fmt.Fprintf(&s, "echo \"%s: $before before the create, $after after it; want $want\"\n", path)
	if reply {
		s.WriteString(`[ "$after" = "$want" ] || [ "$after" = "$before" ] || broken "the count went from $before to $after"`)
	} else {
		s.WriteString(`[ "$after" = "$want" ] || broken "the count went from $before to $after, want $want"`)
	}
	return g.String(), s.String()
}

// countKept is SYNC-1: the card count read after the second sync (call ai) is the one read
// before it (call bi).
func countKept(bi, ai int, path string) (goCode, sh string) {
	goCode = fmt.Sprintf("Expect(count(ex%d, %q)).To(Equal(count(ex%d, %q)))", ai+1, path, bi+1, path)
	sh = fmt.Sprintf("before=$(count %s '.%s')\nafter=$(count %s '.%s')\necho \"%s: $before before, $after after\"\n"+
		`[ "$after" = "$before" ] || broken "the count went from $before to $after"`, out(bi), path, out(ai), path, path)
	return goCode, sh
}

// cardKept is SCOPE-1's read-back: the card (goID in the spec, shID in the script) is still
// listed by the list after the refused update (call ai), its fields kept as the list before it
// (call bi) showed them.
func cardKept(bi, ai int, goID, shID string) (goCode, sh string) {
	var g strings.Builder
	g.WriteString("listed := func(x *Exchange) map[string]any {\n\t\tfor _, c := range x.Objects(\"data.cards\") {\n")
	fmt.Fprintf(&g, "\t\t\tif n, ok := Integer(c[\"id\"]); ok && n == %s {\n\t\t\t\treturn c\n\t\t\t}\n\t\t}\n\t\treturn nil\n\t}\n", goID)
	fmt.Fprintf(&g, "\tif listed(ex%d) == nil {\n\t\tSkip(\"the card is not listed before the update: nothing to compare\")\n\t}\n", bi+1)
	fmt.Fprintf(&g, "\tExpect(listed(ex%d)).NotTo(BeNil(), \"the card is still listed\")\n", ai+1)
	for i, k := range scopeKept {
		if i > 0 {
			g.WriteString("\n")
		}
		fmt.Fprintf(&g, "\tExpect(listed(ex%d)[%q]).To(Equal(listed(ex%d)[%q]))", ai+1, k, bi+1, k)
	}
	read := func(i int) string {
		return fmt.Sprintf(`$(body %s | jq -c --argjson id %s '[.data.cards[] | select(.id == $id) | {%s}] | first')`, out(i), shID, strings.Join(scopeKept, ", "))
	}
	sh = fmt.Sprintf("before=%s\nafter=%s\necho \"the card before: $before; after: $after\"\n"+
		`[ "$before" != null ] || { echo "the card is not listed before the update: nothing to compare"; exit 2; }`+"\n"+
		`[ "$after" != null ] || broken "the card is no longer listed"`+"\n"+
		`[ "$after" = "$before" ] || broken "the card changed"`, read(bi), read(ai))
	return g.String(), sh
}

// sameStatus is AUTH-7 on a public operation sent without (call a) and with (call b) a stray
// Authorization header.
func sameStatus(a, b int) (goCode, sh string) {
	goCode = fmt.Sprintf("Expect(ex%d.Status).To(Equal(ex%d.Status))", b+1, a+1)
	sh = fmt.Sprintf("echo \"status: $(status %s) without the header, $(status %s) with it\"\n"+
		`[ "$(status %s)" = "$(status %s)" ] || broken "the header changed the answer"`, out(a), out(b), out(b), out(a))
	return goCode, sh
}

// acceptedAtMost is LIMIT-3 on the regenerations of the case (calls), however many the run
// saw accepted: at most limit of them answer 200.
func acceptedAtMost(calls []int, limit int) (goCode, sh string) {
	exs, outs := make([]string, len(calls)), make([]string, len(calls))
	for k, i := range calls {
		exs[k], outs[k] = fmt.Sprintf("ex%d", i+1), out(i)
	}
	goCode = fmt.Sprintf("accepted := 0\n\tfor _, x := range []*Exchange{%s} {\n\t\tif x.Status == 200 {\n\t\t\taccepted++\n\t\t}\n\t}\n"+
		"\tExpect(accepted).To(BeNumerically(\"<=\", %d), \"regenerations of the project accepted in a row\")", strings.Join(exs, ", "), limit)
	sh = fmt.Sprintf("n=0\nfor o in %s; do\n  if [ \"$(status \"$o\")\" = 200 ]; then n=$((n + 1)); fi\ndone\n"+
		"echo \"regenerations accepted: $n\"\n[ \"$n\" -le %d ] || broken \"$n regenerations accepted, at most %d may be\"", strings.Join(outs, " "), limit, limit)
	return goCode, sh
}

// shChecker is the script's judgment of a rule the one contract checker judged on the last
// answer, where a few lines of jq can state it ("" where they cannot: a shape, headers).
func shChecker(id rules.ID, ex *conformance.Exchange) string {
	var req map[string]any
	_ = json.Unmarshal(ex.ReqBody, &req)
	asked := func(k string) int64 { n, _ := conformance.Integer(req[k]); return n }
	switch id {
	case rules.PAGE1:
		return shSucceeded + shPage(asked("page"), asked("per_page"))
	case rules.TRANS3:
		return shSucceeded + "echo \"theme_status: $(body \"$ex\" | jq -c '.data.theme_status')\"\n" +
			"body \"$ex\" | jq -e '.data.theme_status == \"deprecated\"' >/dev/null || broken \"the deprecation does not answer theme_status deprecated\""
	case rules.CART1:
		if item, ok := conformance.Integer(req["cart_item_id"]); ok {
			return shSucceeded + fmt.Sprintf("echo \"items: $(body \"$ex\" | jq -c '[.data.cart.items[]?.id]')\"\n"+
				"body \"$ex\" | jq -e '[.data.cart.items[]?.id] | index(%d) == null' >/dev/null || broken \"the cart still holds item %d\"", item, item)
		}
	}
	return ""
}

// shPage is PAGE-1 on the last answer, against the page and per_page the request asked for
// (0: not asked): as check.Pagination judges it.
func shPage(page, perPage int64) string {
	const prog = `.data as $d | $d.pagination as $p
  | ([$d | to_entries[] | select(.key != "pagination" and (.value | type) == "array") | .value | length] | first) as $n
  | (if $p.total == 0 then 0 else (($p.total + $p.per_page - 1) / $p.per_page | floor) end) as $pages
  | ([$pages, 1] | max) as $last
  | ($asked > $last and $p.current_page == $last) as $again
  | (if $asked > 0 and ($again | not) then $asked else $p.current_page end) as $shown
  | ([0, ([$p.per_page, $p.total - ($shown - 1) * $p.per_page] | min)] | max) as $want
  | ($per <= 0 or $p.per_page == $per) and ($asked <= 0 or $p.current_page == $asked or $again)
    and ($p.total_pages == $pages or ($p.total == 0 and $p.total_pages <= 1)) and $n == $want`
	return fmt.Sprintf("echo \"pagination: $(body \"$ex\" | jq -c '.data.pagination'), listed: $(body \"$ex\" | jq '[.data | to_entries[] | select(.key != \"pagination\" and (.value | type) == \"array\") | .value | length] | first'), asked page %d, per_page %d\"\n"+
		"body \"$ex\" | jq -e --argjson asked %d --argjson per %d '%s' >/dev/null || broken \"the page does not keep its arithmetic\"", page, perPage, page, perPage, prog)
}

// shellID renders an id for a jq --argjson: the variable of the call that created it, or the
// number.
func shellID(v any) string {
	if id, ok := v.(ID); ok && id.Var != "" {
		return `"$` + id.Var + `"`
	}
	if id, ok := v.(ID); ok {
		return strconv.FormatInt(id.V, 10)
	}
	return jsonText(v)
}
