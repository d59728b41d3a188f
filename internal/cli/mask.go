package cli

import (
	"bytes"
	"io"

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
	_, err := w.Write(report.MaskSecrets(buf.Bytes()))
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
	_, err := m.w.Write(report.MaskSecrets(m.buf.Bytes()))
	m.buf.Reset()
	return err
}
