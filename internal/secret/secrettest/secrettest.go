// Package secrettest makes fake secrets for tests at run time, so that no
// key that looks live is ever committed: each is built from its parts and
// pseudo-random characters drawn from a seed.
package secrettest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
)

const (
	upper32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	alnum   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b64url  = alnum + "-_"
)

// Gen draws fake secrets; the same seed gives the same secrets.
type Gen struct{ r *rand.Rand }

// New returns a generator seeded with seed.
func New(seed uint64) *Gen { return &Gen{r: rand.New(rand.NewPCG(seed, seed^0x5ec7e7))} }

func (g *Gen) pick(set string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte(set[g.r.IntN(len(set))])
	}
	return b.String()
}

// AWS is an AWS access key id.
func (g *Gen) AWS() string { return "AK" + "IA" + g.pick(upper32, 16) }

// GitHub is a GitHub personal access token (classic).
func (g *Gen) GitHub() string { return "gh" + "p_" + g.pick(alnum, 36) }

// Anthropic is an Anthropic API key.
func (g *Gen) Anthropic() string { return "sk-" + "ant-api03-" + g.pick(b64url, 93) + "AA" }

// Slack is a Slack bot token.
func (g *Gen) Slack() string {
	return "xo" + "xb-" + g.pick("0123456789", 12) + "-" + g.pick("0123456789", 12) + "-" + g.pick(alnum, 24)
}

// PEM is an RSA private key block with a random body, lines joined by "\n".
func (g *Gen) PEM() string {
	var b strings.Builder
	b.WriteString("-----BEGIN RSA " + "PRIVATE KEY-----\n")
	for range 4 {
		b.WriteString(g.pick(alnum+"+/", 64))
		b.WriteByte('\n')
	}
	b.WriteString("-----END RSA " + "PRIVATE KEY-----")
	return b.String()
}

// Generic is a value the generic rule finds after a name such as
// "api_key=": 32 random letters and digits.
func (g *Gen) Generic() string { return g.pick(alnum, 32) }

// GCP is a Google (GCP) API key.
func (g *Gen) GCP() string { return "AI" + "za" + g.pick(b64url, 35) }

// markerRe is a fixture's slot for a key: {{secrettest.Kind(seed)}}, Kind
// one of Gen's methods. Its braces make it a template value that
// gitleaks' global allowlist lets through, so a fixture holding it holds
// no key.
var markerRe = regexp.MustCompile(`\{\{secrettest\.(\w+)\((\d+)\)\}\}`)

// Expand replaces each {{secrettest.Kind(seed)}} in text with the first
// key New(seed).Kind() draws, escaped for a JSON string (only PEM has a
// byte to escape): the same text always expands to the same keys. An
// unknown Kind or a bad seed is an error.
func Expand(text []byte) ([]byte, error) {
	var err error
	out := markerRe.ReplaceAllFunc(text, func(m []byte) []byte {
		sub := markerRe.FindSubmatch(m)
		seed, perr := strconv.ParseUint(string(sub[2]), 10, 64)
		kinds := map[string]func(*Gen) string{
			"AWS": (*Gen).AWS, "GitHub": (*Gen).GitHub, "Anthropic": (*Gen).Anthropic, "Slack": (*Gen).Slack,
			"PEM": (*Gen).PEM, "Generic": (*Gen).Generic, "GCP": (*Gen).GCP,
		}
		kind, ok := kinds[string(sub[1])]
		if perr != nil || !ok {
			err = fmt.Errorf("secrettest: %s: no such kind, or a bad seed", m)
			return m
		}
		v, _ := json.Marshal(kind(New(seed)))
		return v[1 : len(v)-1]
	})
	return out, err
}

// Expanding reports whether text holds a {{secrettest.Kind(seed)}} slot.
func Expanding(text []byte) bool { return markerRe.Match(text) }
