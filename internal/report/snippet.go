package report

import (
	"encoding/binary"
	"fmt"
	"github.com/ccvet/ccvet/internal/secret"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/finding"
)

// LineSource gives the text of a line of a reported file, by the path in
// the report and the 1-based line number, without its newline (possibly
// cut short for a huge line). lint.Lines is one.
type LineSource interface {
	Line(path string, n int) ([]byte, bool)
}

// SnippetWidth is the most columns a snippet shows of a line.
const SnippetWidth = 100

// piece is one code point of a line as the snippet shows it: its bytes
// line[a:b] as they are, or esc when it is escaped.
type piece struct {
	esc  string
	a, b int
	w    int // columns on a terminal
}

// pieceOf is the code point r, decoded from line[a:b], escaped as Sanitize
// escapes it.
func pieceOf(r rune, line []byte, a, b int) piece {
	switch {
	case r == '[' && ClosesLegacyCommand(line, a): // "##[": no workflow command (workflow.go)
		return piece{esc: `\x5b`, w: 4}
	case r >= 0x20 && r < 0x7f: // printable ASCII, most of a line: as is, one column
		return piece{a: a, b: b, w: 1}
	case r == utf8.RuneError && b-a <= 1:
		s := `\x` + strconv.FormatUint(uint64(line[a])|0x100, 16)[1:]
		return piece{esc: s, w: len(s)}
	case NeedsEscape(r):
		q := strconv.QuoteRuneToASCII(r)
		return piece{esc: q[1 : len(q)-1], w: len(q) - 2}
	}
	// A valid code point other than U+FFFD (NeedsEscape): its bytes are
	// its one encoding.
	return piece{a: a, b: b, w: runeWidth(r)}
}

// write appends p's text to sb.
func (p piece) write(sb *strings.Builder, line []byte) {
	if p.esc != "" {
		sb.WriteString(p.esc)
	} else {
		sb.Write(line[p.a:p.b])
	}
}

// snippet cuts line to at most width columns around the code point at col
// (1-based, as findings count columns) and returns that text, escaped so
// no control character reaches the terminal, and the number of columns
// before the caret. A cut end shows "…". ok is false when col is past the
// end of the line (one past its last code point is fine: the caret then
// points just after it).
func snippet(line []byte, col, width int) (text string, caret int, ok bool) {
	if col < 1 {
		return "", 0, false
	}
	at, ok := columnOffset(line, col)
	if !ok {
		return "", 0, false
	}
	return snippetAt(line, at, width)
}

// snippetAt is snippet for the column at byte offset at.
func snippetAt(line []byte, at, width int) (text string, caret int, ok bool) {
	// Up to width columns each side of the caret, nearest first.
	var lbuf, rbuf [2*SnippetWidth + 8]piece // room for most lines' pieces on the stack
	left, right := lbuf[:0], rbuf[:0]
	lw, rw := 0, 0
	i := at
	for i > 0 && lw <= width {
		r, n := utf8.DecodeLastRune(line[:i])
		p := pieceOf(r, line, i-n, i)
		left, lw, i = append(left, p), lw+p.w, i-n
	}
	leftAll := i == 0
	i = at
	for i < len(line) && rw <= width {
		r, n := utf8.DecodeRune(line[i:])
		p := pieceOf(r, line, i, i+n)
		right, rw, i = append(right, p), rw+p.w, i+n
	}
	rightAll := i == len(line)
	// The caret a third of the way in, unless one side is short.
	lb, rb := width/3, width-width/3
	if leftAll && lw < lb {
		lb, rb = lw, rb+lb-lw
	} else if rightAll && rw < rb {
		lb, rb = lb+rb-rw, rw
	}
	nl, usedL, cutL := take(left, lb, leftAll)
	nr, _, cutR := take(right, rb, rightAll)
	var b strings.Builder
	if cutL {
		b.WriteString("…")
		caret = 1
	}
	for j := nl - 1; j >= 0; j-- {
		left[j].write(&b, line)
	}
	caret += usedL
	for j := 0; j < nr; j++ {
		right[j].write(&b, line)
	}
	if cutR {
		b.WriteString("…")
	}
	return b.String(), caret, true
}

// columnOffset returns the byte offset in line of column col (1-based):
// columns count code points, an invalid byte counting as one (as
// jsonpos.Column does). Runs of ASCII, most of a line, are stepped over
// eight bytes at a time. ok is false when col is past one after the end.
func columnOffset(line []byte, col int) (at int, ok bool) {
	return columnOffsetFrom(line, 0, 1, col)
}

// columnOffsetFrom is columnOffset counting on from byte offset at, which
// is column c.
func columnOffsetFrom(line []byte, at, c, col int) (int, bool) {
	for c < col {
		if col-c >= 8 && at+8 <= len(line) && binary.LittleEndian.Uint64(line[at:])&0x8080808080808080 == 0 {
			at, c = at+8, c+8
			continue
		}
		if at >= len(line) {
			return 0, false
		}
		_, n := utf8.DecodeRune(line[at:])
		at, c = at+n, c+1
	}
	return at, true
}

// take counts how many pieces (nearest first) fit in budget columns, with
// one column kept for "…" when not all of them fit (or when they do not
// reach the end of the line).
func take(ps []piece, budget int, all bool) (n, used int, cut bool) {
	for n < len(ps) && used+ps[n].w <= budget {
		used += ps[n].w
		n++
	}
	cut = n < len(ps) || !all
	if cut {
		for n > 0 && used+1 > budget {
			n--
			used -= ps[n].w
		}
	}
	return n, used, cut
}

// runeWidth is the number of terminal columns r takes: 0 for combining
// marks and zero-width characters, 2 for East Asian wide and full-width
// characters and most emoji, 1 otherwise. It is a simplification of
// Unicode's East Asian Width, good enough to put a caret under a column.
func runeWidth(r rune) int {
	switch {
	case unicode.Is(unicode.Mn, r), unicode.Is(unicode.Me, r), r == 0x200B, r == 0x200C, r == 0x200D, r == 0xFEFF:
		return 0
	case r >= 0x1100 && r <= 0x115F, r >= 0x2E80 && r <= 0x303E, r >= 0x3041 && r <= 0x33FF,
		r >= 0x3400 && r <= 0x4DBF, r >= 0x4E00 && r <= 0x9FFF, r >= 0xA000 && r <= 0xA4CF,
		r >= 0xAC00 && r <= 0xD7A3, r >= 0xF900 && r <= 0xFAFF, r >= 0xFE30 && r <= 0xFE4F,
		r >= 0xFF00 && r <= 0xFF60, r >= 0xFFE0 && r <= 0xFFE6, r >= 0x1F300 && r <= 0x1F64F,
		r >= 0x1F900 && r <= 0x1F9FF, r >= 0x20000 && r <= 0x3FFFD:
		return 2
	}
	return 1
}

// writeSnippet prints, under a finding with a line and column, the
// fragment of the line around the column and a caret under it, as
// compilers do:
//
//	6 | {"parentUuid":"d6f9…","type":"user",…
//	  |                ^
//
// Nothing when the line cannot be read again or the column is not on it.
func writeSnippet(w io.Writer, src LineSource, f *finding.Finding, paintCaret func(string) string, last *snippetLine) {
	if f.Line < 1 || f.Column < 1 {
		return
	}
	if last.path != f.Path || last.num != f.Line || last.line == nil && !last.failed {
		*last = snippetLine{path: f.Path, num: f.Line, col: 1}
		line, ok := src.Line(f.Path, f.Line)
		if !ok {
			last.failed = true
			return
		}
		last.line = MaskSecrets(line)
	}
	if last.failed {
		return
	}
	if f.Column < last.col {
		last.col, last.at = 1, 0
	}
	at, ok := columnOffsetFrom(last.line, last.at, last.col, f.Column)
	if !ok {
		return
	}
	last.col, last.at = f.Column, at
	text, caret, ok := snippetAt(last.line, at, SnippetWidth)
	if !ok {
		return
	}
	num := strconv.Itoa(f.Line)
	g := max(len(num), 4)
	fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf(" %*s | %s", g, num, text), " "))
	fmt.Fprintf(w, " %*s | %s%s\n", g, "", strings.Repeat(" ", caret), paintCaret("^"))
}

// snippetLine is the line the last snippet showed, its secrets masked, and
// the byte offset of the last column asked: the findings of a line come
// one after the other, by column, so a line of many findings is read,
// masked and counted through once, not once a finding. line is used only
// until the next src.Line call.
type snippetLine struct {
	path    string
	num     int
	line    []byte
	failed  bool // the line could not be read
	col, at int
}

// MaskSecrets returns line with the bytes of every secret on it (what the
// secret rule finds) replaced by '*', so that no snippet or diff, whatever
// finding it is printed for, shows one. line is not changed: a copy is
// masked. (Spans skips a line without a keyword place cheaply; the raw
// line's places are not enough on their own: a \u escape may spell one
// its decoded strings hold.)
func MaskSecrets(line []byte) []byte { return secret.Default().MaskLine(line) }

// MaskText returns text (a decoded string: a prompt, a message's text)
// with the bytes of every secret in it replaced by '*'. Mask before
// clipping: a key cut in two is no longer found.
func MaskText(text string) string { return secret.Default().Mask(text) }

// MaskValue returns value (a decoded string a message or a listing quotes
// on its own, name its member's name or "") with the bytes of every
// secret in it replaced by '*', as the rule finds them where the file
// holds them: as a JSON string, after that name (secret.MaskValue).
func MaskValue(name, value string) string { return secret.Default().MaskValue(name, value) }

// MaskDocument returns the JSON document doc that a command prints with
// every secret in it masked: MaskSecrets, and each string that holds a
// path masked as MaskPath masks it. doc is not changed.
func MaskDocument(doc []byte) []byte { return secret.Default().MaskDocument(doc) }

// MaskPath returns path (or any text a message quotes) with the bytes of
// every secret in it replaced by '*' (secret.MaskPath: each name in it
// masked on its own, also without its extension).
func MaskPath(path string) string { return secret.Default().MaskPath(path) }
