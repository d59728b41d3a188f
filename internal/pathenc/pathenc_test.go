package pathenc

import (
	"strings"
	"testing"
)

// Expected values for long names were computed with the JavaScript
// expression Claude Code's Node build uses:
// Math.abs([...units].reduce((h, c) => ((h << 5) - h + c) | 0, 0)).toString(36).
func TestEncode(t *testing.T) {
	long := "/Users/someone/" + strings.Repeat("very-long-directory-name/", 10)
	japanese := "/home/u/" + strings.Repeat("日本語のフォルダ/", 30) + "😀"
	tests := []struct{ in, want string }{
		{"/a/b-c", "-a-b-c"},
		{"/a/b/c", "-a-b-c"},
		{"/a/b.c", "-a-b-c"},
		{"/a/b_c", "-a-b-c"},
		{"/a/b c", "-a-b-c"},
		{"/home/jenkins/Personal_AI_Infrastructure", "-home-jenkins-Personal-AI-Infrastructure"},
		{"/Users/pretor/Documents/PAI - TPOS", "-Users-pretor-Documents-PAI---TPOS"},
		{"/Users/me/café", "-Users-me-caf-"},        // é: one UTF-16 unit
		{"/Users/me/cafe\u0301", "-Users-me-cafe-"}, // NFD: e + combining acute
		{"/Users/me/🚀app", "-Users-me---app"},       // emoji: two units
		{`C:\Users\x`, "C--Users-x"},                // Windows
		{`c:\Users\x`, "c--Users-x"},                // the drive letter keeps its case
		{`\\server\share\p`, "--server-share-p"},    // UNC
		{strings.Repeat("a", 200), strings.Repeat("a", 200)},
		{"/tmp/x" + strings.Repeat("y", 224), "-tmp-x" + strings.Repeat("y", 194) + "-khptwx"},
		{`C:\Users\x\` + strings.Repeat(`ab\`, 70), "C--Users-x-" + strings.Repeat("ab-", 63) + "-htt3kt"},
		{long, EncodeUncapped(long)[:200] + "-k9auk3"},
		{japanese, EncodeUncapped(japanese)[:200] + "-ucnita"},
	}
	for _, tt := range tests {
		if got := Encode(tt.in); got != tt.want {
			t.Errorf("Encode(%q) =\n  %q\nwant\n  %q", tt.in, got, tt.want)
		}
	}
}

func TestHashMinInt32(t *testing.T) {
	// These five units hash to -2^31; JavaScript's Math.abs gives 2^31.
	s := string([]rune{2325, 9, 30, 12, 2})
	if got := Hash(s); got != "zik0zk" {
		t.Errorf("Hash = %q, want zik0zk", got)
	}
}

func TestMatches(t *testing.T) {
	long := "/tmp/x" + strings.Repeat("y", 224)
	longEnc := EncodeUncapped(long)
	hangul := "/Users/me/한국" // NFC: two syllables
	hangulNFD := "/Users/me/\u1112\u1161\u11ab\u1100\u116e\u11a8"
	tests := []struct {
		cwd, folder string
		want        bool
	}{
		// Collisions: all four encode to the same name.
		{"/a/b-c", "-a-b-c", true},
		{"/a/b/c", "-a-b-c", true},
		{"/a/b.c", "-a-b-c", true},
		{"/a/b_c", "-a-b-c", true},
		{"/a/bc", "-a-b-c", false},
		{"/a/b/c/", "-a-b-c", true}, // trailing separator
		{"/a/b/c", "-a-b-c-d", false},
		{"/a/b/c", "a-b-c", false},
		{"", "-", false},
		// Long names.
		{long, Encode(long), true},
		{long, longEnc, true},                         // uncapped, before 2.1.47
		{long, longEnc[:200] + "-1a2b3c4d5e6f", true}, // a native build's 64-bit hash
		{long, longEnc[:200] + "-", false},
		{long, longEnc[:200] + "-ABC", false},
		{long, longEnc[:199] + "z-khptwx", false},
		{"/tmp/x", "-tmp-x-khptwx", false}, // a suffix only after 200 characters
		// Windows drive letters in either case.
		{`C:\Users\x`, "C--Users-x", true},
		{`C:\Users\x`, "c--Users-x", true},
		{`c:\Users\x`, "C--Users-x", true},
		{`C:\Users\x`, "D--Users-x", false},
		{`C:\Users\x\`, "C--Users-x", true},
		// Non-ASCII: NFC and NFD spellings.
		{"/Users/me/café", "-Users-me-caf-", true},        // NFC cwd, NFC name
		{"/Users/me/café", "-Users-me-cafe-", true},       // NFC cwd, NFD name (before 2.1.39 on macOS)
		{"/Users/me/cafe\u0301", "-Users-me-cafe-", true}, // NFD cwd, NFD name
		{"/Users/me/cafe\u0301", "-Users-me-caf-", true},  // NFD cwd, NFC name (from 2.1.39)
		{"/Users/me/café", "-Users-me-cafx-", true},       // lenient: any base letter
		{"/Users/me/café", "-Users-me-caf", false},
		{"/Users/me/café", "-Users-me-cafe", false},
		{"/Users/me/café", "-Users-me-tea-", false},
		{"/Users/me/é", "-Users-me-e-", true},
		{"/Users/me/é", "-Users-me--", true},
		{hangul, "-Users-me---", true},        // NFC: one unit per syllable
		{hangul, "-Users-me-------", true},    // NFD: three jamo each
		{hangulNFD, "-Users-me-------", true}, // NFD cwd as recorded by an old macOS build
		{hangulNFD, "-Users-me---", true},     // NFD cwd, NFC name (from 2.1.39)
		{hangulNFD, "-Users-me--", false},
		{"/Users/me/が", "-Users-me--", true},  // NFC kana
		{"/Users/me/が", "-Users-me---", true}, // NFD: か + U+3099
		{"/Users/me/か\u3099", "-Users-me--", true},
		{"/Users/me/か\u3099", "-Users-me---", true},
		{"/Users/me/🚀app", "-Users-me---app", true},
		{"/Users/me/🚀app", "-Users-me--app", false},
		// Long non-ASCII names, capped.
		{"/Users/me/" + strings.Repeat("é", 250), "-Users-me-" + strings.Repeat("-", 190) + "-zz", true},
		{"/Users/me/" + strings.Repeat("é", 250), "-Users-me-" + strings.Repeat("e-", 95) + "-zz", true},
		{"/Users/me/" + strings.Repeat("é", 250), "-Users-me-" + strings.Repeat("e-", 94) + "ab-zz", false},
		// Overrides are not matched.
		{"/a/b", "my-project", false},
	}
	for _, tt := range tests {
		if got := Matches(tt.cwd, tt.folder); got != tt.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", tt.cwd, tt.folder, got, tt.want)
		}
	}
}

func TestEncodesIsExact(t *testing.T) {
	if Encodes("/Users/me/café", "-Users-me-cafe-") {
		t.Error("Encodes accepted an NFD spelling of an NFC cwd")
	}
	if !Encodes("/Users/me/café", "-Users-me-caf-") || !Encodes(`c:\x`, "C--x") {
		t.Error("Encodes rejected an exact name")
	}
}

func TestMaybeOverride(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"my-project", true},
		{"my_project", true},
		{"-a_b", true},
		{"-home-me-app", false},
		{"C--Users-x", false},
		{"C-Users", true},
		{strings.Repeat("a", 65), false},
		{"has space", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := MaybeOverride(tt.name); got != tt.want {
			t.Errorf("MaybeOverride(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/a/b/", "/a/b"},
		{"/a//b/./c", "/a/b/c"},
		{"/", "/"},
		{`c:\x\`, `C:\x`},
		{`C:\`, `C:\`},
	}
	for _, tt := range tests {
		if got := Key(tt.in); got != tt.want {
			t.Errorf("Key(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestWrittenBy: a long name must be spelled as the version that started
// the session spells it (2.1.110 and 2.1.330 were seen writing the 266-
// character path below as prefix + "-q5y4ul").
func TestWrittenBy(t *testing.T) {
	long := "/tmp/fmtoracle/lp/" + strings.Repeat("a", 80) + "/" + strings.Repeat("b", 80) + "/" + strings.Repeat("c", 80) + "/d_e.f"
	capped := Encode(long)
	if !strings.HasSuffix(capped, "-q5y4ul") {
		t.Fatalf("Encode = …%s, want the suffix 2.1.330 wrote (-q5y4ul)", capped[len(capped)-8:])
	}
	other := capped[:MaxLen] + "-zzzzzz"
	uncapped := EncodeUncapped(long)
	for _, c := range []struct {
		folder, v string
		want      bool
	}{
		{capped, "2.1.330", true},
		{capped, "2.1.110", true},
		{other, "2.1.330", false},
		{other, "2.1.60", true}, // a native build's other hash
		{other, "", true},
		{uncapped, "1.0.51", true},
		{uncapped, "2.1.330", false},
		{capped, "1.0.51", false},
		{"-a-b", "2.1.330", true},
	} {
		cwd := long
		if c.folder == "-a-b" {
			cwd = "/a/b"
		}
		if got := WrittenBy(cwd, c.folder, c.v); got != c.want {
			t.Errorf("WrittenBy(…, %s…, %q) = %v, want %v", c.folder[:20], c.v, got, c.want)
		}
	}
	if EncodeFor(long, "1.0.51") != uncapped || EncodeFor(long, "2.1.330") != capped {
		t.Error("EncodeFor")
	}
}

func TestTrailingSeparator(t *testing.T) {
	if !Encodes("/workspace/", "-workspace-") || !Encodes("/workspace/", "-workspace") || Encodes("/workspace", "-workspace-") {
		t.Error("a trailing separator is encoded as written, or dropped")
	}
}

func TestAbsolute(t *testing.T) {
	for name, want := range map[string]bool{
		Encode("/home/me/app"): true, Encode(`C:\Users\me`): true, "c--x": true,
		"app": false, "my-app": false, "1--x": false, "": false, "C-": false,
	} {
		if got := Absolute(name); got != want {
			t.Errorf("Absolute(%q) = %v, want %v", name, got, want)
		}
	}
}
