package store

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// DataRoot is the Claude data root a file lies in, found from the file's
// place whatever path named it: the folder holding the projects/ folder
// the file is below, or the folder holding projects/ that the file sits in
// directly (history.jsonl), or whose todos/, file-history/ or paste-cache/
// folder holds it (what redact also writes). "" when the file is in no data
// root.
func DataRoot(path string) string {
	real := Real(path)
	dir := filepath.Dir(real)
	if isDir(filepath.Join(dir, "projects")) {
		return dir
	}
	for d := dir; ; {
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		if filepath.Base(d) == "projects" && isDir(d) {
			return parent
		}
		if dataFolders[filepath.Base(d)] && isDir(filepath.Join(parent, "projects")) {
			return parent
		}
		d = parent
	}
}

// dataFolders are the folders of a data root, beside projects/, that hold
// files ccvet may write (redact's copies of a secret).
var dataFolders = map[string]bool{"todos": true, "file-history": true, "paste-cache": true}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// SessionOf is the session a file of data root root belongs to, from its
// place: projects/<enc>/<session>.jsonl, or a file under
// projects/<enc>/<session>/ (subagents, tool results). "" for a file of no
// one session (history.jsonl: every session writes it).
func SessionOf(root, path string) string {
	rel, err := filepath.Rel(filepath.Join(root, "projects"), Real(path))
	if err != nil || !filepath.IsLocal(rel) {
		return ""
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	switch {
	case len(parts) == 2:
		return strings.TrimSuffix(parts[1], ".jsonl")
	case len(parts) > 2:
		return parts[1]
	}
	return ""
}

// maxPidFile bounds what is read of one sessions/<pid>.json.
const maxPidFile = 64 << 10

// livePid is a live process whose sessions/<pid>.json names session (any
// session when session is ""), with the pid file's name; 0 when none.
func livePid(root, session string) (int, string) {
	dir := filepath.Join(root, "sessions")
	ents, _ := os.ReadDir(dir)
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".json") && e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, name := range names {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(io.LimitReader(f, maxPidFile))
		f.Close()
		var v struct {
			PID       int    `json:"pid"`
			SessionID string `json:"sessionId"`
		}
		_ = json.Unmarshal(b, &v)
		pid := v.PID
		if pid == 0 {
			pid, _ = strconv.Atoi(strings.TrimSuffix(name, ".json"))
		}
		if pid <= 0 || session != "" && v.SessionID != session {
			continue
		}
		if processAlive(pid) {
			return pid, name
		}
	}
	return 0, ""
}

// Gate refuses to write the file at path when its session looks live: a
// sessions/<pid>.json of its data root (found from the file's place) names
// its session with a live pid (for a file of no one session, any live
// session), or the file changed within LiveWindow (Force overrides this
// check, and ownWrite skips it when the file is exactly as this package's
// own write left it). A read-only file is refused unless Force.
func (s *Store) Gate(path string, st os.FileInfo, ownWrite bool) error {
	if root := DataRoot(path); root != "" {
		session := SessionOf(root, path)
		if pid, name := livePid(root, session); pid > 0 {
			if session == "" {
				return refusef("%s: a Claude Code session is live (process %d, %s); every session writes this file: quit them first", path, pid,
					filepath.Join(root, "sessions", name))
			}
			return refusef("%s: its session %s is live (process %d, %s); quit it first (--force does not override this)", path, session, pid,
				filepath.Join(root, "sessions", name))
		}
	}
	if !s.Force && !ownWrite && s.now().Sub(st.ModTime()) < LiveWindow {
		return refusef("%s changed less than %s ago (%s); its session may be live (--force overrides this check)", path, LiveWindow,
			st.ModTime().UTC().Format(time.RFC3339))
	}
	if !s.Force && st.Mode().Perm()&0o222 == 0 {
		return refusef("%s is read-only (mode %04o); --force writes it anyway, keeping its mode", path, st.Mode().Perm())
	}
	return nil
}
