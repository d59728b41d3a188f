package secret

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// The curl rules get a gate on their option; an expression with no
// stretch of any length, or only a short literal after it, gets none.
func TestGateOf(t *testing.T) {
	want := map[string][]string{"curl-auth-header": {"-H", "--header"}, "curl-auth-user": {"-u", "--user"}}
	for _, r := range Default().rules {
		if err := r.compile(); err != nil {
			t.Fatal(err)
		}
		if w, ok := want[r.ID]; ok {
			if r.gate == nil || !slices.Equal(r.gate.lits, w) {
				t.Errorf("%s: gate %+v, want the spellings %q", r.ID, r.gate, w)
			}
			delete(want, r.ID)
		}
	}
	if len(want) > 0 {
		t.Errorf("rules not in the default set: %v", want)
	}
	for expr, lits := range map[string][]string{
		`\bcurl\b.*[ \t](?:-H|--header)"x"`: {`-H"x"`, `--header"x"`},
		`abc.*(?:de|fg)(?:hi|jk)x`:          {"dehix", "dejkx", "fghix", "fgjkx"},
		`abc.*(?:de|fg)(?:hi|jk)(?:l|m)`:    {"dehi", "dejk", "fghi", "fgjk"}, // 8 spellings at most
		`abc.*[ \t](?i:-H)x`:                nil,                              // case-folded
		`abc[a-z]{3}-Hx`:                    nil,                              // nothing of any length
		`abc.*-[0-9]+`:                      nil,                              // "-": too short
		`abc.*(?:-H|x)y`:                    {"-Hy", "xy"},
	} {
		g := gateOf(expr)
		if lits == nil {
			if g != nil {
				t.Errorf("%s: gate %q, want none", expr, g.lits)
			}
			continue
		}
		if g == nil || !slices.Equal(g.lits, lits) {
			t.Errorf("%s: gate %+v, want %q", expr, g, lits)
		}
	}
}

// gateScan gives, for places in order, the first place at or after each
// where the rest matches: what trying the anchored rest at every place
// gives, on texts dense in options and near misses.
func TestGateScan(t *testing.T) {
	g := gateOf(`curl.*(?:-H|--header) "Auth: [a-z]{4}"`)
	str := `-H "Auth: abcd" curl -H "Type: x" --header "Auth: abcd" curl -H "Auth: ab" -H`
	gs := newGateScan(g, str, len(str))
	first := strings.Index(str, `--header`)
	for _, c := range []struct{ p, want int }{{0, 0}, {1, first}, {first, first}, {first + 1, -1}, {len(str) - 1, -1}} {
		if got := gs.first(c.p); got != c.want {
			t.Errorf("first(%d) = %d, want %d", c.p, got, c.want)
		}
	}
	for _, r := range Default().rules {
		if r.ID != "curl-auth-user" {
			continue
		}
		if err := r.compile(); err != nil {
			t.Fatal(err)
		}
		anchored := regexp.MustCompile(`^(?:` + r.gate.rest.String() + `)`)
		rng := rand.New(rand.NewPCG(5, 5))
		bits := []string{"-u", "--user", "-", "u", " ", "a", "b:", ":", `"`, "'", "\n", "\n", "$", "{"}
		for range 2000 {
			var b strings.Builder
			for range rng.IntN(40) {
				b.WriteString(bits[rng.IntN(len(bits))])
			}
			str := b.String()
			end := rng.IntN(len(str) + 1)
			gs := newGateScan(r.gate, str, end)
			for p := 0; p <= end; p += 1 + rng.IntN(4) {
				want := -1
				for q := p; q < end; q++ {
					if anchored.MatchString(str[q:end]) {
						want = q
						break
					}
				}
				if got := gs.first(p); got != want {
					t.Fatalf("%q up to %d: first(%d) = %d, want %d", str, end, p, got, want)
				}
			}
		}
	}
}

// Rules of a custom file whose literal run holds an octal escape or
// U+FFFD (which an invalid byte matches) find what the reference finds.
func TestGateCustomRules(t *testing.T) {
	for _, c := range []struct{ expr, text string }{
		{`\\bcurl\\b.*-H\\072([a-z0-9]{10})`, "run curl https://x.test -H:abcdefghij0 now"},
		{`\\bcurl\\b.*-H\\x{FFFD}([a-z0-9]{10})`, "run curl https://x.test -H\xffabcdefghij0 now"},
		{`\\bcurl\\b.*-H\\0([a-z0-9]{10})`, "run curl https://x.test -H\x00abcdefghij0 now"},
	} {
		sc, err := parse([]byte(`{"rules":[{"id":"custom","regex":"` + c.expr + `","keywords":["curl"]}]}`))
		if err != nil {
			t.Fatal(err)
		}
		if err := sc.rules[0].compile(); err != nil {
			t.Fatal(err)
		}
		if sc.rules[0].gate == nil {
			t.Fatalf("%s: no gate", c.expr)
		}
		ref := *sc
		ref.oneByOne = true
		var got, want []Match
		sc.Scan([]byte(c.text), func(m Match) { got = append(got, m) })
		ref.Scan([]byte(c.text), func(m Match) { want = append(want, m) })
		if len(want) != 1 || len(got) != 1 || got[0].Start != want[0].Start || got[0].End != want[0].End {
			t.Errorf("%s: found %d, the reference %d", c.expr, len(got), len(want))
		}
	}
}

// A text dense in "-u" (each a spelling whose rest reads the run after
// it) costs one search of the rest per place, not one per spelling.
func BenchmarkGateDenseOptions(b *testing.B) {
	text := []byte(strings.Repeat("curl"+strings.Repeat("-u", 1000)+"-", 16) + " a:b\n")
	sc := Default()
	for b.Loop() {
		sc.Scan(text, func(Match) {})
	}
}

// With decoys around them (options with no credential, "-u" of other
// commands, several curls, the option before its curl, text cut short),
// the scanner finds in curl commands what the references find.
func TestGateDifferential(t *testing.T) {
	ref, whole := reference(), wholeRef()
	var tr jsontree.Tree
	rng := rand.New(rand.NewPCG(31, 31))
	val := func() string {
		b := make([]byte, 8+rng.IntN(40))
		for k := range b {
			b[k] = "abcdefghijklmnopqrstuvwxyz0123456789"[rng.IntN(36)]
		}
		return string(b)
	}
	parts := []func() string{
		func() string { return "curl https://api.example.test/v1 " },
		func() string { return "curl -s " },
		func() string { return `-H "Content-Type: application/json" ` },
		func() string { return `--header 'Accept: */*' ` },
		func() string { return `-H "Authorization: Bearer ` + val() + `" ` },
		func() string { return `-H 'X-Api-Key: ` + val() + `' ` },
		func() string { return `--header="Token: ` + val() + `" ` },
		func() string { return "-u admin:" + val() + " " },
		func() string { return `--user "` + val() + `:` + val() + `" ` },
		func() string { return "git push -u origin main " },
		func() string { return "-H" },
		func() string { return "\n" },
		func() string { return " \\\n  " },
		func() string { return "-d '{}' " },
		func() string { return "some words about tokens and keys " },
	}
	found := 0
	for n := range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))]())
		}
		text := b.String()
		if rng.IntN(4) == 0 {
			text = text[:rng.IntN(len(text)+1)]
		}
		enc, _ := json.Marshal(text)
		line := []byte(`{"type":"user","message":{"content":` + string(enc) + `}}`)
		found += sameFinds(t, ref, &tr, line, "curl text "+jsonNum(n))
		sameFinds(t, whole, &tr, line, "curl text "+jsonNum(n)+" (whole text)")
	}
	if found < 300 {
		t.Fatalf("only %d found", found)
	}
	t.Logf("%d found alike", found)
}

// topAtoms cuts an expression's top level into its atoms, each with its
// repetition, and gives up where cutting the text would change its
// meaning or the text is not a sequence.
// TestTopAlternatives: the split at the top level's bars steps over
// escapes, classes (with their [:name:] sets) and groups as topAtoms does.
func TestTopAlternatives(t *testing.T) {
	for expr, want := range map[string][]string{
		`a|b`:                   {"a", "b"},
		`(a|b)|c`:               {"(a|b)", "c"},
		`\||[|]|[]|]`:           {`\|`, "[|]", "[]|]"},
		`[[:alpha:]|]|x`:        {"[[:alpha:]|]", "x"},
		`[\x{7c}|]|\x{28}|(?:)`: {`[\x{7c}|]`, `\x{28}`, "(?:)"},
		`ab`:                    {"ab"},
		``:                      {""},
	} {
		if got := topAlternatives(expr); !slices.Equal(got, want) {
			t.Errorf("topAlternatives(%q) = %q, want %q", expr, got, want)
		}
	}
}

func TestTopAtoms(t *testing.T) {
	for expr, want := range map[string][]string{
		`ab*c`:                        {"a", "b*", "c"},
		`\bx\x41\x{263a}\pL\p{Greek}`: {`\b`, "x", `\x41`, `\x{263a}`, `\pL`, `\p{Greek}`},
		`[]a]+?[^]b][[:alpha:]\]]x`:   {`[]a]+?`, `[^]b]`, `[[:alpha:]\]]`, "x"},
		`(?:a|(b))(?i:c){2,3}d`:       {"(?:a|(b))", "(?i:c){2,3}", "d"},
		`é.*?`:                        {"é", ".*?"},
		`a|b`:                         nil, // an alternation
		`a(?i)b`:                      nil, // flags for what follows
		`a\Qb|c\E`:                    nil, // quoting
		`a(b`:                         nil,
		`a[b`:                         nil,
		`a{x}`:                        nil, // a literal brace
	} {
		starts := topAtoms(expr)
		var got []string
		for k, s := range starts {
			end := len(expr)
			if k+1 < len(starts) {
				end = starts[k+1]
			}
			got = append(got, expr[s:end])
		}
		if !slices.Equal(got, want) {
			t.Errorf("topAtoms(%q) = %q, want %q", expr, got, want)
		}
	}
	// Every rule of the default set is cut into atoms that parse, or not
	// at all.
	for _, r := range Default().rules {
		starts := topAtoms(r.expr)
		for k, s := range starts {
			end := len(r.expr)
			if k+1 < len(starts) {
				end = starts[k+1]
			}
			if _, err := syntax.Parse(r.expr[s:end], syntax.Perl); err != nil {
				t.Errorf("%s: atom %q: %v", r.ID, r.expr[s:end], err)
			}
		}
	}
}
