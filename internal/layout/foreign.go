package layout

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"runtime"
	"sync"

	"github.com/ccvet/ccvet/internal/readonly"
	"github.com/ccvet/ccvet/internal/workers"
)

// markers are keys of which every kind of Claude Code transcript entry
// holds at least one (the envelope's uuid, parentUuid and sessionId; a
// summary's leafUuid; a snapshot's messageId), and the key every
// history.jsonl line holds (pastedContents: a copy of history.jsonl under
// another name is checked as history).
var markers = [][]byte{[]byte(`"sessionId"`), []byte(`"uuid"`), []byte(`"parentUuid"`), []byte(`"leafUuid"`),
	[]byte(`"messageId"`), []byte(`"isSidechain"`), []byte(`"pastedContents"`)}

// entryType matches the "type" of a Claude Code entry, for cut-down
// transcripts (test fixtures of transcript tools) that keep no other key.
var entryType = regexp.MustCompile(`"type"\s*:\s*"(user|assistant|system|summary|progress|attachment|` +
	`file-history-snapshot|queue-operation|custom-title|ai-title|last-prompt|permission-mode|agent-name)"`)

// DropForeign takes out of res the loose .jsonl files that are somebody
// else's JSON Lines (a dataset, a log): files whose every non-blank line is a
// valid JSON object or array, without any key that Claude Code entries carry
// (nor the "type" of one) anywhere in the file. They count as skipped; their
// display paths are returned, and kept in res.Foreign, so that the caller can
// say so. Only loose files whose name says nothing are looked at: a file in a
// projects/<enc>/ folder, a <sessionId>.jsonl, an agent-*.jsonl,
// history.jsonl or standard input is always checked, and a file that is
// empty, unreadable, or holds a line that is not a valid JSON object or array
// (a NUL byte, a cut line) is checked as a transcript, so a damaged real
// transcript is never skipped.
func DropForeign(res *Result) []string {
	var cands []int
	for i, f := range res.Files {
		if f.Kind == Transcript && !f.InLayout && !f.Stdin && f.SessionID == "" {
			cands = append(cands, i)
		}
	}
	// Read the candidates a few at a time (each holds at most one line of
	// maxForeignLine): many small loose files cost little each, but this
	// runs before any file is checked.
	isForeign := make([]bool, len(res.Files))
	workers.Each(len(cands), min(runtime.GOMAXPROCS(0), 4), func(k int) {
		i := cands[k]
		isForeign[i] = foreign(res.Files[i].OSPath, res.Files[i].Link)
	})
	var dropped []string
	files := res.Files[:0]
	for i, f := range res.Files {
		if isForeign[i] {
			if !f.Context {
				res.Skipped++
				dropped = append(dropped, f.Path)
			}
			continue
		}
		files = append(files, f)
	}
	res.Files = files
	res.Foreign = append(res.Foreign, dropped...)
	return dropped
}

// maxForeignLine bounds a line foreign reads; a longer line makes the file
// a transcript to check (the lint reports what is wrong with it).
const maxForeignLine = 16 << 20

// foreign reads the file at p line by line until a line shows it is (or may
// be) a transcript: a marker, an entry type, or a line that is not a valid
// JSON object or array. It opens p as every file checked is opened
// (readonly.Open): never blocking, without moving its access time, and
// through a link only when the walk followed one there (link).
func foreign(p string, link bool) bool {
	fh, _, err := readonly.Open(p, link)
	if err != nil {
		return false
	}
	defer fh.Close()
	// Most candidates are transcripts whose first line names a marker in
	// its first few KiB: one small read decides them.
	var head [4 << 10]byte
	n, _ := io.ReadFull(fh, head[:])
	if firstLineMarked(head[:n]) {
		return false
	}
	if _, err := fh.Seek(0, io.SeekStart); err != nil {
		return false
	}
	return foreignLines(fh)
}

// foreignLines is foreign's look at every line of r.
func foreignLines(r io.Reader) bool {
	fb := foreignBufs.Get().(*foreignBuf)
	br := fb.br
	br.Reset(r)
	long := fb.long[:0]
	defer func() {
		br.Reset(nil)
		fb.long = nil
		if cap(long) <= 1<<20 {
			fb.long = long[:0]
		}
		foreignBufs.Put(fb)
	}()
	lines := 0
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long)+len(chunk) > maxForeignLine {
				return false
			}
			long = append(long, chunk...)
			continue
		}
		line := chunk
		if len(long) > 0 {
			line = append(long, chunk...)
			long = line[:0]
		}
		if t := bytes.TrimSpace(line); len(t) > 0 {
			if t[0] != '{' && t[0] != '[' || hasMarker(t) || entryType.Match(t) || !json.Valid(t) {
				return false
			}
			lines++
		}
		if err == io.EOF {
			return lines > 0
		}
		if err != nil {
			return false
		}
	}
}

// foreignBuf is what foreign reads a file with, reused from file to file
// (many loose files are small): a buffered reader and room for a line
// longer than its buffer (kept up to 1 MiB).
type foreignBuf struct {
	br   *bufio.Reader
	long []byte
}

var foreignBufs = sync.Pool{New: func() any { return &foreignBuf{br: bufio.NewReaderSize(nil, 64<<10)} }}

// firstLineMarked reports whether the first non-blank line of a file that
// starts with head holds a marker (in the part of it in head): foreign would
// then say the file is not foreign, whatever follows.
func firstLineMarked(head []byte) bool {
	for len(head) > 0 {
		line, rest, complete := bytes.Cut(head, []byte{'\n'})
		if len(bytes.TrimSpace(line)) > 0 || !complete {
			return hasMarker(line)
		}
		head = rest
	}
	return false
}

func hasMarker(line []byte) bool {
	for _, m := range markers {
		if bytes.Contains(line, m) {
			return true
		}
	}
	return false
}
