package store

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/readonly"
)

// maxUndo bounds the bytes of a file undo holds in memory.
const maxUndo = 1 << 30

// Find is run id of the store ("last" or "" for the newest run that
// recorded a file).
func (s *Store) Find(id string) (*Manifest, error) {
	if id != "" && id != "last" && !validID(id) {
		return nil, refusef("%q is not a backup run id (see --list-backups)", id)
	}
	ms, err := List(s.Dir)
	if err != nil {
		return nil, refusef("backup folder: %v", err)
	}
	for i := len(ms) - 1; i >= 0; i-- {
		m := &ms[i]
		if id == "" || id == "last" {
			if m.Incomplete == "" && len(m.Files) > 0 {
				return m, nil
			}
			continue
		}
		if m.ID == id {
			if m.Incomplete != "" {
				return nil, refusef("backup run %s cannot be undone: %s", id, m.Incomplete)
			}
			return m, nil
		}
	}
	if id == "" || id == "last" {
		return nil, refusef("no backup run with files under %s", s.Dir)
	}
	return nil, refusef("no backup run %s under %s (see --list-backups)", id, s.Dir)
}

func validID(id string) bool {
	return id != "" && filepath.IsLocal(id) && !strings.ContainsAny(id, `/\`) && !strings.HasPrefix(id, ".")
}

// Undo restores the files of run id ("last" or "" for the newest run with
// files), through the same gate and replace as a run: from the backup (or
// the inverse edits) when the file still starts with the bytes the run
// wrote, keeping every line appended since and during the undo. A file
// already restored is left alone and said so. It returns what it did per
// file; an error wrapping ErrRefused left the file it names as it was.
func (s *Store) Undo(id string) ([]string, error) {
	m, err := s.Find(id)
	if err != nil {
		return nil, err
	}
	runDir := filepath.Join(s.Dir, m.ID)
	if st, err := os.Lstat(runDir); err != nil || !st.IsDir() {
		return nil, refusef("backup run %s is not a folder", runDir)
	}
	if m.Tool != "ccvet" && (m.Format >= Format || m.Version == "") {
		return nil, refusef("%s was not written by ccvet; nothing restored", filepath.Join(runDir, "manifest.json"))
	}
	r := &Run{s: s, dir: runDir, m: *m}
	var done []string
	for k := range r.m.Files {
		how, err := r.undoFile(k)
		if how != "" {
			done = append(done, r.m.Files[k].Path+": "+how)
		}
		if err != nil {
			return done, err
		}
	}
	return done, nil
}

// undoFile restores file k of the run.
func (r *Run) undoFile(k int) (string, error) {
	s := r.s
	fr := &r.m.Files[k]
	path := fr.Path
	bak := filepath.Join(r.dir, filepath.FromSlash(fr.Backup))
	byHand := func() string { return fmt.Sprintf("restore it by hand from %s", bak) }
	if fr.State == "undone" {
		return "already restored", nil
	}
	// Only a file of a data root, named by its real path, is ever written.
	if !filepath.IsAbs(path) || filepath.Clean(path) != path || Real(path) != path {
		return "", refusef("%s: not a file named by its real path; the manifest of run %s is not one ccvet wrote", path, r.m.ID)
	}
	if DataRoot(path) == "" && !s.AllowLoose {
		return "", refusef("%s is in no Claude data folder, and --undo writes only files of one: %s", path, byHand())
	}
	if !filepath.IsLocal(filepath.FromSlash(fr.Backup)) {
		return "", refusef("%s: backup %q is outside run %s", path, fr.Backup, r.m.ID)
	}
	src, st, err := readonly.Open(path, false)
	if err != nil {
		return "", refusef("%v", err)
	}
	defer func() {
		if src != nil {
			src.Close()
		}
	}()
	if st.Size() > maxUndo {
		return "", refusef("%s is over %d MiB; %s", path, maxUndo>>20, byHand())
	}
	cur, err := readUpTo(src, st.Size())
	if err != nil {
		return "", refusef("%v", err)
	}
	newLen, newSum := fr.SizeAfter, fr.SHA256After
	if r.m.Format < Format {
		newLen -= fr.Carried // older manifests counted carried bytes in size_after and its hash
	}
	afterLen := fr.SizeAfter
	fixed := int64(len(cur)) >= afterLen && afterLen >= newLen && newLen >= 0 && sum(cur[:afterLen]) == newSum
	if !fixed {
		if int64(len(cur)) >= fr.Size && sum(cur[:fr.Size]) == fr.SHA256 {
			if fr.State == "pending" {
				return "not replaced (run " + r.m.ID + " stopped before it): nothing to restore", nil
			}
			return "already restored", nil
		}
		return "", refusef("%s changed since run %s (it no longer starts with the bytes the run wrote); %s", path, r.m.ID, byHand())
	}
	// The file as the run left it (nothing appended since) is not taken
	// for a live session by the change time the run itself gave it.
	own := int64(len(cur)) == afterLen+fr.Carried &&
		(fr.State == "pending" && fr.Carried == 0 || fr.MtimeAfter != "" && st.ModTime().UTC().Format(time.RFC3339Nano) == fr.MtimeAfter)
	if err := s.Gate(path, st, own); err != nil {
		return "", err
	}
	orig, err := r.original(fr, cur[:newLen])
	if err != nil {
		return "", refusef("%s: %v; %s", path, err, byHand())
	}
	e := newEngine(s, path, src, st, newLen, endsNL(cur[:newLen]), orig)
	tmp, err := e.createTemp()
	if err != nil {
		return "", err
	}
	src = nil // the engine closes it
	err = e.run(tmp)
	if !e.renamed {
		e.src.Close()
		return "", err
	}
	fr.State = "undone"
	if serr := r.save(); serr != nil && err == nil {
		err = fmt.Errorf("recording the undo in %s: %w", r.dir, serr)
	}
	how := "restored"
	if kept := e.carried; kept > 0 { // the tail read first and what came during the undo
		how = fmt.Sprintf("restored, keeping %d bytes appended since", kept)
	}
	if e.note != "" {
		how += " (" + e.note + ")"
	}
	return how, err
}

// readUpTo reads r up to size bytes into a buffer of that size, not grown
// by io.ReadAll's doubling; a file that grew since the stat is read to
// that size, the rest carried over. One shorter than the stat said is
// read as it is, the hashes judge it.
func readUpTo(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, size)
	n, err := io.ReadFull(r, b)
	if err == io.ErrUnexpectedEOF || err == io.EOF { // EOF: not a byte left
		err = nil
	}
	return b[:n], err
}

// original gives the bytes a file had before the run: the backup's first
// Size bytes, else the inverse of the recorded edits applied to fixed;
// either checked against the recorded hash.
func (r *Run) original(fr *FileRecord, fixed []byte) ([]byte, error) {
	bak := filepath.Join(r.dir, filepath.FromSlash(fr.Backup))
	if st, err := os.Lstat(bak); err == nil && st.Mode().IsRegular() && st.Size() >= fr.Size {
		if f, err := os.Open(bak); err == nil {
			b := make([]byte, fr.Size)
			_, err := io.ReadFull(f, b)
			f.Close()
			if err == nil && sum(b) == fr.SHA256 {
				return b, nil
			}
		}
	}
	var es []edit.Edit
	var shift int64
	for _, e := range fr.Edits {
		old, err1 := base64.StdEncoding.DecodeString(e.Old)
		nw, err2 := base64.StdEncoding.DecodeString(e.New)
		if err1 != nil || err2 != nil {
			return nil, errors.New("the manifest's edits are not base64")
		}
		es = append(es, edit.Edit{Offset: e.Offset + shift, Length: int64(len(nw)), Text: string(old)})
		shift += int64(len(nw)) - e.Length
	}
	orig, err := edit.Bytes(fixed, es)
	if err != nil || sum(orig) != fr.SHA256 || len(es) == 0 && !bytes.Equal(orig, fixed) {
		return nil, fmt.Errorf("neither the backup nor the inverse edits of run %s give the original back", r.m.ID)
	}
	return orig, nil
}
