// Package inventory lists the sessions of a Claude Code data root and says where each went: what /resume lists, what cleanup deletes, what points nowhere.
package inventory

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Report is the whole inventory of one data root (the JSON of ccvet sessions).
type Report struct {
	SchemaVersion int       `json:"schema_version"`
	Root          string    `json:"root"`
	Now           string    `json:"now"`
	Cleanup       Cleanup   `json:"cleanup"`
	Sessions      []Session `json:"sessions"`
	Lost          []Lost    `json:"lost"`
	Problems      []Problem `json:"problems"`
	// Backups are projects.bak-* folders that hold transcripts (named when
	// projects/ holds none).
	Backups []Backup `json:"backups"`
	Summary Summary  `json:"summary"`
}

// SchemaVersion is the version of the JSON shape of ccvet sessions
// (docs/schema/sessions.json); it grows only when a key changes meaning or
// goes away. It is report.SchemaVersion (a test checks they agree).
const SchemaVersion = 1

// Backup is a folder beside projects/ that holds transcripts.
type Backup struct {
	Path        string `json:"path"` // relative to the root
	Transcripts int    `json:"transcripts"`
}

// Cleanup says which retention period the next cleanup applies.
type Cleanup struct {
	PeriodDays int    `json:"period_days"`      // 0 when cleanup is off (Enabled false)
	Source     string `json:"source"`           // "default" or "settings.json"
	Enabled    bool   `json:"enabled"`          // false when settings.json makes Claude Code skip it
	Note       string `json:"note,omitempty"`   // why it is off, or what was assumed
	Cutoff     string `json:"cutoff,omitempty"` // files last modified before this are deleted
	// LastRun is when Claude Code last ran its cleanup (.last-cleanup), "" if unknown.
	LastRun string `json:"last_run,omitempty"`
	// Forecast counts the transcripts that fall out: due now, and within 7
	// and 30 days (all 0 when cleanup is off).
	Forecast Forecast `json:"forecast"`
}

// Forecast counts transcripts by when cleanup deletes them.
type Forecast struct {
	DueNow   int `json:"due_now"`
	Within7  int `json:"within_7_days"`  // due now or within 7 days
	Within30 int `json:"within_30_days"` // due now or within 30 days
}

// Session is one main transcript, projects/<folder>/<id>.jsonl.
type Session struct {
	SessionID     string   `json:"session_id"`
	Project       string   `json:"project"` // the project folder name
	Path          string   `json:"path"`    // relative to the root, with '/'
	Cwd           string   `json:"cwd"`     // the first cwd recorded, "" if none
	FirstPrompt   string   `json:"first_prompt"`
	LastActivity  string   `json:"last_activity"` // latest entry timestamp, else the file's mtime (RFC 3339, UTC)
	Modified      string   `json:"modified"`      // the file's mtime (what cleanup looks at)
	Size          int64    `json:"size"`          // bytes of the main transcript
	Subagents     int      `json:"subagents"`     // subagent transcripts of this session
	SubagentBytes int64    `json:"subagent_bytes"`
	Versions      []string `json:"versions"` // Claude Code versions that wrote it, sorted
	Entries       int      `json:"entries"`  // lines that parse as JSON objects
	BadLines      int      `json:"bad_lines"`
	Picker        Picker   `json:"picker"`
	CleanupDue    bool     `json:"cleanup_due"`

	mtime time.Time
	last  time.Time
}

// Picker is what the /resume picker does with a session.
type Picker struct {
	Listed bool     `json:"listed"` // listed by the newest reader modelled (2.1.330)
	Label  string   `json:"label"`  // the text the picker shows for it
	Hidden []Reason `json:"hidden"` // why a picker leaves it out (by version)
	Notes  []Reason `json:"notes"`  // listed, but not as the user may expect
}

// Reason is one cause, with the Claude Code versions it was established for.
type Reason struct {
	Code     string   `json:"code"`
	Versions []string `json:"versions"`
	Detail   string   `json:"detail"`
}

// Problem is a store-level finding.
type Problem struct {
	Kind      string   `json:"kind"`
	Path      string   `json:"path"` // relative to the root
	SessionID string   `json:"session_id,omitempty"`
	Message   string   `json:"message"`
	Pid       int      `json:"pid,omitempty"`
	PidLive   *bool    `json:"pid_live,omitempty"`
	Prompts   int      `json:"prompts,omitempty"`
	Paths     []string `json:"paths,omitempty"`   // cwd paths involved
	Folders   []string `json:"folders,omitempty"` // project folders involved
	Sessions  []string `json:"sessions,omitempty"`
}

// Summary counts what the report holds.
type Summary struct {
	Sessions   int `json:"sessions"`
	Listed     int `json:"listed"`
	Hidden     int `json:"hidden"`
	CleanupDue int `json:"cleanup_due"`
	Lost       int `json:"lost"`
	Problems   int `json:"problems"`
}

// Problem kinds.
const (
	KindPidNoTranscript     = "pid-file-without-transcript"
	KindHistoryNoTranscript = "history-without-transcript"
	KindSharedFolder        = "paths-share-folder"
	KindSplitPath           = "path-in-several-folders"
	KindOldEncoding         = "folder-of-other-encoding"
	KindCleanupDue          = "cleanup-due"
	KindHiddenFromPicker    = "hidden-from-picker"
	KindUnreadable          = "unreadable"
	KindFolderNoTranscript  = "session-folder-without-transcript"
)

// Options tune Build.
type Options struct {
	Now time.Time // the time cleanup is judged at (zero: time.Now())
	// PidLive reports whether a process id is running (nil: signal 0).
	PidLive func(pid int) bool
}

// Build reads the data root and returns its inventory. It never writes.
func Build(root string, o Options) (*Report, error) {
	s, err := newStore(root, o)
	if err != nil {
		return nil, err
	}
	if err := s.walkProjects(); err != nil {
		return nil, err
	}
	s.cleanup()
	s.folders()
	s.pidFiles()
	s.history()
	s.traces()
	s.finishLost()
	s.backups()
	s.finish()
	return s.rep, nil
}

func newStore(root string, o Options) (*store, error) {
	st, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder (ccvet sessions wants a Claude Code data root)", root)
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	if o.PidLive == nil {
		o.PidLive = pidLive
	}
	r := &Report{SchemaVersion: SchemaVersion, Root: root, Now: stamp(o.Now), Sessions: []Session{}, Lost: []Lost{},
		Problems: []Problem{}, Backups: []Backup{}}
	r.Cleanup = readCleanup(root, o.Now)
	if at, ok := lastCleanup(root); ok {
		r.Cleanup.LastRun = stamp(at)
	}
	return &store{root: root, opts: o, rep: r, byID: map[string][]int{}, unread: map[string]bool{},
		lostByID: map[string]*Lost{}, forkedFrom: map[string][]string{}}, nil
}

// store is the state of one Build.
type store struct {
	root string
	opts Options
	rep  *Report
	byID map[string][]int // session id → indexes in rep.Sessions
	// unread: sessions whose transcript is in a project folder but was not
	// read (a symbolic link, not a regular file, an open that failed):
	// present, so not lost.
	unread map[string]bool
	// unreadFolders: project folders (or projects/ itself) not read, a
	// link or a folder that could not be listed: a session with no
	// transcript may have it there.
	unreadFolders []string
	lostByID      map[string]*Lost // sessions without transcript, by the traces that name them
	forkedFrom    map[string][]string
	only          string // Find: the one session looked at
}

func (s *store) rel(p string) string {
	if r, err := filepath.Rel(s.root, p); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(p)
}

func (s *store) problem(p Problem) { s.rep.Problems = append(s.rep.Problems, p) }

// finish fills the summary and sorts everything into a stable order.
func (s *store) finish() {
	r := s.rep
	for i := range r.Sessions {
		ss := &r.Sessions[i]
		if ss.Picker.Listed {
			r.Summary.Listed++
		} else {
			r.Summary.Hidden++
			s.problem(Problem{Kind: KindHiddenFromPicker, Path: ss.Path, SessionID: ss.SessionID,
				Message: "the /resume picker does not list this session: " + codes(ss.Picker.Hidden)})
		}
		if ss.CleanupDue {
			r.Summary.CleanupDue++
		}
	}
	r.Summary.Sessions = len(r.Sessions)
	SortSessions(r.Sessions, "project")
	sort.SliceStable(r.Problems, func(i, j int) bool {
		a, b := r.Problems[i], r.Problems[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.SessionID < b.SessionID
	})
	r.Summary.Problems = len(r.Problems)
}

func codes(rs []Reason) string {
	var c []string
	for _, r := range rs {
		if contains(r.Versions, Newest) {
			c = append(c, r.Code)
		}
	}
	return strings.Join(c, ", ")
}

// SortSessions orders sessions by key: "project" (folder, then newest
// activity first), "activity" (newest first), "size" (largest first).
// Ties fall back to the path, so the order is total.
func SortSessions(ss []Session, key string) {
	sort.SliceStable(ss, func(i, j int) bool {
		a, b := &ss[i], &ss[j]
		switch key {
		case "activity":
			if !a.last.Equal(b.last) {
				return a.last.After(b.last)
			}
		case "size":
			if a.Size+a.SubagentBytes != b.Size+b.SubagentBytes {
				return a.Size+a.SubagentBytes > b.Size+b.SubagentBytes
			}
		default:
			if a.Project != b.Project {
				return a.Project < b.Project
			}
			if !a.last.Equal(b.last) {
				return a.last.After(b.last)
			}
		}
		return a.Path < b.Path
	})
}

// ValidSort reports whether key is a sort key SortSessions knows.
func ValidSort(key string) bool { return key == "project" || key == "activity" || key == "size" }

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Filter keeps the sessions whose project folder or cwd contains text, and
// the problems about them (or naming a path or folder that contains it),
// and counts the summary again.
func (r *Report) Filter(text string) {
	if text == "" {
		return
	}
	keep := map[string]bool{}
	var ss []Session
	for _, s := range r.Sessions {
		if strings.Contains(s.Project, text) || strings.Contains(s.Cwd, text) {
			ss = append(ss, s)
			keep[s.SessionID] = true
		}
	}
	var ps []Problem
	for _, p := range r.Problems {
		match := keep[p.SessionID] || strings.Contains(p.Path, text)
		for _, x := range append(append(append([]string{}, p.Paths...), p.Folders...), p.Sessions...) {
			match = match || strings.Contains(x, text) || keep[x]
		}
		if match {
			ps = append(ps, p)
		}
	}
	var ls []Lost
	for _, l := range r.Lost {
		if strings.Contains(l.Project, text) || strings.Contains(l.Cwd, text) {
			ls = append(ls, l)
		}
	}
	if ls == nil {
		ls = []Lost{}
	}
	r.Sessions, r.Problems, r.Lost = nonNil(ss), nonNilP(ps), ls
	r.recount()
}

// FilterFolder keeps the sessions of one project folder (and the lost
// sessions and problems about it), for ccvet sessions ROOT/projects/FOLDER.
func (r *Report) FilterFolder(folder string) {
	keep := map[string]bool{}
	var ss []Session
	for _, s := range r.Sessions {
		if s.Project == folder {
			ss = append(ss, s)
			keep[s.SessionID] = true
		}
	}
	var ls []Lost
	for _, l := range r.Lost {
		if l.Project == folder {
			ls = append(ls, l)
			keep[l.SessionID] = true
		}
	}
	var ps []Problem
	for _, p := range r.Problems {
		match := keep[p.SessionID] || strings.HasPrefix(p.Path, "projects/"+folder+"/") || p.Path == "projects/"+folder || contains(p.Folders, folder)
		if match {
			ps = append(ps, p)
		}
	}
	if ls == nil {
		ls = []Lost{}
	}
	r.Sessions, r.Problems, r.Lost = nonNil(ss), nonNilP(ps), ls
	r.recount()
}

func (r *Report) recount() {
	r.Summary = Summary{Sessions: len(r.Sessions), Problems: len(r.Problems), Lost: len(r.Lost)}
	for _, s := range r.Sessions {
		if s.Picker.Listed {
			r.Summary.Listed++
		} else {
			r.Summary.Hidden++
		}
		if s.CleanupDue {
			r.Summary.CleanupDue++
		}
	}
}

func nonNil(s []Session) []Session {
	if s == nil {
		return []Session{}
	}
	return s
}

func nonNilP(p []Problem) []Problem {
	if p == nil {
		return []Problem{}
	}
	return p
}
