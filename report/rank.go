package report

import (
	"slices"
	"sort"
)

// A unit's rank among a strategy's measured units is 1 + the number of
// their values above its own; units of equal values share it. The
// summary reads ranks off the values sorted (rankIn); a few units asked
// for later are placed by counting (placer).

// rankIn returns 1 + the number of values of sorted above v, and how
// many values equal v.
func rankIn(sorted []float64, v float64) (rank, tied int32) {
	above := sort.Search(len(sorted), func(i int) bool { return sorted[i] > v })
	from := sort.Search(len(sorted), func(i int) bool { return sorted[i] >= v })
	return int32(len(sorted) - above + 1), int32(above - from)
}

// placer counts, for each of a few values (its queries), how many of the
// values added are above it and how many equal it, as rankIn reads them
// off the sorted values, in O(log queries) an added value and without
// keeping them.
type placer struct {
	q     []float64 // the queries, sorted, each once
	below []int32   // below[j]: the values added with exactly j queries below them
	equal []int32   // equal[j]: the values added equal to q[j]
	above []int32   // above[j]: the values added above q[j], once counted (place)
}

func newPlacer(queries []float64) *placer {
	q := slices.Compact(slices.Sorted(slices.Values(queries)))
	return &placer{q: q, below: make([]int32, len(q)+1), equal: make([]int32, len(q))}
}

// add counts the value v.
func (p *placer) add(v float64) {
	j, found := slices.BinarySearch(p.q, v) // q[:j] are below v
	if found {
		p.equal[j]++
	}
	p.below[j]++
}

// place returns 1 + the number of values added above v, one of the
// queries, and how many equal it; values are not added after.
func (p *placer) place(v float64) (rank, tied int32) {
	if p.above == nil {
		p.above = make([]int32, len(p.q))
		var n int32
		for j := len(p.q) - 1; j >= 0; j-- {
			n += p.below[j+1] // the values with q[:j+1] below them and more
			p.above[j] = n
		}
	}
	j, _ := slices.BinarySearch(p.q, v)
	return p.above[j] + 1, p.equal[j]
}
