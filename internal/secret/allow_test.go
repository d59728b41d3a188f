package secret

import (
	"regexp"
	"testing"
)

// allowsAllChecks is allows with every check made, in the rule file's
// order (regexes, then stopwords): the reference for the stopwords-first
// shortcut.
func (a *allowlist) allowsAllChecks(secret, whole, line string) bool {
	regex := a.regexAllows(secret, whole, wholeLine(line))
	stop := a.stopped(secret)
	if a.and {
		if a.paths {
			return false
		}
		hasRegex := len(a.regexes) > 0 || len(a.hashes) > 0
		if hasRegex && !regex {
			return false
		}
		if len(a.stopwords) > 0 && !stop {
			return false
		}
		return hasRegex || len(a.stopwords) > 0
	}
	return regex || stop
}

// wholeLine is the line of one line of text.
func wholeLine(line string) lineAt { return lineAt{newLineCtx(line), 0, len(line)} }

// TestAllowsStopwordsFirst checks allows against allowsAllChecks for
// every combination of condition, target, regexes, stopwords and paths,
// and for the rule file's own allowlists on the same texts.
func TestAllowsStopwordsFirst(t *testing.T) {
	texts := []string{"", "abc", "sample_value", "zzz", "abc-sample", "ABC"}
	var lists []*allowlist
	for _, and := range []bool{false, true} {
		for _, target := range []string{"", "match", "line"} {
			for _, res := range [][]string{nil, {"^abc"}, {"zz", "^nope$"}} {
				for _, stops := range [][]string{nil, {"sample"}, {"abc", "q"}} {
					for _, paths := range []bool{false, true} {
						al := &allowlist{and: and, target: target, stopwords: stops, paths: paths}
						for _, r := range res {
							al.regexes = append(al.regexes, regexp.MustCompile(r))
						}
						lists = append(lists, al)
					}
				}
			}
		}
	}
	s := Default()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	lists = append(lists, s.global...)
	for _, r := range s.rules {
		lists = append(lists, r.allow...)
	}
	for n, al := range lists {
		for _, sec := range texts {
			for _, whole := range texts {
				for _, line := range texts {
					if got, want := al.allows(sec, whole, wholeLine(line)), al.allowsAllChecks(sec, whole, line); got != want {
						t.Errorf("allowlist %d (and %v, target %q): allows(%q, %q, %q) = %v, want %v", n, al.and, al.target, sec, whole, line, got, want)
					}
				}
			}
		}
	}
}
