//go:build unix

package harness

import (
	"os/exec"
	"syscall"
)

// newSession starts the adapter in a session of its own (setsid), and so
// in a process group of its own: killing the group also kills what sh -c
// started, and the adapter has no controlling terminal, so it cannot open
// /dev/tty to write to the terminal or read from it, and the terminal's
// signals (Ctrl-C, a hang-up) reach toolnorm alone, which stops it.
func newSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
