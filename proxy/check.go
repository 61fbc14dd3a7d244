package proxy

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// check judges one exchange of an operation against the rules one exchange can show, and
// returns the violations in the order of the Rules table.
func (p *Proxy) check(ctx context.Context, ex *exchange) []Violation {
	if ex.op == nil {
		return nil
	}
	var vs []Violation
	var broken []string // the request's fields that break their rules
	if ex.reqWhole {
		var reqVs []Violation
		reqVs, broken = checkRequest(ctx, ex)
		vs = append(vs, reqVs...)
	} else {
		ex.note(fmt.Sprintf("request body over %d bytes: its fields were not checked", p.maxBody))
	}
	vs = append(vs, checkStatus(ex)...)
	vs = append(vs, checkHeaders(ex.status, ex.respHeader)...)
	if len(broken) > 0 && ex.status >= 200 && ex.status < 300 {
		vs = append(vs, violation(InvalidAccepted, fmt.Sprintf("the request breaks a field rule (%s), yet the answer is %d", RequestSchema, ex.status)))
	}
	if ex.respWhole {
		shape := checkShape(ex.op, ex.status, ex.respBody, broken)
		vs = append(vs, shape...)
		if len(shape) == 0 && ex.op.listed(ex.status) {
			vs = append(vs, checkAnswer(ctx, ex)...)
		}
	}
	return ordered(vs)
}

// ordered sorts violations in the order of the Rules table, keeping their order within a rule.
func ordered(vs []Violation) []Violation {
	rank := make(map[string]int, len(Rules))
	for i, r := range Rules {
		rank[r.ID] = i
	}
	sort.SliceStable(vs, func(i, j int) bool { return rank[vs[i].Rule] < rank[vs[j].Rule] })
	return vs
}

// ruleIDs lists the distinct rule ids of vs, in order: the value of X-Contract-Violations.
func ruleIDs(vs []Violation) []string {
	var ids []string
	seen := map[string]bool{}
	for _, v := range vs {
		if !seen[v.Rule] {
			seen[v.Rule] = true
			ids = append(ids, v.Rule)
		}
	}
	return ids
}

// checkStatus is STATUS-1.
func checkStatus(ex *exchange) []Violation {
	if ex.op.anyStatus || ex.op.listed(ex.status) {
		return nil
	}
	codes := ex.op.route.Operation.Responses.Keys()
	sort.Strings(codes)
	return []Violation{violation(StatusListed, fmt.Sprintf("%s answered %d; it lists %s", ex.op.id, ex.status, strings.Join(codes, ", ")))}
}

// checkHeaders is HDR-1 and HDR-2.
func checkHeaders(status int, h http.Header) []Violation {
	var vs []Violation
	limit, limitOK, limitWhy := headerInt(h, "X-RateLimit-Limit")
	rem, remOK, remWhy := headerInt(h, "X-RateLimit-Remaining")
	optional := status == http.StatusUnprocessableEntity // the interface lists no headers on validation errors (D92)
	for _, bad := range []struct {
		ok  bool
		why string
	}{{limitOK, limitWhy}, {remOK, remWhy}} {
		if !bad.ok && !(optional && strings.HasSuffix(bad.why, "is missing")) {
			vs = append(vs, violation(HeadersRateLimit, bad.why))
		}
	}
	if limitOK && remOK && rem > limit {
		vs = append(vs, violation(HeadersRateLimit, fmt.Sprintf("X-RateLimit-Remaining %d is above X-RateLimit-Limit %d", rem, limit)))
	}
	if status == http.StatusTooManyRequests {
		if _, ok, why := headerInt(h, "Retry-After"); !ok {
			vs = append(vs, violation(RetryAfter, why))
		}
	}
	return vs
}

// headerInt reads a header that must be one non-negative integer.
func headerInt(h http.Header, name string) (int64, bool, string) {
	values := h.Values(name)
	switch {
	case len(values) == 0:
		return 0, false, name + " is missing"
	case len(values) > 1:
		return 0, false, fmt.Sprintf("%s is sent %d times", name, len(values))
	}
	n, err := strconv.ParseInt(strings.TrimSpace(values[0]), 10, 64)
	if err != nil || n < 0 {
		return 0, false, fmt.Sprintf("%s is %q, not a non-negative integer", name, values[0])
	}
	return n, true, ""
}
