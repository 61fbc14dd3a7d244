package check_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/conformance/rules"
)

// The tracker judges ERR-8 on traffic: a caller's own new record, named by a valid request of
// that caller once the settle time has passed, is not answered 404.
func TestTrackerJudgesARecordTheCallerCreatedIsFound(t *testing.T) {
	const lag = 2 * time.Second
	create := answer(op(t, "cardsCreate"), "59", `{"title":"A card"}`, `{"error":false,"message":"ok","data":{"card":{"id":12,"title":"A card"}}}`)
	json := http.Header{"Content-Type": {"application/json"}}
	notFound := func(id, req string) check.Exchange {
		return check.Exchange{Op: op(t, id), ReqHeader: json, ReqBody: []byte(req), Status: http.StatusNotFound,
			Header: http.Header{"X-Ratelimit-Limit": {"60"}, "X-Ratelimit-Remaining": {"58"}}, Body: []byte(`{"error":true,"message":"Not found.","data":[]}`)}
	}
	deleted := answer(op(t, "groupsDelete"), "57", `{"id":7}`, `{"error":false,"message":"ok","data":[]}`)
	group := answer(op(t, "masterGroupsCreate"), "59", `{"board_id":1,"title":"G"}`, `{"error":false,"message":"ok","data":{"group":{"id":7}}}`)
	tests := []struct {
		name   string
		caller string // of the later request ("Bearer t" made the records)
		steps  []check.Exchange
		after  time.Duration // between the create and the 404
		want   bool
	}{
		{"the caller's own card, past the settle time", "Bearer t", []check.Exchange{create, notFound("cardsUpdate", `{"id":12,"title":"New"}`)}, 3 * time.Second, true},
		{"within the settle time: a replica may not have it yet", "Bearer t", []check.Exchange{create, notFound("cardsUpdate", `{"id":12,"title":"New"}`)}, time.Second, false},
		{"another caller: it may not be allowed to see the card", "Bearer other", []check.Exchange{create, notFound("cardsUpdate", `{"id":12,"title":"New"}`)}, 3 * time.Second, false},
		{"an id the tracker cannot vouch for (a group of the project)", "Bearer t", []check.Exchange{create, notFound("cardsUpdate", `{"id":12,"group_id":5}`)}, 3 * time.Second, false},
		{"an invalid body: not the rule's", "Bearer t", []check.Exchange{create, notFound("cardsUpdate", `{"id":12,"priority":"extreme"}`)}, 3 * time.Second, false},
		{"another id than the one created", "Bearer t", []check.Exchange{create, notFound("cardsUpdate", `{"id":13}`)}, 3 * time.Second, false},
		{"a master group the caller created", "Bearer t", []check.Exchange{group, notFound("masterGroupsUpdate", `{"id":7,"title":"G2"}`)}, 3 * time.Second, true},
		{"a master group deleted since", "Bearer t", []check.Exchange{group, deleted, notFound("masterGroupsUpdate", `{"id":7,"title":"G2"}`)}, 3 * time.Second, false},
		// What becomes of a deleted group's cards is not stated: the reference removes them.
		{"a card after any group was deleted", "Bearer t", []check.Exchange{create, deleted, notFound("cardsUpdate", `{"id":12,"title":"New"}`)}, 3 * time.Second, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := check.NewTrackerLag(lag)
			at := trackStart
			var got []rules.ID
			for i, ex := range tt.steps {
				caller := "Bearer t"
				if i == len(tt.steps)-1 {
					caller, at = tt.caller, at.Add(tt.after)
				}
				for _, v := range tr.Judge(caller, ex, at, at.Add(10*time.Millisecond)) {
					got = append(got, v.Rule)
				}
				at = at.Add(20 * time.Millisecond)
			}
			if slices.Contains(got, rules.ERR8) != tt.want {
				t.Errorf("violations %v, want ERR-8: %v", got, tt.want)
			}
		})
	}
}

// GROUP-1 on traffic: a group a delete removed is not deleted again with success, whoever sends
// the second delete; a sync in between (it may make a group with a freed id) and an overlap are
// not judged.
func TestTrackerJudgesAGroupDeletedTwice(t *testing.T) {
	del := answer(op(t, "groupsDelete"), "57", `{"id":9}`, `{"error":false,"message":"ok","data":[]}`)
	sync := answer(op(t, "masterBoardsSync"), "56", `{"board_id":1}`, `{"error":false,"message":"ok","data":{"synced_count":1,"boards_created":0,"skipped_no_access":0}}`)
	for _, tt := range []struct {
		name  string
		steps []check.Exchange
		gap   time.Duration // between one step's answer and the next's sending (negative: overlap)
		want  bool
	}{
		{"deleted twice", []check.Exchange{del, del}, time.Second, true},
		{"a sync in between", []check.Exchange{del, sync, del}, time.Second, false},
		{"two deletes overlapping", []check.Exchange{del, del}, -5 * time.Millisecond, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tr := check.NewTracker()
			at := trackStart
			var got []rules.ID
			for i, ex := range tt.steps {
				caller := fmt.Sprintf("Bearer %d", i) // another caller each time: a group is everyone's
				for _, v := range tr.Judge(caller, ex, at, at.Add(10*time.Millisecond)) {
					got = append(got, v.Rule)
				}
				at = at.Add(10*time.Millisecond + tt.gap)
			}
			if slices.Contains(got, rules.GROUP1) != tt.want {
				t.Errorf("violations %v, want GROUP-1: %v", got, tt.want)
			}
		})
	}
}
