package mockserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"sync"
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
	putSnapshot(b, base, body)
	peak = procStatus(b, cmd.Process.Pid, "VmHWM:") / 1024
	return peak, float64(len(body)) / (1 << 20)
}

// putSnapshot loads body as the world at base (PUT /__mock/state), which must answer 200.
func putSnapshot(b *testing.B, base string, body []byte) {
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

// BenchmarkSnapshotGetConcurrentPeakRSS starts cmd/mockserver, loads a world of about 90 MB
// of snapshot (as BenchmarkSnapshotPutPeakRSS does), then sends six GET /__mock/state at once
// and reports how far the process's peak resident memory grew past what it held before them
// (goal: under one snapshot; the heap the load left may absorb part of it). Built in one
// doubling buffer, and while the answer before was still written, six of an 83 MB world added
// 128 to 178 MB. One iteration takes seconds: run it with -benchtime=1x.
func BenchmarkSnapshotGetConcurrentPeakRSS(b *testing.B) {
	bin := buildBinary(b)
	var grew, size float64
	for range b.N {
		grew, size = getSnapshotsAtOnce(b, bin, 6)
	}
	b.ReportMetric(grew, "RSS-growth-MB")
	b.ReportMetric(size, "snapshot-MB")
	checkTarget(b, grew < size, "%d GET /__mock/state of %.0f MB at once: resident memory grew %.0f MB (want < %.0f)", 6, size, grew, size)
}

// getSnapshotsAtOnce starts bin with a large world, reads its snapshot n times at once, and
// returns how far the peak resident memory grew past what it was before the reads, and the
// snapshot's size, in MB.
func getSnapshotsAtOnce(b *testing.B, bin string, n int) (grew, size float64) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	base, cmd, stop := serveBinary(ctx, b, bin, []string{"GOGC="}, "--scenario", "busy", "--max-state-mb", "4096")
	defer stop()
	body := largeSnapshot(b, base, 40)
	putSnapshot(b, base, body)
	body = nil
	runtime.GC()
	time.Sleep(6 * time.Second) // the load's garbage is collected and the peak reset below counts only the reads
	if err := os.WriteFile("/proc/"+strconv.Itoa(cmd.Process.Pid)+"/clear_refs", []byte("5"), 0); err != nil {
		b.Fatal(err)
	}
	before := procStatus(b, cmd.Process.Pid, "VmRSS:") / 1024
	var wg sync.WaitGroup
	sizes := make([]int64, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := http.Get(base + "/__mock/state")
			if err != nil {
				b.Error(err)
				return
			}
			defer res.Body.Close()
			if res.StatusCode != http.StatusOK {
				b.Errorf("GET /__mock/state: %d", res.StatusCode)
			}
			sizes[i], _ = io.Copy(io.Discard, res.Body)
		}()
	}
	wg.Wait()
	peak := procStatus(b, cmd.Process.Pid, "VmHWM:") / 1024
	return peak - before, float64(sizes[0]) / (1 << 20)
}
