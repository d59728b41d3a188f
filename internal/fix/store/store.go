// Package store is fix's file-system side: the live-session gate, backups, atomic replace, the manifest, and undo.
package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ccvet/ccvet/internal/edit"
)

// ErrRefused marks a refusal or an abort with nothing written (exit 4).
var ErrRefused = errors.New("refused")

func refusef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrRefused, fmt.Sprintf(format, args...))
}

// LiveWindow is how recently a file may have changed before fix treats its session as live.
const LiveWindow = 60 * time.Second

// DefaultDir is $XDG_STATE_HOME/ccvet/backups, else ~/.local/state/ccvet/backups.
func DefaultDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "ccvet", "backups"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home folder for the backup folder (pass --backup-dir): %w", err)
	}
	return filepath.Join(home, ".local", "state", "ccvet", "backups"), nil
}

// Inside reports whether path is root or below it (both made absolute).
func Inside(path, root string) bool {
	p, err1 := filepath.Abs(path)
	r, err2 := filepath.Abs(root)
	if err1 != nil || err2 != nil {
		return false
	}
	if rp, err := filepath.EvalSymlinks(r); err == nil {
		r = rp
	}
	if pp, err := filepath.EvalSymlinks(p); err == nil {
		p = pp
	}
	rel, err := filepath.Rel(r, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// EditRecord is one applied edit as the manifest keeps it.
type EditRecord struct {
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
	Old    string `json:"old"` // base64 of the original bytes
	New    string `json:"new"` // base64 of the new bytes
	Rule   string `json:"rule,omitempty"`
	Safety string `json:"safety,omitempty"`
}

// FileRecord is one replaced file.
type FileRecord struct {
	Path        string       `json:"path"`   // absolute
	Backup      string       `json:"backup"` // relative to the run folder
	Inode       uint64       `json:"inode"`
	Size        int64        `json:"size"`
	Mtime       string       `json:"mtime"`
	Mode        uint32       `json:"mode"`
	SHA256      string       `json:"sha256_before"`
	SizeAfter   int64        `json:"size_after"`
	SHA256After string       `json:"sha256_after"`
	Carried     int64        `json:"carried_bytes,omitempty"` // appended during the run and carried over
	Edits       []EditRecord `json:"edits"`
	Fixes       []FixNote    `json:"fixes,omitempty"` // what the edits do, per pass
}

// FixNote is one fix applied to a file, as the plan described it.
type FixNote struct {
	Pass    int    `json:"pass"`
	Line    int    `json:"line"` // in the bytes of that pass
	Rule    string `json:"rule"`
	Safety  string `json:"safety"`
	Message string `json:"message"`
}

// Manifest is a run's record, written last into its folder.
type Manifest struct {
	ID      string       `json:"id"`
	Version string       `json:"ccvet_version"`
	Created string       `json:"created"`
	Files   []FileRecord `json:"files"`
}

// Store is a backup folder and the hooks a replace runs with.
type Store struct {
	Dir   string
	Force bool // ignore the 60 s mtime gate (never the live pid gate)
	Now   func() time.Time
	// Step, if set, is called after each step of a replace; an error aborts
	// there (tests inject failures with it).
	Step func(step string) error
	// Appended, if set, runs between the backup and the re-stat (tests
	// append lines there, as a live writer would).
	Appended func(path string)
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Store) step(name string) error {
	if s.Step != nil {
		return s.Step(name)
	}
	return nil
}

// Run is one fix run's backup folder.
type Run struct {
	s   *Store
	dir string
	m   Manifest
}

// Begin makes the run's folder: a new timestamped folder, never reused.
func (s *Store) Begin(version string) (*Run, error) {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, refusef("backup folder: %v", err)
	}
	base := s.now().UTC().Format("20060102T150405Z")
	for k := 0; k < 1000; k++ {
		id := base
		if k > 0 {
			id += "-" + strconv.Itoa(k)
		}
		dir := filepath.Join(s.Dir, id)
		err := os.Mkdir(dir, 0o700)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return nil, refusef("backup folder: %v", err)
		}
		return &Run{s: s, dir: dir, m: Manifest{ID: id, Version: version, Created: s.now().UTC().Format(time.RFC3339)}}, nil
	}
	return nil, refusef("no free backup folder name under %s", s.Dir)
}

// ID is the run's id (its folder name).
func (r *Run) ID() string { return r.m.ID }

// Dir is the run's folder.
func (r *Run) Dir() string { return r.dir }

// Live reports why path's session looks live: a sessions/<pid>.json of the
// data root with a live pid naming sessionID, or a change within LiveWindow.
func (s *Store) Live(path, root, sessionID string, st os.FileInfo) error {
	if root != "" && sessionID != "" {
		ents, _ := os.ReadDir(filepath.Join(root, "sessions"))
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".json") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(root, "sessions", e.Name()))
			if err != nil || !bytes.Contains(b, []byte(sessionID)) {
				continue
			}
			var v struct {
				PID       int    `json:"pid"`
				SessionID string `json:"sessionId"`
			}
			_ = json.Unmarshal(b, &v)
			pid := v.PID
			if pid == 0 {
				pid, _ = strconv.Atoi(strings.TrimSuffix(e.Name(), ".json"))
			}
			if v.SessionID != sessionID || pid <= 0 {
				continue
			}
			if processAlive(pid) {
				return refusef("%s: the session is live (process %d, sessions/%s); quit it first", path, pid, e.Name())
			}
		}
	}
	if !s.Force && s.now().Sub(st.ModTime()) < LiveWindow {
		return refusef("%s changed less than %s ago; the session may be live (--force overrides this check)", path, LiveWindow)
	}
	return nil
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Replace writes edits (against orig, which must be the file's bytes) into
// path atomically (label names each edit's rule and class for the manifest), after backing up the original as rel+".orig" in the run
// folder. On any error the file holds its old bytes, or its new bytes with
// the backup in place.
func (r *Run) Replace(path, rel string, orig []byte, es []edit.Edit, label func(edit.Edit) (rule, safety string)) (err error) {
	s := r.s
	st, err := os.Lstat(path)
	if err != nil {
		return refusef("%v", err)
	}
	if !st.Mode().IsRegular() {
		return refusef("%s is not a regular file (a link is never written through)", path)
	}
	ino := inode(st)
	cur, err := os.ReadFile(path)
	if err != nil {
		return refusef("%v", err)
	}
	if !bytes.Equal(cur, orig) {
		return refusef("%s changed since it was planned; run again", path)
	}
	if err := s.step("read"); err != nil {
		return err
	}
	newBytes, err := edit.Bytes(orig, es)
	if err != nil {
		return refusef("%v", err)
	}
	dir := filepath.Dir(path)
	tmp := filepath.Join(dir, "."+filepath.Base(path)+".ccvet-fix.tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, st.Mode().Perm())
	if err != nil {
		return refusef("temp file: %v", err)
	}
	renamed := false
	defer func() {
		if !renamed {
			os.Remove(tmp)
		}
	}()
	if _, err = edit.Apply(f, bytes.NewReader(orig), int64(len(orig)), es); err == nil {
		err = f.Chmod(st.Mode().Perm())
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return refusef("temp file: %v", err)
	}
	if err := s.step("temp"); err != nil {
		return err
	}
	bak := filepath.Join(r.dir, filepath.FromSlash(rel)+".orig")
	if err := backup(path, bak, orig); err != nil {
		return refusef("backup: %v", err)
	}
	if err := s.step("backup"); err != nil {
		return err
	}
	if s.Appended != nil {
		s.Appended(path)
	}
	st2, err := os.Stat(path)
	if err != nil || inode(st2) != ino || st2.Size() < int64(len(orig)) {
		return refusef("%s changed during the run; nothing written", path)
	}
	if err := s.step("restat"); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return refusef("rename: %v", err)
	}
	renamed = true
	syncDir(dir)
	if err := s.step("rename"); err != nil {
		return err
	}
	// Lines the writer appended to the old inode (now the backup) since the
	// plan are carried over whole.
	carried, err := carry(bak, path, int64(len(orig)), len(newBytes))
	if err != nil {
		return fmt.Errorf("carrying appended lines over: %w (the backup %s holds them)", err, bak)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	want := newBytes
	if carried > 0 {
		tail, _ := readFrom(bak, int64(len(orig)), carried)
		want = append(append([]byte{}, newBytes...), tail...)
	}
	if !bytes.Equal(after, want) {
		return fmt.Errorf("%s: re-read bytes differ from the bytes written (the backup is %s)", path, bak)
	}
	if err := s.step("verify"); err != nil {
		return err
	}
	r.m.Files = append(r.m.Files, FileRecord{Path: abs(path), Backup: filepath.ToSlash(rel) + ".orig", Inode: ino,
		Size: int64(len(orig)), Mtime: st.ModTime().UTC().Format(time.RFC3339Nano), Mode: uint32(st.Mode().Perm()),
		SHA256: sum(orig), SizeAfter: int64(len(after)), SHA256After: sum(after), Carried: carried, Edits: Records(orig, edit.Coalesce(es), label)})
	return nil
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// carry appends to path the whole lines the backup inode gained past size.
func carry(bak, path string, size int64, _ int) (int64, error) {
	st, err := os.Stat(bak)
	if err != nil || st.Size() <= size {
		return 0, err
	}
	tail, err := readFrom(bak, size, st.Size()-size)
	if err != nil {
		return 0, err
	}
	if i := bytes.LastIndexByte(tail, '\n'); i >= 0 {
		tail = tail[:i+1]
	} else {
		return 0, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return 0, err
	}
	if _, err = f.Write(tail); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return int64(len(tail)), err
}

func readFrom(path string, off, n int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	_, err = f.ReadAt(b, off)
	if err == io.EOF {
		err = nil
	}
	return b, err
}

// backup hard-links path to bak, or copies it and checks the copy's hash.
func backup(path, bak string, orig []byte) error {
	if err := os.MkdirAll(filepath.Dir(bak), 0o700); err != nil {
		return err
	}
	if err := os.Link(path, bak); err == nil {
		syncDir(filepath.Dir(bak))
		return nil
	}
	f, err := os.OpenFile(bak, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err = f.Write(orig); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	got, err := os.ReadFile(bak)
	if err != nil || sum(got) != sum(orig) {
		return fmt.Errorf("the copy in %s does not match the original", bak)
	}
	syncDir(filepath.Dir(bak))
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// Note attaches the fixes applied to the file last replaced.
func (r *Run) Note(notes []FixNote) {
	if n := len(r.m.Files); n > 0 {
		r.m.Files[n-1].Fixes = append(r.m.Files[n-1].Fixes, notes...)
	}
}

// Commit writes the manifest, last; a run that replaced nothing leaves an
// empty folder's manifest too, so every run is listed.
func (r *Run) Commit() error {
	b, err := json.MarshalIndent(r.m, "", "  ")
	if err != nil {
		return err
	}
	p := filepath.Join(r.dir, "manifest.json")
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err = f.Write(append(b, '\n')); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	syncDir(r.dir)
	return err
}

// Records turns edits against orig into manifest records.
func Records(orig []byte, es []edit.Edit, rule func(edit.Edit) (string, string)) []EditRecord {
	out := make([]EditRecord, 0, len(es))
	for _, e := range es {
		rr, sf := "", ""
		if rule != nil {
			rr, sf = rule(e)
		}
		out = append(out, EditRecord{Offset: e.Offset, Length: e.Length,
			Old: base64.StdEncoding.EncodeToString(orig[e.Offset:e.End()]), New: base64.StdEncoding.EncodeToString([]byte(e.Text)),
			Rule: rr, Safety: sf})
	}
	return out
}

// List reads every run's manifest under dir, oldest first.
func List(dir string) ([]Manifest, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Manifest
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name(), "manifest.json"))
		if err != nil {
			continue // a run that wrote nothing, or was cut off before its manifest
		}
		var m Manifest
		if json.Unmarshal(b, &m) == nil && m.ID == e.Name() {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Undo restores the files of run id ("last" or "" for the newest run with
// files): from the backup when the file still holds the fixed bytes, or by
// the inverse edits when lines were appended since (the new tail is kept).
// It returns what it did per file.
func (s *Store) Undo(id string) ([]string, error) {
	ms, err := List(s.Dir)
	if err != nil {
		return nil, err
	}
	var m *Manifest
	for i := len(ms) - 1; i >= 0; i-- {
		if (id == "" || id == "last") && len(ms[i].Files) > 0 || ms[i].ID == id {
			m = &ms[i]
			break
		}
	}
	if m == nil {
		return nil, refusef("no backup run %q under %s", id, s.Dir)
	}
	runDir := filepath.Join(s.Dir, m.ID)
	var done []string
	for _, fr := range m.Files {
		cur, err := os.ReadFile(fr.Path)
		if err != nil {
			return done, refusef("%v", err)
		}
		if int64(len(cur)) < fr.SizeAfter || sum(cur[:fr.SizeAfter]) != fr.SHA256After {
			return done, refusef("%s changed since run %s (not the fixed bytes); restore %s by hand", fr.Path, m.ID,
				filepath.Join(runDir, filepath.FromSlash(fr.Backup)))
		}
		fixed := cur[:fr.SizeAfter-fr.Carried]
		var es []edit.Edit
		var shift int64
		for _, e := range fr.Edits {
			old, _ := base64.StdEncoding.DecodeString(e.Old)
			nw, _ := base64.StdEncoding.DecodeString(e.New)
			es = append(es, edit.Edit{Offset: e.Offset + shift, Length: int64(len(nw)), Text: string(old)})
			shift += int64(len(nw)) - e.Length
		}
		orig, err := edit.Bytes(fixed, es)
		if err != nil || sum(orig) != fr.SHA256 {
			return done, refusef("%s: the inverse edits of run %s do not give the original back; restore %s by hand", fr.Path, m.ID,
				filepath.Join(runDir, filepath.FromSlash(fr.Backup)))
		}
		restored := append(orig, cur[len(fixed):]...)
		if err := writeAtomic(fr.Path, restored, os.FileMode(fr.Mode)); err != nil {
			return done, err
		}
		how := "restored"
		if tail := int64(len(cur)) - int64(len(fixed)); tail > 0 {
			how = fmt.Sprintf("restored, keeping %d bytes appended since", tail)
		}
		done = append(done, fr.Path+": "+how)
	}
	return done, nil
}

func writeAtomic(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	tmp := filepath.Join(dir, "."+filepath.Base(path)+".ccvet-undo.tmp")
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode.Perm())
	if err != nil {
		return refusef("temp file: %v", err)
	}
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return refusef("%v", err)
	}
	syncDir(dir)
	return nil
}
