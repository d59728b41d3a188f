package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/ccvet/ccvet/internal/readonly"
)

// Change is one file a run rewrites: the bytes it was planned from and
// the bytes to put in their place. This is the whole seam between a
// command that plans (fix, redact) and the file system.
type Change struct {
	Path  string       // the file (an OS path)
	Orig  []byte       // its bytes when planned; the file must still start with them
	New   []byte       // the bytes to write in place of Orig
	Edits []EditRecord // what changed, for the manifest and the inverse (optional)
	Fixes []FixNote    // what the change does, for the manifest (optional)
}

// Written is what a run did to one file.
type Written struct {
	Path    string
	Carried int64  // bytes a writer appended during the run, carried over after the new bytes
	Note    string // what the user must know (bytes put back out of their place)
	// Rounds is how many renames the replace took: more than one when a
	// writer appended to the old file at the moment of a rename.
	Rounds int
}

// maxRounds bounds the replaces of one file that put back bytes a writer
// appended to the old file at the moment of a rename; after them, such
// bytes are appended instead (and said so).
const maxRounds = 8

// writerWait bounds the wait, after a rename, for the processes that
// still hold the old file open for writing (Claude Code opens, appends one
// line and closes).
const writerWait = 5 * time.Second

// Write runs one run of kind ("fix", "redact") over changes: every file is
// gated first (a refusal writes nothing and leaves no run folder); then
// each is backed up (a hard link of the original, or a verified copy on
// another file system), recorded in the manifest, and replaced atomically,
// with every line appended meanwhile carried over in order. The run is nil
// when nothing was replaced. An error wrapping ErrRefused means the file
// it names was not written (earlier files of the run were); any other
// error comes after a replace, with the file recorded in the manifest so
// that Undo can restore it.
func (s *Store) Write(kind, version string, changes []Change) (*Run, []Written, error) {
	if len(changes) == 0 {
		return nil, nil, nil
	}
	for i := range changes {
		c := &changes[i]
		st, err := os.Lstat(c.Path)
		if err != nil {
			return nil, nil, refusef("%v", err)
		}
		if !st.Mode().IsRegular() {
			return nil, nil, refusef("%s is not a regular file (a link is never written through)", c.Path)
		}
		if err := s.Gate(c.Path, st, false); err != nil {
			return nil, nil, err
		}
		if err := lineInFlight(c.Path, st, c.Orig); err != nil {
			return nil, nil, err
		}
		if root := DataRoot(c.Path); root != "" && Inside(s.Dir, root) {
			return nil, nil, refusef("the backup folder %s is inside the Claude data folder %s; keep backups outside it", Real(s.Dir), root)
		}
	}
	run, err := s.begin(kind, version)
	if err != nil {
		return nil, nil, err
	}
	var done []Written
	for i := range changes {
		w, err := run.replace(&changes[i])
		if err != nil {
			run.discard()
			if len(run.m.Files) == 0 {
				run = nil
			}
			return run, done, err
		}
		done = append(done, w)
	}
	return run, done, nil
}

func endsNL(b []byte) bool { return len(b) == 0 || b[len(b)-1] == '\n' }

// A file read while a process was writing a line to it ends inside that
// line, as a torn one does; cutting it as torn, or carrying the rest of it
// over as a line of its own, would destroy the entry being written. Two
// checks, made only on a file whose planned bytes end inside a line, tell
// a line still being written from a torn one (a crash; Claude Code 2.1.330
// and later start their next append with a newline, earlier versions glue
// the next entry onto the fragment, which the replace then carries over on
// a line of its own): the writer still holds the file open (lineInFlight,
// at the gate), or the bytes appended since complete the line into one
// JSON value (completesLine, when the replace reads the file again).

// lineInFlight refuses the file at path (st) when orig, what the run
// planned from, ends inside a line and some process holds the file open for
// writing: a line is being written. --force does not override this.
func lineInFlight(path string, st os.FileInfo, orig []byte) error {
	if endsNL(orig) {
		return nil
	}
	id, ok := idOf(st)
	if !ok {
		return nil
	}
	if open, known := writers(id, ^uintptr(0)); known && open {
		return refusef("%s: a process has it open for writing and its last line is incomplete: a line is being written, its session is live (--force does not override this)", path)
	}
	return nil
}

// completesLine reports whether rest, the bytes a file gained after orig
// (which ends inside a line), continues that line rather than starting a
// new one: rest does not start with a newline, and either holds none yet
// or its first line completes orig's last into one JSON value.
func completesLine(orig, rest []byte) bool {
	if len(rest) == 0 || rest[0] == '\n' {
		return false
	}
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		return true
	}
	last := orig[bytes.LastIndexByte(orig, '\n')+1:]
	return json.Valid(append(append([]byte(nil), last...), rest[:i]...))
}

// joinTail is what goes after content when bytes b, which followed a byte
// that was a newline (prevNL) or not, are carried over: a newline first
// when content ends inside a line and b does not start one (two lines are
// never glued), and without its leading newline when b starts with the
// newline a writer put to end the line content no longer ends inside.
func joinTail(content, b []byte, prevNL bool) []byte {
	if len(b) == 0 {
		return b
	}
	switch {
	case !endsNL(content) && b[0] != '\n':
		return append([]byte{'\n'}, b...)
	case len(content) > 0 && endsNL(content) && !prevNL && b[0] == '\n':
		return b[1:]
	}
	return b
}

// engine replaces one file: content is what the file must hold first, in
// place of the first used bytes of src (the file as it was opened); every
// byte src gains past used is carried over after content, in order. The
// content is the caller's bytes, never copied nor changed (a transcript
// may be hundreds of MB), followed by the bytes carried over (extra).
type engine struct {
	s       *Store
	path    string
	tmpPath string
	keep    os.FileInfo // owner, group and mode to keep
	content []byte
	extra   []byte
	src     *os.File
	used    int64
	srcNL   bool // the byte before src[used] is a newline (or used is 0)
	carried int64
	renamed bool
	note    string
	removed string // a dead run's temp file removed on the way
	rounds  int
}

func newEngine(s *Store, path string, src *os.File, keep os.FileInfo, used int64, prevNL bool, content []byte) *engine {
	return &engine{s: s, path: path, tmpPath: tempName(path), keep: keep, src: src, used: used, srcNL: prevNL,
		content: content}
}

// size is the length of what the file holds first: content and extra.
func (e *engine) size() int64 { return int64(len(e.content) + len(e.extra)) }

// last is the last byte of content and extra, or nothing when both are
// empty: all joinTail and endsNL need to know of them.
func (e *engine) last() []byte {
	if n := len(e.extra); n > 0 {
		return e.extra[n-1:]
	}
	if n := len(e.content); n > 0 {
		return e.content[n-1:]
	}
	return nil
}

// add appends carried bytes after content.
func (e *engine) add(b []byte) { e.extra = append(e.extra, b...) }

// tempName is the temp file of path's replace, beside it: one name per
// file, so that two runs on one file exclude each other.
func tempName(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".ccvet-fix.tmp")
}

// createTemp makes the temp file (O_EXCL), locks it, gives it the owner
// and mode to keep, and writes content. A temp file left by a dead run (no
// lock held) is removed; one a live run holds is a refusal.
func (e *engine) createTemp() (*os.File, error) {
	for attempt := 0; attempt < 3; attempt++ {
		f, err := os.OpenFile(e.tmpPath, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			if e.removeStale() {
				continue
			}
			return nil, refusef("%s exists: another ccvet run is writing %s; if none is running, remove it: rm -- '%s'", e.tmpPath, e.path, e.tmpPath)
		}
		if err != nil {
			return nil, refusef("temp file: %v", err)
		}
		locked := tryLock(f)
		if st, err := os.Lstat(e.tmpPath); locked && err == nil && sameFile(f, st) {
			if err := keepOwner(f, e.keep); err != nil {
				f.Close()
				os.Remove(e.tmpPath)
				return nil, refusef("%s: %v; nothing written", e.path, err)
			}
			_, err = f.Write(e.content)
			if err == nil {
				_, err = f.Write(e.extra)
			}
			if err != nil {
				f.Close()
				os.Remove(e.tmpPath)
				return nil, refusef("temp file: %v", err)
			}
			return f, nil
		}
		f.Close() // removed as stale by another run between create and lock: again
	}
	return nil, refusef("temp file %s: could not take it", e.tmpPath)
}

func sameFile(f *os.File, st os.FileInfo) bool {
	fst, err := f.Stat()
	return err == nil && os.SameFile(fst, st)
}

// removeStale removes the temp file when no process holds its lock (the
// run that made it is dead), and says whether it did.
func (e *engine) removeStale() bool {
	g, _, err := readonly.Open(e.tmpPath, false)
	if errors.Is(err, os.ErrNotExist) {
		return true
	}
	if err != nil {
		return false
	}
	defer g.Close()
	st, err := os.Lstat(e.tmpPath)
	if err != nil || !st.Mode().IsRegular() || !sameFile(g, st) || !tryLock(g) {
		return false
	}
	if os.Remove(e.tmpPath) != nil {
		return false
	}
	e.removed = e.tmpPath
	return true
}

// wholeLines reads f from off to its end, up to and with its last newline.
func wholeLines(f *os.File, off int64) ([]byte, error) {
	b, err := readTail(f, off)
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return b[:i+1], err
	}
	return nil, err
}

// readTail reads f from off to its end.
func readTail(f *os.File, off int64) ([]byte, error) {
	st, err := f.Stat()
	if err != nil || st.Size() <= off {
		return nil, err
	}
	b := make([]byte, st.Size()-off)
	n, err := f.ReadAt(b, off)
	if err == io.EOF {
		err = nil
	}
	return b[:n], err
}

// carryInto appends to tmp the whole lines src gained past used, until it
// gains none.
func (e *engine) carryInto(tmp *os.File) error {
	for {
		t, err := wholeLines(e.src, e.used)
		if err != nil {
			return err
		}
		if len(t) == 0 {
			return nil
		}
		add := joinTail(e.last(), t, e.srcNL)
		if _, err := tmp.Write(add); err != nil {
			return err
		}
		e.add(add)
		e.used += int64(len(t))
		e.srcNL = true
		e.carried += int64(len(t))
	}
}

// drain waits until no process holds old open for writing (as far as the
// system tells; bounded), then reads every byte it gained past used.
func (e *engine) drain(old *os.File, used int64) []byte {
	st, err := old.Stat()
	id, ok := idOf(st)
	if err == nil && ok {
		start := time.Now()
		clean := 0
		for clean < 2 {
			open, known := writers(id, old.Fd())
			switch {
			case !known:
				time.Sleep(20 * time.Millisecond)
				clean = 2
			case !open:
				clean++
			case time.Since(start) > writerWait:
				e.note = fmt.Sprintf("a process still held the replaced file open for writing after %s; bytes it writes from now on go to the old file, not to %s", writerWait, e.path)
				clean = 2
			default:
				clean = 0
			}
			if clean == 1 {
				time.Sleep(time.Millisecond)
			}
		}
	}
	b, _ := readTail(old, used)
	return b
}

// run writes content and the lines carried over into the temp file first,
// renames it over the file, and puts back in order whatever a writer
// appended to the old file at the moment of the rename (another round),
// until a round finds nothing. Before the first rename, an error leaves
// the file as it was.
func (e *engine) run(tmp *os.File) error {
	defer func() {
		if !e.renamed {
			os.Remove(e.tmpPath)
		}
	}()
	var pending []byte // bytes put back this round, not yet in the file
	for round := 0; ; round++ {
		var err error
		if tmp == nil {
			if tmp, err = e.createTemp(); err != nil {
				e.src.Close()
				return e.putBack(pending, err)
			}
		}
		if err = e.carryInto(tmp); err == nil && round == 0 {
			if e.s.Appended != nil {
				e.s.Appended(e.path)
			}
			if err = e.s.step("restat"); err == nil {
				err = e.carryInto(tmp)
			}
		}
		if err == nil {
			err = tmp.Sync()
		}
		if err == nil {
			// Lines appended while the temp file was flushed: the window
			// left before the rename is as short as a read.
			err = e.carryInto(tmp)
		}
		if err == nil {
			err = os.Rename(e.tmpPath, e.path)
		}
		if err != nil {
			tmp.Close()
			if !e.renamed {
				return err
			}
			os.Remove(e.tmpPath)
			e.src.Close()
			return e.putBack(pending, err)
		}
		e.renamed = true
		e.rounds++
		_ = tmp.Sync() // the lines carried after the first flush
		syncDir(filepath.Dir(e.path))
		old, oldUsed, oldNL := e.src, e.used, e.srcNL
		e.src, e.used, e.srcNL = tmp, e.size(), endsNL(e.last())
		if round == 0 {
			if err := e.s.step("rename"); err != nil {
				old.Close()
				tmp.Close()
				return err
			}
		}
		late := e.drain(old, oldUsed)
		old.Close()
		if len(late) == 0 {
			tmp.Close()
			return nil
		}
		e.carried += int64(len(late))
		add := joinTail(e.last(), late, oldNL)
		if round+1 >= maxRounds {
			tmp.Close()
			return e.putBack(add, nil)
		}
		e.add(add)
		pending = add
		tmp = nil
	}
}

// putBack appends bytes a writer appended to an old file at the moment of
// a rename, when another round is not possible: after what is in the file
// now, so possibly after lines appended since; it says so.
func (e *engine) putBack(add []byte, cause error) error {
	if len(add) == 0 {
		return cause
	}
	f, err := os.OpenFile(e.path, os.O_WRONLY|os.O_APPEND, 0)
	if err == nil {
		_, err = f.Write(add)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %d bytes appended at the moment of the replace could not be put back: %v", e.path, len(add), err)
	}
	e.note = fmt.Sprintf("%d bytes appended at the moment of the replace were put back at the end, possibly after lines appended since", len(add))
	return cause
}

// replace backs up, records and replaces one change's file.
func (r *Run) replace(c *Change) (Written, error) {
	s := r.s
	w := Written{Path: c.Path}
	src, st, err := readonly.Open(c.Path, false)
	if err != nil {
		return w, refusef("%v", err)
	}
	closeSrc := true
	defer func() {
		if closeSrc {
			src.Close()
		}
	}()
	if same, err := startsWith(src, c.Orig, nil); !same {
		if err != nil {
			return w, refusef("%v", err)
		}
		return w, refusef("%s changed since it was planned; nothing written to it: run again", c.Path)
	}
	if !endsNL(c.Orig) {
		if rest, err := readTail(src, int64(len(c.Orig))); err == nil && completesLine(c.Orig, rest) {
			return w, refusef("%s: its last line was still being written when it was read (the bytes appended since continue it); nothing written to it: run again", c.Path)
		}
	}
	if err := s.step("read"); err != nil {
		return w, err
	}
	e := newEngine(s, c.Path, src, st, int64(len(c.Orig)), endsNL(c.Orig), c.New)
	tmp, err := e.createTemp()
	if err != nil {
		return w, err
	}
	fail := func(err error) (Written, error) {
		tmp.Close()
		os.Remove(e.tmpPath)
		return w, err
	}
	if err := s.step("temp"); err != nil {
		return fail(err)
	}
	rel := backupRel(c.Path)
	bak := filepath.Join(r.dir, filepath.FromSlash(rel)+".orig")
	if err := backup(c.Path, st, bak, c.Orig, s.copyBackup); err != nil {
		return fail(refusef("backup of %s: %v; nothing written to it", c.Path, err))
	}
	real := Real(c.Path)
	rec := FileRecord{Path: real, Backup: rel + ".orig", Inode: inode(st), Size: int64(len(c.Orig)),
		Mtime: st.ModTime().UTC().Format(time.RFC3339Nano), Mode: uint32(st.Mode().Perm()), SHA256: sum(c.Orig),
		SizeAfter: int64(len(c.New)), SHA256After: sum(c.New), State: "pending", Edits: c.Edits, Fixes: c.Fixes}
	if rec.Edits == nil {
		rec.Edits = []EditRecord{}
	}
	r.m.Files = append(r.m.Files, rec)
	k := len(r.m.Files) - 1
	unrecord := func(err error) (Written, error) {
		r.m.Files = r.m.Files[:k]
		os.Remove(bak)
		if serr := r.save(); serr != nil {
			err = fmt.Errorf("%w (and the manifest: %v)", err, serr)
		}
		return fail(err)
	}
	if err := s.step("backup"); err != nil {
		return unrecord(err)
	}
	if err := r.save(); err != nil {
		return unrecord(refusef("manifest: %v; nothing written to %s", err, c.Path))
	}
	if err := s.step("manifest"); err != nil {
		return unrecord(err)
	}
	closeSrc = false
	err = e.run(tmp)
	if !e.renamed {
		src.Close()
		if !errors.Is(err, ErrRefused) && err != nil {
			err = fmt.Errorf("%w: %s: %w; nothing written to it", ErrRefused, c.Path, err)
		}
		r.m.Files = r.m.Files[:k]
		os.Remove(bak)
		if serr := r.save(); serr != nil && err == nil {
			err = serr
		}
		return w, err
	}
	fr := &r.m.Files[k]
	fr.Carried, fr.Note = e.carried, e.note
	if err == nil {
		fr.State = "replaced"
		err = verifyPrefix(c.Path, e.content, e.extra)
	}
	if after, serr := os.Stat(c.Path); serr == nil {
		fr.MtimeAfter = after.ModTime().UTC().Format(time.RFC3339Nano)
	}
	if serr := r.save(); serr != nil && err == nil {
		err = fmt.Errorf("writing the manifest after replacing %s: %w", c.Path, serr)
	}
	w.Carried, w.Note, w.Rounds = e.carried, e.note, e.rounds
	if e.removed != "" && w.Note == "" {
		w.Note = "removed " + e.removed + ", left by a run that was cut off"
	}
	if err == nil {
		err = s.step("verify")
	}
	return w, err
}

// verifyPrefix reads the file back: it must start with want and then
// more (a writer may have appended since).
func verifyPrefix(path string, want, more []byte) error {
	f, _, err := readonly.Open(path, false)
	if err != nil {
		return err
	}
	defer f.Close()
	if same, _ := startsWith(f, want, more); !same {
		return fmt.Errorf("%s: the bytes read back differ from the bytes written (the manifest records the file: undo can restore it)", path)
	}
	return nil
}

// startsWith reports whether f, from its start, holds want and then more,
// reading a chunk at a time (never a second copy of a large file); err is
// a read error other than the file being too short.
func startsWith(f io.ReaderAt, want, more []byte) (bool, error) {
	buf := make([]byte, min(len(want)+len(more), 1<<20))
	var off int64
	for _, b := range [][]byte{want, more} {
		for len(b) > 0 {
			n := min(len(b), len(buf))
			got, err := f.ReadAt(buf[:n], off)
			if got < n || !bytes.Equal(buf[:n], b[:n]) {
				if err == io.EOF {
					err = nil
				}
				return false, err
			}
			b = b[n:]
			off += int64(n)
		}
	}
	return true, nil
}

// backup hard-links the file (the inode src was opened on) to bak, or
// copies orig there and checks the copy's hash when a link is not possible
// (another file system) or copy is set.
func backup(path string, st os.FileInfo, bak string, orig []byte, copy bool) error {
	if !filepath.IsLocal(filepath.Base(bak)) {
		return fmt.Errorf("bad backup name %s", bak)
	}
	if err := os.MkdirAll(filepath.Dir(bak), 0o700); err != nil {
		return err
	}
	if !copy {
		if err := os.Link(path, bak); err == nil {
			if lst, err := os.Lstat(bak); err == nil && os.SameFile(lst, st) {
				syncDir(filepath.Dir(bak))
				return nil
			}
			os.Remove(bak) // path named another file by then
			return errors.New("the file was replaced during the run")
		}
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
	if err == nil {
		var got string
		got, err = sumFile(bak)
		if err == nil && got != sum(orig) {
			err = fmt.Errorf("the copy in %s does not match the original", bak)
		}
	}
	if err != nil {
		os.Remove(bak)
		return err
	}
	syncDir(filepath.Dir(bak))
	return nil
}
