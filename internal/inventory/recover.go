package inventory

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/readonly"
)

// Recovered says what Recover copied out.
type Recovered struct {
	SchemaVersion int      `json:"schema_version"`
	Lost          *Lost    `json:"lost"`
	Out           string   `json:"out"`
	Prompts       int      `json:"prompts"`
	Pasted        int      `json:"pasted"`        // pasted contents written out
	PastedGone    int      `json:"pasted_gone"`   // pasted contents whose paste-cache file is gone
	FileVersions  int      `json:"file_versions"` // file-history backups copied
	Named         int      `json:"named"`         // of them, named by the file's path
	Subagents     int      `json:"subagent_transcripts"`
	ToolResults   int      `json:"tool_results"`
	Todos         int      `json:"todos"`
	Files         []string `json:"files"` // what was written, relative to Out
	// Skipped is what survives but was not copied, each "PATH: why" with
	// PATH relative to the data root: a link (not followed), a file or a
	// folder that cannot be read.
	Skipped []string `json:"skipped"`
}

// Recover copies what survives of a lost session into out, a folder that
// must not exist yet or be empty (the caller refuses one inside root). It
// only reads the data root.
func Recover(root, id, out string, o Options) (*Recovered, error) {
	l, err := Find(root, id, o)
	if err != nil {
		return nil, err
	}
	if l == nil {
		if m, _ := filepath.Glob(filepath.Join(root, "projects", "*", id+".jsonl")); len(m) > 0 {
			return nil, fmt.Errorf("session %s is not lost: its transcript is %s", id, m[0])
		}
		return nil, fmt.Errorf("nothing under %s names session %s", root, id)
	}
	if ents, err := os.ReadDir(out); err == nil && len(ents) > 0 {
		return nil, fmt.Errorf("%s is not empty; --out wants a new or empty folder", out)
	} else if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o700); err != nil {
		return nil, err
	}
	r := &Recovered{SchemaVersion: SchemaVersion, Lost: l, Out: out, Files: []string{}, Skipped: []string{}}
	w := &writer{out: out, rec: r, root: root}
	if err := w.prompts(root, id); err != nil {
		return r, err
	}
	var agents []string // subagent transcripts, for the paths of backups
	for _, dir := range l.folders {
		for _, sub := range []string{"subagents", "tool-results"} {
			base := filepath.Join(dir, sub)
			err := filepath.WalkDir(base, func(p string, e os.DirEntry, err error) error {
				switch {
				case err != nil:
					if p != base || !os.IsNotExist(err) { // no such folder: nothing to copy
						w.skip(p, err)
					}
					return nil
				case w.notCopied(p, e):
					return nil
				}
				rel, _ := filepath.Rel(dir, p)
				if ok, err := w.copyOrSkip(p, rel); err != nil || !ok {
					return err
				}
				if sub == "tool-results" {
					r.ToolResults++
				} else if strings.HasSuffix(p, ".jsonl") {
					r.Subagents++
					agents = append(agents, p)
				}
				return nil
			})
			if err != nil {
				return r, err
			}
		}
	}
	for _, p := range l.flatAgents {
		if ok, err := w.copyOrSkip(p, filepath.Join("subagents", filepath.Base(p))); err != nil {
			return r, err
		} else if !ok {
			continue
		}
		r.Subagents++
		agents = append(agents, p)
	}
	for _, p := range l.todoFiles {
		if ok, err := w.copyOrSkip(p, filepath.Join("todos", filepath.Base(p))); err != nil {
			return r, err
		} else if !ok {
			continue
		}
		r.Todos++
	}
	if l.fileHistory != "" {
		names := backupNames(agents, l.Cwd, w.texts)
		ents, err := os.ReadDir(l.fileHistory)
		if err != nil && !os.IsNotExist(err) {
			w.skip(l.fileHistory, err)
		}
		for _, e := range ents {
			if w.notCopied(filepath.Join(l.fileHistory, e.Name()), e) {
				continue
			}
			src, plain := filepath.Join(l.fileHistory, e.Name()), filepath.Join("file-history", e.Name())
			named := ""
			if m := backupRe.FindStringSubmatch(e.Name()); m != nil {
				if path, ok := names[e.Name()]; ok {
					named = filepath.Join("files", path+"@v"+m[2])
				} else if path, ok := names[m[1]]; ok {
					named = filepath.Join("files", path+"@v"+m[2])
				}
			}
			switch {
			case named != "" && w.copy(src, named) == nil:
				r.Named++
			default:
				// No name, or one this system refuses (too long, a reserved
				// name): the backup's own name.
				if ok, err := w.copyOrSkip(src, plain); err != nil {
					return r, err
				} else if !ok {
					continue
				}
			}
			r.FileVersions++
		}
	}
	sort.Strings(r.Skipped)
	return r, w.readme(l)
}

var (
	backupRe  = regexp.MustCompile(`^([0-9a-f]{16})@v([0-9]+)$`)
	absPathRe = regexp.MustCompile(`(?:^|[\s"'(=\[])(/[^\s"'<>|*?,;()\[\]{}\\]+|[A-Za-z]:\\[^\s"'<>|*?,;()\[\]{}]+)`)
)

// backupNames maps file-history backup names (and the 16-hex hash of a
// path, for any version) to the path they back up, as far as what survives
// names them: the surviving subagent transcripts' tool calls (a backup is
// named by the first 16 hex digits of the sha256 of the absolute path) and
// file-history snapshots, and the absolute paths written in the prompts and
// their pastes (a path counts only when its hash is a backup's). Paths come
// back as relative, clean folder names (a leading / dropped), or not at all.
func backupNames(agents []string, cwd string, texts []string) map[string]string {
	names := map[string]string{}
	add := func(key, path string) {
		if path == "" {
			return
		}
		if !filepath.IsAbs(path) && cwd != "" {
			path = filepath.Join(cwd, path)
		}
		rel := strings.TrimLeft(filepath.ToSlash(filepath.Clean("/"+strings.ReplaceAll(path, ":", ""))), "/")
		if !filepath.IsLocal(rel) {
			return
		}
		if key == "" {
			sum := sha256.Sum256([]byte(path))
			key = hex.EncodeToString(sum[:])[:16]
		}
		if _, ok := names[key]; !ok {
			names[key] = rel
		}
	}
	for _, t := range texts {
		for _, m := range absPathRe.FindAllStringSubmatch(t, 1000) {
			add("", strings.TrimRight(m[1], ".:"))
		}
	}
	for _, p := range agents {
		eachLine(p, 0, func(b []byte) bool {
			if bytes.Contains(b, []byte(`"trackedFileBackups"`)) {
				var v struct {
					Snapshot struct {
						Tracked map[string]struct {
							Name *string `json:"backupFileName"`
						} `json:"trackedFileBackups"`
					} `json:"snapshot"`
				}
				if json.Unmarshal(b, &v) == nil {
					for path, t := range v.Snapshot.Tracked {
						if t.Name != nil {
							add(*t.Name, path)
						}
					}
				}
			}
			if !bytes.Contains(b, []byte(`"tool_use"`)) {
				return true
			}
			var v struct {
				Message struct {
					Content []struct {
						Type  string                     `json:"type"`
						Input map[string]json.RawMessage `json:"input"`
					} `json:"content"`
				} `json:"message"`
			}
			if json.Unmarshal(b, &v) != nil {
				return true
			}
			for _, c := range v.Message.Content {
				if c.Type != "tool_use" {
					continue
				}
				for _, k := range []string{"file_path", "notebook_path"} {
					var s string
					if json.Unmarshal(c.Input[k], &s) == nil && filepath.IsAbs(s) {
						add("", s)
					}
				}
			}
			return true
		})
	}
	return names
}

// writer writes into the recovery folder only.
type writer struct {
	out   string
	root  string // the data root read, for the paths of Skipped
	rec   *Recovered
	texts []string // the prompts and pastes, where file paths may be named
}

func (w *writer) create(rel string) (*os.File, error) {
	rel = filepath.Clean(rel)
	if !filepath.IsLocal(rel) {
		return nil, fmt.Errorf("refused to write %s outside %s", rel, w.out)
	}
	dst := filepath.Join(w.out, rel)
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	w.rec.Files = append(w.rec.Files, filepath.ToSlash(rel))
	return f, nil
}

func (w *writer) write(rel string, b []byte) error {
	f, err := w.create(rel)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Why a file that survives was not copied.
var (
	errLink    = errors.New("a link, not followed")
	errNotFile = errors.New("not a regular file")
)

// skip records that p was not copied, and why.
func (w *writer) skip(p string, err error) {
	rel, rerr := filepath.Rel(w.root, p)
	if rerr != nil {
		rel = p
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is said once, relative to the root
	}
	if fi, lerr := os.Lstat(p); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
		err = errLink // refused by the open that does not follow one
	}
	w.rec.Skipped = append(w.rec.Skipped, filepath.ToSlash(rel)+": "+err.Error())
}

// notCopied reports whether entry e, at p, is not a regular file, and so
// not copied: a link (recorded in Skipped, never followed), a FIFO, a
// device (recorded) or a folder (walked, or not, by the caller).
func (w *writer) notCopied(p string, e os.DirEntry) bool {
	switch {
	case e.Type().IsRegular():
		return false
	case e.Type()&os.ModeSymlink != 0:
		w.skip(p, errLink)
	case !e.IsDir():
		w.skip(p, errNotFile)
	}
	return true
}

// copyOrSkip is copy, but a source that cannot be opened (unreadable, a
// link, gone since it was found) is recorded in Skipped and reported as
// not copied; only a failure to write is an error.
func (w *writer) copyOrSkip(src, rel string) (bool, error) {
	in, err := readonly.OpenHandle(src, false) // up to the size at open
	if err != nil {
		w.skip(src, err)
		return false, nil
	}
	defer in.Close()
	return true, w.copyFrom(in, rel)
}

// copy copies a file of the data root (opened read-only, no link
// followed) to rel in the recovery folder.
func (w *writer) copy(src, rel string) error {
	in, err := readonly.OpenHandle(src, false) // up to the size at open
	if err != nil {
		return err
	}
	defer in.Close()
	return w.copyFrom(in, rel)
}

// copyFrom writes what in holds to rel under the output folder.
func (w *writer) copyFrom(in io.Reader, rel string) error {
	f, err := w.create(rel)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, in)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil { // no half-copied file left behind
		_ = os.Remove(f.Name())
		w.rec.Files = w.rec.Files[:len(w.rec.Files)-1]
	}
	return err
}

// pasted is one pasted content of a prompt, as recovered.
type pasted struct {
	ID          json.RawMessage `json:"id"`
	Type        string          `json:"type"`
	Content     *string         `json:"content,omitempty"`
	ContentHash string          `json:"content_hash,omitempty"`
	MediaType   string          `json:"media_type,omitempty"`
	Missing     bool            `json:"missing,omitempty"` // its paste-cache file is gone
}

type prompt struct {
	N         int      `json:"n"`
	Time      string   `json:"time"`
	Timestamp int64    `json:"timestamp"`
	Project   string   `json:"project"`
	Display   string   `json:"display"`
	Pasted    []pasted `json:"pasted"`
}

// prompts writes the session's history.jsonl prompts, in order, with their
// pasted contents (from paste-cache/ when only a hash is kept), as
// prompts.jsonl and prompts.md.
func (w *writer) prompts(root, id string) error {
	var ps []prompt
	eachLine(filepath.Join(root, "history.jsonl"), 0, func(b []byte) bool {
		if !bytes.Contains(b, []byte(id)) {
			return true
		}
		var h struct {
			Display   string                     `json:"display"`
			Timestamp json.RawMessage            `json:"timestamp"`
			Project   string                     `json:"project"`
			SessionID string                     `json:"sessionId"`
			Pasted    map[string]json.RawMessage `json:"pastedContents"`
		}
		if json.Unmarshal(b, &h) != nil || h.SessionID != id {
			return true
		}
		ts, _ := strconv.ParseFloat(string(h.Timestamp), 64)
		p := prompt{N: len(ps) + 1, Timestamp: int64(ts), Time: stamp(time.UnixMilli(int64(ts))), Project: h.Project,
			Display: h.Display, Pasted: []pasted{}}
		keys := make([]string, 0, len(h.Pasted))
		for k := range h.Pasted {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			a, erra := strconv.Atoi(keys[i])
			b, errb := strconv.Atoi(keys[j])
			if erra == nil && errb == nil {
				return a < b
			}
			return keys[i] < keys[j]
		})
		w.texts = append(w.texts, h.Display)
		for _, k := range keys {
			var pc pasted
			if json.Unmarshal(h.Pasted[k], &pc) != nil {
				continue
			}
			var raw struct {
				ContentHash string `json:"contentHash"`
			}
			_ = json.Unmarshal(h.Pasted[k], &raw)
			pc.ContentHash = raw.ContentHash
			if pc.Content == nil && pc.ContentHash != "" {
				if c, err := readSmall(filepath.Join(root, "paste-cache", filepath.Base(pc.ContentHash)+".txt"), 64<<20); err == nil {
					s := string(c)
					pc.Content = &s
				} else {
					pc.Missing = true
					w.rec.PastedGone++
				}
			}
			if pc.Content != nil {
				w.rec.Pasted++
				if pc.Type != "image" {
					w.texts = append(w.texts, *pc.Content)
				}
			}
			p.Pasted = append(p.Pasted, pc)
		}
		ps = append(ps, p)
		return true
	})
	w.rec.Prompts = len(ps)
	if len(ps) == 0 {
		return nil
	}
	var jl bytes.Buffer
	enc := json.NewEncoder(&jl)
	enc.SetEscapeHTML(false)
	for _, p := range ps {
		if err := enc.Encode(p); err != nil {
			return err
		}
	}
	if err := w.write("prompts.jsonl", jl.Bytes()); err != nil {
		return err
	}
	var md strings.Builder
	fmt.Fprintf(&md, "# Prompts of session %s\n\nFrom history.jsonl, in the order they were typed (times in UTC).\n", id)
	for _, p := range ps {
		fmt.Fprintf(&md, "\n## %d. %s", p.N, p.Time)
		if p.Project != "" {
			fmt.Fprintf(&md, " in %s", p.Project)
		}
		md.WriteString("\n\n" + fenced(p.Display))
		for _, pc := range p.Pasted {
			fmt.Fprintf(&md, "\nPasted #%s (%s)", strings.Trim(string(pc.ID), `"`), pc.Type)
			switch {
			case pc.Missing:
				fmt.Fprintf(&md, ": its paste-cache/%s.txt is gone\n", pc.ContentHash)
			case pc.Content == nil:
				md.WriteString(": no content kept\n")
			case pc.Type == "image":
				fmt.Fprintf(&md, ": an image (%d characters of base64, in prompts.jsonl)\n", len(*pc.Content))
			default:
				md.WriteString(":\n\n" + fenced(*pc.Content))
			}
		}
	}
	return w.write("prompts.md", []byte(md.String()))
}

// fenced puts text in a Markdown code fence longer than any run of
// backticks inside it.
func fenced(s string) string {
	n, run := 3, 0
	for _, c := range s {
		if c == '`' {
			run++
			if run >= n {
				n = run + 1
			}
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", n)
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return f + "text\n" + s + f + "\n"
}

// readme says what was recovered and what could not be.
func (w *writer) readme(l *Lost) error {
	r := w.rec
	var b strings.Builder
	fmt.Fprintf(&b, "# What survives of session %s\n\n", l.SessionID)
	if l.Cwd != "" {
		fmt.Fprintf(&b, "Project: %s (folder %s). ", maskedPath(l.Cwd), maskedPath(l.Project))
	}
	fmt.Fprintf(&b, "Last seen: %s. Cause: %s (%s).\n\n", l.LastSeen, l.Cause, l.CauseDetail)
	fmt.Fprintf(&b, "- prompts.md, prompts.jsonl: %d prompt(s) from history.jsonl, with %d pasted content(s)\n", r.Prompts, r.Pasted)
	fmt.Fprintf(&b, "- files/ and file-history/: %d file-history version(s), %d named by the file's path (files/<path>@v<N>), the others by their backup name\n", r.FileVersions, r.Named)
	fmt.Fprintf(&b, "- subagents/: %d subagent transcript(s), as they are\n", r.Subagents)
	fmt.Fprintf(&b, "- tool-results/: %d tool result(s), as they are\n", r.ToolResults)
	fmt.Fprintf(&b, "- todos/: %d todo file(s)\n", len(l.todoFiles))
	b.WriteString("\nNot recoverable: the transcript itself (the replies, the tool calls and the results kept only in it), so `claude --resume` cannot resume this session")
	if r.PastedGone > 0 {
		fmt.Fprintf(&b, "; %d pasted content(s) whose paste-cache file is gone", r.PastedGone)
	}
	if r.FileVersions > r.Named {
		b.WriteString("; the paths of the file-history versions no surviving snapshot or subagent names")
	}
	b.WriteString(".\n")
	if len(r.Skipped) > 0 {
		b.WriteString("\nNot copied (in the data root, PATH: why):\n")
		for _, sk := range r.Skipped {
			fmt.Fprintf(&b, "- %s\n", graphic(maskedPath(sk)))
		}
	}
	// ccvet's own words (the copies beside it are the user's data, as
	// they were): a key in the cwd or the folder name is masked.
	return w.write("README.md", []byte(masked(b.String())))
}

// graphic is s, or s quoted as a Go string when it holds a character that
// is not printable (a newline or an escape in a file name would break the
// README's lines or drive a terminal).
func graphic(s string) string {
	for _, r := range s {
		if !unicode.IsGraphic(r) || r == utf8.RuneError {
			return strconv.Quote(s)
		}
	}
	return s
}
