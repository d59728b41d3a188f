package secret

import (
	"bytes"
	"testing"
)

// BenchmarkMatcher runs the keyword pass over the strings of the real
// corpus, or of the store $CCVET_BENCH_STORE names (e.g. a real-shaped
// store bench/bench.sh made), with the automaton and with the SIMD finder
// where the processor has it (avx2: by nibbles, with AVX2; teddy: with
// AVX-512 VBMI), counting the hits as Scan's callers see
// them. The strings (178 MB for the real-shaped 200 MB store) are read
// from memory, where Scan reads those it has just parsed from the cache.
// cpu-ns/byte is the process's CPU time, which a loaded machine inflates
// less than wall time.
func BenchmarkMatcher(b *testing.B) {
	texts := storeStrings(b)
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	s := Default()
	dfa := *s.ac
	dfa.ted = nil
	type finder struct {
		name string
		m    *matcher
	}
	finders := []finder{{"automaton", &dfa}}
	if tedHasAVX2 {
		finders = append(finders, finder{"avx2", withTeddy(b, s, tedAVX2)})
	}
	if tedNative == tedVBMI {
		finders = append(finders, finder{"teddy", withTeddy(b, s, tedVBMI)})
	}
	for _, f := range finders {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			hits := 0
			cpu := cpuTime()
			for b.Loop() {
				hits = 0
				for _, t := range texts {
					f.m.each(t, func(int, int) bool { hits++; return true })
				}
			}
			b.ReportMetric(float64(hits), "hits")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(size), "ns/byte")
			b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N)/float64(size), "cpu-ns/byte")
		})
	}
	// The floor: reading each string once (bytes.IndexByte for a byte
	// no string holds), what any finder pays for the memory and the call.
	b.Run("read", func(b *testing.B) {
		b.SetBytes(int64(size))
		n := 0
		cpu := cpuTime()
		for b.Loop() {
			for _, t := range texts {
				n += bytes.IndexByte(t, 0xfe)
			}
		}
		b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N)/float64(size), "cpu-ns/byte")
	})
}
