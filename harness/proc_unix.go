//go:build unix

package harness

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the adapter in a process group of its own, so that
// killing it also kills what sh -c started.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
