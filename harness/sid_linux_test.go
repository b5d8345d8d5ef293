package harness

import "syscall"

// sessionID is the session id of this process.
func sessionID() (int, bool) {
	sid, _, errno := syscall.RawSyscall(syscall.SYS_GETSID, 0, 0, 0)
	return int(sid), errno == 0
}
