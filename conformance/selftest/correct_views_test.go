package selftest_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/opsapi/mocktoolkit/conformance"
)

// cachedWidgetLists serves widget/cards/list from a cache refreshed at most once a second, per
// caller and body: a card snoozed shows in the counts up to a second later (D210; an outside
// vendor served its widget lists so).
func cachedWidgetLists() correct {
	return correct{
		name:  "serves widget card lists from a cache refreshed every second",
		basis: "§Endpoints 8: when a list shows a write (a snooze) is not stated",
		after: cachedFor(conformance.OpWidgetCardsList, time.Second),
	}
}

// cachedCommentLists serves comments/list from a cache of each query (caller, card, page,
// per_page), keeping a page of one comment half a second and any other 4 seconds, as a cache
// that keeps costlier queries longer: once one query counts a new comment, a larger page read
// before it was added shows the old total for seconds more (D210; an outside vendor cached its
// comment lists so, and PAGE-1's walk, which waited on one query, failed it).
func cachedCommentLists() correct {
	return correct{
		name:   "serves each comment-list query from a cache, a page of one comment kept 0.5 s, others 4 s",
		basis:  "Resources (pagination object), §Endpoints 2: how soon a list shows a write is not stated",
		filter: "contract && (op:commentsList || op:commentsCreate)",
		env:    []string{"CONFORMANCE_PUSH_WAIT=10s"}, // the default is 20s; the self-test's 2s
		after: cached(conformance.OpCommentsList, func(req map[string]any) time.Duration {
			if per, _ := intOf(req["per_page"]); per == 1 {
				return time.Second / 2
			}
			return 4 * time.Second
		}),
	}
}

// cachedFor serves op's successful answers from a cache kept for ttl.
func cachedFor(op conformance.Operation, ttl time.Duration) func(x *xchg) {
	return cached(op, func(map[string]any) time.Duration { return ttl })
}

// cached serves op's successful answers from a cache, per mock, caller and body, each kept as
// long as ttl says for its request, as a deployment behind a short-lived cache answers.
func cached(op conformance.Operation, ttl func(req map[string]any) time.Duration) func(x *xchg) {
	type kept struct {
		body map[string]any
		at   time.Time
	}
	var (
		mu    sync.Mutex
		cache = map[string]kept{}
	)
	return func(x *xchg) {
		if x.op.ID != op.ID || x.a.status != 200 || x.a.body == nil {
			return
		}
		raw, _ := json.Marshal(x.req)
		k := fmt.Sprintf("%p %s %s", x.m, x.r.Header.Get("Authorization"), raw)
		mu.Lock()
		defer mu.Unlock()
		if c, ok := cache[k]; ok && time.Since(c.at) < ttl(x.req) {
			x.a.body = c.body
			return
		}
		cache[k] = kept{x.a.body, time.Now()}
	}
}

// tourStatusPerProject keeps the status a member sets on a tour card as that project's tour
// progress, not on the master card, which stays as it was for every other project: the
// update is answered with the card at the status set, and master-cards/update goes on showing
// the master's own (D32; an outside vendor kept tour progress so).
func tourStatusPerProject() correct {
	var (
		mu  sync.Mutex
		set = map[*xchg]string{} // the status asked for, by exchange
	)
	return correct{
		name:  "keeps a tour card's status per project, leaving the master card as it was",
		basis: "§Endpoints 9, §States and transitions: where the status a member sets is kept is not shown",
		before: func(x *xchg) bool {
			if x.op.ID != conformance.OpTourCardsUpdate.ID || x.req == nil {
				return false
			}
			asked, _ := x.req["status"].(string)
			id, ok := intOf(x.req["id"])
			if !ok || (asked != "open" && asked != "closed") {
				return false // a refusal the mock words
			}
			for _, c := range worldState(x).Cards {
				if c.ID == id && c.IsMaster && (c.Status == "open" || c.Status == "closed") {
					// The mock answers the card as it is (its checks, its rate window); the
					// answer then shows the status this project's tour is at.
					x.req["status"], x.queued = c.Status, true
					mu.Lock()
					set[x] = asked
					mu.Unlock()
				}
			}
			return false
		},
		after: func(x *xchg) {
			mu.Lock()
			asked, ok := set[x]
			delete(set, x)
			mu.Unlock()
			if !ok || x.a.status != 200 {
				return
			}
			if card, isObj := x.a.data()["card"].(map[string]any); isObj {
				card["status"] = asked
			}
		},
	}
}
