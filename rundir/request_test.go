package rundir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sudokubatch/solvers"
)

// request is the Request of `batch run` with no flag but a corpus.
func request() Request {
	return Request{Solvers: strings.Join(solvers.Defaults(), ","), Timeout: 100 * time.Millisecond, Seed: 1,
		Runs: MaxRuns, Corpora: []string{"c.txt"}}
}

// TestRequestSettings: the flags of batch run become the settings
// run.json records, each bad value refused naming its flag and what it
// wants; without -solvers the default strategies and every external one.
func TestRequestSettings(t *testing.T) {
	r := request()
	r.External, r.IDs, r.Range = []string{"py"}, "#39949,2018", "0:50000"
	s, err := r.Settings(nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := append(solvers.Defaults(), "py"); !slices.Equal(s.Solvers, want) {
		t.Errorf("solvers %q, want the defaults and the external one %q", s.Solvers, want)
	}
	if !slices.Equal(s.IDs, []int{2018, 39949}) || s.Timeout != "100ms" || s.TimeoutNS != int64(100*time.Millisecond) || s.Range != "0:50000" {
		t.Errorf("settings %+v", s)
	}
	for _, tc := range []struct {
		change func(*Request)
		want   string
	}{
		{func(r *Request) { r.Runs = 0 }, fmt.Sprintf("-runs 0: want 1 to %d", MaxRuns)},
		{func(r *Request) { r.Timeout = -time.Second }, "-timeout -1s: want a duration >= 0"},
		{func(r *Request) { r.Limit = -1 }, "-limit -1: want a number >= 0"},
		{func(r *Request) { r.Solvers, r.SolversGiven = "", true }, "-solvers is empty"},
		{func(r *Request) { r.Solvers, r.SolversGiven = "nope", true }, `unknown strategy "nope"`},
		{func(r *Request) { r.IDs = "x" }, "-ids: bad puzzle id"},
		{func(r *Request) { r.Range = "5:5" }, "the selection matches no puzzle: -range 5:5 is empty"},
		{func(r *Request) { r.Range = "9:2" }, "-range: bad range"},
		{func(r *Request) { r.Shard = "3/3" }, "-shard: bad shard \"3/3\": want k/n with 0 <= k < n; or auto"},
		{func(r *Request) { r.Shard = "auto" }, "-shard auto"},
		{func(r *Request) { r.Corpora = []string{"a", "a"} }, "corpus a is given twice"},
		{func(r *Request) { r.Corpora = []string{"a\nb"} }, "control character"},
	} {
		r := request()
		tc.change(&r)
		if _, err := r.Settings(func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error with %q", r, err, tc.want)
		}
	}
	r = request()
	r.Shard = "auto"
	env := map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3",
		"SLURM_ARRAY_JOB_ID": "77"}
	if s, err := r.Settings(func(k string) string { return env[k] }); err != nil || s.Shard != "2/4" {
		t.Errorf("-shard auto in task 2 of 4: shard %q, %v", s.Shard, err)
	}
}

// TestCheckResume: a flag given again to -resume must agree with the
// run's setting, named when it does not; a flag not given is not
// compared; -ext and -ext-files compare the programs by name, command
// and named files; corpora named must be the run's.
func TestCheckResume(t *testing.T) {
	run, err := request().Settings(nil)
	if err != nil {
		t.Fatal(err)
	}
	run.External = []External{{Name: "py", Args: []string{"python3", "s.py"}, SHA256: strings.Repeat("a", 64),
		Files: []FileSum{{Path: "s.py", SHA256: "x"}, {Path: "lib", Named: true}}}}
	given := func(names ...string) func(string) bool {
		return func(f string) bool { return slices.Contains(names, f) }
	}
	same := run
	same.External = []External{{Name: "py", Args: []string{"python3", "s.py"}, Files: []FileSum{{Path: "lib", Named: true}}}}
	if err := run.CheckResume("d", same, given("timeout", "seed", "ext", "ext-files"), []string{"c.txt"}); err != nil {
		t.Errorf("the same flags: %v", err)
	}
	other := same
	other.TimeoutNS, other.Seed = 1, 2
	if err := run.CheckResume("d", other, given(), nil); err != nil {
		t.Errorf("flags not given are compared: %v", err)
	}
	if err := run.CheckResume("d", other, given("seed"), nil); err == nil ||
		err.Error() != "-resume: -seed differs from the run's setting in d/run.json; resume with the run's settings (omit -seed)" {
		t.Errorf("-seed 2: %v", err)
	}
	noFiles := same
	noFiles.External = []External{{Name: "py", Args: []string{"python3", "s.py"}}}
	if err := run.CheckResume("d", noFiles, given("ext"), nil); err == nil || !strings.Contains(err.Error(), "-ext differs") {
		t.Errorf("-ext without its -ext-files: %v", err)
	}
	if err := run.CheckResume("d", same, given(), []string{"other.txt"}); err == nil || !strings.Contains(err.Error(), "corpora [other.txt] differ") {
		t.Errorf("another corpus: %v", err)
	}
}

// TestCreateNewUnderTheRoot: without -out a new run is made under
// DefaultRoot, named by its start (UTC), a second one started in the same
// second with a suffix; Latest follows results/latest.
func TestCreateNewUnderTheRoot(t *testing.T) {
	t.Chdir(t.TempDir())
	start := time.Date(2026, 11, 21, 23, 5, 1, 0, time.UTC)
	var dirs []string
	for range 2 {
		m := testManifest()
		m.Start = start
		d, err := CreateNew("", m)
		if err != nil {
			t.Fatal(err)
		}
		d.Release()
		dirs = append(dirs, d.Path)
		if m.RunID != filepath.Base(d.Path) {
			t.Errorf("run id %q in %s", m.RunID, d.Path)
		}
	}
	if want := []string{filepath.Join(DefaultRoot, "20261121-230501"), filepath.Join(DefaultRoot, "20261121-230501-2")}; !slices.Equal(dirs, want) {
		t.Errorf("runs %q, want %q", dirs, want)
	}
	if got := Latest(DefaultRoot); got != filepath.Join(DefaultRoot, LatestLink) {
		t.Errorf("Latest with no link: %q", got)
	}
	if err := UpdateLatest(DefaultRoot, dirs[1]); err != nil {
		t.Fatal(err)
	}
	if got := Latest(DefaultRoot); got != dirs[1] {
		t.Errorf("Latest = %q, want %q", got, dirs[1])
	}
	m := testManifest()
	m.Start = start
	if _, err := CreateNew(dirs[0], m); !errors.Is(err, ErrExists) {
		t.Errorf("-out a run: %v, want ErrExists", err)
	}
	if _, err := os.Stat(filepath.Join(dirs[0], ManifestFile)); err != nil {
		t.Error(err)
	}
}
