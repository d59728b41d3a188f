//go:build !unix

package store

import "os"

// processAlive cannot ask the system here: a pid file is taken as live,
// so a run refuses rather than risk writing under a running session.
func processAlive(pid int) bool { return true }

// inode is unknown here.
func inode(os.FileInfo) uint64 { return 0 }

type fileID struct{ dev, ino uint64 }

func idOf(os.FileInfo) (fileID, bool) { return fileID{}, false }

// tryLock has no advisory lock here: a temp file left behind is never
// taken for a dead run's.
func tryLock(*os.File) bool { return false }

func keepOwner(f *os.File, st os.FileInfo) error { return f.Chmod(st.Mode().Perm()) }
