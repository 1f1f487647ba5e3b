package rundir

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// seedManifest is a run.json as a run writes it.
const seedManifest = `{
  "tool": "sudokubatch", "run_id": "20261124-213012", "status": "interrupted",
  "start": "2026-11-24T21:30:12.66Z", "end": "2026-11-24T21:30:13.67Z", "duration_ns": 1013168440, "duration": "1.013s",
  "settings": {"solvers": ["norvig", "bitboard"], "timeout_ns": 100000000, "timeout": "100ms", "max_calls": 0, "seed": 1,
    "ids": [3, 39949], "range": "0:40000", "limit": 50000, "shard": "1/3", "unique": true, "corpora": ["data/sudoku17.txt", "-"]},
  "corpora": [
    {"path": "data/sudoku17.txt", "size": 4030382, "sha256": "71755fa5646701ae543b1435012492ec5b99f3d42b08da847e6d48d8b87676d7",
     "gzip": false, "complete": true, "lines": 49151, "puzzles": 49151, "invalid": 0, "skipped": 0},
    {"path": "-", "stream": true, "size": 410, "sha256": "", "gzip": false, "complete": false, "lines": 5, "puzzles": 5,
     "invalid": 1, "skipped": 0, "error": "- could not be read after line 5"}],
  "rows": 12,
  "segments": [{"start": "2026-11-24T21:30:12.66Z", "end": "2026-11-24T21:30:13.67Z", "duration_ns": 1013168440,
    "command": ["batch", "-"], "workers": 2, "rows": 12, "status": "killed", "machine": {"host": "vm", "num_cpu": 2}}],
  "highlight": [39949]
}`

// TestManifestNamesTheLineOfABadValue: a run.json that is not JSON, or
// whose value is not of its field's type (a count edited by hand to
// 1e3, "12", 10^20), is refused naming the line of the value.
func TestManifestNamesTheLineOfABadValue(t *testing.T) {
	const rowsLine = 11 // the line of "rows" in seedManifest
	for _, to := range []string{`"rows": 1e3,`, `"rows": "12",`, `"rows": 100000000000000000000,`, `"rows": 12,,`} {
		b := strings.Replace(seedManifest, `"rows": 12,`, to, 1)
		_, err := ParseManifest([]byte(b))
		if err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("line %d: ", rowsLine)) {
			t.Errorf("%s: %v, want an error naming line %d", to, err, rowsLine)
		}
	}
}

// FuzzManifest feeds arbitrary bytes to the run.json parser: it never
// panics, and a manifest it accepts is valid, and survives being written
// and read again unchanged.
func FuzzManifest(f *testing.F) {
	f.Add([]byte(seedManifest))
	f.Add([]byte(`{"settings": {"solvers": ["x"], "corpora": ["c"]}, "status": "running"}`))
	f.Add([]byte(`{"settings": {"solvers": ["x"], "corpora": ["c"], "shard": "3/2"}, "status": "running"}`))
	f.Add([]byte(`{"settings": {"solvers": ["x"], "corpora": ["a\nb"]}, "status": "finished", "corpora": [{"path": "a\nb", "lines": -1}]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseManifest(b)
		if err != nil {
			if m != nil {
				t.Fatal("a manifest and an error")
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("accepted, but not valid: %v", err)
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := ParseManifest(again)
		if err != nil {
			t.Fatalf("written and read again: %v\n%s", err, again)
		}
		if !reflect.DeepEqual(normalize(m), normalize(m2)) {
			t.Fatalf("round trip changed the manifest:\n%+v\n%+v", m, m2)
		}
	})
}

// normalize makes nil and empty slices, and the monotonic parts of times,
// compare equal.
func normalize(m *Manifest) *Manifest {
	b, _ := json.Marshal(m)
	var n Manifest
	json.Unmarshal(b, &n)
	return &n
}

// TestManifestRefusesDamagedFields: each damaged field is refused with its name.
func TestManifestRefusesDamagedFields(t *testing.T) {
	for _, tt := range []struct{ from, to, field string }{
		{`"shard": "1/3"`, `"shard": "7/3"`, "settings.shard"},
		{`"range": "0:40000"`, `"range": "9:3"`, "settings.range"},
		{`"solvers": ["norvig", "bitboard"]`, `"solvers": []`, "settings.solvers"},
		{`"solvers": ["norvig", "bitboard"]`, `"solvers": ["norvig", "norvig"]`, "settings.solvers[1]"},
		{`"limit": 50000`, `"limit": -1`, "settings.limit"},
		{`"ids": [3, 39949]`, `"ids": [39949, 3]`, "settings.ids[1]"},
		{`"timeout_ns": 100000000`, `"timeout_ns": -5`, "settings.timeout_ns"},
		{`"status": "interrupted"`, `"status": "done"`, "status"},
		{`"status": "killed"`, `"status": "zombie"`, "segments[0].status"},
		{`"lines": 5`, `"lines": -5`, "corpora[1]"},
		{`"path": "-"`, `"path": "other"`, "corpora[1].path"},
		{`"sha256": "71755`, `"sha256": "xyz`, "corpora[0].sha256"},
		{`"lines": 49151`, `"lines": 49150`, "corpora[0]"},
		{`"highlight": [39949]`, `"highlight": [-1]`, "highlight[0]"},
		{`"rows": 12,`, `"rows": -5,`, "rows"},
		{`"duration_ns": 1013168440, "duration"`, `"duration_ns": -1, "duration"`, "duration_ns"},
		{`"data/sudoku17.txt", "-"]`, `"data/sudoku17.txt", "a\nb"]`, "settings.corpora[1]"},
	} {
		b := strings.Replace(seedManifest, tt.from, tt.to, 1)
		if b == seedManifest {
			t.Fatalf("%q is not in the seed", tt.from)
		}
		if _, err := ParseManifest([]byte(b)); err == nil || !strings.HasPrefix(err.Error(), tt.field) {
			t.Errorf("%s -> %s: %v, want an error naming %s", tt.from, tt.to, err, tt.field)
		}
	}
	if _, err := ParseManifest([]byte(seedManifest)); err != nil {
		t.Fatalf("the seed: %v", err)
	}
}
