package conformance

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"
)

// A role's logins go one at a time: a second lease waits for the first to end, and is given the
// token the first login gave; a late release of an ended lease does not end a newer one. Over
// the coordinator's HTTP endpoints, as the parallel processes use them.
func TestLoginLeasesOneAtATime(t *testing.T) {
	srv := httptest.NewServer(newParallelServer(2, nil, nil, func(int) bool { return true }).handler())
	defer srv.Close()
	a, b := &Client{}, &Client{}
	a.ShareLogins(srv.URL)
	b.ShareLogins(srv.URL)
	ctx := context.Background()

	latest, releaseA := a.LoginLease(ctx, "member")
	if latest != "" {
		t.Fatalf("first lease: latest %q, want none", latest)
	}
	got := make(chan string)
	var releaseB func(string)
	go func() {
		var l string
		l, releaseB = b.LoginLease(ctx, "member")
		got <- l
	}()
	select {
	case l := <-got:
		t.Fatalf("a second lease was given (%q) while the first was held", l)
	case <-time.After(100 * time.Millisecond):
	}
	other, releaseOther := a.LoginLease(ctx, "superadmin") // another role is not held up
	releaseOther("s1")
	if other != "" {
		t.Errorf("superadmin's first lease: latest %q", other)
	}
	releaseA("t1")
	if l := <-got; l != "t1" {
		t.Fatalf("the second lease got %q, want the first login's t1", l)
	}
	releaseA("stale") // ended already: must not end b's lease nor change the latest
	third := make(chan string)
	go func() { l, r := a.LoginLease(ctx, "member"); third <- l; r("") }()
	select {
	case l := <-third:
		t.Fatalf("a late release ended the lease b holds (third lease got %q)", l)
	case <-time.After(100 * time.Millisecond):
	}
	releaseB("t2")
	if l := <-third; l != "t2" {
		t.Errorf("after b's login the latest is %q, want t2", l)
	}
}
