package benchstore

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// vocab is a fixed list of pseudo-words built from syllables; it never
// depends on the seed, so the same seed always gives the same text.
var vocab = func() []string {
	syl := []string{"ka", "lo", "mi", "ter", "son", "vex", "dra", "pel", "qui", "ro", "ta", "ne", "bis", "cor",
		"fu", "gan", "hel", "jo", "lum", "mar", "nor", "pra", "sel", "tun", "val", "wen", "xi", "yor", "zed", "ab"}
	r := rand.New(rand.NewPCG(7, 11))
	words := make([]string, 0, 1500)
	for len(words) < 1450 {
		n := 1 + r.IntN(3)
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(syl[r.IntN(len(syl))])
		}
		words = append(words, b.String())
	}
	// A few non-ASCII words: real transcripts hold accents, arrows and emoji.
	words = append(words, "café", "naïve", "→", "✓", "größe", "über", "日本語", "🚀", "—", "résumé")
	return words
}()

// word picks a word with a skewed (roughly Zipf-like) frequency.
func (g *gen) word() string {
	f := g.r.Float64()
	return vocab[int(f*f*f*float64(len(vocab)))]
}

// ident is a code-ish identifier.
func (g *gen) ident() string {
	w := g.word()
	for !isASCIIWord(w) {
		w = g.word()
	}
	if g.r.IntN(3) == 0 {
		w2 := g.word()
		if isASCIIWord(w2) {
			w += "_" + w2
		}
	}
	return w
}

func isASCIIWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

// sentence appends a sentence of about n words.
func (g *gen) sentence(b []byte, n int) []byte {
	for i := 0; i < n; i++ {
		w := g.word()
		if i == 0 && isASCIIWord(w) {
			b = append(b, w[0]-'a'+'A')
			b = append(b, w[1:]...)
		} else {
			b = append(b, w...)
		}
		switch {
		case i == n-1:
			b = append(b, '.')
		case g.r.IntN(12) == 0:
			b = append(b, ", "...)
		default:
			b = append(b, ' ')
		}
	}
	return b
}

// prose appends about size bytes of paragraphs, with the odd list and
// code span, as assistant text looks.
func (g *gen) prose(b []byte, size int) []byte {
	start := len(b)
	for len(b)-start < size {
		switch g.r.IntN(6) {
		case 0:
			for i, n := 0, 2+g.r.IntN(4); i < n; i++ {
				b = append(b, "- **"...)
				b = append(b, g.ident()...)
				b = append(b, "**: "...)
				b = g.sentence(b, 4+g.r.IntN(10))
				b = append(b, '\n')
			}
		case 1:
			b = append(b, "Run `"...)
			b = append(b, g.ident()...)
			b = append(b, " --"...)
			b = append(b, g.ident()...)
			b = append(b, "` and check \""...)
			b = append(b, g.ident()...)
			b = append(b, "\". "...)
		default:
			for i, n := 0, 1+g.r.IntN(4); i < n; i++ {
				b = g.sentence(b, 5+g.r.IntN(18))
				b = append(b, ' ')
			}
		}
		b = append(b, "\n\n"...)
	}
	return b
}

// code appends n lines of pseudo source code; numbered as the Read tool
// shows them when numbered is set.
func (g *gen) code(b []byte, n int, numbered bool) []byte {
	depth := 0
	for i := 1; i <= n; i++ {
		if numbered {
			s := strconv.Itoa(i)
			for j := len(s); j < 6; j++ {
				b = append(b, ' ')
			}
			b = append(b, s...)
			b = append(b, '\t')
		}
		for j := 0; j < depth; j++ {
			b = append(b, '\t')
		}
		switch k := g.r.IntN(10); {
		case k == 0 && depth < 4:
			b = append(b, "func "...)
			b = append(b, g.ident()...)
			b = append(b, '(')
			b = append(b, g.ident()...)
			b = append(b, " string) (int, error) {"...)
			depth++
		case k == 1 && depth < 4:
			b = append(b, "if err := "...)
			b = append(b, g.ident()...)
			b = append(b, "(ctx); err != nil {"...)
			depth++
		case k == 2 && depth > 0:
			b = append(b, '}')
			depth--
		case k == 3:
			b = append(b, "// "...)
			b = g.sentence(b, 3+g.r.IntN(9))
		case k == 4:
			b = append(b, "return "...)
			b = append(b, g.ident()...)
			b = append(b, ", nil"...)
		default:
			b = append(b, g.ident()...)
			b = append(b, " := "...)
			b = append(b, g.ident()...)
			b = append(b, '.')
			b = append(b, g.ident()...)
			b = append(b, "(\""...)
			b = append(b, g.word()...)
			b = append(b, "\", "...)
			b = strconv.AppendInt(b, int64(g.r.IntN(1000)), 10)
			b = append(b, ')')
		}
		b = append(b, '\n')
	}
	return b
}

// shell appends n lines of command output.
func (g *gen) shell(b []byte, n int) []byte {
	for i := 0; i < n; i++ {
		switch g.r.IntN(4) {
		case 0:
			b = append(b, "ok  \tgithub.com/"...)
			b = append(b, g.ident()...)
			b = append(b, '/')
			b = append(b, g.ident()...)
			b = append(b, "\t0."...)
			b = strconv.AppendInt(b, int64(100+g.r.IntN(900)), 10)
			b = append(b, 's')
		case 1:
			b = append(b, "-rw-r--r-- 1 dev dev "...)
			b = strconv.AppendInt(b, int64(g.r.IntN(90000)), 10)
			b = append(b, " Jan 12 10:4"...)
			b = strconv.AppendInt(b, int64(g.r.IntN(10)), 10)
			b = append(b, ' ')
			b = append(b, g.ident()...)
			b = append(b, ".go"...)
		default:
			b = g.sentence(b, 3+g.r.IntN(12))
		}
		b = append(b, '\n')
	}
	return b
}
