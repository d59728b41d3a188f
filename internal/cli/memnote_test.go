package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/memlimit"
)

func TestMemNote(t *testing.T) {
	var b bytes.Buffer
	memNote(&b, memlimit.Bound)
	memNote(&b, 0)
	if b.Len() != 0 {
		t.Errorf("a note within the bound: %q", b.String())
	}
	memNote(&b, 200<<20)
	if got := b.String(); !strings.Contains(got, "rose to 200 MiB") || !strings.Contains(got, "past the 128 MB bound") ||
		strings.Count(got, "\n") != 1 {
		t.Errorf("note past the bound: %q", got)
	}
}
