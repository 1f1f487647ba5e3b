package report

import (
	"math/bits"
	"slices"
	"sort"
)

// Exact order statistics by passes, in memory that does not grow with
// the rows. Values are non-negative integers (ns, calls). A population
// (one strategy's finished, or measured, values of one measure) is first
// counted in a histogram of hdrBuckets log-linear buckets (exact below
// 256, 1/128 of a power of two above); the value of a given rank lies in
// one bucket, and each later pass over the rows either collects the
// values of that bucket (when it holds at most selCap of them) and sorts
// them, or splits it into selSplit sub-buckets and counts again, until
// the value is known. Counts of values above or below given values
// (ranks, ECDF steps) take one pass (countSet).

const (
	hdrSub     = 7 // 2^hdrSub sub-buckets per power of two
	hdrExact   = 1 << (hdrSub + 1)
	hdrBuckets = hdrExact + (64-hdrSub-1)<<hdrSub
	selSplit   = 256 // sub-buckets of a bucket too full to collect
)

// selCap is how many values of one bucket are collected at most (a
// variable for the tests).
var selCap = 4096

func hdrBucket(x uint64) int {
	if x < hdrExact {
		return int(x)
	}
	e := bits.Len64(x) - (hdrSub + 1)
	return hdrExact + (e-1)<<hdrSub + int(x>>e) - 1<<hdrSub
}

// hdrRange returns the smallest and largest value of bucket b.
func hdrRange(b int) (lo, hi uint64) {
	if b < hdrExact {
		return uint64(b), uint64(b)
	}
	e := (b-hdrExact)>>hdrSub + 1
	m := uint64((b-hdrExact)&(1<<hdrSub-1) + 1<<hdrSub)
	lo = m << e
	return lo, lo | (1<<e - 1)
}

// hdrHist counts values in hdr buckets.
type hdrHist []uint32

func newHdrHist() hdrHist { return make(hdrHist, hdrBuckets) }

func (h hdrHist) add(x uint64) { h[hdrBucket(x)]++ }

// popKey names a population: series si, measure m (chartTime: ns,
// chartCalls: calls), finished units only or every measured unit.
type popKey struct {
	si  int
	m   chartMeasure
	fin bool
}

// selQuery asks for the value of rank k (1-based) in a population.
type selQuery struct {
	pop   popKey
	k     int
	value uint64
	done  bool
	// The interval [lo, hi] holding it, c values in it, the k-th being
	// the r-th of them.
	lo, hi uint64
	r, c   int
}

// selTask is one interval of a population to collect or split in a pass.
type selTask struct {
	lo, hi  uint64
	collect bool
	vals    []uint64
	width   uint64 // sub-bucket width when splitting
	counts  []uint32
}

// valueOf returns the measure m of a row as an integer.
func (r *spillRow) valueOf(m chartMeasure) uint64 {
	if m == chartCalls {
		return r.calls
	}
	return uint64(r.ns)
}

// selectRanks resolves the queries: hist returns the histograms of the
// finished and the censored values of a series and measure (the
// censored one is not used for a finished-only population).
func (st *Stream) selectRanks(qs []*selQuery, hist func(si int, m chartMeasure) (fin, cen hdrHist)) error {
	for _, q := range qs {
		fin, cen := hist(q.pop.si, q.pop.m)
		cum := 0
		for b := range hdrBuckets {
			c := int(fin[b])
			if !q.pop.fin {
				c += int(cen[b])
			}
			if cum+c >= q.k {
				q.lo, q.hi = hdrRange(b)
				q.r, q.c = q.k-cum, c
				break
			}
			cum += c
		}
		if q.lo == q.hi {
			q.value, q.done = q.lo, true
		}
	}
	for {
		tasks := map[popKey][]*selTask{}
		byQuery := map[*selQuery]*selTask{}
		for _, q := range qs {
			if q.done {
				continue
			}
			ts := tasks[q.pop]
			i := slices.IndexFunc(ts, func(t *selTask) bool { return t.lo == q.lo })
			if i < 0 {
				t := &selTask{lo: q.lo, hi: q.hi, collect: q.c <= selCap}
				if !t.collect {
					t.width = (q.hi-q.lo)/selSplit + 1
					t.counts = make([]uint32, selSplit)
				}
				ts = append(ts, t)
				tasks[q.pop] = ts
				i = len(ts) - 1
			}
			byQuery[q] = ts[i]
		}
		if len(byQuery) == 0 {
			return nil
		}
		for _, ts := range tasks {
			slices.SortFunc(ts, func(a, b *selTask) int {
				if a.lo < b.lo {
					return -1
				}
				return 1
			})
		}
		// Per series and measure: the tasks of the all-units and the
		// finished-only populations.
		type pair struct{ all, fin []*selTask }
		idx := make([][2]pair, len(st.rows))
		for k, ts := range tasks {
			p := &idx[k.si][k.m]
			if k.fin {
				p.fin = ts
			} else {
				p.all = ts
			}
		}
		find := func(ts []*selTask, x uint64) *selTask {
			i := sort.Search(len(ts), func(i int) bool { return ts[i].hi >= x })
			if i < len(ts) && ts[i].lo <= x {
				return ts[i]
			}
			return nil
		}
		add := func(t *selTask, x uint64) {
			if t.collect {
				t.vals = append(t.vals, x)
			} else {
				t.counts[(x-t.lo)/t.width]++
			}
		}
		err := st.scan(func(r *spillRow) {
			if !measured(r.status) {
				return
			}
			cen := r.status.Censored()
			for m := range idx[r.si] {
				p := &idx[r.si][m]
				if p.all == nil && (p.fin == nil || cen) {
					continue
				}
				x := r.valueOf(chartMeasure(m))
				if t := find(p.all, x); t != nil {
					add(t, x)
				}
				if !cen {
					if t := find(p.fin, x); t != nil {
						add(t, x)
					}
				}
			}
		})
		if err != nil {
			return err
		}
		for q, t := range byQuery {
			if t.collect {
				if !slices.IsSorted(t.vals) {
					slices.Sort(t.vals)
				}
				q.value, q.done = t.vals[q.r-1], true
				continue
			}
			cum := 0
			for b, c := range t.counts {
				if cum+int(c) >= q.r {
					lo := t.lo + uint64(b)*t.width
					q.lo, q.hi = lo, min(t.hi, lo+t.width-1)
					q.r, q.c = q.r-cum, int(c)
					break
				}
				cum += int(c)
			}
			if q.lo == q.hi {
				q.value, q.done = q.lo, true
			}
		}
	}
}

// countSet counts, in one pass, how many values of a population lie
// above or at most at each of a set of query values.
type countSet struct {
	q   []uint64 // sorted, distinct
	cnt []int    // cnt[i]: values with exactly i query values below them
}

func (c *countSet) want(x uint64) { c.q = append(c.q, x) }

func (c *countSet) prepare() {
	slices.Sort(c.q)
	c.q = slices.Compact(c.q)
	c.cnt = make([]int, len(c.q)+1)
}

func (c *countSet) add(x uint64) {
	if len(c.q) == 0 {
		return
	}
	i, _ := slices.BinarySearch(c.q, x) // query values < x
	c.cnt[i]++
}

// finish turns the counts into cumulative ones: cnt[i] = values <= q[i].
func (c *countSet) finish() {
	for i := 1; i < len(c.cnt); i++ {
		c.cnt[i] += c.cnt[i-1]
	}
}

// le returns how many values are <= x (x one of the query values).
func (c *countSet) le(x uint64) int {
	i, _ := slices.BinarySearch(c.q, x)
	return c.cnt[i]
}

// gt returns how many values are > x (x one of the query values).
func (c *countSet) gt(x uint64) int { return c.cnt[len(c.cnt)-1] - c.le(x) }
