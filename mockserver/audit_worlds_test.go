package mockserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/mockserver"
)

// A world comes into being only through a well-formed request that reaches an operation or one
// of the mock's endpoints (D141, D185): a path with dot segments, an unknown path, and a path
// and header naming different worlds make none.
func TestOnlyRequestsThatReachSomethingMakeWorlds(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	req, _ := http.NewRequest(http.MethodGet, m.url+"/__worlds/x/../__mock/clock", nil)
	req.URL.Opaque = "//" + req.URL.Host + "/__worlds/x/../__mock/clock" // sent as is, like curl --path-as-is
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	m.ctl(http.MethodPost, "/__worlds/y/no/such/path", "{}").wantStatus(t, http.StatusNotFound)
	m.ctl(http.MethodGet, "/__worlds/a/__mock/clock", nil, mockserver.WorldHeader, "b").wantStatus(t, http.StatusBadRequest)
	m.ctl(http.MethodGet, "/__mock/clock", nil, mockserver.WorldHeader, "c").wantStatus(t, http.StatusOK)
	names := "," + m.worldNames(t) + ","
	for _, name := range []string{"x", "y", "a", "b"} {
		if strings.Contains(names, ","+name+",") {
			t.Errorf("world %q was made by a request that reached nothing: %v (answered %d)", name, names, res.StatusCode)
		}
	}
	if !strings.Contains(names, ",c,") {
		t.Errorf("world c was not made by a request to a control: %v", names)
	}
}

// DELETE /__mock/worlds of a world busy with a request waits for it to finish before the world
// goes (D141, D186): the create answered 200 is in the world until then, and the delete answers
// after it.
func TestDeletingABusyWorldWaitsForItsRequests(t *testing.T) {
	m := newMock(t, mockserver.Config{MaxWorlds: 2})
	w := "/__worlds/w1"
	token := m.ctl(http.MethodPost, w+"/v1/authenticate", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
	m.ctl(http.MethodPost, w+"/__mock/faults", map[string]any{"operation": "tagsCreate", "latency_ms": 400, "times": 1}).wantStatus(t, 201)
	created := make(chan time.Time, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, m.url+w+pTagsCreate, strings.NewReader(`{"name":"slow"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
		}
		created <- time.Now()
	}()
	time.Sleep(100 * time.Millisecond) // the create is in its delay
	m.ctl(http.MethodDelete, "/__mock/worlds?name=w1", nil).wantStatus(t, http.StatusOK)
	deleted := time.Now()
	select {
	case at := <-created: // read by the client just after the world's answer was written
		if at.Sub(deleted) > 150*time.Millisecond {
			t.Errorf("the delete answered %v before the create it raced with", at.Sub(deleted))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the create never answered")
	}
}

// A request held across a reset or a loaded snapshot (here by a latency fault) was sent before
// it: it acts on the records it was sent to, which the swap discarded, so the world the reset
// or the snapshot made holds nothing of it, and a reset's journal and flow do not count it (D62). It
// was served by the new world: a cart removal (public) took an item out of the freshly reset
// world, and a create whose token the snapshot kept added its tag to the restored one.
func TestARequestHeldAcrossAResetLeavesTheNewWorldAlone(t *testing.T) {
	m := newMock(t, mockserver.Config{})
	for _, swap := range []string{"reset", "snapshot"} {
		for _, op := range []string{"tagsCreate", "domainCartRemove"} {
			t.Run(swap+" during "+op, func(t *testing.T) {
				w := "/__worlds/straggler-" + swap + "-" + op
				m.ctl(http.MethodPost, w+"/__mock/reset", map[string]any{}).wantStatus(t, http.StatusOK)
				token := m.ctl(http.MethodPost, w+"/v1/authenticate", map[string]any{"email": m.manifest.Users.Member.Email, "password": m.manifest.Users.Member.Password}).wantStatus(t, 200).data()["token"].(string)
				snapshot := m.ctl(http.MethodGet, w+"/__mock/state", nil).wantStatus(t, 200).raw
				path, body := pTagsCreate, `{"name":"straggler"}`
				if op == "domainCartRemove" {
					cart := m.manifest.Domains.Carts[0]
					path, body = pCartRemove, fmt.Sprintf(`{"session_token":%q,"cart_item_id":%d}`, cart.SessionToken, cart.ItemIDs[0])
				}
				m.ctl(http.MethodPost, w+"/__mock/faults", map[string]any{"operation": op, "latency_ms": 400, "times": 1}).wantStatus(t, 201)
				status := make(chan int, 1)
				go func() {
					req, _ := http.NewRequest(http.MethodPost, m.url+w+path, strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Authorization", "Bearer "+token)
					res, err := http.DefaultClient.Do(req)
					if err != nil {
						status <- 0
						return
					}
					res.Body.Close()
					status <- res.StatusCode
				}()
				time.Sleep(100 * time.Millisecond) // the call is in its delay
				if swap == "reset" {
					m.ctl(http.MethodPost, w+"/__mock/reset", map[string]any{}).wantStatus(t, http.StatusOK)
				} else {
					var st map[string]any
					if err := json.Unmarshal(snapshot, &st); err != nil {
						t.Fatal(err)
					}
					m.ctl(http.MethodPut, w+"/__mock/state", st).wantStatus(t, http.StatusOK)
				}
				if got := <-status; got != http.StatusOK {
					t.Errorf("the held %s answered %d; want 200, as it was sent before the %s", op, got, swap)
				}
				state := m.ctl(http.MethodGet, w+"/__mock/state", nil).wantStatus(t, 200)
				if op == "tagsCreate" && strings.Contains(string(state.raw), "straggler") {
					t.Errorf("the world the %s made holds the straggler's tag", swap)
				}
				if n := m.ctl(http.MethodGet, w+"/__mock/requests/count?operation="+op+"&status=2xx", nil).field("count"); n != float64(0) && swap == "reset" {
					t.Errorf("the new world's journal counts %v successful %s", n, op)
				}
				if op == "domainCartRemove" {
					cart := m.manifest.Domains.Carts[0]
					again := m.post(w+pCartRemove, "", map[string]any{"session_token": cart.SessionToken, "cart_item_id": cart.ItemIDs[0]})
					if again.status != http.StatusOK {
						t.Errorf("the world the %s made no longer holds the cart item the held call removed: %d %s", swap, again.status, again.raw)
					}
				}
			})
		}
	}
}
