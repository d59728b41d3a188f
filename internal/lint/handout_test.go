package lint

import (
	"slices"
	"testing"

	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// TestHandoutOrder: the largest project first, in each the largest file
// first, ties in the order of files.
func TestHandoutOrder(t *testing.T) {
	sizes := []int64{5, 30, 1, 30, 7, 2, 9}
	files := make([]*model.File, len(sizes))
	for i, s := range sizes {
		files[i] = &model.File{File: &layout.File{Size: s}}
	}
	groups := []handout{
		{[]int{0, 1, 2}, 36}, // project A
		{[]int{3}, 30},       // project B
		{[]int{4, 5}, 9},     // project C
		{[]int{6}, 9},        // a file of no project
	}
	got := handoutOrder(groups, files)
	want := []int{1, 0, 2, 3, 4, 5, 6}
	if !slices.Equal(got, want) {
		t.Errorf("handoutOrder = %v, want %v", got, want)
	}
}
