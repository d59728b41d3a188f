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
	root := fs.String("root", "", "the data `ROOT` to look for SESSION in (default $CLAUDE_CONFIG_DIR, else ~/.claude)")
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
		fh, _, err := readonly.Open(p, p == path)
		if err != nil {
			continue
		}
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
	_, err = stdout.Write(report.EscapeJSON(report.MaskSecrets(out)))
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
	matches, _ := filepath.Glob(filepath.Join(root, "projects", "*", session+".jsonl"))
	if len(matches) == 0 {
		return "", usagef("no transcript of session %s under %s", session, filepath.Join(root, "projects"))
	}
	sort.Strings(matches)
	return matches[0], nil
}

// ledgerFiles lists the transcripts a session's ledger may name: every
// transcript of its project folder (resumed and forked sessions name
// requests of the file they came from) and its subagent transcripts.
func ledgerFiles(path string) []string {
	dir := filepath.Dir(path)
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
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
