package benchstore

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/internal/pathenc"
)

// RealOptions describe a store built from copies of real transcripts.
type RealOptions struct {
	Bytes int64  // approximate total size; <= 0 means 64 MiB
	Seed  uint64 // the same seed, size and sources give the same bytes
	// OneFolder puts every copy into one project folder (one launch
	// directory), as for a user who works in one repository.
	OneFolder bool
	// Chain writes one session in one transcript: the sources' main
	// transcripts one after another, each one's first root entry made the
	// child of the previous one's last entry.
	Chain bool
	// Windows lays the copies out as Claude Code does on Windows: launch
	// directories C:\Users\bench\..., every cwd and every absolute path
	// under a source's launch directory written with backslashes (JSON
	// escapes), file-history snapshots keyed by such paths.
	Windows bool
	// FreshText gives each copy long strings of its own: the first three
	// letters of each string value of 64 bytes or more (not ids, paths or
	// names) spell the copy's number, so that no copy repeats another's
	// long strings, as copies otherwise do (a real store repeats some text
	// between its files, far less), while the text keeps what the secret
	// rule looks for. Only with copies (not Chain).
	FreshText bool
	// Origin, when not nil, is told the source of each transcript written
	// (dst relative to the store, slash-separated); in a chain, of each
	// source's copy ("dst:first line").
	Origin func(dst, src string)
}

// RealSource is one transcript to copy.
type RealSource struct {
	Path  string // the file
	Group string // its project folder in the source (slash-separated, relative)
	Rel   string // its path inside that folder: "<uuid>.jsonl", "agent-x.jsonl", "<uuid>/subagents/agent-x.jsonl"
}

// RealSources lists the transcripts under root (history.jsonl and empty
// files left out), in lexical order. When root holds a MANIFEST.tsv (the
// shared corpus), only the files it calls "real" are listed. skip, when not
// nil, leaves out more (it gets the slash-separated path relative to root).
func RealSources(root string, skip func(rel string) bool) ([]RealSource, error) {
	real := map[string]bool(nil)
	if b, err := os.ReadFile(filepath.Join(root, "MANIFEST.tsv")); err == nil {
		real = map[string]bool{}
		for _, ln := range strings.Split(string(b), "\n") {
			if c := strings.Split(ln, "\t"); len(c) > 8 && c[8] == "real" {
				real[c[0]] = true
			}
		}
	}
	var out []RealSource
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if !strings.HasSuffix(rel, ".jsonl") || path.Base(rel) == "history.jsonl" ||
			real != nil && !real[rel] || skip != nil && skip(rel) {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() == 0 {
			return err
		}
		dir, base := path.Split(rel)
		dir = strings.TrimSuffix(dir, "/")
		s := RealSource{Path: p, Group: dir, Rel: base}
		if path.Base(dir) == "subagents" && isUUID(path.Base(path.Dir(dir))) {
			s.Group = path.Dir(path.Dir(dir))
			s.Rel = path.Base(path.Dir(dir)) + "/subagents/" + base
		}
		out = append(out, s)
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}

// ShortLines returns the sources whose lines average under max bytes, in
// their order: sessions of many short entries, which cost ccvet more per
// byte, and more memory in one transcript, than the corpus's average of
// about 2.9 KB an entry.
func ShortLines(srcs []RealSource, max int) ([]RealSource, error) {
	var out []RealSource
	for _, s := range srcs {
		b, err := os.ReadFile(s.Path)
		if err != nil {
			return nil, err
		}
		if n := bytes.Count(b, []byte{'\n'}); n > 0 && len(b)/n < max {
			out = append(out, s)
		}
	}
	return out, nil
}

// ProgressLines returns the sources of which at least half the lines are
// progress entries (hook, bash, agent and MCP progress, 2.1.11 to 2.1.84),
// in their order: sessions whose hooks or long tools reported often, whose
// many small entries cost ccvet more per byte than a conversation's.
func ProgressLines(srcs []RealSource) ([]RealSource, error) {
	var out []RealSource
	for _, s := range srcs {
		b, err := os.ReadFile(s.Path)
		if err != nil {
			return nil, err
		}
		n := bytes.Count(b, []byte{'\n'})
		if p := bytes.Count(b, []byte(`"type":"progress"`)); n > 0 && 2*p >= n {
			out = append(out, s)
		}
	}
	return out, nil
}

// BuildReal writes into dir (a data root: projects/<folder>/...) copies of
// srcs until about opts.Bytes are written. Each copy is laid out as Claude
// Code lays out a session: every uuid of a copy (entry, session, file name)
// is replaced by one of its own, every cwd by the copy's launch directory
// (or a folder below it), the project folder is that directory encoded,
// flat agent-<id>.jsonl files get ids of their own. Copying itself adds no
// finding: a copy has the findings its source has. A source whose main
// transcript names no session, or more than one, is left out.
func BuildReal(dir string, srcs []RealSource, opts RealOptions) (Stats, error) {
	if opts.Bytes <= 0 {
		opts.Bytes = 64 << 20
	}
	groups, err := loadGroups(srcs)
	if err != nil {
		return Stats{}, err
	}
	if len(groups) == 0 {
		return Stats{}, errors.New("benchstore: no usable real transcript")
	}
	b := &realBuilder{dir: dir, seed: opts.Seed, windows: opts.Windows, fresh: opts.FreshText}
	if opts.Chain {
		err = b.chain(groups, opts)
	} else {
		err = b.copies(groups, opts)
	}
	return b.st, err
}

type realGroup struct {
	name   string
	launch string // the cwd of its first main transcript's first entry that has one
	files  []realFile
}

type realFile struct {
	src     RealSource
	data    []byte
	session string // the one sessionId of a main transcript
}

func loadGroups(srcs []RealSource) ([]*realGroup, error) {
	var groups []*realGroup
	byName := map[string]*realGroup{}
	for _, s := range srcs {
		data, err := os.ReadFile(s.Path)
		if err != nil {
			return nil, err
		}
		f := realFile{src: s, data: data}
		main := !strings.Contains(s.Rel, "/") && !strings.HasPrefix(s.Rel, "agent-")
		sessions, cwd := scanSessions(data)
		if main {
			if len(sessions) != 1 {
				continue
			}
			f.session = sessions[0]
		}
		g := byName[s.Group]
		if g == nil {
			g = &realGroup{name: s.Group}
			byName[s.Group] = g
			groups = append(groups, g)
		}
		if g.launch == "" && main {
			g.launch = cwd
		}
		g.files = append(g.files, f)
	}
	out := groups[:0]
	for _, g := range groups {
		if g.launch != "" {
			out = append(out, g)
		}
	}
	return out, nil
}

// scanSessions returns the distinct sessionIds of a transcript and its first cwd.
func scanSessions(data []byte) ([]string, string) {
	var ids []string
	cwd := ""
	for _, ln := range bytes.Split(data, []byte{'\n'}) {
		var e struct {
			SessionID string `json:"sessionId"`
			Cwd       string `json:"cwd"`
		}
		if json.Unmarshal(ln, &e) != nil {
			continue
		}
		if e.SessionID != "" && !contains(ids, e.SessionID) {
			ids = append(ids, e.SessionID)
		}
		if cwd == "" {
			cwd = e.Cwd
		}
	}
	return ids, cwd
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

type realBuilder struct {
	dir     string
	seed    uint64
	windows bool // RealOptions.Windows
	fresh   bool // RealOptions.FreshText
	st      Stats
	out     []byte
}

// id derives a new identifier for old in copy k: a v4 uuid when old is one,
// else hex digits of old's length.
func (b *realBuilder) id(k int, old string) string {
	var kb [16]byte
	binary.LittleEndian.PutUint64(kb[:8], b.seed)
	binary.LittleEndian.PutUint64(kb[8:], uint64(k))
	h := sha256.New()
	h.Write(kb[:])
	h.Write([]byte(old))
	sum := h.Sum(nil)
	if len(old) != 36 {
		return hex.EncodeToString(sum)[:len(old)]
	}
	sum[6] = sum[6]&0x0f | 0x40
	sum[8] = sum[8]&0x3f | 0x80
	s := hex.EncodeToString(sum[:16])
	return s[0:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:32]
}

// rewrite returns data with every lowercase uuid mapped for copy k, every
// flat agent id in agents mapped, and every "cwd" value moved from under
// launch to under newCwd (a cwd outside launch becomes newCwd).
func (b *realBuilder) rewrite(data []byte, k int, launch, newCwd string, agents []string) []byte {
	out := b.out[:0]
	const key = `"cwd":"`
	for i := 0; i < len(data); {
		c := data[i]
		if c == '"' && bytes.HasPrefix(data[i:], []byte(key)) {
			j := i + len(key)
			end := stringEnd(data, j)
			var old string
			if json.Unmarshal(data[j-1:min(end+1, len(data))], &old) == nil {
				nw := newCwd
				if rest, ok := strings.CutPrefix(old, launch); ok && (rest == "" || rest[0] == '/' || rest[0] == '\\') {
					if b.windows {
						nw = newCwd + strings.ReplaceAll(rest, "/", `\`)
					} else {
						nw = newCwd + strings.ReplaceAll(rest, `\`, "/")
					}
				}
				enc, _ := json.Marshal(nw)
				out = append(out, `"cwd":`...)
				out = append(out, enc...)
				i = end + 1
				continue
			}
		}
		if isHex(c) && i+36 <= len(data) && (i == 0 || !isHex(data[i-1])) && isUUID(string(data[i:i+36])) &&
			(i+36 == len(data) || !isHex(data[i+36])) {
			out = append(out, b.id(k, string(data[i:i+36]))...)
			i += 36
			continue
		}
		out = append(out, c)
		i++
	}
	for _, a := range agents {
		out = bytes.ReplaceAll(out, []byte(a), []byte(b.id(k, a)))
	}
	if b.windows {
		out = windowsPaths(out, launch, newCwd)
	}
	b.out = out
	return out
}

// launchDir returns the launch directory of copy k of a source launched
// in launch: its own folder under /home/bench (C:\Users\bench on Windows),
// or the one folder every copy shares.
func (b *realBuilder) launchDir(k int, launch string, one bool) string {
	dir := "/home/bench/c" + strconv.Itoa(k) + "/" + cwdName(launch)
	if one {
		dir = "/home/bench/repo"
	}
	if b.windows {
		dir = `C:\Users` + strings.ReplaceAll(strings.TrimPrefix(dir, "/home"), "/", `\`)
	}
	return dir
}

// windowsPaths rewrites every absolute path under launch (a Unix directory)
// in data to the same path under winDir, its separators backslashes: JSON
// escaped once in a string of the line, twice in a JSON text held in a
// string (after \"). A path is taken whole: from a byte that cannot be in
// a path up to the next one.
func windowsPaths(data []byte, launch, winDir string) []byte {
	if launch == "" || launch[0] != '/' || strings.ContainsAny(launch, "\"\\") || !bytes.Contains(data, []byte(launch)) {
		return data
	}
	pathByte := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._-/@+", c) >= 0
	}
	var out []byte
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte(launch))
		if j < 0 {
			return append(out, data[i:]...)
		}
		j += i
		end := j + len(launch)
		if j > 0 && pathByte(data[j-1]) || end < len(data) && data[end] != '/' && pathByte(data[end]) {
			out = append(out, data[i:end]...) // inside another path or name
			i = end
			continue
		}
		for end < len(data) && pathByte(data[end]) {
			end++
		}
		sep := `\\`
		if j >= 2 && data[j-1] == '"' && data[j-2] == '\\' {
			sep = `\\\\`
		}
		out = append(out, data[i:j]...)
		out = append(out, strings.ReplaceAll(winDir, `\`, sep)...)
		out = append(out, bytes.ReplaceAll(data[j+len(launch):end], []byte("/"), []byte(sep))...)
		i = end
	}
}

// toolIDs gives every toolu_… id of data one of its own for copy k (the
// same length and alphabet), so that copies in one file or project do not
// share tool call ids; and every msg_… and req_… id too: the reader puts
// together every assistant line of a file that shares a message.id (a
// parallel call), so a chain whose segments repeated one would merge
// copies' calls into one message, which no real session writes.
func (b *realBuilder) toolIDs(data []byte, k int) []byte {
	data = b.renameIDs(data, k, "toolu_", "")
	data = b.renameIDs(data, k, "msg_", "msg/")
	return b.renameIDs(data, k, "req_", "req/")
}

// renameIDs maps every pre… id (16 or more base62 characters) of data for
// copy k; salt keeps the maps of different prefixes apart.
func (b *realBuilder) renameIDs(data []byte, k int, pre, salt string) []byte {
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte(pre))
		if j < 0 {
			return data
		}
		i += j + len(pre)
		e := i
		for e < len(data) && isBase62(data[e]) {
			e++
		}
		if e-i >= 16 {
			sum := sha256.Sum256(append([]byte(salt+strconv.Itoa(k)+"/"+strconv.FormatUint(b.seed, 10)+"/"), data[i:e]...))
			for n := i; n < e; n++ {
				data[n] = base62[int(sum[(n-i)%32]+byte(n-i)/32)%62]
			}
		}
		i = e
	}
}

func isBase62(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// backups copies the file-history backups the snapshots of a session's
// transcript name (from the source's data root, else a stand-in text) into
// file-history/<session>/ of the store.
func (b *realBuilder) backups(f realFile, session string) error {
	names := map[string]bool{}
	for _, ln := range bytes.Split(f.data, []byte{'\n'}) {
		if !bytes.Contains(ln, []byte(`"backupFileName":"`)) {
			continue
		}
		var e struct {
			Snapshot struct {
				TrackedFileBackups map[string]struct {
					BackupFileName *string `json:"backupFileName"`
				} `json:"trackedFileBackups"`
			} `json:"snapshot"`
		}
		if json.Unmarshal(ln, &e) != nil {
			continue
		}
		for _, t := range e.Snapshot.TrackedFileBackups {
			if t.BackupFileName != nil && *t.BackupFileName != "" && !strings.ContainsAny(*t.BackupFileName, `/\`) {
				names[*t.BackupFileName] = true
			}
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	// A source in a data root (…/projects/<folder>/<file>) has its backups in …/file-history/<session>/.
	root := filepath.Dir(filepath.Dir(filepath.Dir(f.src.Path)))
	for _, n := range sorted {
		data, err := os.ReadFile(filepath.Join(root, "file-history", f.session, n))
		if err != nil {
			data = []byte("backup " + n + " of a benchmark store\n")
		}
		if err := os.MkdirAll(filepath.Join(b.dir, "file-history", session), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(b.dir, "file-history", session, n), data, 0o644); err != nil {
			return err
		}
		b.st.Backups++
		b.st.Files++
	}
	return nil
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !isHex(s[i]) {
				return false
			}
		}
	}
	return true
}

// agentIDs are the ids of a group's flat agent-<id>.jsonl files.
func agentIDs(g *realGroup) []string {
	var ids []string
	for _, f := range g.files {
		if id, ok := strings.CutPrefix(strings.TrimSuffix(f.src.Rel, ".jsonl"), "agent-"); ok && !strings.Contains(id, "/") && len(id) >= 6 {
			ids = append(ids, id)
		}
	}
	return ids
}

// cwdName is a tidy last element for a copy's launch directory.
func cwdName(launch string) string {
	launch = strings.TrimRight(strings.ReplaceAll(launch, `\`, "/"), "/")
	var sb strings.Builder
	for _, r := range path.Base(launch) {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			sb.WriteRune(r)
		}
	}
	if sb.Len() == 0 {
		return "project"
	}
	return sb.String()
}

func (b *realBuilder) write(p string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return err
	}
	b.st.Files++
	b.st.Bytes += int64(len(data))
	b.st.Lines += bytes.Count(data, []byte{'\n'})
	return nil
}

// copies writes whole copies of the groups, round after round, until the size is reached.
func (b *realBuilder) copies(groups []*realGroup, opts RealOptions) error {
	folders, written := map[string]bool{}, map[string]bool{}
	for k := 1; b.st.Bytes < opts.Bytes; k++ {
		for gi, g := range groups {
			if b.st.Bytes >= opts.Bytes {
				break
			}
			// Two source folders may hold the same sessions (a fork of a
			// repository): each group's copy gets identifiers of its own.
			k := k*len(groups) + gi
			newCwd := b.launchDir(k, g.launch, opts.OneFolder)
			folder := pathenc.Encode(newCwd)
			if !folders[folder] {
				folders[folder] = true
				b.st.Projects++
			}
			agents := agentIDs(g)
			for _, f := range g.files {
				rel := f.src.Rel
				if f.session != "" {
					rel = b.id(k, f.session) + ".jsonl"
				} else {
					rel = string(b.rewrite([]byte(rel), k, "", "", agents))
				}
				dst := "projects/" + folder + "/" + rel
				if written[dst] {
					continue // a second transcript of the same session in the source folder
				}
				written[dst] = true
				data := b.toolIDs(b.rewrite(f.data, k, g.launch, newCwd, agents), k)
				if b.fresh {
					data = freshText(data, k)
				}
				if err := b.write(filepath.Join(b.dir, filepath.FromSlash(dst)), data); err != nil {
					return err
				}
				if opts.Origin != nil {
					opts.Origin(dst, f.src.Path)
				}
				if f.session != "" {
					if err := b.backups(f, b.id(k, f.session)); err != nil {
						return err
					}
					b.st.Sessions++
				} else {
					b.st.Subagents++
				}
			}
		}
	}
	return nil
}

// chain writes one transcript of about size bytes: the groups' main
// transcripts in turn, each copy's uuids its own, every sessionId the
// chain's, and each copy's first root entry ("parentUuid":null) made the
// child of the previous copy's last entry with a uuid.
func (b *realBuilder) chain(groups []*realGroup, opts RealOptions) error {
	size := opts.Bytes
	session := b.id(0, "00000000-0000-4000-8000-000000000000")
	newCwd := "/home/bench/long-session"
	if b.windows {
		newCwd = `C:\Users\bench\long-session`
	}
	folder := pathenc.Encode(newCwd)
	dst := "projects/" + folder + "/" + session + ".jsonl"
	p := filepath.Join(b.dir, filepath.FromSlash(dst))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	fh, err := os.Create(p)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	b.st.Files, b.st.Projects, b.st.Sessions = 1, 1, 1
	last := ""
	// Every segment (one source transcript) is a copy of its own: two
	// transcripts of a source folder may share entries (a resumed session
	// starts with its predecessor's).
	k := 0
	for b.st.Bytes < size {
		round := k
		for _, g := range groups {
			for _, f := range g.files {
				if f.session == "" || b.st.Bytes >= size {
					continue
				}
				if hasAgentEntry(f.data) {
					continue // entries of subagents written into the session's file: they belong beside it
				}
				k++
				if err := b.backups(f, session); err != nil {
					return err
				}
				data := b.toolIDs(b.rewrite(f.data, k, g.launch, newCwd, nil), k)
				data = bytes.ReplaceAll(data, []byte(b.id(k, f.session)), []byte(session))
				if len(data) > 0 && data[len(data)-1] != '\n' {
					data = append(data, '\n')
				}
				if last != "" {
					data = bytes.Replace(data, []byte(`"parentUuid":null`), []byte(`"parentUuid":"`+last+`"`), 1)
				}
				data = b.linkSegment(data, &last)
				if opts.Origin != nil {
					opts.Origin(dst+":"+strconv.Itoa(b.st.Lines+1), f.src.Path)
				}
				if _, err := w.Write(data); err != nil {
					fh.Close()
					return err
				}
				b.st.Bytes += int64(len(data))
				b.st.Lines += bytes.Count(data, []byte{'\n'})
			}
		}
		if k == round {
			fh.Close()
			return errors.New("benchstore: no transcript to chain")
		}
	}
	if err := w.Flush(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

// hasAgentEntry reports whether a line of data is an entry with an agentId
// of its own (a subagent's, written into its session's file). An agentId
// deeper in a line (the agent progress an entry reports) does not count.
func hasAgentEntry(data []byte) bool {
	if !bytes.Contains(data, []byte(`"agentId":"`)) {
		return false
	}
	for _, ln := range bytes.Split(data, []byte{'\n'}) {
		var head struct {
			AgentID string `json:"agentId"`
		}
		if bytes.Contains(ln, []byte(`"agentId":"`)) && json.Unmarshal(ln, &head) == nil && head.AgentID != "" {
			return true
		}
	}
	return false
}

// linkSegment drops the summaries of a chain's segment whose leaf is not in
// it (they named an entry of another transcript of the source folder) and
// sets *last to its last main-chain user or assistant entry.
func (b *realBuilder) linkSegment(data []byte, last *string) []byte {
	lines := bytes.SplitAfter(data, []byte{'\n'})
	uuids := map[string]bool{}
	type head struct {
		Type        string `json:"type"`
		UUID        string `json:"uuid"`
		LeafUUID    string `json:"leafUuid"`
		IsSidechain bool   `json:"isSidechain"`
	}
	heads := make([]head, len(lines))
	for i, ln := range lines {
		if json.Unmarshal(ln, &heads[i]) == nil && heads[i].UUID != "" {
			uuids[heads[i].UUID] = true
		}
	}
	out := data[:0:0]
	for i, ln := range lines {
		h := heads[i]
		if h.Type == "summary" && h.LeafUUID != "" && !uuids[h.LeafUUID] {
			continue
		}
		if (h.Type == "user" || h.Type == "assistant") && !h.IsSidechain && h.UUID != "" {
			*last = h.UUID
		}
		out = append(out, ln...)
	}
	return out
}
