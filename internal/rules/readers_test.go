package rules

import (
	"testing"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// TestFileWriterCarriesOn: the newest version of a file's records, asked
// as they grow, as a shorter list and as another list, is writerOf's.
func TestFileWriterCarriesOn(t *testing.T) {
	rec := func(v string) *entry.Record {
		r := entry.Ref(1, 0)
		r.Common = &entry.Common{Version: v}
		return r
	}
	all := []*entry.Record{rec("2.0.76"), rec(""), rec("2.1.110"), rec("2.1.110"), rec("1.0.128"), rec("2.1.332"), rec("x")}
	f := &model.File{File: &layout.File{Kind: layout.Transcript}}
	for n := range len(all) + 1 {
		if got, want := fileWriter(f, all[:n]), writerOf(all[:n]); got != want {
			t.Fatalf("%d records: %v, want %v", n, got, want)
		}
	}
	for _, recs := range [][]*entry.Record{all[:3], all[4:], {rec("2.1.330")}, nil} {
		if got, want := fileWriter(f, recs), writerOf(recs); got != want {
			t.Errorf("%d records: %v, want %v", len(recs), got, want)
		}
	}
}
