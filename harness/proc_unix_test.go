//go:build unix

package harness

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func init() { testModes["setsid-child"] = setsidChild }

// setsidChild starts a program that leaves the adapter's process group
// (as a daemon does) with the adapter's standard output and error, writes
// its pid to $TOOLNORM_TEST_PIDFILE, and serves.
func setsidChild() int {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "TOOLNORM_TEST_ADAPTER=silent")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return 1
	}
	if err := os.WriteFile(os.Getenv("TOOLNORM_TEST_PIDFILE"), []byte(strconv.Itoa(cmd.Process.Pid)), 0o600); err != nil {
		return 1
	}
	return testAdapter("good")
}

// TestChildLeavesProcessGroup stops an adapter whose child left its
// process group holding standard error: the adapter's run must be over
// when the kill returns (Wait does not wait for the child's end of the
// pipe), not given up on after the kill's wait.
func TestChildLeavesProcessGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	a, err := Start(Config{Command: "TOOLNORM_TEST_PIDFILE=" + strconv.Quote(pidFile) + " " + adapterCommand("setsid-child")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	for _, r := range a.RunBatch(context.Background(), cases(3, -1)) {
		if !r.Answered() {
			t.Fatalf("not answered: %+v", r)
		}
	}
	p := a.proc
	p.kill()
	select {
	case <-p.exited:
	default:
		t.Fatal("kill returned while Wait still waits for the standard error of a program outside the process group")
	}
	if _, err := os.Stat(pidFile); err != nil {
		t.Fatalf("the child did not start: %v", err)
	}
}
