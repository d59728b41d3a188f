//go:build unix

package config

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// Trusted says why a configuration file found by walking up from the
// current folder must not be applied, or nil: it must be a regular file,
// not writable by everyone, and owned by the user running ccvet (or root).
func Trusted(st fs.FileInfo) error {
	if !st.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	if st.Mode().Perm()&0o002 != 0 {
		return errors.New("anyone may write it")
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() && sys.Uid != 0 {
		return errors.New("another user owns it")
	}
	return nil
}
