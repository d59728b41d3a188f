//go:build unix

package oracle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/ledger"
)

// Scrubbing: the files Claude Code writes hold text Anthropic wrote (system
// prompt blocks in api-request-shape/-blob entries, system reminders, tool
// and skill listings, compaction preambles). ScrubLine keeps the structure
// of an entry (every key, in order, every number, bool, null, identifier)
// and every text the oracle itself wrote, and replaces the rest:
//   - a string without whitespace of at most 256 bytes (ids, hashes, paths,
//     enums, model names, tool names, command output words) is kept;
//   - a <system-reminder>…</system-reminder> span becomes
//     <system-reminder>[scrubbed]</system-reminder>;
//   - otherwise each line is kept when it is the oracle's own (it mentions
//     "oracle" outside a path, or carries the plan marker) or one of
//     KeepStrings, or has no whitespace while no other line of the string
//     is scrubbed; a run of other lines becomes one "[scrubbed]".

// Scrubbed replaces a scrubbed line of text.
const Scrubbed = "[scrubbed]"

// KeepStrings are short fixed strings Claude Code writes that a linter may
// need to recognise (interruption and synthetic-reply markers).
var KeepStrings = map[string]bool{
	"[Request interrupted by user]":                             true,
	"[Request interrupted by user for tool use]":                true,
	"[Tool use interrupted]":                                    true,
	"No response requested.":                                    true,
	"(no content)":                                              true,
	"Continue from where you left off.":                         true,
	"[Orphaned tool result removed due to conversation resume]": true,
}

var (
	reminderRE = regexp.MustCompile(`(?s)<system-reminder>.*?</system-reminder>`)
	pathRE     = regexp.MustCompile(`[~.]?/[^\s"'<>]*`)
	oursRE     = regexp.MustCompile(`(?i)oracle`)
)

// ScrubString applies the rules above to one string value.
func ScrubString(s string) string {
	if len(s) <= 256 && !strings.ContainsAny(s, " \t\n\r") {
		return s
	}
	s = reminderRE.ReplaceAllString(s, "<system-reminder>"+Scrubbed+"</system-reminder>")
	lines := strings.Split(s, "\n")
	const (
		keep = iota
		word // kept only for having no whitespace
		drop
	)
	class := make([]int, len(lines))
	dropped := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "" || KeepStrings[t]:
		case strings.Contains(l, PlanMarker) || oursRE.MatchString(pathRE.ReplaceAllString(l, "")):
		case len(t) <= 256 && !strings.ContainsAny(t, " \t"):
			class[i] = word
		default:
			class[i] = drop
			dropped = true
		}
	}
	// Where some of the text is Anthropic's, its single words go too; runs
	// of scrubbed lines become one.
	var out []string
	for i, l := range lines {
		if class[i] == drop || (dropped && class[i] == word) {
			if len(out) > 0 && out[len(out)-1] == Scrubbed {
				continue
			}
			l = Scrubbed
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// ScrubLine scrubs one JSONL line (without its newline). Keys keep their
// order and numbers their spelling. A line that is not JSON becomes
// {"type":"oracle-unparseable-line-scrubbed"}.
func ScrubLine(line []byte) []byte {
	var out bytes.Buffer
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := scrubValue(dec, &out); err != nil {
		return []byte(`{"type":"oracle-unparseable-line-scrubbed"}`)
	}
	if _, err := dec.Token(); err != io.EOF {
		return []byte(`{"type":"oracle-unparseable-line-scrubbed"}`)
	}
	return out.Bytes()
}

// ScrubJSONL scrubs every line of a JSONL file's content; the final newline
// (or its absence) is kept.
func ScrubJSONL(data []byte) []byte {
	var out bytes.Buffer
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		line := data
		if i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(bytes.TrimSpace(line)) > 0 {
			out.Write(ScrubLine(line))
		}
		if i >= 0 {
			out.WriteByte('\n')
		}
	}
	return out.Bytes()
}

func writeString(out *bytes.Buffer, s string) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	out.Write(bytes.TrimRight(b.Bytes(), "\n"))
}

func scrubValue(dec *json.Decoder, out *bytes.Buffer) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			out.WriteByte('{')
			for first := true; dec.More(); first = false {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key, ok := k.(string)
				if !ok {
					return fmt.Errorf("oracle scrub: key %v", k)
				}
				if !first {
					out.WriteByte(',')
				}
				writeString(out, key)
				out.WriteByte(':')
				if err := scrubValue(dec, out); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			out.WriteByte('}')
		case '[':
			out.WriteByte('[')
			for first := true; dec.More(); first = false {
				if !first {
					out.WriteByte(',')
				}
				if err := scrubValue(dec, out); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			out.WriteByte(']')
		default:
			return fmt.Errorf("oracle scrub: unexpected %v", v)
		}
	case string:
		writeString(out, ScrubString(v))
	case json.Number:
		out.WriteString(v.String())
	case bool:
		if v {
			out.WriteString("true")
		} else {
			out.WriteString("false")
		}
	case nil:
		out.WriteString("null")
	}
	return nil
}

// ScrubTree copies a data root for committing: every .jsonl file scrubbed
// line by line, every .json file scrubbed (and compacted onto one line),
// file-history/ backups as they are (their content is the files the
// scenarios wrote), nothing else (debug logs, shell snapshots, plugins).
// The request ledger names content by hash, so the hashes of what the scrub
// changed are recomputed (see Rehash): ccvet finds the copy's ledger
// consistent, as it found the original's.
func ScrubTree(src, dst string) error {
	type file struct {
		rel string
		out []byte
	}
	var files []file
	hashes := map[string]string{}
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "debug", "shell-snapshots", "plugins", "statsig", "ide":
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		var out []byte
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch {
		case strings.HasSuffix(p, ".jsonl"):
			out = ScrubJSONL(data)
			LedgerHashes(data, out, hashes)
		case strings.HasSuffix(p, ".json") || strings.Contains(d.Name(), ".json.backup"):
			var c bytes.Buffer
			if json.Compact(&c, data) != nil {
				return nil
			}
			out = append(ScrubLine(c.Bytes()), '\n')
		case strings.HasPrefix(filepath.ToSlash(rel), "file-history/"):
			out = data
		default:
			return nil
		}
		files = append(files, file{rel, out})
		return nil
	})
	if err != nil {
		return err
	}
	for _, f := range files {
		t := filepath.Join(dst, f.rel)
		if err := os.MkdirAll(filepath.Dir(t), 0o755); err != nil {
			return err
		}
		out := f.out
		if strings.HasSuffix(f.rel, ".jsonl") {
			out = Rehash(out, hashes)
		}
		if err := os.WriteFile(t, out, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// LedgerHashes pairs the ledger hashes of a transcript before (raw) and
// after (scrubbed) the scrub, which keeps its lines in order, into m (old
// hash -> new hash): every api-request-blob and api-request-shape, and every
// message the request recorder derives from its user and assistant entries
// (as internal/ledger computes them).
func LedgerHashes(raw, scrubbed []byte, m map[string]string) {
	before, after := ledgerLines(raw, false), ledgerLines(scrubbed, true)
	for i := 0; i < len(before) && i < len(after); i++ {
		for j := 0; j < len(before[i]) && j < len(after[i]); j++ {
			if before[i][j] != after[i][j] {
				m[before[i][j]] = after[i][j]
			}
		}
	}
}

// ledgerLines lists, per non-blank line of a transcript, the hashes it
// stores or adds: a blob's or shape's stored hash (its content hash in the
// scrubbed copy, where the stored one is stale), or the hash of the message
// run the line extends.
func ledgerLines(data []byte, scrubbed bool) [][]string {
	f := &ledger.Facts{Known: map[string]bool{}}
	var out [][]string
	var tree jsontree.Tree
	n := 0
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		n++
		var hs []string
		if tree.Parse(line) == nil {
			nb, ns, nk := len(f.Blobs), len(f.Shapes), len(f.Known)
			known := make(map[string]bool, nk)
			for k := range f.Known {
				known[k] = true
			}
			f.Note(n, jsontree.TreeVal(&tree))
			switch {
			case len(f.Blobs) > nb:
				hs = append(hs, stored(f.Blobs[nb], scrubbed))
			case len(f.Shapes) > ns:
				hs = append(hs, stored(f.Shapes[ns], scrubbed))
			case len(f.Known) > nk:
				for k := range f.Known {
					if !known[k] {
						hs = append(hs, k)
					}
				}
			}
		}
		out = append(out, hs)
	}
	return out
}

func stored(s ledger.Stored, scrubbed bool) string {
	if scrubbed && s.Actual != "" {
		return s.Actual
	}
	return s.Hash
}

var hashRE = regexp.MustCompile(`\b[0-9a-f]{64}\b`)

// Rehash replaces, in scrubbed transcript bytes, every hash m maps.
func Rehash(data []byte, m map[string]string) []byte {
	return hashRE.ReplaceAllFunc(data, func(h []byte) []byte {
		if n, ok := m[string(h)]; ok {
			return []byte(n)
		}
		return h
	})
}
