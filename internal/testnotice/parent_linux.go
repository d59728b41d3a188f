package testnotice

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// toGoCommand writes msg on the go command's standard error (the parent
// process, when it is go), unless that is a regular file written without
// O_APPEND.
func toGoCommand(msg string) {
	ppid := os.Getppid()
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", ppid))
	if err != nil || strings.TrimSpace(string(comm)) != "go" {
		return
	}
	fd := fmt.Sprintf("/proc/%d/fd/2", ppid)
	st, err := os.Stat(fd)
	if err != nil {
		return
	}
	if st.Mode().IsRegular() && !appending(fmt.Sprintf("/proc/%d/fdinfo/2", ppid)) {
		return // go writes there at its own offset: the line would be overwritten
	}
	f, err := os.OpenFile(fd, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return
	}
	fmt.Fprintln(f, msg)
	_ = f.Close()
}

// appending reports whether the descriptor described by the fdinfo file was
// opened with O_APPEND.
func appending(fdinfo string) bool {
	data, err := os.ReadFile(fdinfo)
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "flags:"); ok {
			flags, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64)
			return err == nil && flags&syscall.O_APPEND != 0
		}
	}
	return false
}
