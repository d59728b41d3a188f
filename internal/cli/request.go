package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ccvet/ccvet/internal/ledger"
	"github.com/ccvet/ccvet/internal/readonly"
	"github.com/ccvet/ccvet/internal/report"
)

// cmdRequest rebuilds from the request ledger the API request that produced
// an assistant entry, and prints it as JSON. A ledger too damaged to
// rebuild the request from is reported on stderr with exit status 1.
func cmdRequest(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := subFlags("request", stdout)
	root := fs.String("root", "", "the data `ROOT` to look for SESSION in (default $CLAUDE_CONFIG_DIR, else ~/.claude, from a terminal)")
	if err := parseSub(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("request takes one SESSION[:ENTRY] (a session id or a transcript path; ENTRY an assistant entry uuid or an api-request id)")
	}
	arg := fs.Arg(0)
	session, entryID := arg, ""
	if _, err := os.Stat(arg); err != nil {
		if i := strings.LastIndexByte(arg, ':'); i > 0 {
			session, entryID = arg[:i], arg[i+1:]
		}
	}
	path, err := findSession(session, *root, stdin)
	if err != nil {
		return err
	}
	files := ledgerFiles(path)
	var all []*ledger.Facts
	var own *ledger.Facts
	for _, p := range files {
		// The transcript named is read even through a link; the siblings
		// found beside it are not followed out of the folder.
		// Up to the size at open: a file still written to ends.
		fh, err := readonly.OpenHandle(p, p == path)
		if err != nil {
			if p == path {
				// A FIFO, a link loop, a file that cannot be read: said
				// as it is, not as a transcript without a ledger.
				return usagef("%v", err)
			}
			continue
		}
		testAfterOpen(p)
		facts, _ := ledger.Read(fh, true)
		fh.Close()
		all = append(all, facts)
		if p == path {
			own = facts
		}
	}
	book := ledger.NewBook(all...)
	id := ""
	switch {
	case entryID == "":
		if own == nil || len(own.Refs) == 0 {
			return usagef("%s: no assistant entry names an api-request (written by Claude Code before the request ledger?)", path)
		}
		id = own.Refs[len(own.Refs)-1].Ref
	case book.Requests[entryID] != nil:
		id = entryID
	default:
		ref, ok := book.Refs[entryID]
		if !ok {
			return usagef("no assistant entry %q with a requestRef, and no api-request with that id, in the transcripts of %s", entryID, filepath.Dir(path))
		}
		id = ref
	}
	out, err := book.Request(id)
	if err != nil {
		return findingError{fmt.Errorf("cannot rebuild the request: %w", err)}
	}
	// Every message the session sent: a key in them is masked as in a
	// snippet (what rule secret finds, each byte as '*').
	_, err = stdout.Write(report.EscapeJSON(report.MaskDocument(out)))
	return err
}

// findSession resolves SESSION: a transcript path, or a session id looked
// up under root's projects/ folders.
func findSession(session, root string, stdin io.Reader) (string, error) {
	if st, err := os.Stat(session); err == nil && !st.IsDir() {
		return session, nil
	}
	if strings.ContainsAny(session, `/\`) {
		return "", usagef("no transcript %s", session)
	}
	if root == "" {
		r, err := defaultRootFor(stdin, "--root")
		if err != nil {
			return "", err
		}
		root = r
	}
	p, err := lookupTranscript(root, session)
	if p == "" && err == nil {
		err = usagef("no transcript of session %s under %s", session, filepath.Join(root, "projects"))
	}
	return p, err
}

// lookupTranscript is the transcript of session id under root
// (sessionTranscript); a usage error naming the one ccvet does not follow
// there (unfollowedTranscript); or "" and no error when there is none.
func lookupTranscript(root, id string) (string, error) {
	if p := sessionTranscript(root, id); p != "" {
		return p, nil
	}
	if p := unfollowedTranscript(root, id); p != "" {
		// Claude Code may well read it: not a verdict ccvet can give.
		return "", usagef("%s: the transcript of session %s is a symbolic link or not a regular file (or in a folder that is a link), which ccvet does not follow under --root; pass it as a path to read it", p, id)
	}
	return "", nil
}

// sessionTranscript is root/projects/<folder>/<id>.jsonl, the first by
// folder name that is a regular file in a real folder, or "": as the
// inventory reads a store, a project folder or a transcript that is a
// symbolic link is not followed (it may lead out of the root), and the id
// is a name, never a pattern.
func sessionTranscript(root, id string) string {
	pdir := filepath.Join(root, "projects")
	if st, err := os.Lstat(pdir); err != nil || !st.IsDir() {
		return "" // missing, or a link (not followed)
	}
	folders, _ := os.ReadDir(pdir) // sorted by name
	for _, fe := range folders {
		if !fe.IsDir() {
			continue // a link to a folder is not followed
		}
		p := filepath.Join(pdir, fe.Name(), id+".jsonl")
		if st, err := os.Lstat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// unfollowedTranscript is root/projects/<folder>/<id>.jsonl that
// sessionTranscript passes over (a link, not a regular file, or in a
// folder or projects/ that is a link), or "": named, so that a session
// there is not reported as having no transcript.
func unfollowedTranscript(root, id string) string {
	folders, _ := os.ReadDir(filepath.Join(root, "projects")) // through a link: names only
	for _, fe := range folders {
		p := filepath.Join(root, "projects", fe.Name(), id+".jsonl")
		if _, err := os.Lstat(p); err == nil {
			return p
		}
	}
	return ""
}

// ledgerFiles lists the transcripts a session's ledger may name: every
// transcript of its project folder (resumed and forked sessions name
// requests of the file they came from) and its subagent transcripts.
func ledgerFiles(path string) []string {
	dir := filepath.Dir(path)
	files := jsonlIn(dir)
	sid := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	_ = filepath.WalkDir(filepath.Join(dir, sid, "subagents"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") && d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	found := false
	for _, f := range files {
		if f == path {
			found = true
		}
	}
	if !found {
		files = append(files, path)
	}
	sort.Strings(files)
	return files
}

// jsonlIn lists the *.jsonl names of dir (not a pattern: a folder named
// with '[' or '*' is read as it is).
func jsonlIn(dir string) []string {
	ents, _ := os.ReadDir(dir)
	var files []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".jsonl") {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	return files
}
