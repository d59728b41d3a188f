package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
)

// writers reports whether some process holds the file id open for
// writing, from /proc/*/fd and fdinfo, leaving out this process's own
// descriptor own; known is false when /proc cannot tell (not mounted).
func writers(id fileID, own uintptr) (open, known bool) {
	selfPid := strconv.Itoa(os.Getpid())
	ownFd := strconv.FormatUint(uint64(own), 10)
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return false, false
	}
	self := false
	for _, p := range procs {
		if _, err := strconv.Atoi(p.Name()); err != nil {
			continue
		}
		dir := filepath.Join("/proc", p.Name(), "fd")
		fds, err := os.ReadDir(dir)
		if err != nil {
			continue // another user's process, or gone: Claude Code runs as the user who runs ccvet
		}
		if p.Name() == selfPid {
			self = true
		}
		for _, fd := range fds {
			if p.Name() == selfPid && fd.Name() == ownFd {
				continue
			}
			st, err := os.Stat(filepath.Join(dir, fd.Name()))
			if err != nil {
				continue
			}
			if got, ok := idOf(st); !ok || got != id {
				continue
			}
			info, err := os.ReadFile(filepath.Join("/proc", p.Name(), "fdinfo", fd.Name()))
			if err != nil {
				return true, true // cannot tell how: taken as a writer
			}
			if writeFlags(info) {
				return true, true
			}
		}
	}
	return false, self
}

// writeFlags reports whether an fdinfo's flags (octal) open for writing.
func writeFlags(info []byte) bool {
	for _, l := range bytes.Split(info, []byte{'\n'}) {
		if v, ok := bytes.CutPrefix(l, []byte("flags:")); ok {
			n, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 8, 64)
			return err != nil || n&3 != 0 // O_WRONLY or O_RDWR
		}
	}
	return true
}
