// Package atomicfile writes a file so that a reader sees either the old
// content or the new, never a part: a temporary file in the same folder,
// synced, then renamed (or linked) into place.
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Write replaces path with data.
func Write(path string, data []byte, perm os.FileMode) error {
	tmp, err := temp(path, data, perm)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// WriteNew creates path with data; it fails with an error that satisfies
// errors.Is(err, fs.ErrExist) when path exists, even if another process
// creates it meanwhile (a hard link never replaces a file). Where links are
// not supported it checks, then renames.
func WriteNew(path string, data []byte, perm os.FileMode) error {
	if _, err := os.Lstat(path); err == nil {
		return &fs.PathError{Op: "create", Path: path, Err: fs.ErrExist}
	}
	tmp, err := temp(path, data, perm)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	err = os.Link(tmp, path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	if _, serr := os.Lstat(path); serr == nil {
		return &fs.PathError{Op: "create", Path: path, Err: fs.ErrExist}
	}
	return os.Rename(tmp, path)
}

func temp(path string, data []byte, perm os.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return "", err
	}
	name := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// Pending is a file being written: its bytes go to a temporary file beside
// the target, which Commit renames into place. Until then the target keeps
// its old content, whatever happens to the writer.
type Pending struct {
	*os.File
	target string
	perm   os.FileMode
	done   bool
}

// pending are the temporary files of the Pendings not yet committed or
// aborted, for RemovePending.
var pending sync.Map // name → struct{}

// Create starts writing path; it fails at once when a temporary file cannot
// be made beside it.
func Create(path string, perm os.FileMode) (*Pending, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, err
	}
	pending.Store(f.Name(), struct{}{})
	return &Pending{File: f, target: path, perm: perm}, nil
}

// RemovePending removes the temporary files of every Pending not yet
// committed or aborted: for a program interrupted by a signal, so that it
// leaves no temporary file behind (the targets keep their old content).
func RemovePending() {
	pending.Range(func(name, _ any) bool {
		os.Remove(name.(string))
		return true
	})
}

// Commit syncs the temporary file and renames it over the target.
func (p *Pending) Commit() error {
	if p.done {
		return errors.New("atomicfile: already committed or aborted")
	}
	p.done = true
	name := p.Name()
	defer pending.Delete(name)
	err := p.Chmod(p.perm)
	if err == nil {
		err = p.Sync()
	}
	if cerr := p.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, p.target)
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}

// Abort drops the temporary file; the target is left as it was. It does
// nothing after Commit.
func (p *Pending) Abort() {
	if p.done {
		return
	}
	p.done = true
	p.Close()
	os.Remove(p.Name())
	pending.Delete(p.Name())
}
