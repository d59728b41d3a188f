package rules

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/jsonpos"
	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/readonly"
	"github.com/ccvet/ccvet/internal/secret"
	"github.com/ccvet/ccvet/internal/workers"
)

// Secret reports API keys, tokens and private keys stored in Claude Code's
// files, never their values.
var Secret = register(&Rule{
	ID:       "secret",
	Severity: finding.Error,
	Enabled:  true,
	Since:    "0.2.0",
	Summary:  "a secret (API key, token, private key) is stored in the file",
	Why: "Everything a session saw is kept on disk: a key pasted into a prompt, a token a tool printed, a `.env` " +
		"that `Read` showed. It is stored in the transcript, often several times (subagent transcripts, the " +
		"request ledger, `tool-results/`, `history.jsonl`, `paste-cache/`, file-history backups), and each later " +
		"request of the session sent it to the API again. Sharing or committing the files shares the secret. " +
		"Detection uses gitleaks' default rules (v8.30.1) on every decoded string. Reported once per secret and " +
		"file, at its first occurrence, with a fingerprint (the first 12 hex digits of its SHA-256), never the value.",
	Bad:  `{"type":"user","message":{"role":"user","content":"deploy with AWS_ACCESS_KEY_ID=AKIA…"}}`,
	Good: `{"type":"user","message":{"role":"user","content":"deploy with AWS_ACCESS_KEY_ID=[REDACTED:aws-access-token:3f9a…]"}}`,
	Fix: "Revoke the key first (it was sent to the API and may be in other copies), then `ccvet redact --write PATH` " +
		"replaces every copy under the data root by `[REDACTED:<rule>:<fingerprint>]` (with a backup; `--undo` restores). " +
		"A known false positive: add its finding to the baseline, or turn the rule off for a path in `.ccvet.yaml`.",
	Early: func(r *Rule, l *model.Line, scratch *any) {
		if scansLines(l.File.Kind) {
			earlyScanOf(l.File, scratch).scan(l)
		}
	},
	Line: func(r *Rule, l *model.Line) {
		if !scansLines(l.File.Kind) {
			return
		}
		if found, ok := l.Early.(*lineSecrets); ok {
			secretsOf(l.File).addFound(l, *found)
			return
		}
		if !l.Parsed() {
			// A torn or glued line still holds what was written in it
			// (and the snippet of its invalid-json finding shows it).
			if !l.Cut && !l.Blank {
				secretsOf(l.File).scanBroken(l)
			}
			return
		}
		secretsOf(l.File).scanLine(l)
	},
	File: func(r *Rule, f *model.File) {
		fs := secretsOf(f)
		if f.Kind == layout.Todos && f.Doc != nil {
			fs.scanDoc(f)
		}
		fs.countResends(f)
		if f.Store == nil {
			forgetSecrets(f)
			fs.emit(r, f, nil)
			return
		}
		storeSecrets(f.Store).add(f, fs)
		forgetSecrets(f)
	},
	Prepare: func(r *Rule, s *model.Store) { storeSecrets(s).scanExtra(s) },
	Store:   func(r *Rule, s *model.Store) { storeSecrets(s).emit(r, s) },
})

// occurrence is one distinct secret of one file.
type occurrence struct {
	fp      string
	rule    *secret.Rule
	line    int
	col     int
	uuid    string
	count   int
	resends int // assistant requests after it on the resumed conversation
}

// fileSecrets gathers one file's secrets while its lines are read.
type fileSecrets struct {
	byFP  map[string]*occurrence
	order []*occurrence
	tree  jsontree.Tree
	buf   []byte
	memo  secret.Memo
	// line is the line being scanned, uuid its entry's (read at its first
	// secret), found the method value foundInLine, made once per file
	// (a closure over the line escaped: one allocation per line).
	line  *model.Line
	uuid  string
	found func(secret.Found)
}

func (fs *fileSecrets) add(fp string, m *secret.Rule, line, col int, uuid string) {
	if o := fs.byFP[fp]; o != nil {
		o.count++
		return
	}
	if fs.byFP == nil {
		fs.byFP = map[string]*occurrence{}
	}
	o := &occurrence{fp: fp, rule: m, line: line, col: col, uuid: uuid, count: 1}
	fs.byFP[fp] = o
	fs.order = append(fs.order, o)
}

func (fs *fileSecrets) scanLine(l *model.Line) {
	t := l.Tree
	if t == nil || len(t.Raw) != len(l.Raw) {
		// The reference path: parse the line again for positions.
		if fs.tree.Parse(l.Raw) != nil {
			return
		}
		t = &fs.tree
	}
	if fs.found == nil {
		fs.found = fs.foundInLine
	}
	fs.line, fs.uuid = l, ""
	fs.buf = scanTreeOf(l, t, fs.buf, &fs.memo, fs.found)
	fs.line = nil
}

// scanTreeOf scans t, the parse of line l, for secrets: without checking
// its UTF-8 again when the reader did (model.Line.BadUTF8). It returns
// buf, grown to hold the decoded strings.
func scanTreeOf(l *model.Line, t *jsontree.Tree, buf []byte, memo *secret.Memo, found func(secret.Found)) []byte {
	if l.BadUTF8 < 0 && !l.Cut {
		return secret.Default().ScanTreeUTF8(t, buf, memo, found)
	}
	return secret.Default().ScanTree(t, buf, memo, found)
}

// scansLines reports whether the lines of a file of kind k are scanned
// (transcripts and history).
func scansLines(k layout.Kind) bool {
	return k == layout.Transcript || k == layout.Subagent || k == layout.History
}

// lineSecrets are the secrets the Early check found on a line, in the
// order a scan finds them; noSecrets when there are none.
type lineSecrets []earlyFound

// earlyFound is one: what fileSecrets.add needs but the line's number,
// column and uuid, which Line reads.
type earlyFound struct {
	fp       string
	rule     *secret.Rule
	rawStart int
}

var noSecrets = &lineSecrets{}

// earlyBufKept bounds the string buffer an Early scan keeps for its next line.
const earlyBufKept = 1 << 20

// earlyScan is the Early check's scratch: a decoding goroutine's string
// buffer and memo for one file, and what the line being scanned holds.
type earlyScan struct {
	buf   []byte
	memo  secret.Memo
	found lineSecrets
	add   func(secret.Found) // appends to found, made once
}

func earlyScanOf(f *model.File, scratch *any) *earlyScan {
	if es, ok := (*scratch).(*earlyScan); ok {
		return es
	}
	es := &earlyScan{}
	if f.Store != nil {
		es.memo.Shared = sharedClean(f.Store) // the one secretsOf gives the file's own scans
	}
	es.add = func(fd secret.Found) {
		// The value points into buf, which the next string overwrites:
		// its fingerprint now.
		es.found = append(es.found, earlyFound{fd.Fingerprint(), fd.Rule, fd.RawStart})
	}
	*scratch = es
	return es
}

// scan scans a parsed line as scanLine does (scanTreeOf), and leaves what it found in
// l.Early. A line the tree did not parse is left to Line.
func (es *earlyScan) scan(l *model.Line) {
	t := l.Tree
	if !l.Parsed() || t == nil || len(t.Raw) != len(l.Raw) {
		return
	}
	es.found = es.found[:0]
	es.buf = scanTreeOf(l, t, es.buf, &es.memo, es.add)
	if cap(es.buf) > earlyBufKept {
		es.buf = nil // a huge string's: not held for the rest of the file
	}
	if len(es.found) == 0 {
		l.Early = noSecrets
		return
	}
	found := slices.Clone(es.found)
	l.Early = &found
}

// addFound records the secrets the Early check found on l.
func (fs *fileSecrets) addFound(l *model.Line, found lineSecrets) {
	uuid := ""
	for i, f := range found {
		if i == 0 {
			uuid = l.Root.Get("uuid").String() // as foundInLine reads it
		}
		fs.add(f.fp, f.rule, l.Num, l.Column(f.rawStart), uuid)
	}
}

// foundInLine records a secret of fs.line.
func (fs *fileSecrets) foundInLine(f secret.Found) {
	l := fs.line
	if fs.uuid == "" {
		fs.uuid = l.Root.Get("uuid").String()
	}
	fs.add(f.Fingerprint(), f.Rule, l.Num, l.Column(f.RawStart), fs.uuid)
}

// scanBroken records the secrets of a line that does not parse, read as
// one string body (secret.Scanner.ScanBroken); it has no entry uuid.
func (fs *fileSecrets) scanBroken(l *model.Line) {
	secret.Default().ScanBroken(l.Raw, func(f secret.Found) {
		fs.add(f.Fingerprint(), f.Rule, l.Num, l.Column(f.RawStart), "")
	})
}

func (fs *fileSecrets) scanDoc(f *model.File) {
	if fs.tree.Parse(f.Doc) != nil {
		// A torn or damaged todo list: each line as a line that does
		// not parse.
		for start := 0; start < len(f.Doc); {
			end := bytes.IndexByte(f.Doc[start:], '\n')
			if end < 0 {
				end = len(f.Doc)
			} else {
				end += start
			}
			secret.Default().ScanBroken(f.Doc[start:end], func(fd secret.Found) {
				line, col := jsonpos.LineCol(f.Doc, start+fd.RawStart)
				fs.add(fd.Fingerprint(), fd.Rule, line, col, "")
			})
			start = end + 1
		}
		return
	}
	fs.buf = secret.Default().ScanTree(&fs.tree, fs.buf, nil, func(fd secret.Found) {
		line, col := jsonpos.LineCol(f.Doc, fd.RawStart)
		fs.add(fd.Fingerprint(), fd.Rule, line, col, "")
	})
}

// countResends counts, for each secret of a transcript, the API requests
// after its first occurrence on the conversation the reader resumes: the
// assistant messages (one per message id) that follow it, each of which
// was answered to a request that carried the secret again.
func (fs *fileSecrets) countResends(f *model.File) {
	if len(fs.order) == 0 || !f.Kind.IsTranscript() || len(f.Records) == 0 {
		return
	}
	res := walkOf(f, writerOf(f.Records))
	if res == nil || res.Conv == nil {
		return
	}
	order := res.Conv.Order
	pos := map[int]int{} // line -> place on the conversation
	for k, i := range order {
		pos[int(f.Records[i].Line)] = k
	}
	// after[k]: the assistant messages in order[k+1:], counted once from
	// the end (each secret's count is one look-up, not a walk of the rest).
	after := make([]int, len(order))
	seen := map[entry.ID]bool{}
	for k := len(order) - 1; k >= 0; k-- {
		after[k] = len(seen)
		rec := f.Records[order[k]]
		if rec.Type != "assistant" {
			continue
		}
		id := rec.MessageID()
		if id.IsZero() {
			id = rec.ID()
		}
		seen[id] = true
	}
	for _, o := range fs.order {
		if k, ok := pos[o.line]; ok {
			o.resends += after[k]
		}
	}
}

func (fs *fileSecrets) emit(r *Rule, f *model.File, store map[string]int) {
	for _, o := range fs.order {
		f.Emit(r, finding.Finding{Line: o.line, Column: o.col, UUID: o.uuid, Message: o.message(f.Kind, store), Key: o.key()})
	}
}

// key is what baselines and SARIF fingerprints hash of the finding: the
// secret's rule and fingerprint. Its counts are left out: the copies in
// the store are counted only when the other files are among the paths
// given (a pre-commit run over one file counts none), and the copies and
// later requests grow as the session goes on.
func (o *occurrence) key() string { return "secret " + o.rule.ID + " " + o.fp }

func (o *occurrence) message(kind layout.Kind, store map[string]int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (gitleaks rule %s): %s in this file", o.rule.Name, o.fp, o.rule.ID, times(o.count))
	if n, ok := store[o.fp]; ok && n > o.count {
		fmt.Fprintf(&b, ", %s in the store", times(n))
	}
	if kind.IsTranscript() && o.resends > 0 {
		fmt.Fprintf(&b, "; sent to the API again by %d later request", o.resends)
		if o.resends > 1 {
			b.WriteString("s")
		}
	}
	return b.String()
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// fileSecretsKey names a file's collection (between its lines and its
// file check) in File.State.
type fileSecretsKey struct{}

func secretsOf(f *model.File) *fileSecrets {
	return f.State(fileSecretsKey{}, func() any {
		fs := &fileSecrets{buf: (*stringBufs.Get().(*[]byte))[:0]}
		if f.Store != nil {
			// The files of a store share the strings found clean: a
			// resumed session's file copies the files before it.
			fs.memo.Shared = sharedClean(f.Store)
		}
		return fs
	}).(*fileSecrets)
}

// sharedClean is the store's set of strings found clean.
func sharedClean(s *model.Store) *secret.Clean {
	return s.Shared(cleanKey{}, func() any { return new(secret.Clean) }).(*secret.Clean)
}

// cleanKey names the store's set of strings found clean in Store.Shared.
type cleanKey struct{}

func forgetSecrets(f *model.File) {
	fs, _ := f.TakeState(fileSecretsKey{}).(*fileSecrets)
	if fs != nil && fs.buf != nil {
		b := fs.buf[:0]
		stringBufs.Put(&b)
		fs.buf = nil
	}
}

// stringBufs hold the decoded strings of the files being read.
var stringBufs = sync.Pool{New: func() any { return new([]byte) }}

// storeSecretsKey names the store's collection in Store.Shared.
type storeSecretsKey struct{}

// plainFile is a file outside the JSONL pipeline that holds copies of what
// sessions saw: a file-history backup, a tool result, a paste.
type plainFile struct {
	display string
	secrets *fileSecrets
}

type storeCollection struct {
	mu     sync.Mutex
	files  map[*model.File]*fileSecrets
	plain  []plainFile
	totals map[string]int
}

func storeSecrets(s *model.Store) *storeCollection {
	return s.Shared(storeSecretsKey{}, func() any {
		return &storeCollection{files: map[*model.File]*fileSecrets{}, totals: map[string]int{}}
	}).(*storeCollection)
}

func (st *storeCollection) add(f *model.File, fs *fileSecrets) {
	if len(fs.order) == 0 {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.files[f] = &fileSecrets{order: fs.order}
	for _, o := range fs.order {
		st.totals[o.fp] += o.count
	}
}

// scanExtra reads, under each data root scanned, the plain files that keep
// copies of session content (layout.PlainCopies), line by line. It runs as
// the rule's Prepare, while other files may still be checked.
func (st *storeCollection) scanExtra(s *model.Store) {
	seen := map[string]bool{}
	for _, root := range s.Roots {
		if root.Dir == "" || seen[root.Dir] {
			continue
		}
		seen[root.Dir] = true
		prefix := displayPrefix(s, root.Dir)
		pcs := root.Plain
		if !root.PlainListed {
			pcs = layout.PlainCopies(root.Dir)
		}
		// Read in parallel, as the engine reads the files it checks;
		// gathered in the copies' order.
		found := make([]*fileSecrets, len(pcs))
		jobs := 0
		if s.Env != nil {
			jobs = s.Env.Jobs
		}
		if jobs <= 0 {
			jobs = runtime.NumCPU()
		}
		workers.Each(len(pcs), jobs, func(i int) { found[i] = scanPlain(pcs[i].OSPath) })
		st.mu.Lock() // files still being checked add theirs
		for i, fs := range found {
			if fs == nil || len(fs.order) == 0 {
				continue
			}
			st.plain = append(st.plain, plainFile{display: path.Join(prefix, pcs[i].Rel), secrets: fs})
			for _, o := range fs.order {
				st.totals[o.fp] += o.count
			}
		}
		st.mu.Unlock()
	}
}

// displayPrefix is how the run names the data root dir in display paths:
// what a file's display path has before its path from the root.
func displayPrefix(s *model.Store, dir string) string {
	for _, f := range s.Files {
		if f.Root != dir || f.Stdin {
			continue
		}
		rel, err := filepath.Rel(dir, f.OSPath)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		if strings.HasSuffix(f.Path, rel) {
			return strings.TrimSuffix(strings.TrimSuffix(f.Path, rel), "/")
		}
	}
	return ""
}

// plainChunk is how much of a plain file is scanned at once: a chunk ends
// at a line end when there is one, so that a secret over several lines (a
// private key) is found whole unless it crosses a chunk's edge.
const plainChunk = 4 << 20

// plainBufs are scanPlain's buffers, as large as the files read needed.
var plainBufs = sync.Pool{New: func() any { return new([]byte) }}

// scanPlain scans one plain file (a backup, a tool result, a paste) as
// text, in chunks of whole lines, and places each secret at its line.
func scanPlain(p string) *fileSecrets {
	fh, err := readonly.OpenHandle(p, false)
	if err != nil {
		return nil
	}
	defer fh.Close()
	fs := &fileSecrets{}
	sc := secret.Default()
	bp := plainBufs.Get().(*[]byte)
	defer plainBufs.Put(bp)
	want := int(min(fh.Size()+1, plainChunk))
	if cap(*bp) < want {
		*bp = make([]byte, 0, want)
	}
	buf := (*bp)[:0:want]
	var carry []byte
	line := 1
	for {
		buf = append(buf[:0], carry...)
		n, err := io.ReadFull(fh, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		end := len(buf)
		if err == nil {
			if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
				end = i + 1
			}
		}
		chunk := buf[:end]
		carry = append(carry[:0], buf[end:]...)
		lineOf, at := line, 0
		sc.ScanLine(chunk, func(f secret.Found) {
			// Secrets come in rule order: count lines from the chunk's start.
			if f.RawStart < at {
				lineOf, at = line, 0
			}
			lineOf += bytes.Count(chunk[at:f.RawStart], []byte{'\n'})
			at = f.RawStart
			ls := bytes.LastIndexByte(chunk[:f.RawStart], '\n') + 1
			fs.add(f.Fingerprint(), f.Rule, lineOf, jsonpos.Column(chunk[ls:], f.RawStart-ls), "")
		})
		line += bytes.Count(chunk, []byte{'\n'})
		if err != nil {
			break // the end, or a read error: either ends the scan of this copy
		}
	}
	return fs
}

func (st *storeCollection) emit(r *Rule, s *model.Store) {
	files := make([]*model.File, 0, len(st.files))
	for f := range st.files {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	for _, f := range files {
		st.files[f].emit(r, f, st.totals)
	}
	for _, pf := range st.plain {
		for _, o := range pf.secrets.order {
			s.Emit(r, finding.Finding{Path: pf.display, Line: o.line, Column: o.col, Message: o.message(layout.Other, st.totals), Key: o.key()})
		}
	}
}
