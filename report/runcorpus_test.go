package report

import (
	"testing"

	"sudokubatch/rundir"
)

// RunCorpora.Match finds a run's corpus by name (cleaned), else by the
// SHA-256 that run.json records, passing over the corpora taken.
func TestRunCorporaMatchByNameThenSHA256(t *testing.T) {
	run := &Run{Results: &Results{Corpora: []string{"a.txt", "b.txt"}}, Manifest: &rundir.Manifest{
		Settings: rundir.Settings{Corpora: []string{"a.txt", "b.txt", "-"}},
		Corpora:  []rundir.CorpusInfo{{Path: "a.txt", SHA256: "aa"}, {Path: "b.txt", SHA256: "bb"}, {Path: "-", Stream: true}},
	}}
	for _, tc := range []struct {
		name, sha string
		taken     string
		want, by  string
	}{
		{"a.txt", "bb", "", "a.txt", ByName}, // the name wins over the checksum
		{"./b.txt", "", "", "b.txt", ByName}, // the same path once cleaned
		{"copy.txt", "bb", "", "b.txt", BySHA256},
		{"copy.txt", "bb", "b.txt", "", ""}, // taken
		{"a.txt", "aa", "a.txt", "", ""},    // taken, by name and by checksum
		{"-", "", "", "-", ByName},          // a stream, by name only
		{"other.txt", "cc", "", "", ""},
	} {
		taken := func(name string) bool { return name == tc.taken }
		if got, by := run.Corpora().Match(tc.name, tc.sha, taken); got != tc.want || by != tc.by {
			t.Errorf("Match(%q, %q) taken %q = %q, %q; want %q, %q", tc.name, tc.sha, tc.taken, got, by, tc.want, tc.by)
		}
	}
	// Without run.json: the corpora of the rows, by name only.
	bare := &Run{Results: &Results{Corpora: []string{"a.txt"}}}
	if got, by := bare.Corpora().Match("a.txt", "aa", nil); got != "a.txt" || by != ByName {
		t.Errorf("no run.json: %q %q", got, by)
	}
	if got, _ := bare.Corpora().Match("x.txt", "aa", nil); got != "" {
		t.Errorf("no run.json, by checksum: %q", got)
	}
}
