package secret

import (
	"fmt"
	"strings"
)

// gitleaksKeyEnd is what gitleaks' rules accept after a key: a backquote,
// a quote, a space, a ';', an escaped newline or the end of the text.
const gitleaksKeyEnd = "(?:[\\x60'\"\\s;]|\\\\[nr]|$)"

// amendedEnds are the rules whose key end ccvet widens, by id: any
// character that cannot continue the key ends it. gitleaks' end misses a
// key followed by anything else, and an Anthropic key, the one a Claude
// Code user pastes most, is often followed by a '.', a ',', a ')' or a ':'
// in prose ("my key is sk-ant-api03-…AA."): the rule found nothing, and
// every command printed the key as the text holds it. Its body is exactly
// 93 characters of [a-zA-Z0-9_-] and then "AA", so a longer run of those
// characters still matches nothing.
var amendedEnds = map[string]string{
	"anthropic-api-key":       `(?:[^a-zA-Z0-9_\-]|$)`,
	"anthropic-admin-api-key": `(?:[^a-zA-Z0-9_\-]|$)`,
}

// amend gives the expression of rule id the end amendedEnds asks for. A
// rule file whose expression no longer ends as gitleaks' did is an error:
// the amendment must be looked at again, not dropped in silence.
func amend(id, expr string) (string, error) {
	end, ok := amendedEnds[id]
	if !ok {
		return expr, nil
	}
	if !strings.HasSuffix(expr, gitleaksKeyEnd) {
		return "", fmt.Errorf("rule %s: its expression no longer ends with %s, which ccvet widens", id, gitleaksKeyEnd)
	}
	return strings.TrimSuffix(expr, gitleaksKeyEnd) + end, nil
}
