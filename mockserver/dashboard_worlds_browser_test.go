package mockserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/opsapi/mocktoolkit/mockserver"
)

// The dashboard as a frontend developer uses it, in headless Chromium: open a world of one's
// own from the root URL, log in as the member (the token is copied), try an operation with its
// example body, force the next answer, filter the coloured journal and copy an entry as curl
// and as fetch. It writes a screenshot for review to build/dashboard.png.
func TestDashboardForFrontendDevelopers(t *testing.T) {
	ctx := newBrowser(t)
	m := newMock(t, mockserver.Config{})
	if err := chromedp.Do(ctx, chromedp.Navigate(m.url+"/"), chromedp.WaitVisible(chromedp.CSS("#world-new"))); err != nil {
		t.Fatalf("open the root URL: %v", err)
	}
	err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS("#world-new"), "ui-dev"),
		chromedp.Click(chromedp.CSS("#world-go")),
		chromedp.WaitVisible(chromedp.CSS("#login-member")),
	)
	if err != nil {
		t.Fatal(err)
	}
	waitText(ctx, t, "#world-name", func(s string) bool { return s == "ui-dev" }, "world")
	waitText(ctx, t, "#world-select", func(s string) bool {
		return strings.Contains(s, "ui-dev") && strings.Contains(s, "default") && strings.Contains(s, " MiB of 256")
	}, "world list")

	t.Run("log in as member copies a token", func(t *testing.T) {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#login-member"))); err != nil {
			t.Fatal(err)
		}
		waitText(ctx, t, "#status", func(s string) bool { return strings.Contains(s, "token") }, "status after login")
		tok, _ := chromedp.Run(ctx, chromedp.Value(chromedp.CSS("#token-out")))
		copied, _ := chromedp.Run(ctx, chromedp.Value(chromedp.CSS("#copy-out")))
		if len(tok) != 64 || copied != tok {
			t.Errorf("token %q, copied %q", tok, copied)
		}
	})

	t.Run("try-it sends the example body with the token", func(t *testing.T) {
		err := chromedp.Do(ctx,
			chromedp.Click(chromedp.CSS("#op-tagsList summary")),
			chromedp.Click(chromedp.CSS("#try-tagsList")),
		)
		if err != nil {
			t.Fatal(err)
		}
		waitText(ctx, t, "#try-out-tagsList", func(s string) bool { return strings.HasPrefix(s, "200") && strings.Contains(s, `"tags"`) }, "try-it answer")
	})

	t.Run("forcing the next answer", func(t *testing.T) {
		err := chromedp.Do(ctx,
			chromedp.SetValue(chromedp.CSS("#force-operation"), "tagsList"),
			chromedp.SetValue(chromedp.CSS("#force-status"), "500"),
			chromedp.Click(chromedp.CSS("#force-go")),
		)
		if err != nil {
			t.Fatal(err)
		}
		waitText(ctx, t, "#status", func(s string) bool { return strings.Contains(s, "answers 500") }, "status after forcing")
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#try-tagsList"))); err != nil {
			t.Fatal(err)
		}
		waitText(ctx, t, "#try-out-tagsList", func(s string) bool { return strings.HasPrefix(s, "500") }, "forced answer")
	})

	t.Run("the journal is coloured, filtered and copied", func(t *testing.T) {
		// The journal is polled: wait until the forced 500 has come in, not just any row.
		var red, green int
		var err error
		for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline) && red == 0; time.Sleep(100 * time.Millisecond) {
			red, err = chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#journal tr.s5").length`))
		}
		green, _ = chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#journal tr.s2").length`))
		if err != nil || red == 0 || green == 0 {
			t.Fatalf("rows: %d red, %d green, %v", red, green, err)
		}
		if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#journal-status"), "5xx")); err != nil {
			t.Fatal(err)
		}
		waitText(ctx, t, "#journal tbody", func(s string) bool { return !strings.Contains(s, "authenticate") && strings.Contains(s, "500") }, "journal filtered to 5xx")
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#journal tbody button.copy-curl"))); err != nil {
			t.Fatal(err)
		}
		copied, _ := chromedp.Run(ctx, chromedp.Value(chromedp.CSS("#copy-out")))
		if !strings.HasPrefix(copied, "curl -s -X POST '"+m.url+"/__worlds/ui-dev/services/operations/v1/operations/tags/list'") || !strings.Contains(copied, "Authorization: Bearer ") {
			t.Errorf("copy as curl: %q", copied)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#journal tbody button.copy-fetch"))); err != nil {
			t.Fatal(err)
		}
		copied, _ = chromedp.Run(ctx, chromedp.Value(chromedp.CSS("#copy-out")))
		if !strings.HasPrefix(copied, `await fetch("`+m.url+"/__worlds/ui-dev/") {
			t.Errorf("copy as fetch: %q", copied)
		}
		// A method is any HTTP token, and the journal keeps what was sent: X&id& must not become
		// shell syntax in the copied command, nor a body starting with @ a file curl uploads.
		copied, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`(function(){mockDashboard.copyAs("curl", {method: "X&id&", path: "/v1/authenticate", request: {headers: {}, body: "@it's"}}); return document.getElementById("copy-out").value})()`))
		if !strings.HasPrefix(copied, "curl -s -X 'X&id&' '") || !strings.HasSuffix(copied, ` --data-raw '@it'\''s'`) {
			t.Errorf("copy as curl of a hostile method: %q", copied)
		}
		// With no token logged in, the command leaves $TOKEN for the shell: in double quotes.
		copied, _ = chromedp.Run(ctx, chromedp.Evaluate[string](`(function(){var t=document.getElementById("token-out"), was=t.value; t.value=""; mockDashboard.copyAs("curl", {method: "POST", path: "/v1/tags/list", request: {headers: {"Authorization": "Bearer [redacted]"}, body: "{}"}}); t.value=was; return document.getElementById("copy-out").value})()`))
		if !strings.Contains(copied, ` -H "Authorization: Bearer $TOKEN" `) {
			t.Errorf("copy as curl without a token: %q", copied)
		}
		_, _ = chromedp.Run(ctx, chromedp.Evaluate[bool](`(function(){var i=document.getElementById("journal-status"); i.value=""; i.dispatchEvent(new Event("input")); return true})()`))
	})

	t.Run("the default world saw none of it", func(t *testing.T) {
		if n := len(m.ctl("GET", "/__mock/requests", nil).list(t, "requests")); n != 0 {
			t.Errorf("the default world's journal has %d entries: %s", n, m.ctl("GET", "/__mock/requests", nil).raw)
		}
	})
	screenshot(ctx, t, "dashboard.png")
}

// screenshot writes the page to t.TempDir and a copy to build/ at the module root, for review.
func screenshot(ctx context.Context, t *testing.T, name string) {
	t.Helper()
	_ = chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900))
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Errorf("screenshot: %v", err)
		return
	}
	tmp := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(tmp, png, 0o644); err != nil {
		t.Error(err)
	}
	if err := os.MkdirAll("../build", 0o755); err == nil {
		if err := os.WriteFile(filepath.Join("..", "build", name), png, 0o644); err == nil {
			t.Logf("screenshot: build/%s", name)
		}
	}
}
