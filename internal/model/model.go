// Package model is the model of a checked store: its files, their lines, projects and the store, with their lookups.
package model

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"hash/maphash"
	"io"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/chain"
	"github.com/ccvet/ccvet/internal/digest"
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/jsonl"
	"github.com/ccvet/ccvet/internal/jsonpos"
	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/memo"
	"github.com/ccvet/ccvet/internal/readonly"
	"github.com/ccvet/ccvet/internal/schema"
)

// Rule is what a finding is reported for: a rule's id and its default
// severity (package rules' *Rule is one).
type Rule interface {
	RuleID() string
	DefaultSeverity() finding.Severity
}

// HistoryRef is one history.jsonl line that names a session: what the
// store-wide history checks need once the line itself is gone.
type HistoryRef struct {
	Line      int
	Offset    int64
	SessionID string
}

// Env is what every check may consult: shared, read-only.
type Env struct {
	Schema *schema.Validator
	Strict bool
	// ReaderVersion, when set, judges every file for the reader of this
	// Claude Code version instead of today's (resume.Newest).
	ReaderVersion string
	// Enabled reports whether a rule will report; checks that are costly
	// may skip work for rules that are off.
	Enabled func(id string) bool
	// Jobs is how many files the engine reads at once (<= 0: one per
	// CPU): a store check that reads files of its own uses as many.
	Jobs int

	problems problemCache // Line.SchemaProblems of lines seen before
}

// Line is one line of a JSONL file as the line checks see it. The engine
// fills in the framing and decoding facts before any check runs.
type Line struct {
	File    *File
	Num     int
	Offset  int64
	Raw     []byte // without '\n'; only valid during the line checks
	Length  int64  // full length in bytes (Raw may be shorter when Cut)
	Newline bool   // ended with '\n'
	Cut     bool   // longer than ccvet holds in memory: only framing checks ran

	Blank   bool  // empty or only white space
	NUL     int   // byte offset of the first NUL byte, or -1
	BadUTF8 int   // byte offset of the first invalid UTF-8 byte, or -1
	BOM     bool  // line 1 started with a UTF-8 byte order mark (not in Raw, Offset, Length)
	Err     error // why the line does not parse as one JSON value (nil if it does, or if not tried)
	ErrOff  int   // byte offset Err points at

	// Root is the parsed value (missing when the line did not parse). Read
	// the line through it: it needs no decoding.
	Root jsontree.Val
	// Tree is the parsed line, or nil on the reference path (then Root reads
	// what encoding/json decoded).
	Tree *jsontree.Tree
	Type string // Root's "type" member when it is an object and that is a string
	// Early is what the one rule with an Early check found on the line
	// while it was parsed (rules.Rule.Early); nil when that did not run.
	Early any

	value     any
	decoded   bool
	problems  []schema.Problem
	validated bool
	verdict   schema.Verdict
	judged    bool
	loc       *jsonpos.Locator // over Raw, made by locator
	asked     *byte            // &Raw[0] when locator was asked once about these bytes
}

// SetDecoded gives the line the value encoding/json decoded (the reference
// path): Root and Type read it, and Value and Obj need not decode again.
func (l *Line) SetDecoded(v any) {
	l.value, l.decoded = v, true
	l.Root = jsontree.AnyVal(v)
	if m, ok := v.(map[string]any); ok {
		l.Type, _ = m["type"].(string)
	}
}

// Value returns the line decoded by encoding/json (UseNumber), decoding it
// on first use; nil when it did not parse. Prefer Root: it costs nothing.
func (l *Line) Value() any {
	if !l.decoded {
		l.decoded = true
		if t := l.ownTree(); t != nil && utf8.Valid(l.Raw) {
			// The parse converts to exactly what encoding/json gives on
			// valid UTF-8 (jsontree's tests compare them); encoding/json
			// still decodes a line with invalid bytes, which it replaces.
			l.value = t.Value(jsontree.Root)
		} else if l.Root.Exists() {
			dec := json.NewDecoder(bytes.NewReader(l.Raw))
			dec.UseNumber()
			if err := dec.Decode(&l.value); err != nil {
				l.value = nil
			}
		}
	}
	return l.value
}

// Obj returns Value when it is an object, else nil.
func (l *Line) Obj() map[string]any {
	m, _ := l.Value().(map[string]any)
	return m
}

// IsObject reports whether the line parsed to a JSON object.
func (l *Line) IsObject() bool { return l.Root.Kind() == jsontree.Object }

// SchemaVerdict is the fast schema check of the line: Valid and UnknownOnly
// are exact (SchemaProblems would report nothing, or only unknown fields);
// Invalid and Unsure mean SchemaProblems must be asked.
func (l *Line) SchemaVerdict() schema.Verdict {
	if l.judged {
		return l.verdict
	}
	l.judged = true
	v := l.File.Env.Schema
	switch {
	case !l.IsObject() || v == nil:
		l.verdict = schema.Valid
	case l.Tree == nil:
		l.verdict = schema.Unsure
	default:
		l.verdict = schema.Valid
		switch l.File.Kind {
		case layout.History:
			l.verdict = v.FastHistory(l.Tree)
		case layout.Transcript, layout.Subagent:
			if l.Type != "" && v.KnownEntryType(l.Type) {
				l.verdict = v.FastEntry(l.Type, l.Tree)
			}
		}
	}
	return l.verdict
}

// SchemaProblems validates the line against its schema once and caches the
// result, so that the schema and unknown-field rules share one validation.
// It is the reference (jsonschema/v5 on the decoded line), except on a line
// the fast check finds only unknown fields in: ask SchemaVerdict first, it
// is much cheaper.
func (l *Line) SchemaProblems() []schema.Problem {
	if l.validated {
		return l.problems
	}
	l.validated = true
	v := l.File.Env.Schema
	if !l.IsObject() || v == nil {
		return nil
	}
	if l.File.Kind != layout.History && (l.Type == "" || !v.KnownEntryType(l.Type) || !l.File.Kind.IsTranscript()) {
		return nil
	}
	// Only unknown fields: the fast check lists them itself (a store
	// written by a newer Claude Code has some on most lines).
	if t := l.ownTree(); t != nil && l.SchemaVerdict() == schema.UnknownOnly {
		var p []schema.Problem
		ok := false
		if l.File.Kind == layout.History {
			p, ok = v.FastUnknownHistory(t)
		} else {
			p, ok = v.FastUnknownEntry(l.Type, t)
		}
		if ok {
			l.problems = p
			return p
		}
	}
	// The same bytes were validated before in this run: the same problems
	// (shared: callers only read them).
	k := keyOf(l.Raw, l.File.Kind)
	cache := &l.File.Env.problems
	if p, ok := cache.get(k); ok {
		l.problems = p
		return p
	}
	if l.File.Kind == layout.History {
		l.problems = v.ValidateHistory(l.Value())
	} else {
		l.problems = v.ValidateEntryTree(l.Type, l.Value(), l.ownTree())
	}
	cache.put(k, l.problems)
	return l.problems
}

// ownTree returns Tree when it still holds this line's parse, else nil.
func (l *Line) ownTree() *jsontree.Tree {
	t := l.Tree
	if t == nil || len(t.Raw) != len(l.Raw) || len(l.Raw) == 0 || &t.Raw[0] != &l.Raw[0] {
		return nil
	}
	return t
}

// Broken reports whether the line is not JSON: Err says why. A line nested
// deeper than ccvet reads (jsontree.ErrTooDeep) is JSON all the same.
func (l *Line) Broken() bool { return l.Err != nil && !errors.Is(l.Err, jsontree.ErrTooDeep) }

// Parsed reports whether the line decoded to a JSON value.
func (l *Line) Parsed() bool { return l.Root.Exists() }

// Column converts a byte offset in the line to a 1-based code point column.
func (l *Line) Column(off int) int {
	if loc := l.locator(); loc != nil {
		return loc.Column(off)
	}
	return jsonpos.Column(l.Raw, off)
}

// locatedFrom is the length from which a line's findings go through a
// Locator: one of many problems (unknown types, schema problems, secrets)
// is then found and counted from the nearest checkpoint, not from the
// line's start.
const locatedFrom = jsonpos.IndexFrom

// locator is the Locator over the line's bytes, made at the first
// question; nil for a short line.
func (l *Line) locator() *jsonpos.Locator {
	if len(l.Raw) < locatedFrom {
		return nil
	}
	if l.loc != nil && len(l.loc.Doc()) == len(l.Raw) && &l.loc.Doc()[0] == &l.Raw[0] {
		return l.loc
	}
	if l.asked != &l.Raw[0] {
		l.asked = &l.Raw[0] // the first question is answered from the start
		return nil
	}
	l.loc = jsonpos.NewLocator(l.Raw)
	return l.loc
}

// Find is jsonpos.Find over the line's bytes (the offset only).
func (l *Line) Find(ptr string, key bool) int {
	if loc := l.locator(); loc != nil {
		off, _ := loc.Find(ptr, key)
		return off
	}
	off, _ := jsonpos.Find(l.Raw, ptr, key)
	return off
}

// Report records a finding for rule r at byte offset off of this line.
func (l *Line) Report(r Rule, off int, msg string) {
	l.Emit(r, finding.Finding{Column: l.Column(off), Message: msg})
}

// ReportPointer records a finding at the value the JSON pointer names
// (at its key when key is true).
func (l *Line) ReportPointer(r Rule, ptr string, key bool, msg string) {
	off := l.Find(ptr, key)
	l.Emit(r, finding.Finding{Column: l.Column(off), Pointer: ptr, Message: msg})
}

// Emit records f for rule r on this line, filling in what f leaves empty.
func (l *Line) Emit(r Rule, f finding.Finding) {
	if f.Line == 0 {
		f.Line = l.Num
	}
	if f.Column == 0 {
		f.Column = 1
	}
	if f.UUID == "" {
		f.UUID = l.Root.Get("uuid").String()
	}
	l.File.Emit(r, f)
}

// File is one checked file: its place in the layout, what was read from it,
// and the records of its transcript entries in file order.
type File struct {
	*layout.File
	Env *Env
	// Store is the store the file is part of, where its checks leave the
	// compact summaries store checks need; nil when the file is checked
	// alone (benchmarks).
	Store *Store

	Lines   int   // lines read
	Entries int   // lines that parsed to a JSON object
	Bytes   int64 // bytes read
	// Marks are where every MarkEvery-th line starts: Marks[k-1] is the
	// byte offset of line 1+k*MarkEvery (see Mark). A finding's line is
	// read again from the mark before it, not from the file's start.
	Marks     []int64
	Records   []*entry.Record
	History   []HistoryRef // history.jsonl lines naming a session (filled by the history-orphan line check)
	ReadError error        // the read stopped early because of this error

	// Sessions are the session ids the transcript's entries carry, each
	// once, in the order they first appear: all the store checks need of
	// its records, which it drops when its project closes (DropRecords).
	Sessions []string

	// Copy holds the bytes read from standard input (a spool file, not
	// memory, where one can be made), which Reopen reads again.
	Copy io.ReaderAt
	// Source, when set, gives the bytes f was checked from where Reopen
	// would not (the engine checking planned bytes instead of the file's:
	// lint's Overlay); LineHashes reads them.
	Source func() (*io.SectionReader, func(), error)

	// Whole-document files (todos/*.json) are read at once.
	Doc      []byte // the document, when the file is a whole JSON document
	DocValue any    // its decoded value, nil if it did not parse
	DocErr   error  // why it did not parse
	DocErrAt int    // byte offset of DocErr

	// Digest is what the project checks of other files look up in this
	// one, from when its file checks are done until its project's checks
	// are. Thin then says that Records no longer holds every record, only
	// those KeepStoreRecords keeps: no project check needs the others.
	Digest *digest.Digest
	Thin   bool
	// Asks are the names a thin file's entries give that its own entries
	// do not hold: when one resolves in no file of the project either,
	// the file is read again for its records before the project checks.
	Asks   []Ask
	asksMu sync.Mutex // Ask's: the rules' Keeps may run at once

	emit    func(finding.Finding)
	graphMu sync.Mutex
	graph   *chain.Graph // chain.BuildSize(Records, Bytes), once Graph asked for it

	// state is what rules keep about the file from its lines to its
	// file check (State), under its own lock: one goroutine reads a
	// file's lines, so the lock stays on its core.
	stateMu sync.Mutex
	state   memo.Table

	// lines are the last lines the rules asked about again (Column,
	// LineBytes), copied, each with the Locator that answers
	// for it, the most recent first, under their own lock; DropLine lets go
	// of them.
	lineMu sync.Mutex
	lines  []heldLine
	once   [maxHeldLines]int64 // 1 + the offsets of the last lines asked about once and not held (0: none)
}

// heldLine is a line a File holds for its rules' questions.
type heldLine struct {
	off int64
	loc *jsonpos.Locator
}

// State returns what the rules keep under key about f, made by mk when
// asked first. It is safe for concurrent use.
func (f *File) State(key any, mk func() any) any {
	f.stateMu.Lock()
	defer f.stateMu.Unlock()
	return f.state.Get(key, mk)
}

// TakeState returns what State keeps under key (nil when nothing) and
// forgets it.
func (f *File) TakeState(key any) any {
	f.stateMu.Lock()
	defer f.stateMu.Unlock()
	return f.state.Take(key)
}

// Graph is chain.BuildSize(f.Records, f.Bytes), built once and shared by
// the file rules (the graph is read-only once built, and safe for the
// rules of one file run at once; a second caller waits for the first's).
func (f *File) Graph() *chain.Graph {
	f.graphMu.Lock()
	defer f.graphMu.Unlock()
	if f.graph == nil || len(f.graph.Records) != len(f.Records) {
		f.graph = chain.BuildSize(f.Records, f.Bytes)
	}
	return f.graph
}

// DropGraph lets go of the graph Graph built (the file rules are done).
func (f *File) DropGraph() {
	f.graphMu.Lock()
	f.graph = nil
	f.graphMu.Unlock()
}

// GraphMemoizes reports whether f holds a graph with what its users derived
// from it (chain.Graph.Memo): the resumes the file rules ran.
func (f *File) GraphMemoizes() bool {
	f.graphMu.Lock()
	defer f.graphMu.Unlock()
	return f.graph != nil && f.graph.Memoizes()
}

// Ask is one name a file looks up in the other files of its project.
type Ask struct {
	Kind AskKind
	Name string   // a uuid, or a tool_use id
	IDs  []string // AskSource: the tool_use ids of the entry's results
}

// AskKind says what an Ask looks for.
type AskKind uint8

// What an Ask looks for.
const (
	AskUUID   AskKind = iota // an entry with uuid Name
	AskTool                  // a tool_use with id Name
	AskSource                // an entry with uuid Name that holds a tool_use with one of IDs
	AskShared                // an entry with uuid Name (one of the file's own) in another file too
)

// MaxAsks bounds the Asks of a file: past it the file is kept whole
// instead (it is damaged; reading it again would not be cheaper).
const MaxAsks = 64

// Ask adds a to f.Asks, once; it reports false when f has MaxAsks already.
// Safe for concurrent use: whether the asks of several rules fill f.Asks
// does not depend on their order, the asks being a set.
func (f *File) Ask(a Ask) bool {
	f.asksMu.Lock()
	defer f.asksMu.Unlock()
	for _, o := range f.Asks {
		if o.Kind == a.Kind && o.Name == a.Name && slices.Equal(o.IDs, a.IDs) {
			return true
		}
	}
	if len(f.Asks) >= MaxAsks {
		return false
	}
	f.Asks = append(f.Asks, a)
	return true
}

// NewFile wraps a discovered file; findings go to emit.
func NewFile(lf *layout.File, env *Env, emit func(finding.Finding)) *File {
	return &File{File: lf, Env: env, emit: emit}
}

// Emit records f for rule r in this file.
func (f *File) Emit(r Rule, fd finding.Finding) {
	fd.Rule = r.RuleID()
	if fd.Severity == finding.Off {
		fd.Severity = r.DefaultSeverity()
	}
	if fd.Path == "" {
		fd.Path = f.Path
	}
	if fd.Line > 0 && fd.Column == 0 {
		fd.Column = 1
	}
	f.emit(fd)
}

// ReportDoc records a finding at byte offset off of a whole-document file.
func (f *File) ReportDoc(r Rule, off int, ptr, msg string) {
	line, col := jsonpos.LineCol(f.Doc, off)
	f.Emit(r, finding.Finding{Line: line, Column: col, Pointer: ptr, Message: msg})
}

// ReportDocPointer records a finding at the value ptr names in a whole-document file.
func (f *File) ReportDocPointer(r Rule, ptr string, key bool, msg string) {
	off, _ := jsonpos.Find(f.Doc, ptr, key)
	f.ReportDoc(r, off, ptr, msg)
}

// Column finds the 1-based column of the value at JSON pointer ptr on the
// line of rec, by reading that line again. It returns 1 when the line cannot
// be read or the pointer does not resolve.
func (f *File) Column(rec *entry.Record, ptr string) int {
	col := 1
	f.withLocator(rec.Offset, func(l *jsonpos.Locator) {
		off, _ := l.Find(ptr, false)
		col = l.Column(off)
	})
	return col
}

// ReportRecord records a finding on rec's line, at the value ptr names.
func (f *File) ReportRecord(r Rule, rec *entry.Record, ptr string, fd finding.Finding) {
	fd.Line = int(rec.Line)
	fd.Pointer = ptr
	fd.Column = f.Column(rec, ptr)
	if fd.UUID == "" {
		fd.UUID = rec.UUID()
	}
	f.Emit(r, fd)
}

// LineBytes reads rec's line again (nil when it cannot be read). The bytes
// may be shared: they must not be written.
func (f *File) LineBytes(rec *entry.Record) []byte {
	var line []byte
	f.withLocator(rec.Offset, func(l *jsonpos.Locator) {
		if line = l.Doc(); !f.holds(l) {
			line = append([]byte(nil), line...)
		}
	})
	return line
}

// maxHeldLine is the longest line f keeps a copy of while its rules ask
// about it, and maxHeldLines and maxHeldBytes bound what it keeps in all:
// a longer line is read again for each question, so as not to hold it
// twice (see docs/performance.md, Long lines). A finding and the place it
// relates to (a duplicate and the first line with its id) are on two lines
// asked about in turn.
const (
	maxHeldLine  = 16 << 20
	maxHeldLines = 4
	maxHeldBytes = 32 << 20
)

// withLocator hands fn a Locator over the line that starts at off: one f
// holds, else the line read again. A line asked about a second time in a
// row, of locatedFrom to maxHeldLine bytes, is then held (the line asked
// about longest ago let go when f would hold more than maxHeldLines or
// maxHeldBytes); any other is answered from its start, with no index. So
// the rules that report on every block of a long line read it about
// twice, not once a block. fn must not keep the Locator; it runs under f's
// line lock.
func (f *File) withLocator(off int64, fn func(l *jsonpos.Locator)) {
	f.lineMu.Lock()
	defer f.lineMu.Unlock()
	for k, h := range f.lines {
		if h.off == off {
			copy(f.lines[1:k+1], f.lines[:k]) // the most recent first
			f.lines[0] = h
			fn(h.loc)
			return
		}
	}
	// Held from the second question on (most lines have one finding),
	// also when questions alternate between lines (a finding on a call's
	// line related to its result's).
	again := slices.Contains(f.once[:], off+1)
	if !again {
		copy(f.once[1:], f.once[:])
		f.once[0] = off + 1
	}
	f.withLine(off, func(raw []byte) {
		if !again || len(raw) < locatedFrom || len(raw) > maxHeldLine {
			// One question, or a short line: an index would cost more than
			// it saves. A line past maxHeldLine is not held twice.
			fn(jsonpos.Direct(raw))
			return
		}
		h := heldLine{off, jsonpos.NewLocator(append([]byte(nil), raw...))}
		f.lines = append([]heldLine{h}, f.lines...)
		held := 0
		for k, o := range f.lines {
			held += len(o.loc.Doc())
			if k >= maxHeldLines || held > maxHeldBytes {
				clear(f.lines[k:])
				f.lines = f.lines[:k]
				break
			}
		}
		fn(h.loc)
	})
}

// holds reports whether l is a Locator f holds (its bytes stay as they
// are: new lines only replace them); f's line lock is held.
func (f *File) holds(l *jsonpos.Locator) bool {
	for _, h := range f.lines {
		if h.loc == l {
			return true
		}
	}
	return false
}

// DropLine lets go of the lines f holds for its rules' questions.
func (f *File) DropLine() {
	f.lineMu.Lock()
	f.lines = nil
	f.lineMu.Unlock()
}

// withLine reads the line that starts at off again and hands it to fn, which
// must not keep it (it is in the reader's pooled buffer); fn is not called
// when the line cannot be read.
func (f *File) withLine(off int64, fn func(raw []byte)) {
	if off < 0 || off > f.Bytes {
		return
	}
	src, done, err := f.Reopen()
	if err != nil {
		return
	}
	defer done()
	// Small reads: the line, not a buffer's worth (1 MiB) of what follows.
	rd := jsonl.NewReader(jsonl.SmallReads(io.NewSectionReader(src, off, f.Bytes-off)))
	defer rd.Release()
	if l, err := rd.Next(); err == nil {
		fn(l.Bytes)
	}
}

// lineHashSeed seeds LineHashes: hashes are compared within one run only.
var lineHashSeed = maphash.MakeSeed()

// LineHashes hashes the lines of f that start at offs (in ascending order),
// read again from the bytes f was checked from (Source, else Reopen), up to
// their newline: equal hashes, equal lines. ok[i] is false when line i
// could not be read. It reads each line once, in one pass forward for lines
// close together, and holds no line: memory stays bounded whatever their
// length.
func (f *File) LineHashes(offs []int64) (hs []uint64, ok []bool) {
	hs, ok = make([]uint64, len(offs)), make([]bool, len(offs))
	if len(offs) == 0 {
		return hs, ok
	}
	open := f.Source
	if open == nil {
		open = f.Reopen
	}
	src, done, err := open()
	if err != nil {
		return hs, ok
	}
	defer done()
	const skipMax = 1 << 20 // read on to a line up to this far ahead, rather than seek
	br := bufio.NewReaderSize(nil, 64<<10)
	pos := int64(-1) // where br is; -1: nowhere yet
	var h maphash.Hash
	for i, off := range offs {
		if off < 0 || off > src.Size() {
			continue
		}
		if pos < 0 || off < pos || off-pos > skipMax {
			br.Reset(io.NewSectionReader(src, off, src.Size()-off))
			pos = off
		}
		n, err := br.Discard(int(off - pos))
		if err != nil {
			pos = -1
			continue
		}
		pos += int64(n)
		h.SetSeed(lineHashSeed)
		for {
			chunk, err := br.ReadSlice('\n')
			pos += int64(len(chunk))
			if err == nil {
				h.Write(chunk[:len(chunk)-1])
				hs[i], ok[i] = h.Sum64(), true
				break
			}
			h.Write(chunk)
			if err == io.EOF {
				hs[i], ok[i] = h.Sum64(), true // the last line, without a newline
				break
			}
			if err != bufio.ErrBufferFull {
				pos = -1
				break
			}
		}
	}
	return hs, ok
}

// errNoCopy is Reopen's error for standard input read without a copy.
var errNoCopy = errors.New("no copy of what was read is kept")

// MarkEvery is how many lines apart File.Marks are: reading a line again
// reads at most MarkEvery-1 lines before it, and the marks of a 500 MB
// transcript (179,000 lines) take about 45 KB.
const MarkEvery = 32

// AddMark records where line num starts (offset off), when it is one
// Marks keeps; lines come in order.
func (f *File) AddMark(num int, off int64) {
	if num > 1 && (num-1)%MarkEvery == 0 && len(f.Marks) == (num-1)/MarkEvery-1 {
		f.Marks = append(f.Marks, off)
	}
}

// Mark returns the nearest line at or before line n whose offset is known,
// and that offset: line 1 and offset 0 when no mark comes before n.
func (f *File) Mark(n int) (line int, off int64) {
	k := min((n-1)/MarkEvery, len(f.Marks))
	if k <= 0 {
		return 1, 0
	}
	return 1 + k*MarkEvery, f.Marks[k-1]
}

// Reopen gives the bytes f was checked from, the first f.Bytes of them
// (what was appended since is not looked at): its Copy, or the file
// opened again read-only, as it was opened to be checked. done releases
// what Reopen opened.
func (f *File) Reopen() (src *io.SectionReader, done func(), err error) {
	if f.Copy != nil {
		return io.NewSectionReader(f.Copy, 0, f.Bytes), func() {}, nil
	}
	if f.Stdin {
		return nil, nil, errNoCopy
	}
	fh, _, err := readonly.Open(f.OSPath, f.Link)
	if err != nil {
		return nil, nil, err
	}
	return io.NewSectionReader(fh, 0, f.Bytes), func() { fh.Close() }, nil
}

// Project is one project folder (or, for loose files, one folder of
// transcripts): the graph rules that look across files run here.
type Project struct {
	Dir      string // OS path
	Name     string // encoded folder name when in a layout
	InLayout bool
	Files    []*File // transcripts and subagent transcripts, sorted by path
	Env      *Env
	emit     func(finding.Finding)
	memo     memo.Table
	// sessions holds the session ids of the project's main transcripts in
	// a layout, known before any file is read (their kind never changes).
	sessions map[string]bool
}

// HasLayoutSession reports whether a main transcript of p in a layout is
// named after session id: what checks at a file's close may rely on.
func (p *Project) HasLayoutSession(id string) bool { return p.sessions[id] }

// Memo returns what compute gives for key, computing it on the first call
// only: how the project rules share what they derive from the project's
// files (the rules of one project run one after another, never at once).
func (p *Project) Memo(key any, compute func() any) any { return p.memo.Get(key, compute) }

// Forget drops what the project's rules shared through Memo: called once
// they have all run, so that nothing they derived outlives the project.
func (p *Project) Forget() { p.memo.Reset() }

// NewProject makes a project context.
func NewProject(dir, name string, inLayout bool, files []*File, env *Env, emit func(finding.Finding)) *Project {
	p := &Project{Dir: dir, Name: name, InLayout: inLayout, Files: files, Env: env, emit: emit}
	for _, f := range files {
		if f.InLayout && f.Kind == layout.Transcript && layout.IsUUID(f.SessionID) {
			if p.sessions == nil {
				p.sessions = map[string]bool{}
			}
			p.sessions[f.SessionID] = true
		}
	}
	return p
}

// Emit records fd for rule r; fd.Path must be set.
func (p *Project) Emit(r Rule, fd finding.Finding) {
	fd.Rule = r.RuleID()
	if fd.Severity == finding.Off {
		fd.Severity = r.DefaultSeverity()
	}
	p.emit(fd)
}

// KeepStoreRecords drops the records that only the file checks and the
// project checks over whole records read, once those have run. What stays,
// in file order: each record where a sessionId or a cwd first appears in
// the file (so the launch cwd and every session id the file carries).
// File-history snapshots are checked with the file (see rules.backupsCheck)
// and not kept.
func (f *File) KeepStoreRecords() {
	seenSession, seenCwd := map[string]bool{}, map[string]bool{}
	var kept []*entry.Record // a new array: a graph still holding the old one reads it by index
	for _, rec := range f.Records {
		keep := false
		if rec.SessionID != "" && !seenSession[rec.SessionID] {
			seenSession[rec.SessionID], keep = true, true
		}
		if rec.Cwd != "" && !seenCwd[rec.Cwd] {
			seenCwd[rec.Cwd], keep = true, true
		}
		if keep {
			kept = append(kept, rec)
		}
	}
	f.Records = kept
}

// DropRecords lets go of every record once the project's checks are done,
// keeping only the session ids they carry (Sessions): the store checks
// need nothing else of a transcript, so no record outlives its project.
func (f *File) DropRecords() {
	seen := map[string]bool{}
	f.Sessions = nil
	for _, rec := range f.Records {
		if rec.SessionID != "" && !seen[rec.SessionID] {
			seen[rec.SessionID] = true
			f.Sessions = append(f.Sessions, rec.SessionID)
		}
	}
	f.Records = nil
}

// Store is everything scanned: the store-wide rules run here. By then no
// transcript holds records (see DropRecords): what store checks need of a
// project, its checks left in Shared summaries when it closed.
type Store struct {
	Roots    []layout.Root
	Projects []*Project
	Files    []*File // every checked file, sorted by path
	Env      *Env
	emit     func(finding.Finding)

	mu     sync.Mutex
	shared memo.Table
	order  map[*File]int
}

// NewStore makes a store context.
func NewStore(roots []layout.Root, projects []*Project, files []*File, env *Env, emit func(finding.Finding)) *Store {
	return &Store{Roots: roots, Projects: projects, Files: files, Env: env, emit: emit}
}

// Shared returns the store-wide value for key, made by compute on the
// first call: where file and project checks, which run concurrently, leave
// a compact summary for a store check. The value must guard
// itself against concurrent use.
func (s *Store) Shared(key any, compute func() any) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shared.Get(key, compute)
}

// Order is f's place in Files (-1 when not there): files are read and
// projects close in any order, and a check that reports once per store
// breaks ties by it.
func (s *Store) Order(f *File) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.order == nil {
		s.order = make(map[*File]int, len(s.Files))
		for i, g := range s.Files {
			s.order[g] = i
		}
	}
	if i, ok := s.order[f]; ok {
		return i
	}
	return -1
}

// Emit records fd for rule r; fd.Path must be set.
func (s *Store) Emit(r Rule, fd finding.Finding) {
	fd.Rule = r.RuleID()
	if fd.Severity == finding.Off {
		fd.Severity = r.DefaultSeverity()
	}
	s.emit(fd)
}
