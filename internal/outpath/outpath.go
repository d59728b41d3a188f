// Package outpath decides whether ccvet may write at a path: never over a file it checks, never inside a data root it checks.
package outpath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ccvet/ccvet/internal/layout"
)

// Resolve is the path a write at p would reach: p made absolute, with its
// links resolved (the folder's, when p does not exist yet).
func Resolve(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

// Check refuses an output path (a report, a baseline, a backup folder)
// that is, or resolves to, a file of found (by identity: links and hard
// links included), or that lies inside one of the Claude Code data roots
// found checks. Its one-line error names p as given.
func Check(p string, found *layout.Result) error {
	real := Resolve(p)
	if st, err := os.Stat(real); err == nil {
		for _, f := range found.Files {
			if f.Stdin {
				continue
			}
			if fs, err := os.Stat(f.OSPath); err == nil && os.SameFile(st, fs) {
				what := "a file this run checks"
				if filepath.ToSlash(p) != f.Path {
					what += " (" + f.Path + ")"
				}
				return fmt.Errorf("%s is %s; ccvet never writes over what it checks", p, what)
			}
		}
	}
	for _, root := range dataRoots(found) {
		if layout.Within(real, root) {
			return fmt.Errorf("%s lies inside %s, a Claude Code data folder this run checks; write it elsewhere", p, root)
		}
	}
	return nil
}

// dataRoots are the data roots (or projects folders, when no root is
// known) of a run, links resolved.
func dataRoots(found *layout.Result) []string {
	seen := map[string]bool{}
	var out []string
	add := func(d string) {
		if d == "" {
			return
		}
		d = Resolve(d)
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, r := range found.Roots {
		if r.Dir != "" {
			add(r.Dir)
		} else {
			add(r.Projects)
		}
	}
	for _, f := range found.Files {
		add(f.Root)
	}
	return out
}

// Writable checks, before a run, that a file can be written at p: its
// folder exists, and a file already there is not a folder and may be
// opened for writing by this user (a read-only file is refused, even where
// the folder would let a rename replace it). Nothing is written.
func Writable(p string) error {
	st, err := os.Stat(p)
	switch {
	case err == nil && st.IsDir():
		return fmt.Errorf("%s is a folder", p)
	case err == nil && !st.Mode().IsRegular():
		return nil // a FIFO, /dev/stdout, /dev/null: written in place
	case err == nil && st.Mode().Perm()&0o200 == 0:
		return fmt.Errorf("%s is read-only", p) // even for root, who may open it
	case err == nil:
		f, err := os.OpenFile(p, os.O_WRONLY|oNonblock, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", p, unwrap(err))
		}
		return f.Close()
	case errors.Is(err, fs.ErrNotExist):
		dir := filepath.Dir(p)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("%s: no such folder %s", p, dir)
		}
		return nil
	}
	return fmt.Errorf("%s: %w", p, unwrap(err))
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
