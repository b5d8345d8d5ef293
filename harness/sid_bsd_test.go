//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package harness

import "syscall"

// sessionID is the session id of this process.
func sessionID() (int, bool) {
	sid, err := syscall.Getsid(0)
	return sid, err == nil
}
