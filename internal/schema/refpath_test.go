package schema

import (
	"testing"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// refLine is a corpus line the fast check cannot call valid.
type refLine struct {
	typ  string
	raw  []byte
	tree *jsontree.Tree
}

// referenceLines returns the corpus lines whose fast verdict sends them to
// the reference (jsonschema/v5): Invalid or Unsure, as an entry of their type.
func referenceLines(b testing.TB, v *Validator) []refLine {
	var tr jsontree.Tree
	var out []refLine
	corpusLines(b, func(_ string, line []byte) {
		if tr.Parse(line) != nil || tr.Kind(jsontree.Root) != jsontree.Object {
			return
		}
		typ, _ := tr.Str(tr.Get(jsontree.Root, "type"))
		if !v.KnownEntryType(typ) {
			return
		}
		if fv := v.FastEntry(typ, &tr); fv == Invalid || fv == Unsure {
			raw := append([]byte(nil), line...)
			own := new(jsontree.Tree)
			if own.Parse(raw) == nil {
				out = append(out, refLine{typ: typ, raw: raw, tree: own})
			}
		}
	})
	return out
}

// BenchmarkReference decodes and validates with jsonschema/v5 the corpus
// lines the fast check sends to the reference, as a lint does (the line is
// already parsed: the fast check needed it).
func BenchmarkReference(b *testing.B) { benchReference(b, true) }

// BenchmarkReferenceWhole is BenchmarkReference with every content block
// given to jsonschema/v5.
func BenchmarkReferenceWhole(b *testing.B) { benchReference(b, false) }

func benchReference(b *testing.B, prune bool) {
	v := validator(b)
	lines := referenceLines(b, v)
	if len(lines) == 0 {
		b.Skip("no corpus line reaches the reference")
	}
	b.Logf("%d lines", len(lines))
	for _, l := range lines {
		if _, ok := decodeLine(l.raw); ok {
			v.ValidateEntry(l.typ, nil) // compile outside the timing
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l := lines[i%len(lines)]
		var val any
		if utf8.Valid(l.raw) {
			val = l.tree.Value(jsontree.Root) // as model.Line.Value decodes it
		} else {
			val, _ = decodeLine(l.raw)
		}
		if prune {
			v.ValidateEntryTree(l.typ, val, l.tree)
		} else {
			v.ValidateEntry(l.typ, val)
		}
	}
}
