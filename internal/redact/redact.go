// Package redact plans the replacement of every copy of the secrets found under some paths, in every file of their data root, by placeholders.
//
// A plan is byte edits per file (offset, length, new bytes), as fix's are,
// so that ccvet redact writes them with fix's machinery (internal/fix/store:
// live-session gate, backup, atomic replace, manifest, undo). Each secret
// becomes [REDACTED:<rule>:<fingerprint>]: a string of JSON-safe bytes, so
// it replaces the raw bytes that decode to the secret inside a JSON string
// (escapes included) and the line stays valid JSON with every other byte
// kept. Where a transcript's request ledger names a message by the hash of
// its content, the hash of a redacted message is replaced by the new one
// everywhere the file names it (blobs and request tails), so that the
// ledger stays consistent.
package redact

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/ledger"
	"github.com/ccvet/ccvet/internal/readonly"
	"github.com/ccvet/ccvet/internal/secret"
)

// MaxFile bounds the files a plan reads whole (one at a time; a file that
// changes is kept until it is written).
const MaxFile = 512 << 20

// Secret is one distinct secret: its rule and fingerprint, never its value
// outside this package.
type Secret struct {
	Rule        string // gitleaks id
	Name        string // readable rule name
	Fingerprint string
	Copies      int // occurrences in every file of the plan
	Files       int // files that hold it
	value       string
	escaped     string // the value as canonical JSON writes it, without quotes
}

// Placeholder is what replaces the secret.
func (s *Secret) Placeholder() string {
	return "[REDACTED:" + s.Rule + ":" + s.Fingerprint + "]"
}

// Place is where a secret occurs in a file.
type Place struct {
	Line, Column int
	Fingerprint  string
}

// File is one file the plan changes.
type File struct {
	OSPath    string
	Path      string // display path
	Rel       string // path from the data root (backups go there), else the display path
	Root      string // data root, "" if none
	SessionID string // the session the file belongs to, for the live-session gate
	Kind      layout.Kind
	Orig      []byte
	Edits     []edit.Edit
	Places    []Place        // every occurrence, in file order
	Count     map[string]int // fingerprint -> occurrences
	Rehashed  int            // ledger hashes replaced
}

// Plan is what ccvet redact would change.
type Plan struct {
	Secrets []*Secret
	Files   []*File
	// Searched counts the files searched for secrets: those under the
	// paths given (0: the paths hold nothing redact reads).
	Searched int
	byFP     map[string]*Secret

	// One search for all the secrets (see index), where each string was
	// searched for each secret in turn.
	values  *finder // each secret's value, in the order of Secrets
	heads   *finder // the first bytes of each, raw or escaped (mayHold)
	anyHead bool    // a head is empty: every line may hold a secret
	leaks   *finder // values, then escaped values (verify)
	escapes *finder // escaped values (rehash)
	// replaceSafe: no escaped value holds a bracket or is found inside a
	// placeholder, so replacing one secret never makes a copy of another.
	replaceSafe bool
	next        []int // per secret, where its next copy may start in the text searched
	stamp       []int // per secret, the search next holds for
	searches    int
}

// candidate is a file the plan reads.
type candidate struct {
	osPath, path, rel, root, session string
	kind                             layout.Kind
	given                            bool // under the paths given: its secrets are redacted everywhere
}

// Build finds the secrets in the files found (and, for a data root among
// them, its plain copies) and plans the replacement of each one in every
// file of the data roots involved that holds it.
func Build(found *layout.Result) (*Plan, error) {
	cands, err := candidates(found)
	if err != nil {
		return nil, err
	}
	p := &Plan{byFP: map[string]*Secret{}}
	sc := secret.Default()
	// Find: the secrets of the files given, read one at a time.
	for _, c := range cands {
		if !c.given {
			continue
		}
		p.Searched++
		b, err := readAll(c.osPath)
		if err != nil {
			return nil, &ReadError{Path: c.path, Err: err}
		}
		detect(sc, b, c.kind, func(m secret.Match) { p.add(m) })
	}
	sort.Slice(p.Secrets, func(i, j int) bool { return p.Secrets[i].Fingerprint < p.Secrets[j].Fingerprint })
	if len(p.Secrets) == 0 {
		return p, nil
	}
	p.index()
	// Locate: every copy of them in every candidate, read again one at a
	// time; only the files that change keep their bytes (to be written).
	for _, c := range cands {
		b, err := readAll(c.osPath)
		if err != nil {
			return nil, &ReadError{Path: c.path, Err: err}
		}
		f := &File{OSPath: c.osPath, Path: c.path, Rel: c.rel, Root: c.root, SessionID: c.session, Kind: c.kind,
			Orig: b, Count: map[string]int{}}
		p.locate(f)
		if len(f.Edits) == 0 {
			continue
		}
		if f.Kind.IsTranscript() {
			p.rehash(f)
		}
		if err := p.verify(f); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		for fp, n := range f.Count {
			s := p.byFP[fp]
			s.Copies += n
			s.Files++
		}
		p.Files = append(p.Files, f)
	}
	return p, nil
}

func (p *Plan) add(m secret.Match) {
	fp := m.Fingerprint()
	if p.byFP[fp] != nil {
		return
	}
	esc := ledger.AppendCanon(nil, jsontree.AnyVal(m.Value))
	s := &Secret{Rule: m.Rule.ID, Name: m.Rule.Name, Fingerprint: fp, value: m.Value, escaped: string(esc[1 : len(esc)-1])}
	p.byFP[fp] = s
	p.Secrets = append(p.Secrets, s)
}

// index builds the searches over every secret.
func (p *Plan) index() {
	n := len(p.Secrets)
	values, escapes, heads := make([]string, n), make([]string, n), []string{}
	for i, s := range p.Secrets {
		values[i], escapes[i] = s.value, s.escaped
		head := s.escaped
		if len(head) > 8 {
			head = head[:8]
		}
		heads = append(heads, head)
		if i := strings.IndexAny(s.value, "\\\"\n/"); i != 0 {
			h := s.value
			if i > 0 {
				h = h[:i]
			}
			if len(h) > 8 {
				h = h[:8]
			}
			heads = append(heads, h)
		}
	}
	for _, h := range heads {
		if h == "" {
			p.anyHead = true
		}
	}
	p.values, p.heads = newFinder(values), newFinder(heads)
	p.leaks, p.escapes = newFinder(append(append([]string{}, values...), escapes...)), newFinder(escapes)
	p.next, p.stamp = make([]int, n), make([]int, n)
	var phs []byte
	p.replaceSafe = true
	for _, s := range p.Secrets {
		phs = append(append(phs, s.Placeholder()...), 0)
		if strings.ContainsAny(s.escaped, "[]") {
			p.replaceSafe = false
		}
	}
	if p.escapes.any(phs) {
		p.replaceSafe = false
	}
}

// search calls fn for each copy of each secret's value in text: per
// secret, from the left, each copy after the end of the one before (as
// bytes.Index from there finds them).
func (p *Plan) search(text []byte, fn func(a, b int, s *Secret)) {
	p.searchBy(p.values, text, func(at, i int) {
		s := p.Secrets[i]
		fn(at, at+len(s.value), s)
	})
}

// searchBy calls fn(at, i) for each copy of pattern i of fd (one per
// secret) as search does.
func (p *Plan) searchBy(fd *finder, text []byte, fn func(at, i int)) {
	p.searches++
	fd.each(text, func(at, i int) bool {
		if p.stamp[i] == p.searches && at < p.next[i] {
			return true
		}
		p.stamp[i], p.next[i] = p.searches, at+len(fd.pats[i])
		fn(at, i)
		return true
	})
}

// redactCanon is c with each secret's escaped value replaced by its
// placeholder, secret after secret in the order of Secrets (as
// strings.ReplaceAll each in turn): in one pass where the copies do not
// overlap and replacing one cannot make another, else in turn.
func (p *Plan) redactCanon(c []byte) string {
	type copyAt struct{ at, i int }
	var copies []copyAt
	overlap, end := false, 0
	p.searchBy(p.escapes, c, func(at, i int) {
		if at < end {
			overlap = true
		}
		end = max(end, at+len(p.Secrets[i].escaped))
		copies = append(copies, copyAt{at, i})
	})
	if len(copies) == 0 {
		return string(c)
	}
	if overlap || !p.replaceSafe {
		nc := string(c)
		for _, s := range p.Secrets {
			nc = strings.ReplaceAll(nc, s.escaped, s.Placeholder())
		}
		return nc
	}
	var b strings.Builder
	last := 0
	for _, cp := range copies {
		s := p.Secrets[cp.i]
		b.Write(c[last:cp.at])
		b.WriteString(s.Placeholder())
		last = cp.at + len(s.escaped)
	}
	b.Write(c[last:])
	return b.String()
}

// detect calls fn for each secret in a file's bytes: per line of JSON for
// JSON Lines and documents, the whole text for plain files.
func detect(sc *secret.Scanner, b []byte, kind layout.Kind, fn func(secret.Match)) {
	switch kind {
	case layout.FileHistory, layout.ToolResult, layout.PasteCache:
		sc.Scan(b, fn)
		return
	}
	var t jsontree.Tree
	if kind == layout.Todos {
		if t.Parse(b) == nil {
			sc.ScanTree(&t, nil, nil, func(f secret.Found) { fn(f.Match) })
			return
		}
		// A damaged todo list: line by line, as below.
	}
	for _, line := range bytes.Split(b, []byte{'\n'}) {
		if t.Parse(line) != nil {
			// A torn or glued line: its text with the escapes undone (a
			// value in `\"…\"`, a key spelt with \u escapes), then its
			// raw bytes (what locate finds there); one ScanBroken reads
			// both, as lint does.
			sc.ScanBroken(line, func(f secret.Found) { fn(f.Match) })
			continue
		}
		sc.ScanTree(&t, nil, nil, func(f secret.Found) { fn(f.Match) })
	}
}

// locate plans f's edits: each occurrence of each secret's value in a
// decoded string (JSON) or in the text (plain files).
func (p *Plan) locate(f *File) {
	var es []edit.Edit
	var places []Place
	add := func(off, end int, s *Secret) {
		es = append(es, edit.Edit{Offset: int64(off), Length: int64(end - off), Text: s.Placeholder()})
		places = append(places, Place{Line: off, Fingerprint: s.Fingerprint}) // Line holds the offset until below
	}
	switch f.Kind {
	case layout.FileHistory, layout.ToolResult, layout.PasteCache:
		p.search(f.Orig, add)
	default:
		var t jsontree.Tree
		var buf []byte
		start := 0
		for start < len(f.Orig) {
			end := bytes.IndexByte(f.Orig[start:], '\n')
			if end < 0 {
				end = len(f.Orig)
			} else {
				end += start
			}
			if f.Kind == layout.Todos {
				end = len(f.Orig)
			}
			line := f.Orig[start:end]
			if p.mayHold(line) {
				if t.Parse(line) == nil {
					buf = p.locateTree(&t, start, buf, add)
				} else {
					p.search(line, func(a, b int, s *Secret) { add(start+a, start+b, s) })
					// A key the line spells with escapes (a \u escape, a
					// PEM block's \n): where detect's ScanBroken found it.
					secret.Default().ScanBroken(line, func(fd secret.Found) {
						if s := p.byFP[fd.Fingerprint()]; s != nil {
							add(start+fd.RawStart, start+fd.RawEnd, s)
						}
					})
				}
			}
			start = end + 1
		}
	}
	es, places = merge(es, places)
	f.Edits = es
	// Places are in file order: lines and columns are counted on from the
	// place before (columns in runes, as []rune counts them: from a byte
	// that starts a rune, the counts of two spans add up).
	line, prev, col := 1, 0, 1
	for i := range places {
		off := places[i].Line
		nl := bytes.Count(f.Orig[prev:off], []byte{'\n'})
		switch {
		case nl > 0:
			ls := bytes.LastIndexByte(f.Orig[:off], '\n') + 1
			line, col = line+nl, 1+utf8.RuneCount(f.Orig[ls:off])
		case i > 0 && prev < len(f.Orig) && utf8.RuneStart(f.Orig[prev]):
			col += utf8.RuneCount(f.Orig[prev:off])
		default:
			ls := bytes.LastIndexByte(f.Orig[:off], '\n') + 1
			col = 1 + utf8.RuneCount(f.Orig[ls:off])
		}
		prev = off
		places[i].Line, places[i].Column = line, col
		f.Count[places[i].Fingerprint]++
	}
	f.Places = places
}

// mayHold reports whether a raw line may hold one of the secrets: it holds
// the first bytes of one, raw or escaped, or a \u escape, which may spell
// any of those bytes (`\u0073k-ant-…` is a key whose raw head is not in
// the line; secret.Scanner.Spans reads such a line for the same reason).
func (p *Plan) mayHold(line []byte) bool {
	return p.anyHead || p.heads.any(line) || bytes.Contains(line, []byte(`\u`))
}

// locateTree finds the secrets' values in every string of a parsed line
// (keys too) and maps each to the raw bytes that decode to it.
func (p *Plan) locateTree(t *jsontree.Tree, base int, buf []byte, add func(off, end int, s *Secret)) []byte {
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		if nd.Kind != jsontree.String {
			continue
		}
		raw := t.RawBytes(i)
		text := raw
		if nd.Esc {
			buf = t.AppendStr(buf[:0], i)
			text = buf
		}
		var cur secret.RawCursor
		p.search(text, func(a, b int, s *Secret) {
			if nd.Esc {
				a, b = cur.Span(raw, a, b)
			}
			add(base+int(nd.Start)+a, base+int(nd.Start)+b, s)
		})
	}
	return buf
}

// merge sorts edits and drops those inside an earlier one (a secret that
// holds another).
func merge(es []edit.Edit, places []Place) ([]edit.Edit, []Place) {
	idx := make([]int, len(es))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		if es[idx[a]].Offset != es[idx[b]].Offset {
			return es[idx[a]].Offset < es[idx[b]].Offset
		}
		if es[idx[a]].Length != es[idx[b]].Length {
			return es[idx[a]].Length > es[idx[b]].Length
		}
		// Two secrets over the same bytes (an escaped character maps
		// each of its bytes to all of it): the first by fingerprint, the
		// order the secrets are looked for in.
		return places[idx[a]].Fingerprint < places[idx[b]].Fingerprint
	})
	var outE []edit.Edit
	var outP []Place
	end := int64(-1)
	for _, i := range idx {
		if es[i].Offset < end {
			continue
		}
		outE = append(outE, es[i])
		outP = append(outP, places[i])
		end = es[i].End()
	}
	return outE, outP
}

// rehash keeps a transcript's request ledger consistent: each content hash
// whose content held a secret is replaced, in the blobs, shapes and
// requests (tail, shapeHash) that name it, by the hash of the redacted
// content (same length: 64 hex digits). What is not kept: an api-request's
// requestDigest, which ccvet cannot compute (nor check), and which the
// resume never reads.
func (p *Plan) rehash(f *File) {
	if !bytes.Contains(f.Orig, []byte(`"api-request`)) {
		return // no ledger line names a hash
	}
	// The hashes the ledger lines name, where: only those are redacted
	// and hashed again (not every prefix of every run of the file).
	type named struct {
		off  int
		hash string
	}
	var names []named
	start := 0
	var t jsontree.Tree
	for start < len(f.Orig) {
		end := bytes.IndexByte(f.Orig[start:], '\n')
		if end < 0 {
			end = len(f.Orig)
		} else {
			end += start
		}
		line := f.Orig[start:end]
		if bytes.Contains(line, []byte(`"api-request`)) && t.Parse(line) == nil {
			typ := t.StrOrEmpty(t.Get(jsontree.Root, "type"))
			var nodes []int
			switch typ {
			case "api-request-blob":
				nodes = append(nodes, t.Get(jsontree.Root, "hash"))
			case "api-request-shape":
				nodes = append(nodes, t.Get(jsontree.Root, "shapeHash"))
			case "api-request":
				nodes = append(nodes, t.Get(jsontree.Root, "shapeHash"))
				if tail := t.Get(jsontree.Root, "tail"); t.Kind(tail) == jsontree.Array {
					for c := t.Child(tail); c >= 0 && c < t.Next(tail); c = t.Next(c) {
						nodes = append(nodes, c)
					}
				}
			}
			for _, n := range nodes {
				if t.Kind(n) != jsontree.String || t.Nodes[n].Esc {
					continue
				}
				names = append(names, named{off: start + int(t.Nodes[n].Start), hash: string(t.RawBytes(n))})
			}
		}
		start = end + 1
	}
	if len(names) == 0 {
		return
	}
	facts, err := ledger.Read(bytes.NewReader(f.Orig), true)
	if err != nil {
		return
	}
	repl := map[string]string{}
	done := map[string]bool{}
	for _, nm := range names {
		h := nm.hash
		if done[h] {
			continue
		}
		done[h] = true
		c, ok := facts.Message(h)
		if !ok {
			continue
		}
		if sum := sha256.Sum256(c); hex.EncodeToString(sum[:]) != h {
			continue // stored under another name already: ledger-hash-mismatch says so; left as it is
		}
		if nc := p.redactCanon(c); nc != string(c) {
			sum := sha256.Sum256([]byte(nc))
			repl[h] = hex.EncodeToString(sum[:])
		}
	}
	var es []edit.Edit
	for _, nm := range names {
		if nh, ok := repl[nm.hash]; ok {
			es = append(es, edit.Edit{Offset: int64(nm.off), Length: int64(len(nh)), Text: nh})
		}
	}
	if len(es) == 0 {
		return
	}
	f.Rehashed = len(es)
	f.Edits = append(f.Edits, es...)
	edit.Sort(f.Edits)
}

// verify applies f's edits in memory and checks the result: every line
// that was valid JSON still is, and no value of a secret is left (raw or
// escaped).
func (p *Plan) verify(f *File) error {
	if err := edit.Check(f.Edits, int64(len(f.Orig))); err != nil {
		return err
	}
	nb, err := edit.Bytes(f.Orig, f.Edits)
	if err != nil {
		return err
	}
	left, n := -1, len(p.Secrets)
	p.leaks.each(nb, func(_, i int) bool {
		if i >= n {
			i -= n
		}
		if left < 0 || i < left {
			left = i
		}
		return left > 0
	})
	if left >= 0 {
		return fmt.Errorf("a copy of secret %s would be left", p.Secrets[left].Fingerprint)
	}
	switch f.Kind {
	case layout.FileHistory, layout.ToolResult, layout.PasteCache:
		return nil
	}
	ol, nl := bytes.Split(f.Orig, []byte{'\n'}), bytes.Split(nb, []byte{'\n'})
	if f.Kind == layout.Todos {
		ol, nl = [][]byte{f.Orig}, [][]byte{nb}
	}
	if len(ol) != len(nl) {
		return fmt.Errorf("the redaction would change the number of lines")
	}
	var t jsontree.Tree
	for i := range ol {
		if t.Parse(ol[i]) == nil && t.Parse(nl[i]) != nil {
			return fmt.Errorf("line %d would no longer be valid JSON", i+1)
		}
	}
	return nil
}

// New is f's bytes after the plan.
func (f *File) New() ([]byte, error) { return edit.Bytes(f.Orig, f.Edits) }

// ReadError is a file of the plan that could not be read whole: the plan
// cannot say what it holds, so nothing may be written (a secret's copy
// there would be left).
type ReadError struct {
	Path string // display path
	Err  error
}

func (e *ReadError) Error() string {
	return e.Path + ": cannot read: " + readonly.Pathless(e.Err) + "; nothing can be redacted without it (fix its permissions, or move it out of the data root)"
}

func (e *ReadError) Unwrap() error { return e.Err }

func readAll(p string) ([]byte, error) {
	fh, _, err := readonly.Open(p, false)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > MaxFile {
		return nil, fmt.Errorf("larger than %d MiB, more than redact holds in memory", MaxFile>>20)
	}
	var b bytes.Buffer
	_, err = b.ReadFrom(fh)
	return b.Bytes(), err
}

// candidates lists the files a plan reads: those found (given), the plain
// copies of a data root given, and every file of the data roots involved
// (where copies are looked for).
func candidates(found *layout.Result) ([]candidate, error) {
	seen := map[string]bool{}
	var out []candidate
	roots := map[string]bool{}
	for _, f := range found.Files {
		if f.Stdin || f.Context {
			continue
		}
		abs, _ := filepath.Abs(f.OSPath)
		if seen[abs] {
			continue
		}
		seen[abs] = true
		rel := f.Key
		if rel == "" {
			rel = f.Path
		}
		out = append(out, candidate{osPath: f.OSPath, path: f.Path, rel: rel, root: f.Root, session: f.SessionID, kind: f.Kind, given: true})
		if f.Root != "" {
			roots[f.Root] = true
		}
	}
	given := map[string]bool{}
	for _, r := range found.Roots {
		if r.Dir != "" {
			roots[r.Dir] = true
			given[r.Dir] = true
		}
	}
	prefix := map[string]string{}
	for _, f := range found.Files {
		if f.Root == "" || f.Stdin {
			continue
		}
		if rel, err := filepath.Rel(f.Root, f.OSPath); err == nil {
			rel = filepath.ToSlash(rel)
			if strings.HasSuffix(f.Path, rel) {
				prefix[f.Root] = strings.TrimSuffix(strings.TrimSuffix(f.Path, rel), "/")
			}
		}
	}
	display := func(root, rel string) string {
		if pre, ok := prefix[root]; ok {
			return path.Join(pre, rel)
		}
		return filepath.ToSlash(filepath.Join(root, rel))
	}
	var rootList []string
	for r := range roots {
		rootList = append(rootList, r)
	}
	sort.Strings(rootList)
	for _, root := range rootList {
		more, err := layout.Discover([]string{root}, "")
		if err != nil {
			return nil, err
		}
		for _, f := range more.Files {
			abs, _ := filepath.Abs(f.OSPath)
			if seen[abs] {
				continue
			}
			seen[abs] = true
			out = append(out, candidate{osPath: f.OSPath, path: display(root, f.Key), rel: f.Key, root: root,
				session: f.SessionID, kind: f.Kind})
		}
		for _, pc := range layout.PlainCopies(root) {
			abs, _ := filepath.Abs(pc.OSPath)
			if seen[abs] {
				continue
			}
			seen[abs] = true
			out = append(out, candidate{osPath: pc.OSPath, path: display(root, pc.Rel), rel: pc.Rel, root: root,
				session: sessionOfPlain(pc), kind: pc.Kind, given: given[root]})
		}
	}
	return out, nil
}

// sessionOfPlain is the session a plain copy belongs to:
// file-history/<sid>/..., projects/<enc>/<sid>/tool-results/...
func sessionOfPlain(pc layout.PlainCopy) string {
	parts := strings.Split(pc.Rel, "/")
	switch pc.Kind {
	case layout.FileHistory:
		if len(parts) >= 2 {
			return parts[1]
		}
	case layout.ToolResult:
		if len(parts) >= 3 {
			return parts[2]
		}
	}
	return ""
}
