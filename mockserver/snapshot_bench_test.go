package mockserver

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

// BenchmarkSnapshotPutPeakRSS builds cmd/mockserver, starts it on the busy scenario, and PUTs
// a snapshot of that world with its cards and comments copied forty times (about 90 MB),
// reporting the process's peak resident memory against the body's size (goal: under 8 times
// it). Read into a tree of values three times over, a 157 MB snapshot peaked at 2 GB.
// One iteration takes seconds: run it with -benchtime=1x.
func BenchmarkSnapshotPutPeakRSS(b *testing.B) {
	bin := buildBinary(b)
	var peak, size float64
	for range b.N {
		peak, size = putLargeSnapshot(b, bin)
	}
	b.ReportMetric(peak, "peak-RSS-MB")
	b.ReportMetric(size, "body-MB")
	checkTarget(b, peak < 8*size, "PUT /__mock/state of %.0f MB: %.0f MB peak resident (want < %.0f)", size, peak, 8*size)
}

// putLargeSnapshot starts bin, PUTs a large snapshot and returns its peak RSS and the body's
// size, in MB.
func putLargeSnapshot(b *testing.B, bin string) (peak, size float64) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	base, cmd, stop := serveBinary(ctx, b, bin, []string{"GOGC="}, "--scenario", "busy", "--max-state-mb", "4096") // GOGC=: the binary's own setting
	defer stop()
	body := largeSnapshot(b, base, 40)
	req, _ := http.NewRequest(http.MethodPut, base+"/__mock/state", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b.Fatalf("PUT /__mock/state: %d", res.StatusCode)
	}
	peak = procStatus(b, cmd.Process.Pid, "VmHWM:") / 1024
	return peak, float64(len(body)) / (1 << 20)
}

// largeSnapshot is the world at base's snapshot with its cards and comments copied times
// times more under new ids.
func largeSnapshot(b *testing.B, base string, times int) []byte {
	res, err := http.Get(base + "/__mock/state")
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var st map[string]any
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		b.Fatal(err)
	}
	for _, coll := range []string{"cards", "comments"} {
		recs, _ := st[coll].([]any)
		top := 0.0
		for _, r := range recs {
			top = max(top, r.(map[string]any)["id"].(float64))
		}
		for k := 1; k <= times; k++ {
			for _, r := range recs {
				c := map[string]any{}
				for f, v := range r.(map[string]any) {
					c[f] = v
				}
				c["id"] = c["id"].(float64) + float64(k)*(top+1)
				st[coll] = append(st[coll].([]any), c)
			}
		}
	}
	out, err := json.Marshal(st)
	if err != nil {
		b.Fatal(err)
	}
	return out
}
