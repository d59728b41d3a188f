package inventory

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ccvet/ccvet/internal/layout"
)

// Lost is one session whose transcript is gone while something on disk
// still names it: what survives of it, counted once however many traces
// name it.
type Lost struct {
	SessionID string `json:"session_id"`
	Project   string `json:"project"`   // the project folder, "" when no trace names one
	Cwd       string `json:"cwd"`       // the directory it ran in, "" when unknown
	LastSeen  string `json:"last_seen"` // the newest time among its traces (RFC 3339, UTC)
	// Cause is why the transcript is gone, when the traces tell: cleanup,
	// pid-file, folder-left, fork or unknown (docs/sessions.md).
	Cause       string   `json:"cause"`
	CauseDetail string   `json:"cause_detail"`
	Prompts     int      `json:"prompts"`              // history.jsonl lines
	Pasted      int      `json:"pasted"`               // pasted contents of those prompts
	FileVersion int      `json:"file_versions"`        // file-history/<id>/ backups
	Subagents   int      `json:"subagent_transcripts"` // agent-*.jsonl naming it
	ToolResults int      `json:"tool_results"`         // files under <id>/tool-results/
	Todos       int      `json:"todos"`                // todos/<id>-agent-*.json holding at least one item
	Traces      []string `json:"traces"`               // which kinds of traces name it
	Forks       []string `json:"forks"`                // sessions whose entries say they were forked from it

	last        time.Time
	pid         bool
	folders     []string // projects/<folder>/<id>/ folders
	flatAgents  []string // 2.0.28-2.1.1 projects/<folder>/agent-*.jsonl of this session
	fileHistory string   // file-history/<id>/
	todoFiles   []string
	sessionEnv  string
}

// Trace kinds (Lost.Traces).
const (
	TraceHistory     = "history"
	TraceFileHistory = "file-history"
	TraceFolder      = "session-folder"
	TraceFlatAgent   = "subagent-transcript"
	TraceTodos       = "todos"
	TraceSessionEnv  = "session-env"
	TracePidFile     = "pid-file"
	TraceFork        = "fork"
)

// Causes (Lost.Cause).
const (
	CauseCleanup    = "cleanup"
	CausePidFile    = "pid-file"
	CauseFolderLeft = "folder-left"
	CauseFork       = "fork"
	CauseNotRead    = "not-read"
	CauseUnknown    = "unknown"
)

// lost returns the entry of a session without transcript, made on first use.
func (s *store) lost(id string) *Lost {
	if l := s.lostByID[id]; l != nil {
		return l
	}
	l := &Lost{SessionID: id, Traces: []string{}, Forks: []string{}}
	s.lostByID[id] = l
	return l
}

func (l *Lost) seen(t time.Time, trace string) {
	if t.After(l.last) {
		l.last = t
	}
	if !contains(l.Traces, trace) {
		l.Traces = append(l.Traces, trace)
	}
}

// wanted reports whether a session id is one this build looks at.
func (s *store) wanted(id string) bool { return s.only == "" || id == s.only }

// orphanFolder records a projects/<folder>/<id>/ folder whose transcript is
// not beside it: its subagent transcripts and tool results.
func (s *store) orphanFolder(folder, dir, id string) {
	if !s.wanted(id) {
		return
	}
	l := s.lost(id)
	l.folders = append(l.folders, dir)
	if l.Project == "" {
		l.Project = folder
	}
	before := l.Subagents + l.ToolResults
	defer func() {
		// A folder's own mtime only when it holds nothing counted.
		if st, err := os.Lstat(dir); err == nil && l.Subagents+l.ToolResults == before {
			l.seen(st.ModTime(), TraceFolder)
		}
	}()
	_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() {
			return nil // WalkDir does not follow links
		}
		rel, _ := filepath.Rel(dir, p)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		info, ierr := e.Info()
		switch {
		case parts[0] == "subagents" && strings.HasPrefix(e.Name(), "agent-") && strings.HasSuffix(e.Name(), ".jsonl"):
			l.Subagents++
		case parts[0] == "tool-results":
			l.ToolResults++
		default:
			return nil
		}
		if ierr == nil {
			l.seen(info.ModTime(), TraceFolder)
		}
		if l.Cwd == "" && parts[0] == "subagents" {
			l.Cwd = firstCwd(p)
		}
		return nil
	})
}

// traces reads what lies outside projects/: file-history/<id>/,
// todos/<id>-agent-*.json and session-env/<id>/, for sessions that have
// no transcript.
func (s *store) traces() {
	gone := func(id string) bool { return layout.IsUUID(id) && !s.present(id) && s.wanted(id) }
	if ents, err := readDirNoLink(filepath.Join(s.root, "file-history")); err == nil {
		for _, e := range ents {
			if !e.IsDir() || !gone(e.Name()) {
				continue
			}
			dir := filepath.Join(s.root, "file-history", e.Name())
			files, err := os.ReadDir(dir)
			if err != nil {
				continue
			}
			l := s.lost(e.Name())
			l.fileHistory = dir
			for _, f := range files {
				if info, err := f.Info(); err == nil && f.Type().IsRegular() {
					l.FileVersion++
					l.seen(info.ModTime(), TraceFileHistory)
				}
			}
			if l.FileVersion == 0 {
				if info, err := e.Info(); err == nil {
					l.seen(info.ModTime(), TraceFileHistory)
				}
			}
		}
	}
	if ents, err := readDirNoLink(filepath.Join(s.root, "todos")); err == nil {
		for _, e := range ents {
			name := e.Name()
			if !e.Type().IsRegular() || !strings.HasSuffix(name, ".json") || len(name) < 36 || !gone(name[:36]) ||
				!strings.HasPrefix(name[36:], "-agent-") {
				continue
			}
			p := filepath.Join(s.root, "todos", name)
			b, err := readSmall(p, 16<<20)
			if err != nil {
				continue
			}
			l := s.lost(name[:36])
			l.todoFiles = append(l.todoFiles, p)
			var items []json.RawMessage
			if json.Unmarshal(b, &items) == nil && len(items) > 0 {
				l.Todos++
			}
			if info, err := e.Info(); err == nil {
				l.seen(info.ModTime(), TraceTodos)
			}
		}
	}
	if ents, err := readDirNoLink(filepath.Join(s.root, "session-env")); err == nil {
		for _, e := range ents {
			if !e.IsDir() || !gone(e.Name()) {
				continue
			}
			l := s.lost(e.Name())
			l.sessionEnv = filepath.Join(s.root, "session-env", e.Name())
			files, _ := os.ReadDir(l.sessionEnv)
			n := 0
			for _, f := range files {
				if info, err := f.Info(); err == nil && f.Type().IsRegular() {
					l.seen(info.ModTime(), TraceSessionEnv)
					n++
				}
			}
			if info, err := e.Info(); err == nil && n == 0 {
				l.seen(info.ModTime(), TraceSessionEnv)
			}
		}
	}
}

// readDirNoLink lists a folder that is not a symbolic link.
func readDirNoLink(dir string) ([]os.DirEntry, error) {
	st, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	return os.ReadDir(dir)
}

// lastCleanup is when Claude Code last ran its cleanup: the time written
// in .last-cleanup (an ISO time), else the file's mtime.
func lastCleanup(root string) (time.Time, bool) {
	p := filepath.Join(root, ".last-cleanup")
	b, err := readSmall(p, 4096)
	if err != nil {
		return time.Time{}, false
	}
	if t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b))); err == nil {
		return t, true
	}
	if st, err := os.Lstat(p); err == nil {
		return st.ModTime(), true
	}
	return time.Time{}, false
}

// finishLost fills in cause and times, drops the sessions a transcript was
// found for after all, and sorts.
func (s *store) finishLost() {
	c := s.rep.Cleanup
	at, ran := lastCleanup(s.root)
	period := days(c.PeriodDays) // saturated: 200000 days overflow a Duration
	var out []Lost
	for id, l := range s.lostByID {
		if s.present(id) || len(l.Traces) == 0 {
			continue
		}
		if l.Prompts+l.FileVersion+l.Subagents+l.ToolResults+l.Todos == 0 && !l.pid && len(s.forkedFrom[id]) == 0 {
			continue // only an empty todo list, a session-env/ or an empty folder: nothing of it survives
		}
		l.Forks = append(l.Forks, s.forkedFrom[id]...)
		sort.Strings(l.Forks)
		if len(l.Forks) > 0 {
			l.Traces = append(l.Traces, TraceFork)
		}
		sort.Strings(l.Traces)
		l.LastSeen = stamp(l.last)
		switch {
		case c.Enabled && ran && !l.last.IsZero() && l.last.Before(at.Add(-period)):
			l.Cause = CauseCleanup
			l.CauseDetail = fmt.Sprintf("its newest trace (%s) is older than the cutoff of the last cleanup (.last-cleanup %s, cleanupPeriodDays %d)",
				l.LastSeen, stamp(at), c.PeriodDays)
		case c.Enabled && !ran && !l.last.IsZero() && l.last.Before(s.opts.Now.Add(-period)):
			l.Cause = CauseCleanup
			l.CauseDetail = fmt.Sprintf("its newest trace (%s) is older than cleanupPeriodDays %d (no .last-cleanup says when cleanup last ran)",
				l.LastSeen, c.PeriodDays)
		case l.pid:
			l.Cause = CausePidFile
			l.CauseDetail = "a sessions/<pid>.json of a process no longer running names it: the transcript was never written (a crash before the first message) or was removed (anthropics/claude-code#93132)"
		case len(l.folders) > 0:
			l.Cause = CauseFolderLeft
			l.CauseDetail = "its projects/<folder>/<id>/ folder (subagents, tool results) is still there: cleanup removes both together, so something else removed the transcript"
		case len(l.Forks) > 0:
			l.Cause = CauseFork
			l.CauseDetail = "session " + l.Forks[0] + " was forked or resumed from it and holds a copy of its conversation"
		case len(s.unreadFolders) > 0:
			l.Cause = CauseNotRead
			l.CauseDetail = "its transcript may be in " + notReadList(s.unreadFolders) + ", which ccvet did not read (a symbolic link is not followed; a folder it cannot list is reported beside)"
		default:
			l.Cause = CauseUnknown
			l.CauseDetail = "deleted, moved, or never written (a crash before the first message, or --no-session-persistence)"
		}
		out = append(out, *l)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].last.Equal(out[j].last) {
			return out[i].last.After(out[j].last)
		}
		return out[i].SessionID < out[j].SessionID
	})
	if out == nil {
		out = []Lost{}
	}
	s.rep.Lost = out
	s.rep.Summary.Lost = len(out)
}

// notReadList names the folders not read: the first three, then how many
// more.
func notReadList(folders []string) string {
	out := strings.Join(folders[:min(3, len(folders))], ", ")
	if n := len(folders) - 3; n > 0 {
		out += fmt.Sprintf(" (and %d more folders)", n)
	}
	return out
}

// firstCwd is the first cwd recorded in the first lines of a transcript.
func firstCwd(p string) string {
	var cwd string
	eachLine(p, 50, func(b []byte) bool {
		var m struct {
			Cwd string `json:"cwd"`
		}
		if json.Unmarshal(b, &m) == nil && m.Cwd != "" {
			cwd = m.Cwd
			return false
		}
		return true
	})
	return cwd
}

// Find is the Lost entry of one session (nil when its transcript exists
// or nothing names it), read without scanning every transcript: forks are
// not looked for.
func Find(root, id string, o Options) (*Lost, error) {
	if m, _ := filepath.Glob(filepath.Join(root, "projects", "*", id+".jsonl")); len(m) > 0 {
		return nil, nil
	}
	s, err := newStore(root, o)
	if err != nil {
		return nil, err
	}
	s.only = id
	if err := s.walkProjects(); err != nil {
		return nil, err
	}
	s.pidFiles()
	s.history()
	s.traces()
	s.finishLost()
	for i := range s.rep.Lost {
		if s.rep.Lost[i].SessionID == id {
			l := s.lostByID[id]
			cp := s.rep.Lost[i]
			cp.folders, cp.flatAgents, cp.fileHistory, cp.todoFiles, cp.sessionEnv = l.folders, l.flatAgents, l.fileHistory, l.todoFiles, l.sessionEnv
			return &cp, nil
		}
	}
	return nil, nil
}

// backups lists the folders beside projects/ named projects.bak* (as users
// and some tools leave them) that hold transcripts.
func (s *store) backups() {
	ents, err := os.ReadDir(s.root)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "projects.bak") && !strings.HasPrefix(e.Name(), "projects-bak") {
			continue
		}
		n := 0 // read by name, not as a pattern: "projects.bak[1]" is a folder name
		folders, _ := os.ReadDir(filepath.Join(s.root, e.Name()))
		for _, f := range folders {
			if !f.IsDir() {
				continue
			}
			files, _ := os.ReadDir(filepath.Join(s.root, e.Name(), f.Name()))
			for _, t := range files {
				if !t.IsDir() && strings.HasSuffix(t.Name(), ".jsonl") && !strings.HasPrefix(t.Name(), "agent-") {
					n++
				}
			}
		}
		if n > 0 {
			s.rep.Backups = append(s.rep.Backups, Backup{Path: e.Name(), Transcripts: n})
		}
	}
}
