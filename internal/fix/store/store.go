// Package store is the file-system side of ccvet's repairs: the live-session gate, backups, atomic replace with carry-over, the manifest, and undo.
//
// A command that rewrites files (fix, redact) plans new bytes per file in
// memory, then hands them to Store.Write as Changes with the run's kind.
// Write gates every file, backs each up, records it in the run's manifest
// before replacing it, replaces it atomically while carrying over every
// line a live writer appends meanwhile, and records what it did. Undo
// reverses any run, whatever its kind.
package store

import (
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

// LiveWindow is how recently a file may have changed before a run treats its session as live.
const LiveWindow = 60 * time.Second

// Format is the manifest format this package writes: 2 records the bytes
// a run wrote (size_after, sha256_after) apart from the bytes it carried
// over, and the manifest is written before each replace.
const Format = 2

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

// Real is path made absolute with every link in it resolved, including
// those of its existing ancestors when path itself does not exist yet (a
// backup folder not made yet is where its parent's links put it).
func Real(path string) string {
	p, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	var rest []string
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				r = filepath.Join(r, rest[i])
			}
			return r
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Clean(path)
		}
		rest = append(rest, filepath.Base(p))
		p = parent
	}
}

// Inside reports whether path is root or below it, once both are made
// absolute and their links resolved (Real).
func Inside(path, root string) bool {
	rel, err := filepath.Rel(Real(root), Real(path))
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

// FileRecord is one file of a run.
type FileRecord struct {
	Path   string `json:"path"`   // absolute
	Backup string `json:"backup"` // relative to the run folder
	Inode  uint64 `json:"inode"`
	Size   int64  `json:"size"`
	Mtime  string `json:"mtime"`
	Mode   uint32 `json:"mode"`
	SHA256 string `json:"sha256_before"`
	// SizeAfter and SHA256After are the bytes the run wrote in place of
	// the Size bytes before; lines appended meanwhile follow them.
	SizeAfter   int64  `json:"size_after"`
	SHA256After string `json:"sha256_after"`
	// State is "pending" from just before the replace until it is done,
	// then "replaced".
	State string `json:"state,omitempty"`
	// Carried is how many bytes a writer appended during the run and the
	// run carried over after the new bytes.
	Carried int64 `json:"carried_bytes,omitempty"`
	// MtimeAfter is the file's modification time when the run was done
	// with it (undo does not take its own write for a live session).
	MtimeAfter string       `json:"mtime_after,omitempty"`
	Note       string       `json:"note,omitempty"` // what the user must know about this file
	Edits      []EditRecord `json:"edits"`
	Fixes      []FixNote    `json:"fixes,omitempty"` // what the edits do, per pass
}

// FixNote is one fix applied to a file, as the plan described it.
type FixNote struct {
	Pass    int    `json:"pass"`
	Line    int    `json:"line"` // in the bytes of that pass
	Rule    string `json:"rule"`
	Safety  string `json:"safety"`
	Message string `json:"message"`
}

// Manifest is a run's record. It is written when the run's folder is made
// and again before and after each file is replaced.
type Manifest struct {
	ID      string       `json:"id"`
	Tool    string       `json:"tool,omitempty"` // "ccvet"
	Kind    string       `json:"kind,omitempty"` // "fix", "redact"
	Format  int          `json:"format,omitempty"`
	Version string       `json:"ccvet_version"`
	Created string       `json:"created"`
	Files   []FileRecord `json:"files"`
	// Incomplete is set by List for a run folder without a readable
	// manifest (a run cut off before its first manifest: nothing replaced).
	Incomplete string `json:"-"`
}

// Store is a backup folder and the options a run works with.
type Store struct {
	Dir string
	// Force overrides the 60 s modification-time check and the read-only
	// refusal, never the live pid check.
	Force bool
	Now   func() time.Time
	// Step, if set, is called after each step of a replace; an error aborts
	// there (tests inject failures with it).
	Step func(step string) error
	// Appended, if set, runs between the backup and the rename (tests
	// append lines there, as a live writer would).
	Appended func(path string)
	// AllowLoose lets Undo write a file outside every data root (tests
	// fixing copies in a temp folder). The command line never sets it:
	// undo writes only files of a Claude data folder.
	AllowLoose bool
	// copyBackup makes backups copies, as on another file system (tests).
	copyBackup bool
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

// sum is the hex sha256 of b, hashed an edit.Chunk at a time: one call
// over hundreds of MB could not be preempted (edit.Chunk says why).
func sum(b []byte) string {
	h := sha256.New()
	for len(b) > 0 {
		n := min(len(b), edit.Chunk)
		h.Write(b[:n])
		b = b[n:]
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sumFile is sum of the file at p's bytes, read a buffer at a time.
func sumFile(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Records turns edits against orig into manifest records; rule, if set,
// names each edit's rule and fix class.
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

// List reads every run under dir, oldest first. A run folder without a
// readable manifest is listed with Incomplete saying why.
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
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue // run folders only: never a link
		}
		m, err := readManifest(filepath.Join(dir, e.Name()))
		switch {
		case errors.Is(err, os.ErrNotExist):
			m = Manifest{ID: e.Name(), Incomplete: "no manifest: the run was cut off before it replaced anything"}
		case err != nil:
			m = Manifest{ID: e.Name(), Incomplete: err.Error()}
		case m.ID != e.Name():
			m = Manifest{ID: e.Name(), Incomplete: "its manifest names another run"}
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return runBefore(out[i].ID, out[j].ID) })
	return out, nil
}

// runBefore orders run ids oldest first: by their time, then by the
// number begin adds to a second run of the same second, as a number
// (20260101T000000Z-10 comes after 20260101T000000Z-9, which a plain
// string order puts first).
func runBefore(a, b string) bool {
	ab, an := splitRunID(a)
	bb, bn := splitRunID(b)
	if ab != bb {
		return ab < bb
	}
	if an != bn {
		return an < bn
	}
	return a < b
}

// splitRunID splits an id begin made into its time and its number (0 for
// none).
func splitRunID(id string) (string, int) {
	i := strings.LastIndexByte(id, '-')
	if i <= 0 {
		return id, 0
	}
	n, err := strconv.Atoi(id[i+1:])
	if err != nil || n <= 0 || strconv.Itoa(n) != id[i+1:] {
		return id, 0
	}
	return id[:i], n
}

// maxManifest bounds the manifest read back (edits are recorded whole).
const maxManifest = 256 << 20

func readManifest(runDir string) (Manifest, error) {
	var m Manifest
	p := filepath.Join(runDir, "manifest.json")
	st, err := os.Lstat(p)
	if err != nil {
		return m, err
	}
	if !st.Mode().IsRegular() || st.Size() > maxManifest {
		return m, fmt.Errorf("manifest.json is not a regular file of at most %d MiB", maxManifest>>20)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("manifest.json: %v", err)
	}
	return m, nil
}

// Run is one run's backup folder.
type Run struct {
	s   *Store
	dir string
	m   Manifest
}

// ID is the run's id (its folder name).
func (r *Run) ID() string { return r.m.ID }

// Dir is the run's folder.
func (r *Run) Dir() string { return r.dir }

// Manifest is the run's record as last written.
func (r *Run) Manifest() Manifest { return r.m }

// begin makes the run's folder, a new timestamped folder never reused,
// and writes its first manifest.
func (s *Store) begin(kind, version string) (*Run, error) {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, refusef("backup folder: %v", err)
	}
	if st, err := os.Stat(s.Dir); err != nil || !st.IsDir() {
		return nil, refusef("backup folder %s is not a folder", s.Dir)
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
		r := &Run{s: s, dir: dir, m: Manifest{ID: id, Tool: "ccvet", Kind: kind, Format: Format, Version: version,
			Created: s.now().UTC().Format(time.RFC3339)}}
		if err := r.save(); err != nil {
			os.Remove(dir)
			return nil, refusef("backup folder: %v", err)
		}
		return r, nil
	}
	return nil, refusef("no free backup folder name under %s", s.Dir)
}

// save writes the manifest atomically (temp file, fsync, rename).
func (r *Run) save() error {
	b, err := json.MarshalIndent(r.m, "", "  ")
	if err != nil {
		return err
	}
	p := filepath.Join(r.dir, "manifest.json")
	tmp := p + ".tmp"
	os.Remove(tmp)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err = f.Write(append(b, '\n')); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(r.dir)
	return nil
}

// discard removes the folder of a run that replaced nothing, so that a
// refused run leaves no empty backup run behind.
func (r *Run) discard() {
	if len(r.m.Files) == 0 {
		os.RemoveAll(r.dir)
		syncDir(filepath.Dir(r.dir))
	}
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// backupRel is where a file's backup goes inside a run folder: its path
// below its data root, else loose/<hash of its folder>/<name>. Either way
// it stays inside the run folder, whatever `..` the file was named with.
func backupRel(path string) string {
	real := Real(path)
	if root := DataRoot(real); root != "" {
		if rel, err := filepath.Rel(root, real); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	h := sha256.Sum256([]byte(filepath.Dir(real)))
	return "loose/" + hex.EncodeToString(h[:6]) + "/" + filepath.Base(real)
}
