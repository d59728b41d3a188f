package inventory

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/ccversion"
	"github.com/ccvet/ccvet/internal/jsonl"
	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/readonly"
)

// walkProjects reads every project folder under root/projects. Links are
// not followed: only real folders and regular files are read.
func (s *store) walkProjects() error {
	pdir := filepath.Join(s.root, "projects")
	if st, err := os.Lstat(pdir); err == nil && !st.IsDir() {
		s.problem(Problem{Kind: KindUnreadable, Path: "projects", Message: "not a folder (a symbolic link is not followed): no session read"})
		s.unreadFolders = append(s.unreadFolders, "projects")
		return nil
	}
	folders, err := os.ReadDir(pdir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	for _, fe := range folders {
		if fe.Type()&os.ModeSymlink != 0 {
			s.problem(Problem{Kind: KindUnreadable, Path: s.rel(filepath.Join(pdir, fe.Name())),
				Message: "a symbolic link: not followed, so the sessions it holds are not read (ccvet resume PATH reads one transcript)"})
			s.unreadFolders = append(s.unreadFolders, s.rel(filepath.Join(pdir, fe.Name())))
			continue
		}
		if !fe.IsDir() {
			continue
		}
		s.walkFolder(fe.Name(), filepath.Join(pdir, fe.Name()))
	}
	return nil
}

func (s *store) walkFolder(name, dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		s.problem(Problem{Kind: KindUnreadable, Path: s.rel(dir), Message: "cannot read the project folder: " + err.Error()})
		s.unreadFolders = append(s.unreadFolders, s.rel(dir))
		return
	}
	here := map[string]int{} // session id → index, in this folder
	var flat []string
	var subdirs []string
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			subdirs = append(subdirs, e.Name())
		case !strings.HasSuffix(e.Name(), ".jsonl"):
		case !e.Type().IsRegular():
			if !strings.HasPrefix(e.Name(), "agent-") {
				s.notRead(p, e.Type())
			}
		case strings.HasPrefix(e.Name(), "agent-"):
			flat = append(flat, p)
		case s.only != "":
			// Find: the session's transcript is known to be missing; others are not read.
		default:
			if i, ok := s.addSession(name, p); ok {
				here[s.rep.Sessions[i].SessionID] = i
			}
		}
	}
	// 2.0.28-2.1.1: <folder>/agent-<id>.jsonl, tied to its session by the
	// sessionId of its lines.
	for _, p := range flat {
		sid := firstSessionID(p)
		if i, ok := here[sid]; ok {
			s.addSubagent(i, p)
		} else if layout.IsUUID(sid) && s.wanted(sid) {
			l := s.lost(sid)
			l.flatAgents = append(l.flatAgents, p)
			l.Subagents++
			if l.Project == "" {
				l.Project = name
			}
			if l.Cwd == "" {
				l.Cwd = firstCwd(p)
			}
			if st, err := os.Lstat(p); err == nil {
				l.seen(st.ModTime(), TraceFlatAgent)
			}
		}
	}
	// 2.1.2+: <folder>/<sessionId>/subagents/**/agent-<id>.jsonl.
	for _, d := range subdirs {
		i, ok := here[d]
		if !ok && s.unread[d] {
			continue // its transcript is there, not read
		}
		if !ok {
			if isSessionName(d) {
				s.orphanFolder(name, filepath.Join(dir, d), d)
			}
			if isSessionName(d) && s.only == "" {
				s.problem(Problem{Kind: KindFolderNoTranscript, Path: s.rel(filepath.Join(dir, d)), SessionID: d,
					Message: "a session folder (subagents, tool results) whose transcript " + d + ".jsonl is not beside it: the transcript was deleted or moved (cleanup removes both together), so the session cannot be resumed"})
			}
			continue
		}
		_ = filepath.WalkDir(filepath.Join(dir, d, "subagents"), func(p string, e os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if e.Type().IsRegular() && strings.HasPrefix(e.Name(), "agent-") && strings.HasSuffix(e.Name(), ".jsonl") {
				s.addSubagent(i, p)
			}
			return nil // WalkDir does not follow links
		})
	}
}

// notRead records a main transcript that is not a regular file: its
// session is present (not lost), and not read.
func (s *store) notRead(p string, mode os.FileMode) {
	id := strings.TrimSuffix(filepath.Base(p), ".jsonl")
	s.unread[id] = true
	if !s.wanted(id) || s.only != "" {
		return
	}
	msg := "not a regular file (a FIFO, a device, a socket): not read"
	if mode&os.ModeSymlink != 0 {
		msg = "a symbolic link: not followed, so this session is not read (ccvet resume PATH reads it)"
	}
	s.problem(Problem{Kind: KindUnreadable, Path: s.rel(p), SessionID: id, Message: msg})
}

// present reports whether session id has a transcript in a project
// folder, read or not.
func (s *store) present(id string) bool { return len(s.byID[id]) > 0 || s.unread[id] }

func (s *store) addSubagent(i int, p string) {
	st, err := os.Lstat(p)
	if err != nil {
		return
	}
	ss := &s.rep.Sessions[i]
	ss.Subagents++
	ss.SubagentBytes += st.Size()
}

// addSession reads one main transcript.
func (s *store) addSession(folder, p string) (int, bool) {
	id := strings.TrimSuffix(filepath.Base(p), ".jsonl")
	f, st, err := readonly.Open(p, false)
	if err != nil {
		s.unread[id] = true
		s.problem(Problem{Kind: KindUnreadable, Path: s.rel(p), SessionID: id, Message: err.Error()})
		return 0, false
	}
	defer f.Close()
	testAfterOpen(p)
	ss := Session{SessionID: id, Project: folder, Path: s.rel(p), Size: st.Size(), mtime: st.ModTime(),
		Modified: stamp(st.ModTime()), Versions: []string{}}
	sc := scanFile(io.LimitReader(f, st.Size())) // not past the size at open: a file still written to
	ss.Cwd, ss.FirstPrompt, ss.Entries, ss.BadLines = sc.cwd, sc.firstPrompt, sc.entries, sc.bad
	for v := range sc.versions {
		ss.Versions = append(ss.Versions, v)
	}
	sort.Slice(ss.Versions, func(i, j int) bool { return ccversion.Less(ss.Versions[i], ss.Versions[j]) })
	ss.last = sc.last
	if ss.last.IsZero() {
		ss.last = st.ModTime()
	}
	ss.LastActivity = stamp(ss.last)
	ss.Picker = s.picker(f, p, id, st.Size(), sc)
	for from := range sc.forkedFrom {
		if from != id {
			s.forkedFrom[from] = append(s.forkedFrom[from], id)
		}
	}
	s.rep.Sessions = append(s.rep.Sessions, ss)
	i := len(s.rep.Sessions) - 1
	s.byID[id] = append(s.byID[id], i)
	return i, true
}

// scan is what one pass over a whole transcript found.
type scan struct {
	cwd         string
	firstPrompt string
	entries     int
	bad         int
	versions    map[string]bool
	last        time.Time
	titled      bool            // a custom-title or ai-title record somewhere in the file
	chain       bool            // a line holding "parentUuid": (the picker's test for a conversation)
	forkedFrom  map[string]bool // forkedFrom.sessionId of its entries (a --fork-session copy)
}

func scanFile(r io.Reader) scan {
	sc := scan{versions: map[string]bool{}, forkedFrom: map[string]bool{}}
	jr := jsonl.NewReader(r)
	defer jr.Release()
	var t jsontree.Tree
	var fallback, side string
	for {
		l, err := jr.Next()
		if err != nil {
			break
		}
		if bytes.Contains(l.Bytes, chainKey) {
			sc.chain = true
		}
		if l.Cut {
			sc.bad++
			continue
		}
		if len(bytes.TrimSpace(l.Bytes)) == 0 {
			continue
		}
		if t.Parse(l.Bytes) != nil || t.Kind(jsontree.Root) != jsontree.Object {
			sc.bad++
			continue
		}
		sc.entries++
		root := jsontree.Root
		if sc.cwd == "" {
			sc.cwd = t.StrOrEmpty(t.Get(root, "cwd"))
		}
		if ff := t.Get(root, "forkedFrom"); ff >= 0 {
			if from := t.StrOrEmpty(t.Get(ff, "sessionId")); from != "" && len(sc.forkedFrom) < 16 {
				sc.forkedFrom[from] = true
			}
		}
		if v := t.StrOrEmpty(t.Get(root, "version")); v != "" && !sc.versions[v] {
			sc.versions[v] = true
		}
		if ts := t.StrOrEmpty(t.Get(root, "timestamp")); ts != "" {
			if tm, err := time.Parse(time.RFC3339Nano, ts); err == nil && tm.After(sc.last) {
				sc.last = tm
			}
		}
		switch t.StrOrEmpty(t.Get(root, "type")) {
		case "custom-title", "ai-title":
			sc.titled = true
		case "user":
			if sc.firstPrompt != "" || t.Kind(t.Get(root, "isMeta")) == jsontree.True ||
				t.Kind(t.Get(root, "isCompactSummary")) == jsontree.True {
				continue
			}
			msg := t.Get(root, "message")
			if msg < 0 {
				continue
			}
			p, cmd := promptOf(t.RawBytes(msg))
			switch {
			case p != "" && t.Kind(t.Get(root, "isSidechain")) == jsontree.True:
				if side == "" {
					side = p
				}
			case p != "":
				sc.firstPrompt = p
			case cmd != "" && fallback == "":
				fallback = cmd
			}
		}
	}
	if sc.firstPrompt == "" {
		sc.firstPrompt = fallback
	}
	if sc.firstPrompt == "" {
		sc.firstPrompt = side // a main transcript whose prompts are all flagged sidechain
	}
	return sc
}

var chainKey = []byte(`"parentUuid":`)

// promptOf returns the prompt a user message shows, the way the picker
// reads it: text of a string content or of text blocks, newlines as
// spaces, a slash command as "/name args", clipped to 200 characters.
// Tool results and the wrappers Claude Code adds around local commands are
// not prompts. A command without arguments is returned as cmd (a fallback).
func promptOf(raw json.RawMessage) (prompt, cmd string) {
	var msg struct {
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &msg) != nil {
		return "", ""
	}
	var texts []string
	if s, ok := asString(msg.Content); ok {
		texts = append(texts, s)
	} else {
		var blocks []map[string]json.RawMessage
		if json.Unmarshal(msg.Content, &blocks) != nil {
			return "", ""
		}
		for _, b := range blocks {
			switch str(b["type"]) {
			case "tool_result":
				return "", ""
			case "text":
				texts = append(texts, str(b["text"]))
			}
		}
	}
	for _, t := range texts {
		t = strings.TrimSpace(strings.ReplaceAll(masked(t), "\n", " "))
		if t == "" {
			continue
		}
		if name := between(t, "<command-name>", "</command-name>"); name != "" {
			args := strings.TrimSpace(between(t, "<command-args>", "</command-args>"))
			if args == "" {
				if cmd == "" {
					cmd = name
				}
				continue
			}
			return Clip(name+" "+args, 200), cmd
		}
		if b := between(t, "<bash-input>", "</bash-input>"); b != "" {
			return Clip("! "+b, 200), cmd
		}
		if wrapper(t) {
			continue
		}
		return Clip(t, 200), cmd
	}
	return "", cmd
}

// wrapperRe matches text the picker does not take for a prompt: text that
// opens with a tag (what Claude Code wraps around command output, hooks and
// notifications) or an interruption marker.
var wrapperRe = regexp.MustCompile(`^(?:\s*<[a-z][\w-]*[\s>]|\[Request interrupted by user[^\]]*\])`)

func wrapper(t string) bool { return wrapperRe.MatchString(t) }

func between(s, open, close string) string {
	i := strings.Index(s, open)
	if i < 0 {
		return ""
	}
	s = s[i+len(open):]
	j := strings.Index(s, close)
	if j < 0 {
		return ""
	}
	return s[:j]
}

// Clip shortens s to at most n characters, marking a cut with "…".
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for k < n {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
		k++
	}
	return strings.TrimSpace(s[:i]) + "…"
}

func str(raw json.RawMessage) string {
	s, _ := asString(raw)
	return s
}

func asString(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func isTrue(raw json.RawMessage) bool { return string(raw) == "true" }

// firstSessionID is the sessionId of the first line of p that has one.
func firstSessionID(p string) string {
	var sid string
	eachLine(p, 50, func(b []byte) bool {
		var m struct {
			SessionID string `json:"sessionId"`
		}
		if json.Unmarshal(b, &m) == nil && m.SessionID != "" {
			sid = m.SessionID
			return false
		}
		return true
	})
	return sid
}

// eachLine calls fn with the first max lines of p (0: all) until it returns
// false; p is opened read-only, without following a link.
func eachLine(p string, max int, fn func([]byte) bool) {
	f, err := readonly.OpenHandle(p, false) // up to the size at open: a file still written to ends
	if err != nil {
		return
	}
	defer f.Close()
	jr := jsonl.NewReader(f)
	defer jr.Release()
	for n := 0; max == 0 || n < max; n++ {
		l, err := jr.Next()
		if err != nil {
			return
		}
		if l.Cut {
			continue
		}
		if !fn(l.Bytes) {
			return
		}
	}
}

// isSessionName reports a file name the picker takes for a session.
func isSessionName(id string) bool { return layout.IsUUID(id) }

// testAfterOpen is called with the path of each main transcript once
// opened (tests append to it there).
var testAfterOpen = func(string) {}
