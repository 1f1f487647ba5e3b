package report

import (
	"strings"
	"testing"
)

// TestStatusTable: the sweep's table has every status as a column, a row
// per strategy in the order given, and "-" as the mean time of a
// strategy with no unit; in a width too narrow for it, it is split into
// blocks of columns under the strategy names.
func TestStatusTable(t *testing.T) {
	var b strings.Builder
	err := WriteStatusTable(&b, []SweepCounts{
		{Name: "norvig", Units: 4, Statuses: map[string]int{"solved": 3, "timeout": 1}, NS: 4_000_000},
		{Name: "dlx", Units: 0, Statuses: map[string]int{}},
	}, 200)
	if err != nil {
		t.Fatal(err)
	}
	want := "" +
		"  strategy  units  solved  unsolvable  stuck  timeout  limit  unsupported  invalid  wrong  error  mean time\n" +
		"  norvig        4       3           0      0        1      0            0        0      0      0     1.00ms\n" +
		"  dlx           0       0           0      0        0      0            0        0      0      0          -\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	// In 80 columns: two blocks under the strategy names.
	b.Reset()
	if err := WriteStatusTable(&b, []SweepCounts{{Name: "norvig", Units: 4, Statuses: map[string]int{"solved": 4}, NS: 4_000_000}}, 80); err != nil {
		t.Fatal(err)
	}
	want = "" +
		"  strategy  units  solved  unsolvable  stuck  timeout  limit  unsupported\n" +
		"  norvig        4       4           0      0        0      0            0\n" +
		"\n" +
		"  strategy  invalid  wrong  error  mean time\n" +
		"  norvig          0      0      0     1.00ms\n"
	if b.String() != want {
		t.Errorf("80 columns: got\n%s\nwant\n%s", b.String(), want)
	}
}
