package model

import "testing"

func TestProjectMemo(t *testing.T) {
	p := NewProject("d", "n", true, nil, nil, nil)
	type key struct{}
	calls := 0
	get := func() int {
		return p.Memo(key{}, func() any { calls++; return 42 }).(int)
	}
	first, second := get(), get()
	if first != 42 || second != 42 || calls != 1 {
		t.Fatalf("Memo computed %d times", calls)
	}
	if p.Memo("other", func() any { return nil }) != nil {
		t.Fatal("a nil value is remembered as nil")
	}
}
