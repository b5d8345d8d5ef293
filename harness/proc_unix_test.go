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
	"time"
)

func init() {
	testModes["setsid-child"] = setsidChild
	testModes["session"] = session
}

// session answers start naming whether the adapter leads a session of
// its own (and so has no controlling terminal), then serves.
func session() int {
	name := "in toolnorm's session"
	if sid, ok := sessionID(); !ok {
		name = "session unknown"
	} else if sid == os.Getpid() {
		name = "own session"
	}
	if err := Serve(os.Stdin, os.Stdout, os.Stderr, misbehaving{"good"}, Info{Name: name}, Declares{}); err != nil {
		return 1
	}
	return 0
}

// TestAdapterOwnSession: an adapter leads a session of its own, with no
// controlling terminal: it cannot open /dev/tty to write to the terminal
// (an adapter in a process group of its own only, as it was, could), and
// the whole process group, a program it started in the background
// included, is still killed when it is stopped.
func TestAdapterOwnSession(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	a, err := Start(Config{Command: "sleep 3600 & echo $! > " + strconv.Quote(pidFile) + "; " + adapterCommand("session")})
	if err != nil {
		t.Fatal(err)
	}
	switch a.Info().Name {
	case "session unknown":
		t.Skip("no way to read the session id here")
	case "own session":
	default:
		t.Errorf("the adapter runs %s", a.Info().Name)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	// Killed, the child may be a zombie a moment, until init reaps it.
	returns(t, "the end of the adapter's child", func() {
		for syscall.Kill(pid, 0) == nil {
			time.Sleep(10 * time.Millisecond)
		}
	})
}

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
