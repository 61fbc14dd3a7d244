package mockserver_test

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// chromiumPath finds a Chromium or Chrome binary: $CHROMIUM, else the usual names on PATH
// (Debian's package is `chromium`).
func chromiumPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// newBrowser starts a headless Chromium for the test, or skips it when there is none.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	path := chromiumPath()
	if path == "" {
		t.Skip("no Chromium found (set CHROMIUM or install Debian's chromium: apt-get install -y chromium)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return ctx
}

// waitText polls the text of selector until want(text) holds. A read that fails (the page
// is reloading) is tried again until the deadline.
func waitText(ctx context.Context, t *testing.T, selector string, want func(string) bool, what string) string {
	t.Helper()
	var text string
	var err error
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		text, err = chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(selector)))
		if err == nil && want(text) {
			return text
		}
	}
	t.Fatalf("%s: %s reads %q (last error: %v)", what, selector, text, err)
	return ""
}

// The dashboard, in a real headless Chromium: it shows the fixture credentials, advancing the
// clock and adding a fault rule take effect in the mock, the journal grows as requests come
// in, and reset clears them (README, "Steering the mock": dashboard).
func TestDashboardInABrowser(t *testing.T) {
	ctx := newBrowser(t)
	m := newMockWithAdmin(t, "s3cret")
	admin := []string{mockserver.AdminTokenHeader, "s3cret"}

	err := chromedp.Do(ctx,
		chromedp.Navigate(m.url+"/__mock/?token=s3cret"),
		chromedp.WaitVisible(chromedp.CSS("#clock-now")),
	)
	if err != nil {
		t.Fatalf("load the dashboard: %v", err)
	}
	before := waitText(ctx, t, "#clock-now", func(s string) bool { return s != "" }, "clock")
	waitText(ctx, t, "#credentials", func(s string) bool { return strings.Contains(s, m.manifest.Users.Member.Email) }, "credentials")

	t.Run("advancing the clock moves the mock's clock", func(t *testing.T) {
		advanceOnThePage(ctx, t, m, before, admin)
	})

	t.Run("System time gives the clock back to the system time", func(t *testing.T) {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#clock-system"))); err != nil {
			t.Fatal(err)
		}
		waitText(ctx, t, "#status", func(s string) bool { return strings.HasPrefix(s, "Clock back on the system time") }, "status after System time")
		now, _ := time.Parse(time.RFC3339, m.ctl(http.MethodGet, "/__mock/clock", nil, admin...).field("now").(string))
		if d := time.Since(now).Abs(); d > 5*time.Second {
			t.Errorf("after System time the mock's clock reads %s, the system time is %s", now, time.Now().UTC())
		}
	})

	t.Run("the token leaves the address bar and a reload still opens the page", func(t *testing.T) {
		if href, err := chromedp.Run(ctx, chromedp.Location()); err != nil || strings.Contains(href, "s3cret") {
			t.Errorf("the address bar reads %q (%v), want no token", href, err)
		}
		if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#clock-now"))); err != nil {
			t.Fatalf("reload the dashboard: %v", err)
		}
		waitText(ctx, t, "#credentials", func(s string) bool { return strings.Contains(s, m.manifest.Users.Member.Email) }, "credentials after a reload")
		// The reload went through the token prompt, which sends the kept token on; the page's
		// script takes it out of the address again once it has run (its controls wired).
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			href, err := chromedp.Run(ctx, chromedp.Location())
			if err == nil && strings.Contains(href, "/__mock/") && !strings.Contains(href, "token=") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("after a reload the address bar reads %q (%v), want the dashboard without a token", href, err)
			}
		}
	})

	t.Run("a fault rule added on the page fires", func(t *testing.T) {
		err := chromedp.Do(ctx,
			chromedp.SetValue(chromedp.CSS("#fault-operation"), "tagsList"),
			chromedp.SetValue(chromedp.CSS("#fault-status"), "500"),
			chromedp.SetValue(chromedp.CSS("#fault-times"), "1"),
			chromedp.Click(chromedp.CSS("#fault-add")),
		)
		if err != nil {
			t.Fatal(err)
		}
		waitText(ctx, t, "#faults tbody", func(s string) bool { return strings.Contains(s, "tagsList") }, "fault rules")
		member := m.login(m.manifest.Users.Member)
		m.post(pTagsList, member, nil).wantStatus(t, 500)
	})

	t.Run("the journal shows new requests", func(t *testing.T) {
		m.post(pAuthenticate, "", map[string]any{"email": "journal@example.com", "password": "x"})
		waitText(ctx, t, "#journal tbody", func(s string) bool { return strings.Contains(s, "/v1/authenticate") }, "journal")
	})

	t.Run("download flow fetches the world's flow", func(t *testing.T) {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#flow-download"))); err != nil {
			t.Fatal(err)
		}
		waitText(ctx, t, "#status", func(s string) bool { return strings.HasPrefix(s, "Flow of ") && strings.HasSuffix(s, " steps saved.") }, "status after download flow")
	})

	t.Run("a seed past 2^53-1 typed on the page is refused, saying the seeds' range", func(t *testing.T) {
		// Sent as typed: as a JS number it would lose its last digits and another world come back.
		err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#reset-seed"), "9007199254740993"), chromedp.Click(chromedp.CSS("#reset")))
		if err != nil {
			t.Fatal(err)
		}
		waitText(ctx, t, "#status", func(s string) bool { return strings.Contains(s, "9007199254740991") }, "status after a reset to a seed past the range")
	})

	t.Run("the largest seed typed on the page resets to that very seed", func(t *testing.T) {
		const seed = "9007199254740991"
		resetOnThePage(ctx, t, chromedp.SetValue(chromedp.CSS("#reset-seed"), seed))
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			raw := string(m.ctl(http.MethodGet, "/__mock/worlds", nil, admin...).raw)
			if strings.Contains(raw, `"seed":`+seed) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the default world after a reset to seed %s from the page: %s", seed, raw)
			}
		}
		if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#reset-seed"), "")); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("reset clears the journal and the fault rules", func(t *testing.T) {
		m.ctl(http.MethodPost, "/__mock/faults", map[string]any{"operation": "cardsList", "status": 500}, admin...).wantStatus(t, 201)
		resetOnThePage(ctx, t)
		waitText(ctx, t, "#journal tbody", func(s string) bool { return strings.TrimSpace(s) == "" }, "journal after reset")
		waitText(ctx, t, "#faults tbody", func(s string) bool { return strings.TrimSpace(s) == "" }, "fault rules after reset")
		if f := m.ctl(http.MethodGet, "/__mock/faults", nil, admin...).list(t, "faults"); len(f) != 0 {
			t.Errorf("fault rules after reset from the page: %v", f)
		}
	})
}

// resetOnThePage runs before (filling the form), clicks Reset and waits until the page has
// reloaded, as it does once the mock answers: a control used before the reload would be lost
// with the old page.
func resetOnThePage(ctx context.Context, t *testing.T, before ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.oldPage = true`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, append(before, chromedp.Click(chromedp.CSS("#reset")))...); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		reloaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.oldPage === undefined && document.readyState === "complete"`))
		if err == nil && reloaded {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page did not reload after Reset (last error: %v)", err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS("#reset"))); err != nil {
		t.Fatal(err)
	}
}

// advanceOnThePage advances the clock two hours with the page's control and checks the page
// and the mock agree; before is the time the page showed.
func advanceOnThePage(ctx context.Context, t *testing.T, m *mock, before string, admin []string) {
	t.Helper()
	start, err := time.Parse(time.RFC3339, before)
	if err != nil {
		t.Fatalf("clock on the page %q: %v", before, err)
	}
	err = chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#advance-seconds"), "7200"),
		chromedp.Click(chromedp.CSS("#advance")),
	)
	if err != nil {
		t.Fatal(err)
	}
	shown := waitText(ctx, t, "#clock-now", func(s string) bool { return s != before }, "clock after advancing")
	got, _ := time.Parse(time.RFC3339, shown)
	if d := got.Sub(start) - 2*time.Hour; d < 0 || d > 30*time.Second {
		t.Errorf("page shows %s after advancing two hours from %s", shown, before)
	}
	server := m.ctl(http.MethodGet, "/__mock/clock", nil, admin...).field("now").(string)
	if server < shown {
		t.Errorf("the mock's clock reads %s, the page %s", server, shown)
	}
}

// A dashboard tab left open on a world deleted meanwhile stops reading it, and says so: its
// poll read the clock, which makes a world, so the deleted world came back within two seconds
// (and, under --max-worlds, pushed out a worker's).
func TestDashboardOfADeletedWorldDoesNotMakeItAgain(t *testing.T) {
	ctx := newBrowser(t)
	m := newMock(t, mockserver.Config{})
	m.ctl(http.MethodPost, "/__worlds/dash/__mock/reset", nil).wantStatus(t, 200)
	if err := chromedp.Do(ctx, chromedp.Navigate(m.url+"/__worlds/dash/__mock/"), chromedp.WaitVisible(chromedp.CSS("#clock-now"))); err != nil {
		t.Fatalf("load the dashboard: %v", err)
	}
	m.ctl(http.MethodDelete, "/__mock/worlds?name=dash", nil).wantStatus(t, 200)
	waitText(ctx, t, "#status", func(s string) bool { return strings.Contains(s, "stopped reading it") }, "status once the world is deleted")
	time.Sleep(5 * time.Second) // two more polls' worth
	if raw := string(m.ctl(http.MethodGet, "/__mock/worlds", nil).wantStatus(t, 200).raw); strings.Contains(raw, `"name":"dash"`) {
		t.Errorf("the open tab made the deleted world again: %s", raw)
	}
}
