package cli

import (
	"bytes"
	"io"
	"slices"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/report"
)

// encodeJSONMasked writes v as report.EncodeJSON does, with the bytes of
// every secret in the document replaced by '*' (a masked document is
// still JSON: only bytes inside strings are masked). The last guard of a
// command whose output quotes the store's own strings (a cwd, a session
// id, a member name, an id an edit names), wherever the secret rule
// looks or not.
func encodeJSONMasked(w io.Writer, v any) error {
	var buf bytes.Buffer
	if err := report.EncodeJSON(&buf, v); err != nil {
		return err
	}
	_, err := w.Write(report.MaskDocument(buf.Bytes()))
	return err
}

// maskingWriter holds what is written to it and, on flush, writes it to w
// with every secret masked (report.MaskSecrets: the text read raw and
// with its JSON escapes undone).
type maskingWriter struct {
	w   io.Writer
	buf bytes.Buffer
}

func (m *maskingWriter) Write(p []byte) (int, error) { return m.buf.Write(p) }

func (m *maskingWriter) flush() error {
	_, err := m.w.Write(report.MaskDocument(m.buf.Bytes()))
	m.buf.Reset()
	return err
}

// maskPaths masks, in the paths and JSON pointers of fs and of their
// related places, the bytes of every secret (a transcript named after a
// key, a project folder named after a cwd that holds an AWS key id, a
// member named after one), as maskMessages masks their messages: a report
// that names such a file or member must not print the key. fs is returned
// as it is when none holds one (the usual case); otherwise a masked copy,
// and the real path of each masked one ("" when two real paths mask to
// the same), for what reads the files again (the snippets).
func maskPaths(fs []finding.Finding) ([]finding.Finding, map[string]string) {
	memo := map[string]string{}
	real := map[string]string{}
	ptrs := map[string]string{} // the pointers that hold a secret, masked
	seePtr := func(p string) {
		if _, ok := ptrs[p]; ok || !longName(p) {
			return
		}
		if q := report.MaskPath(p); q != p {
			ptrs[p] = q
		}
	}
	see := func(p string) {
		if _, ok := memo[p]; ok {
			return
		}
		q := report.MaskPath(p)
		memo[p] = q
		if q != p {
			if r, dup := real[q]; dup && r != p {
				real[q] = ""
			} else {
				real[q] = p
			}
		}
	}
	for i := range fs {
		see(fs[i].Path)
		seePtr(fs[i].Pointer)
		for j := range fs[i].Related {
			see(fs[i].Related[j].Path)
			seePtr(fs[i].Related[j].Pointer)
		}
	}
	if len(real) == 0 && len(ptrs) == 0 {
		return fs, nil
	}
	ptr := func(p string) string {
		if q, ok := ptrs[p]; ok {
			return q
		}
		return p
	}
	out := slices.Clone(fs)
	for i := range out {
		out[i].Path = memo[out[i].Path]
		out[i].Pointer = ptr(out[i].Pointer)
		if len(out[i].Related) > 0 {
			out[i].Related = slices.Clone(out[i].Related)
			for j := range out[i].Related {
				out[i].Related[j].Path = memo[out[i].Related[j].Path]
				out[i].Related[j].Pointer = ptr(out[i].Related[j].Pointer)
			}
		}
	}
	return out, real
}

// longName reports whether pointer p has a name of 12 bytes or more: one
// that may be a key (no rule matches fewer).
func longName(p string) bool {
	n := 0
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			n = 0
		} else if n++; n >= 12 {
			return true
		}
	}
	return false
}

// realLines reads the lines of a masked path (maskPaths) from its file.
type realLines struct {
	src  report.LineSource
	real map[string]string
}

func (r realLines) Line(p string, n int) ([]byte, bool) {
	if q, ok := r.real[p]; ok {
		if q == "" {
			return nil, false // two files: no snippet rather than the wrong line
		}
		p = q
	}
	return r.src.Line(p, n)
}

// maskedKey is key with the secrets of the paths it gives masked: what a
// baseline records and matches, so that it holds no key either.
func maskedKey(key func(string) string) func(string) string {
	memo := map[string]string{}
	return func(p string) string {
		k := p
		if key != nil {
			k = key(p)
		}
		q, ok := memo[k]
		if !ok {
			q = report.MaskPath(k)
			memo[k] = q
		}
		return q
	}
}
