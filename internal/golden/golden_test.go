package golden

import "testing"

func TestDiff(t *testing.T) {
	got := Diff("a\nb\nc\nd\ne\nf\ng\nh\nj", "a\nb\nc\nD\ne\nf\ng\nh\nj\ni")
	want := "@@ line 2 @@\n  b\n  c\n- d\n+ D\n  e\n  f\n@@ line 8 @@\n  h\n  j\n+ i\n"
	if got != want {
		t.Errorf("Diff:\n%s\nwant:\n%s", got, want)
	}
}
