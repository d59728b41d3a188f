package layout

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// addContext adds, for every transcript given as a file argument, the
// transcripts its cross-file checks look in, marked Context: the other
// transcripts of its folder, the subagent transcripts of its session
// (<sid>/subagents/ beside <sid>.jsonl) and, for a subagent transcript, its
// parent <sid>.jsonl. A file named in the arguments, or found under a folder
// argument, is never a context file. Context is best effort: what cannot be
// listed or opened is left out without a word.
//
// This is what makes a partial file list (a pre-commit hook passes only the
// changed files, split across several runs) give the same verdict on each
// file as a run over its whole folder: a resumed or forked session names
// parents and tool calls that live in a sibling transcript.
func addContext(res *Result, fileArgs []*File, seen map[string]bool) {
	for _, f := range fileArgs {
		if !f.Kind.IsTranscript() || f.Stdin {
			continue
		}
		dir := filepath.Dir(f.OSPath)
		cands := jsonlIn(dir)
		switch f.Kind {
		case Transcript:
			stem := strings.TrimSuffix(filepath.Base(f.OSPath), ".jsonl")
			cands = append(cands, jsonlBelow(filepath.Join(dir, stem, "subagents"))...)
		case Subagent:
			slash := filepath.ToSlash(f.OSPath)
			if i := strings.LastIndex(slash, "/subagents/"); i >= 0 {
				sessDir := filepath.FromSlash(slash[:i])
				cands = append(cands, sessDir+".jsonl")
				cands = append(cands, jsonlBelow(filepath.Join(sessDir, "subagents"))...)
			}
		}
		for _, p := range cands {
			abs, err := filepath.Abs(p)
			if err != nil || seen[abs] {
				continue
			}
			st, err := os.Lstat(p)
			if err != nil || !st.Mode().IsRegular() {
				continue
			}
			seen[abs] = true
			cf := &File{OSPath: p, Path: filepath.ToSlash(p), Size: st.Size(), Arg: f.Arg, Context: true}
			classify(cf, abs, Root{})
			if cf.Kind == Other && strings.HasSuffix(p, ".jsonl") {
				cf.Kind = Transcript
			}
			if cf.Kind.IsTranscript() {
				res.Files = append(res.Files, cf)
			}
		}
	}
}

// jsonlIn lists the .jsonl files directly in dir.
func jsonlIn(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".jsonl") { // links are never context
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// jsonlBelow lists the .jsonl files under dir, without following links to folders.
func jsonlBelow(dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".jsonl") {
			out = append(out, p)
		}
		return nil
	})
	return out
}
