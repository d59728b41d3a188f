package layout

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/ccvet/ccvet/internal/readonly"
)

// scope is what the paths given on the command line name once their links
// are resolved: a link met inside the walk is followed only into it.
type scope struct {
	dirs  []string // real paths of folder arguments
	files map[string]bool
}

func newScope(args []string) (*scope, error) {
	sc := &scope{files: map[string]bool{}}
	for _, arg := range args {
		if arg == "-" {
			continue
		}
		abs, err := filepath.Abs(arg)
		if err != nil {
			return nil, err
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			continue // reported when the argument is looked at
		}
		if isDir(real) {
			sc.dirs = append(sc.dirs, real)
		} else {
			sc.files[real] = true
		}
	}
	return sc, nil
}

// contains reports whether the real path p is a file argument or lies in a
// folder argument.
func (sc *scope) contains(p string) bool {
	if sc.files[p] {
		return true
	}
	for _, d := range sc.dirs {
		if Within(p, d) {
			return true
		}
	}
	return false
}

// Within reports whether the path p is dir or lies below it (both clean
// and absolute).
func Within(p, dir string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}

// Reasons a link met inside the walk is not followed.
var (
	errLinkDir     = errors.New("a symbolic link to a folder; not followed")
	errLinkOutside = errors.New("a symbolic link to a file outside the paths given; not followed")
	errLinkDangles = errors.New("a dangling symbolic link (its target does not exist); not followed")
	errLinkLoop    = errors.New("a symbolic link loop; not followed")
	errLinkOther   = errors.New("a symbolic link to something other than a regular file; not followed")
)

// followable decides whether the link p, met inside the walk, is followed:
// only to a regular file inside the scope. It returns the target's
// information, or why the link is left alone. The target's path is never
// part of the reason: nothing about what lies outside the paths given
// reaches a report.
func followable(p string, sc *scope) (fs.FileInfo, error) {
	st, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errLinkDangles
	case errors.Is(err, syscall.ELOOP):
		return nil, errLinkLoop
	case err != nil:
		return nil, errors.New("a symbolic link that cannot be resolved (" + unwrapPathErr(err).Error() + "); not followed")
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil, errLinkLoop
	}
	if !sc.contains(real) {
		if st.IsDir() {
			return nil, errLinkDir
		}
		return nil, errLinkOutside
	}
	switch {
	case st.IsDir():
		return nil, errLinkDir
	case !st.Mode().IsRegular():
		return nil, errLinkOther
	}
	return st, nil
}

// readable reports whether the file at p can be opened for reading; the
// open never blocks (a FIFO) and reads nothing.
func readable(p string) error {
	f, _, err := readonly.Open(p, true)
	if err != nil {
		return err
	}
	return f.Close()
}

// listable reports whether the folder dir can be listed.
func listable(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.ReadDir(1); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// isLink reports whether p itself is a symbolic link.
func isLink(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.Mode()&fs.ModeSymlink != 0
}
