// Package benchstore writes synthetic, healthy Claude Code data roots of any size for benchmarks.
package benchstore

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ccvet/ccvet/internal/pathenc"
)

// Options describe the store to write.
type Options struct {
	Bytes int64  // approximate total size; <= 0 means 64 MiB
	Seed  uint64 // the same seed and size give the same bytes
	// Projects is the number of project folders; <= 0 picks one per 48 MiB
	// (2 to 40). 1 puts every session in one folder, as for a user who
	// works in one repository.
	Projects int
}

// Stats say what Generate wrote.
type Stats struct {
	Projects  int
	Sessions  int
	Subagents int
	Backups   int
	Files     int   // every file written, backups included
	Lines     int   // JSON Lines written (transcripts and history.jsonl)
	Bytes     int64 // bytes written
}

// Generate writes a data root (projects/, history.jsonl, todos/,
// file-history/) of roughly opts.Bytes bytes into dir, which it creates.
// Every line is healthy for ccvet: the key order of Claude Code's writer,
// v4 uuids, RFC 3339 timestamps, parent links that resolve, every tool_use
// answered. Memory stays small whatever the size: files are streamed.
func Generate(dir string, opts Options) (Stats, error) {
	if opts.Bytes <= 0 {
		opts.Bytes = 64 << 20
	}
	g := &gen{
		r:     rand.New(rand.NewPCG(opts.Seed, 0x9e3779b97f4a7c15)),
		dir:   dir,
		clock: time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC),
	}
	if err := os.MkdirAll(filepath.Join(dir, "projects"), 0o755); err != nil {
		return g.st, err
	}
	var err error
	if g.hist, err = g.create(filepath.Join(dir, "history.jsonl")); err != nil {
		return g.st, err
	}
	nproj := int(min(max(opts.Bytes/(48<<20), 2), 40))
	if opts.Projects > 0 {
		nproj = opts.Projects
	}
	projects := make([]*project, nproj)
	for i := range projects {
		projects[i] = g.newProject()
	}
	g.st.Projects = nproj
	for g.st.Bytes < opts.Bytes && g.err == nil {
		// A few projects hold most sessions, as in a real store.
		f := g.r.Float64()
		p := projects[int(f*f*float64(nproj))]
		// The conversion keeps a compiler from fusing the multiply-add
		// (allowed on arm64, ppc64, s390x): the same bytes on every machine.
		target := int64(math.Exp(math.Log(300<<10) + float64(1.3*g.r.NormFloat64())))
		target = min(max(target, 8<<10), 40<<20, max(opts.Bytes-g.st.Bytes, 8<<10))
		g.session(p, target, opts.Bytes-g.st.Bytes)
		g.clock = g.clock.Add(time.Duration(10+g.r.IntN(360)) * time.Minute)
	}
	g.closeSink(g.hist)
	return g.st, g.err
}

type gen struct {
	r     *rand.Rand
	dir   string
	st    Stats
	err   error
	clock time.Time
	hist  *sink
	line  []byte // the line being built
	tmp   []byte // tool output being built
	tmp2  []byte
}

type sink struct {
	f *os.File
	w *bufio.Writer
	n int64
}

func (g *gen) create(path string) (*sink, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	g.st.Files++
	return &sink{f: f, w: bufio.NewWriterSize(f, 256<<10)}, nil
}

// emit writes one line and its newline.
func (g *gen) emit(s *sink, b []byte) {
	if g.err != nil {
		return
	}
	if _, err := s.w.Write(b); err != nil {
		g.err = err
	}
	if err := s.w.WriteByte('\n'); err != nil {
		g.err = err
	}
	s.n += int64(len(b)) + 1
	g.st.Bytes += int64(len(b)) + 1
	g.st.Lines++
}

func (g *gen) closeSink(s *sink) {
	if s == nil {
		return
	}
	if err := s.w.Flush(); err != nil && g.err == nil {
		g.err = err
	}
	if err := s.f.Close(); err != nil && g.err == nil {
		g.err = err
	}
}

func (g *gen) writeFile(path string, data []byte) {
	if g.err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		g.err = err
		return
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		g.err = err
		return
	}
	g.st.Files++
	g.st.Bytes += int64(len(data))
}

// ---- identifiers and time ----

func (g *gen) uuid() string {
	var b [16]byte
	a, c := g.r.Uint64(), g.r.Uint64()
	for i := 0; i < 8; i++ {
		b[i], b[8+i] = byte(a>>(8*i)), byte(c>>(8*i))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

func (g *gen) token(prefix string, n int) string {
	b := make([]byte, len(prefix), len(prefix)+n)
	copy(b, prefix)
	for i := 0; i < n; i++ {
		b = append(b, base62[g.r.IntN(62)])
	}
	return string(b)
}

func (g *gen) hexID(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = hexDigits[g.r.IntN(16)]
	}
	return string(b)
}

// tick advances the clock by lo..hi milliseconds and returns it in RFC 3339.
func (g *gen) tick(lo, hi int) string {
	g.clock = g.clock.Add(time.Duration(lo+g.r.IntN(hi-lo+1)) * time.Millisecond)
	return g.now()
}

func (g *gen) now() string { return g.clock.Format("2006-01-02T15:04:05.000Z") }

// ---- projects ----

type project struct {
	cwd, enc, branch string
	files            []string
}

func (g *gen) newProject() *project {
	name := g.ident() + "-" + g.ident()
	if g.r.IntN(3) == 0 {
		name += ".v" + strconv.Itoa(1+g.r.IntN(4))
	}
	cwd := "/home/dev/src/" + name
	p := &project{cwd: cwd, enc: pathenc.Encode(cwd), branch: []string{"main", "master", "dev", "feature/" + g.ident()}[g.r.IntN(4)]}
	for i, n := 0, 8+g.r.IntN(30); i < n; i++ {
		dir := []string{"internal/" + g.ident(), "cmd/" + g.ident(), "pkg", "docs", "src/" + g.ident()}[g.r.IntN(5)]
		ext := []string{".go", ".ts", ".md", ".py", "_test.go"}[g.r.IntN(5)]
		p.files = append(p.files, cwd+"/"+dir+"/"+g.ident()+ext)
	}
	return p
}

// backupName is what Claude Code names a file-history backup.
func backupName(path string, version int) string {
	sum := sha256.Sum256([]byte(path))
	return hex.EncodeToString(sum[:])[:16] + "@v" + strconv.Itoa(version)
}

var versions = []string{"2.0.76", "2.1.20", "2.1.39", "2.1.42"}
var models = []string{"claude-opus-4-5-20251101", "claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001"}
