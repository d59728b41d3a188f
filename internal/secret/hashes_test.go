package secret_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/ccvet/ccvet/internal/secret"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

// TestAllowlistHashesLoaded: gcp-api-key's allowlist of gitleaks' 16
// sample keys is loaded as 16 hashes (gen_rules.py stores a literal regex
// that is a key by its SHA-256), and no allowlist of gitleaks.json holds
// such a literal in the clear.
func TestAllowlistHashesLoaded(t *testing.T) {
	r := secret.Default().Lookup("gcp-api-key")
	if r == nil {
		t.Fatal("no gcp-api-key rule")
	}
	regexes, hashes, err := secret.AllowCounts(r)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(regexes, []int{0}) || !slices.Equal(hashes, []int{16}) {
		t.Errorf("gcp-api-key allowlists: %v regexes, %v hashes; want [0], [16]", regexes, hashes)
	}
	data, err := os.ReadFile("gitleaks.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Allowlists []struct{ Regexes []string } `json:"allowlists"`
		Rules      []struct {
			ID         string                       `json:"id"`
			Allowlists []struct{ Regexes []string } `json:"allowlists"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	keyLiteral := regexp.MustCompile(`^[A-Za-z0-9_-]{20,}$`) // gen_rules.py's KEY_LITERAL
	check := func(where string, res []string) {
		for i, re := range res {
			if keyLiteral.MatchString(re) {
				t.Errorf("%s: allowlist regex %d is a key-like literal (fingerprint %s): gen_rules.py stores those as hashes", where, i, secret.Fingerprint(re))
			}
		}
	}
	for _, a := range doc.Allowlists {
		check("global", a.Regexes)
	}
	for _, r := range doc.Rules {
		for _, a := range r.Allowlists {
			check(r.ID, a.Regexes)
		}
	}
}

// TestAllowlistHashes: an allowlist of hashes lets through exactly what the
// same allowlist of literal regexes does (the keys are drawn at test time:
// none is committed), whatever the regex target.
func TestAllowlistHashes(t *testing.T) {
	g := secrettest.New(25)
	var keys []string
	for range 16 {
		keys = append(keys, g.GCP())
	}
	allowed := keys[:8]
	type hash struct {
		Length int    `json:"length"`
		SHA256 string `json:"sha256"`
	}
	build := func(target string, hashed bool) *secret.Scanner {
		t.Helper()
		al := map[string]any{}
		if target != "" {
			al["regexTarget"] = target
		}
		if hashed {
			var hs []hash
			for _, k := range allowed {
				sum := sha256.Sum256([]byte(k))
				hs = append(hs, hash{len(k), hex.EncodeToString(sum[:])})
			}
			al["hashes"] = hs
		} else {
			var res []string
			for _, k := range allowed {
				res = append(res, regexp.QuoteMeta(k))
			}
			al["regexes"] = res
		}
		doc := map[string]any{
			"version": "test",
			"rules": []any{map[string]any{
				"id": "gcp-api-key", "regex": `\b(AIza[\w-]{35})(?:[\x60'"\s;]|\\[nr]|$)`,
				"keywords": []string{"aiza"}, "allowlists": []any{al},
			}},
		}
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := secret.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		return sc
	}
	found := func(sc *secret.Scanner, text string) []string {
		var out []string
		sc.Scan([]byte(text), func(m secret.Match) { out = append(out, m.Fingerprint()) })
		return out
	}
	for _, target := range []string{"", "match", "line"} {
		lit, hashed := build(target, false), build(target, true)
		for i, k := range keys {
			other := keys[(i+9)%16] // allowed for i 7 to 14
			for j, text := range []string{
				"key: " + k + "\n",
				"maps?key=" + k + ";",
				"GOOGLE_API_KEY='" + k + "' and " + other + "\n",
			} {
				want, got := found(lit, text), found(hashed, text)
				if !slices.Equal(want, got) {
					t.Errorf("target %q, key %d: hashes find %v, literal regexes %v", target, i, got, want)
				}
				// On a line with an allowed key, a "line" target allows both.
				allowedKey := i < 8 || (j == 2 && target == "line" && slices.Contains(allowed, other))
				if allowedKey == slices.Contains(got, secret.Fingerprint(k)) {
					t.Errorf("target %q, key %d (allowed %v): found %v", target, i, allowedKey, got)
				}
			}
		}
	}
	// A malformed digest is an error, not an allowlist that allows nothing.
	bad := `{"rules":[{"id":"x","regex":"AIza[a-z]{35}","keywords":["aiza"],"allowlists":[{"hashes":[{"length":39,"sha256":"zz"}]}]}]}`
	sc, err := secret.Parse([]byte(bad))
	if err == nil {
		err = sc.Check()
	}
	if err == nil {
		t.Error("a malformed allowlist hash loaded")
	}
}
