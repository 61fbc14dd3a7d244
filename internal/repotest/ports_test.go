package repotest

import (
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// make test ends with the README's container commands, which serve a mock on 4010. When the
// README's own dev mock already holds 4010, the run picks the next free port instead of failing
// at its very end; a port asked for with README_CONTAINER_PORT that is taken fails at once.
func TestReadmeContainerPortPicksAFreeOne(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	if l, err := net.Listen("tcp", "127.0.0.1:4010"); err == nil { // else 4010 is taken already
		defer l.Close()
	}
	script := filepath.Join(root(t), "conformance", "testdata", "readme-container.sh")
	out, err := exec.Command("bash", script, "--print-port").CombinedOutput()
	if err != nil {
		t.Fatalf("readme-container.sh --print-port: %v\n%s", err, out)
	}
	port := strings.TrimSpace(string(out))
	if port == "4010" {
		t.Fatalf("with 4010 taken the README's container run would use it")
	}
	if l, err := net.Listen("tcp", "127.0.0.1:"+port); err != nil {
		t.Errorf("the port picked, %s, is not free: %v", port, err)
	} else {
		l.Close()
	}

	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	_, taken, _ := net.SplitHostPort(held.Addr().String())
	cmd := exec.Command("bash", script)
	cmd.Env = append(cmd.Environ(), "README_CONTAINER_PORT="+taken)
	out, err = cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "port "+taken+" (README_CONTAINER_PORT) is taken") {
		t.Errorf("a taken README_CONTAINER_PORT did not fail up front: %v\n%s", err, out)
	}
}
