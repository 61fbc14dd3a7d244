package mockserver

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Helpers of the benchmarks that measure the built binary from outside, as a user runs it.

// buildBinary builds cmd/mockserver statically into a temporary folder and returns its path.
func buildBinary(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "mockserver")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "../cmd/mockserver")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// serveBinary starts bin with args on a free loopback port and the environment env added, and
// returns its base URL and process; the process is killed when ctx ends or stop is called.
func serveBinary(ctx context.Context, b *testing.B, bin string, env []string, args ...string) (base string, cmd *exec.Cmd, stop func()) {
	b.Helper()
	cmd = exec.CommandContext(ctx, bin, append([]string{"--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	stop = func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	line, err := bufio.NewReader(out).ReadString('\n') // "mockserver listening on http://ADDR ..."
	if err != nil {
		stop()
		b.Fatalf("read the address: %v", err)
	}
	return strings.Fields(line[strings.Index(line, "http://"):])[0], cmd, stop
}

// procStatus reads one kB figure (VmRSS:, VmHWM:) from /proc/<pid>/status.
func procStatus(b *testing.B, pid int, field string) float64 {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		b.Fatalf("read status: %v", err)
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == field {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb
		}
	}
	return 0
}
