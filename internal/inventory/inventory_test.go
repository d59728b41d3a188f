package inventory

import "testing"

func TestFields(t *testing.T) {
	s := `{"entrypoint": "cli","x":1}` + "\n" + `{"entrypoint":"sdk-cli","cwd":"/a\"b"}` + "\n" + `{"entrypoint":"sdk-t`
	// The picker tries the spelling without a space first.
	if got := firstField(s, "entrypoint"); got != "sdk-cli" {
		t.Errorf("firstField = %q", got)
	}
	// The last complete value wins; a cut one does not count.
	if got := lastField(s, "entrypoint"); got != "sdk-cli" {
		t.Errorf("lastField = %q", got)
	}
	if got := firstField(s, "cwd"); got != `/a"b` {
		t.Errorf("escaped value = %q", got)
	}
	if got := recordField(`{"type":"custom-title","customTitle":"a"}`+"\n"+`{"type":"custom-title","customTitle":"b"}`+"\n"+`{"type":"custom-title","custo`, "custom-title", "customTitle"); got != "b" {
		t.Errorf("recordField = %q", got)
	}
}

func TestPromptOf(t *testing.T) {
	cases := map[string][2]string{
		`{"content":"hello\nworld"}`: {"hello world", ""},
		`{"content":"<command-name>/model</command-name>\n<command-args></command-args>"}`:  {"", "/model"},
		`{"content":"<command-name>/loop</command-name><command-args>5m x</command-args>"}`: {"/loop 5m x", ""},
		`{"content":"<local-command-stdout>Bye</local-command-stdout>"}`:                    {"", ""},
		`{"content":[{"type":"tool_result","tool_use_id":"t","content":"x"}]}`:              {"", ""},
		`{"content":[{"type":"image"},{"type":"text","text":"look"}]}`:                      {"look", ""},
		`{"content":"[Request interrupted by user]"}`:                                       {"", ""},
		`{"content":"<bash-input>ls</bash-input>"}`:                                         {"! ls", ""},
		`{"content":5}`: {"", ""},
	}
	for in, want := range cases {
		p, cmd := promptOf([]byte(in))
		if p != want[0] || cmd != want[1] {
			t.Errorf("promptOf(%s) = %q, %q; want %q, %q", in, p, cmd, want[0], want[1])
		}
	}
}
