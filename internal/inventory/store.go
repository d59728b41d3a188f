package inventory

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ccvet/ccvet/internal/jsonl"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/pathenc"
	"github.com/ccvet/ccvet/internal/readonly"
)

// DefaultCleanupDays is Claude Code's retention period without a setting.
const DefaultCleanupDays = 30

// readCleanup reads cleanupPeriodDays from root/settings.json. Claude Code
// deletes transcripts whose mtime is older than that many days when it
// starts; with an invalid value (not a positive integer) its settings fail
// validation and it skips the cleanup.
func readCleanup(root string, now time.Time) Cleanup {
	c := Cleanup{PeriodDays: DefaultCleanupDays, Source: "default", Enabled: true}
	b, err := readSmall(filepath.Join(root, "settings.json"), 16<<20)
	switch {
	case os.IsNotExist(err):
	case err != nil:
		c.Note = "settings.json cannot be read (" + err.Error() + "): assumed the default"
		if st, lerr := os.Lstat(filepath.Join(root, "settings.json")); lerr == nil && st.Mode()&os.ModeSymlink != 0 {
			c.Note = "settings.json is a symbolic link, which ccvet does not follow: assumed the default"
		}
	default:
		var m map[string]json.RawMessage
		if json.Unmarshal(b, &m) != nil {
			c.Note = "settings.json does not parse: assumed the default"
			break
		}
		raw, ok := m["cleanupPeriodDays"]
		if !ok {
			break
		}
		c.Source = "settings.json"
		f, err := strconv.ParseFloat(string(raw), 64)
		// Up to the largest integer a JavaScript number holds exactly: a
		// huge period is how users keep transcripts forever, and valid.
		if err != nil || f < 1 || f != math.Trunc(f) || f > 1<<53-1 {
			c.Enabled, c.PeriodDays = false, 0
			c.Note = "cleanupPeriodDays " + string(raw) + " is not a positive whole number: Claude Code's settings fail validation and it skips the cleanup"
			break
		}
		c.PeriodDays = int(f)
		if c.PeriodDays >= 36500 {
			c.Note = fmt.Sprintf("cleanupPeriodDays %d keeps transcripts for a century or more: in effect cleanup deletes nothing", c.PeriodDays)
		}
	}
	if c.Enabled {
		c.Cutoff = stamp(now.Add(-days(c.PeriodDays)))
	}
	return c
}

// days is n days as a duration, saturated (a period of 300 years is longer
// than a time.Duration holds).
func days(n int) time.Duration {
	if n > 100000 {
		return math.MaxInt64
	}
	return time.Duration(n) * 24 * time.Hour
}

// cleanup marks the transcripts the next cleanup deletes.
func (s *store) cleanup() {
	c := &s.rep.Cleanup
	if !c.Enabled {
		return
	}
	cut := s.opts.Now.Add(-days(c.PeriodDays))
	for i := range s.rep.Sessions {
		ss := &s.rep.Sessions[i]
		if ss.mtime.Before(cut.Add(30 * 24 * time.Hour)) {
			c.Forecast.Within30++
		}
		if ss.mtime.Before(cut.Add(7 * 24 * time.Hour)) {
			c.Forecast.Within7++
		}
		if !ss.mtime.Before(cut) {
			continue
		}
		c.Forecast.DueNow++
		ss.CleanupDue = true
		age := int(s.opts.Now.Sub(ss.mtime).Hours() / 24)
		s.problem(Problem{Kind: KindCleanupDue, Path: ss.Path, SessionID: ss.SessionID,
			Message: fmt.Sprintf("last written %s (%d days ago), older than cleanupPeriodDays %d (%s): the next start of Claude Code deletes it, with its %s/ folder (subagents, tool results)",
				ss.Modified, age, c.PeriodDays, c.Source, ss.SessionID)})
	}
}

// folders finds paths sharing a project folder, paths spread over several
// folders, and sessions in a folder of another encoding of their path.
func (s *store) folders() {
	byFolder := map[string]map[string][]int{} // folder → path key → sessions
	byPath := map[string]map[string][]int{}   // path key → folder → sessions
	spelled := map[string]string{}            // path key → first spelling seen
	for i := range s.rep.Sessions {
		ss := &s.rep.Sessions[i]
		if ss.Cwd == "" || !pathenc.Matches(ss.Cwd, ss.Project) {
			continue // no cwd, an override, or a session that moved (lint's project-dir rule)
		}
		k := pathenc.Key(ss.Cwd)
		if _, ok := spelled[k]; !ok {
			spelled[k] = ss.Cwd
		}
		add(byFolder, ss.Project, k, i)
		add(byPath, k, ss.Project, i)
		if cur := pathenc.Encode(ss.Cwd); cur != ss.Project && !driveCaseOnly(ss.Cwd, cur, ss.Project) {
			exact := ss.Project == pathenc.EncodeUncapped(pathenc.Key(ss.Cwd)) || ss.Project == pathenc.EncodeUncapped(ss.Cwd)
			msg := "the project folder is another encoding of " + quote(ss.Cwd) + " than the one Claude Code writes now (" + cur + "): /resume run in that directory "
			if exact {
				msg += "reads " + cur + " and does not list this session (checked with 2.1.110 and 2.1.330 for a long path's uncapped folder)"
			} else {
				msg += "may not list this session (another hash suffix of a long path or Unicode normalization: not checked)"
			}
			s.problem(Problem{Kind: KindOldEncoding, Path: ss.Path, SessionID: ss.SessionID, Message: msg,
				Paths: []string{ss.Cwd}, Folders: []string{ss.Project, cur}})
		}
	}
	for _, folder := range sortedKeys(byFolder) {
		paths := byFolder[folder]
		if len(paths) < 2 {
			continue
		}
		var shown, ids []string
		for _, k := range sortedKeys(paths) {
			shown = append(shown, spelled[k])
			for _, i := range paths[k] {
				ids = append(ids, s.rep.Sessions[i].SessionID)
			}
		}
		sort.Strings(ids)
		s.problem(Problem{Kind: KindSharedFolder, Path: "projects/" + folder, Paths: shown, Folders: []string{folder}, Sessions: ids,
			Message: fmt.Sprintf("%d different directories encode to this one project folder (%s): /resume of 2.1.330 run in one of them hides the sessions recorded in the others; 2.1.110 mixes them in one list",
				len(paths), strings.Join(quoteAll(shown), ", "))})
		// Each session's note names a few of the other directories, not
		// all of them: a folder shared by thousands would print the
		// whole list once a session.
		all := slices.Clone(shown)
		sort.Strings(all)
		// All of them when that is at most one more than five.
		limit := maxNamedOthers
		if len(paths)-1 <= maxNamedOthers+1 {
			limit = len(paths) - 1
		}
		for k, idx := range paths {
			var others []string
			for _, o := range all {
				if len(others) == limit {
					break
				}
				if o != spelled[k] {
					others = append(others, o)
				}
			}
			named := strings.Join(quoteAll(others), ", ")
			if more := len(paths) - 1 - len(others); more > 0 {
				named += fmt.Sprintf(" or %d other directories of the same project folder (the %s problem lists them all)",
					more, KindSharedFolder)
			} else {
				named += " (same project folder)"
			}
			for _, i := range idx {
				ss := &s.rep.Sessions[i]
				ss.Picker.Notes = append(ss.Picker.Notes, Reason{Code: NoteSharedFolder, Versions: newest,
					Detail: "listed only when /resume runs in " + quote(ss.Cwd) + ", not in " + named})
			}
		}
	}
	for _, k := range sortedKeys(byPath) {
		folders := byPath[k]
		if len(folders) < 2 {
			continue
		}
		var ids []string
		for _, idx := range folders {
			for _, i := range idx {
				ids = append(ids, s.rep.Sessions[i].SessionID)
			}
		}
		sort.Strings(ids)
		fs := sortedKeys(folders)
		s.problem(Problem{Kind: KindSplitPath, Path: "projects", Paths: []string{spelled[k]}, Folders: fs, Sessions: ids,
			Message: fmt.Sprintf("the sessions of %s sit in %d project folders (%s), written by versions that encode the path differently: /resume run there lists only the folder of the current encoding, %s",
				quote(spelled[k]), len(fs), strings.Join(fs, ", "), pathenc.Encode(spelled[k]))})
	}
}

// maxNamedOthers is how many of the other directories sharing its folder
// a session's note names.
const maxNamedOthers = 5

func add(m map[string]map[string][]int, a, b string, i int) {
	if m[a] == nil {
		m[a] = map[string][]int{}
	}
	m[a][b] = append(m[a][b], i)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func quoteAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = quote(x)
	}
	return out
}

// pidFiles checks sessions/<pid>.json: each names a running (or once
// running) session; its transcript should exist.
func (s *store) pidFiles() {
	dir := filepath.Join(s.root, "sessions")
	st, err := os.Lstat(dir)
	if err != nil {
		return // absent
	}
	if !st.IsDir() {
		s.problem(Problem{Kind: KindUnreadable, Path: "sessions", Message: "not a folder (a symbolic link is not followed): no pid file read"})
		return
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		s.problem(Problem{Kind: KindUnreadable, Path: "sessions", Message: "cannot read the folder of pid files: " + err.Error()})
		return
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		if !e.Type().IsRegular() {
			if e.Type()&os.ModeSymlink != 0 {
				s.problem(Problem{Kind: KindUnreadable, Path: s.rel(filepath.Join(dir, e.Name())), Message: "a symbolic link: not followed"})
			}
			continue
		}
		p := filepath.Join(dir, e.Name())
		b, err := readSmall(p, 1<<20)
		if err != nil {
			s.problem(Problem{Kind: KindUnreadable, Path: s.rel(p), Message: err.Error()})
			continue
		}
		var v struct {
			Pid       json.Number `json:"pid"`
			SessionID string      `json:"sessionId"`
			Cwd       string      `json:"cwd"`
		}
		d := json.NewDecoder(strings.NewReader(string(b)))
		d.UseNumber()
		if d.Decode(&v) != nil || v.SessionID == "" {
			s.problem(Problem{Kind: KindUnreadable, Path: s.rel(p), Message: "not a session pid file (no sessionId)"})
			continue
		}
		if s.present(v.SessionID) || !s.wanted(v.SessionID) {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSuffix(e.Name(), ".json"))
		if pid >= math.MaxInt32 {
			pid = 0 // not a process id: kill(2) would take 4294967297 for 1, 4294967295 for -1
		}
		if n, err := v.Pid.Int64(); err == nil && n > 0 && n < math.MaxInt32 {
			pid = int(n)
		}
		live := pid > 0 && s.opts.PidLive(pid)
		if !live && layout.IsUUID(v.SessionID) {
			l := s.lost(v.SessionID)
			l.pid = true
			if l.Cwd == "" {
				l.Cwd = v.Cwd
			}
			if l.Project == "" && v.Cwd != "" {
				l.Project = pathenc.Encode(v.Cwd)
			}
			if info, err := e.Info(); err == nil {
				l.seen(info.ModTime(), TracePidFile)
			}
		}
		where := "projects/" + pathenc.Encode(v.Cwd) + "/" + v.SessionID + ".jsonl"
		if v.Cwd == "" {
			where = v.SessionID + ".jsonl"
		}
		msg := "names session " + v.SessionID + " but no project folder holds its transcript (expected " + where + "): "
		if live {
			msg += "process " + strconv.Itoa(pid) + " is running; a session writes its transcript with its first message, so this is normal until then"
		} else {
			msg += "process " + strconv.Itoa(pid) + " is not running here: the transcript was never written or has been removed (anthropics/claude-code#93132)"
		}
		s.problem(Problem{Kind: KindPidNoTranscript, Path: s.rel(p), SessionID: v.SessionID, Pid: pid, PidLive: &live,
			Paths: nonEmpty(v.Cwd), Message: msg})
	}
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// readSmall reads a small regular file, without following a link.
func readSmall(p string, limit int64) ([]byte, error) {
	f, st, err := readonly.Open(p, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, more than ccvet reads of such a file", filepath.Base(p), st.Size())
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// history finds prompts in history.jsonl whose session has no transcript.
func (s *store) history() {
	p := filepath.Join(s.root, "history.jsonl")
	f, err := readonly.OpenHandle(p, false) // up to the size at open
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		s.problem(Problem{Kind: KindUnreadable, Path: "history.jsonl", Message: "not read: " + err.Error()})
		return
	}
	defer f.Close()
	type lost struct {
		prompts     int
		first, last int64
		project     string
		display     string
	}
	missing := map[string]*lost{}
	jr := jsonl.NewReader(f)
	defer jr.Release()
	for {
		l, err := jr.Next()
		if err != nil {
			break
		}
		if l.Cut {
			continue
		}
		var h struct {
			Display   string          `json:"display"`
			Timestamp json.RawMessage `json:"timestamp"`
			Project   string          `json:"project"`
			SessionID string          `json:"sessionId"`
			// PastedContents: the pastes of the prompt, by id.
			PastedContents map[string]json.RawMessage `json:"pastedContents"`
		}
		if json.Unmarshal(l.Bytes, &h) != nil || h.SessionID == "" || s.present(h.SessionID) || !s.wanted(h.SessionID) {
			continue
		}
		ts, _ := strconv.ParseFloat(string(h.Timestamp), 64)
		if layout.IsUUID(h.SessionID) {
			ls := s.lost(h.SessionID)
			ls.Prompts++
			ls.Pasted += len(h.PastedContents)
			if h.Project != "" {
				ls.Cwd = h.Project
				ls.Project = pathenc.Encode(h.Project)
			}
			var at time.Time // a prompt without a time dates nothing
			if ts > 0 {
				at = time.UnixMilli(int64(ts))
			}
			ls.seen(at, TraceHistory)
		}
		m := missing[h.SessionID]
		if m == nil {
			m = &lost{first: int64(ts), project: h.Project, display: h.Display}
			missing[h.SessionID] = m
		}
		m.prompts++
		if int64(ts) > m.last {
			m.last = int64(ts)
		}
	}
	c := s.rep.Cleanup
	for _, sid := range sortedKeys(missing) {
		m := missing[sid]
		last := time.UnixMilli(m.last)
		msg := fmt.Sprintf("%d prompt(s) of session %s (in %s, last %s, first %s) have no transcript in any project folder: ",
			m.prompts, sid, quote(m.project), stamp(last), quote(Clip(strings.ReplaceAll(masked(m.display), "\n", " "), 80)))
		switch {
		case c.Enabled && m.last > 0 && last.Before(s.opts.Now.Add(-days(c.PeriodDays))):
			msg += fmt.Sprintf("older than cleanupPeriodDays %d, so most likely deleted by cleanup", c.PeriodDays)
		default:
			msg += "deleted, moved, or never written (a crash before the first message, or --no-session-persistence)"
		}
		s.problem(Problem{Kind: KindHistoryNoTranscript, Path: "history.jsonl", SessionID: sid, Prompts: m.prompts,
			Paths: nonEmpty(m.project), Message: msg})
	}
}

// driveCaseOnly reports whether folder differs from cur, the folder Claude
// Code writes now for cwd, only in the case of a Windows drive letter
// ("d:\\x" recorded, folder "D--x"): not a listing problem. NTFS is
// case-insensitive and Claude Code itself writes both spellings into one
// folder, so /resume in that directory lists the session.
func driveCaseOnly(cwd, cur, folder string) bool {
	return len(cwd) >= 2 && cwd[1] == ':' && len(cur) == len(folder) && len(cur) > 0 &&
		cur[1:] == folder[1:] && strings.EqualFold(cur[:1], folder[:1])
}
