package mockserver

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opsapi/mocktoolkit/internal/redact"
)

// BenchmarkJournalWorstCaseRSS builds cmd/mockserver (its own GC settings, gc.go), fills 64
// named worlds and the default one with 200 unauthenticated requests each to an unknown path,
// every one carrying a 16 KiB body and 7 KiB of headers (what the journal keeps at most), and
// reports the resident memory a second later (RSS-MB) against the goal of 150 MB (D143).
// One iteration takes seconds: run it with -benchtime=1x.
func BenchmarkJournalWorstCaseRSS(b *testing.B) {
	bin := buildBinary(b)
	var rss float64
	for range b.N {
		rss = fillWorlds(b, bin) / 1024
	}
	b.ReportMetric(rss, "RSS-MB")
	checkTarget(b, rss < 150, "64 full worlds of worst-case journal entries: %.1f MB resident (want < 150)", rss)
}

// fillWorlds starts bin, fills its worlds' journals and returns its VmRSS in kB.
func fillWorlds(b *testing.B, bin string) float64 {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	base, cmd, stop := serveBinary(ctx, b, bin, []string{"GOGC="}, "--rate-limit", "1000000") // GOGC=: the binary's own setting
	defer stop()
	body := strings.Repeat("x", maxJournalBody)
	pad := strings.Repeat("h", redact.MaxHeaderValue-16)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for w := g; w <= 64; w += 8 {
				prefix := fmt.Sprintf("/__worlds/w%d", w)
				if w == 64 {
					prefix = ""
				} else if res, err := client.Post(base+prefix+"/__mock/reset", "application/json", nil); err != nil || res.StatusCode != http.StatusOK {
					b.Errorf("make the world %s: %v %v", prefix, err, res) // a request to an unknown path makes no world
					return
				} else {
					res.Body.Close()
				}
				for i := range DefaultJournalSize {
					req, _ := http.NewRequest(http.MethodPost, base+prefix+fmt.Sprintf("/nope/%d", i), strings.NewReader(body))
					for h := range 7 {
						req.Header.Set(fmt.Sprintf("X-Pad-%d", h), pad)
					}
					res, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					res.Body.Close()
				}
			}
		}()
	}
	wg.Wait()
	time.Sleep(time.Second)
	return procStatus(b, cmd.Process.Pid, "VmRSS:")
}
