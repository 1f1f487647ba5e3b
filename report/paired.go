package report

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"sudokubatch/internal/quantile"
)

// Paired statistics of two runs over the same puzzles, for Compare: a
// bootstrap interval of the ratio of two medians, the Wilcoxon
// signed-rank test of paired differences, and the verdicts drawn from
// them.

// The bootstrap's settings: fixed, so that a comparison prints the same
// interval every time it is made.
const (
	// BootstrapResamples is how many resamples of the puzzles a
	// bootstrap interval is computed from, over up to
	// bootstrapBudget/BootstrapResamples (65,536) pairs.
	BootstrapResamples = 2000
	// MinBootstrapResamples is the fewest resamples: over more pairs
	// than 65,536, an interval takes bootstrapBudget/n resamples, but not
	// fewer (at 491,510 pairs, 400: the interval is then the 10th
	// smallest and largest ratio, and is narrow anyway).
	MinBootstrapResamples = 400
	// bootstrapBudget bounds the draws of one interval (resamples × pairs):
	// about 0.4 s on one core of a 2020s machine.
	bootstrapBudget = BootstrapResamples << 16
	// bootstrapSeed seeds the PCG generator of resample b as
	// (bootstrapSeed, b): each resample draws the same puzzles whatever
	// the number of goroutines that compute them.
	bootstrapSeed = 0x5d0c_0b47_c4e1_7001
	// pairedConfidence is the level of the intervals.
	pairedConfidence = 0.95
	// pairedSignificance is the p-value under which a paired test calls a
	// difference real.
	pairedSignificance = 0.05
)

// bootstrapResamples returns how many resamples an interval over n pairs
// takes.
func bootstrapResamples(n int) int {
	return min(BootstrapResamples, max(MinBootstrapResamples, bootstrapBudget/max(n, 1)))
}

// The verdicts of a StrategyDiff: Verdict (time) is one of the first
// four, CallsVerdict one of VerdictSame, VerdictMore, VerdictFewer and
// VerdictChanged.
const (
	VerdictSame      = "no change"
	VerdictSlower    = "slower"
	VerdictFaster    = "faster"
	VerdictUndecided = "undecided" // the ratio is a bound that could reverse the verdict
	VerdictMore      = "more"      // more calls, p < 0.05
	VerdictFewer     = "fewer"
	VerdictChanged   = "changed" // calls changed, in no clear direction
)

// timeVerdict returns the verdict on the times of a strategy from its
// ratio of medians, that ratio's interval, the signed-rank test of the
// times and the noise allowed (see Comparison), and whether a difference
// within the noise was found.
func timeVerdict(r Ratio, ci RatioCI, t SignedRank, noise float64) (verdict string, withinNoise bool) {
	up, down := t.P < pairedSignificance && t.Z > 0, t.P < pairedSignificance && t.Z < 0
	verdict = VerdictSame
	switch {
	case up && ci.Lo > noise:
		verdict = VerdictSlower
	case down && ci.Hi < 1/noise:
		verdict = VerdictFaster
	case up && ci.Lo > 1, down && ci.Hi < 1:
		withinNoise = true
	}
	switch {
	case r.Either, r.Bound == BoundLower && verdict != VerdictSlower, r.Bound == BoundUpper && verdict != VerdictFaster:
		return VerdictUndecided, false
	}
	return verdict, withinNoise
}

// callsVerdict returns the verdict on the calls of a strategy from the
// count of units whose calls changed and the signed-rank test of them.
func callsVerdict(changed int, t SignedRank) string {
	switch {
	case changed == 0:
		return VerdictSame
	case t.P < pairedSignificance && t.Z > 0:
		return VerdictMore
	case t.P < pairedSignificance && t.Z < 0:
		return VerdictFewer
	}
	return VerdictChanged
}

// RatioCI is a confidence interval [Lo, Hi] of a ratio NEW/OLD.
type RatioCI struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// Covers reports whether x lies in the interval.
func (iv RatioCI) Covers(x float64) bool { return iv.Lo <= x && x <= iv.Hi }

// medianRatioCI returns the percentile bootstrap interval, at level
// pairedConfidence, of median(newV)/median(oldV) over the n pairs (oldV[i],
// newV[i]), and the number of resamples (bootstrapResamples(n)).
//
// The resamples draw timing blocks, not single puzzles: block[i] is the
// block of pair i (see timingBlocks), and a resample draws as many
// blocks as there are, with replacement, each with all its pairs (a
// puzzle keeps its two times together). The units of a block were timed
// within milliseconds of each other in one process, and share the
// machine's speed at that moment: drawn puzzle by puzzle, the interval
// took them for independent and was as narrow as if the machine held
// still, narrower than the drift between two runs of the same build
// (docs/TIMING.md). Drawn by block, the machine's drift from block to
// block (and from shard to shard of a merged run) is in the interval.
// With fewer than minBlocks blocks, or block nil, the resamples draw
// puzzles.
//
// The interval is the middle 95% of the resamples' ratios. Medians are
// the tool's one estimator (internal/quantile: the lower middle value,
// as in the summary), read off the counts of draws per rank; a median
// below 1 is taken as 1, as in ratio. The work is shared by GOMAXPROCS
// goroutines; the result does not depend on how many (see
// bootstrapSeed). The error is ctx.Err() when ctx is canceled (checked
// between resamples). oldV, newV and block are not changed.
func medianRatioCI(ctx context.Context, oldV, newV []float64, block []int32) (RatioCI, int, error) {
	b := bootstrapResamples(len(oldV))
	iv, err := bootstrapMedianRatio(ctx, oldV, newV, block, b, runtime.GOMAXPROCS(0))
	return iv, b, err
}

// minBlocks is the fewest timing blocks a bootstrap draws; with fewer,
// it draws puzzles.
const minBlocks = 8

// blockCount returns the number of blocks of block (their numbers are
// 0..n-1), or 0 when it is too few to draw blocks.
func blockCount(block []int32) int {
	n := 0
	for _, b := range block {
		n = max(n, int(b)+1)
	}
	if n < minBlocks {
		return 0
	}
	return n
}

// bootstrapMedianRatio is medianRatioCI with resamples resamples over
// workers goroutines.
//
// A resample's medians are found without sorting or selecting its
// values. The pairs are numbered in the order of their OLD values, so
// that a pair's number is its OLD rank, and NEW's rank of each pair is
// computed once. A resample draws pair numbers (or blocks, and their
// pairs' numbers) and counts how many times it drew each OLD rank and
// each NEW rank; its median is the value of the first rank at which the
// running count reaches half the draws. That is n draws (two per 64-bit
// PCG output) and two increments each, plus a walk over half the counts:
// about a sixth of the cost of a quickselect on a copy of the resample
// (see BenchmarkBootstrap).
func bootstrapMedianRatio(ctx context.Context, oldV, newV []float64, block []int32, resamples, workers int) (RatioCI, error) {
	n := len(oldV)
	if n == 0 || len(newV) != n || resamples < 1 {
		return RatioCI{}, nil
	}
	sortedOld, rankOld := sortedRanks(oldV)
	sortedNew, rankNewOf := sortedRanks(newV)
	rankNew := make([]int32, n) // by OLD rank
	for i, r := range rankOld {
		rankNew[r] = rankNewOf[i]
	}
	// The pairs of each block, by OLD rank.
	var members [][]int32
	if nb := blockCount(block); nb > 0 && len(block) == n {
		members = make([][]int32, nb)
		for i, b := range block {
			members[b] = append(members[b], rankOld[i])
		}
	}
	ratios := make([]float64, resamples)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(1, min(workers, resamples)) {
		wg.Go(func() {
			// Counts of 16 bits hold up to 65535 draws of a pair: enough
			// for up to that many pairs (or blocks), and the smaller arrays
			// stay in cache.
			if max(n, len(members)) <= math.MaxUint16 {
				countResamples[uint16](ctx, &next, resamples, sortedOld, sortedNew, rankNew, members, ratios)
			} else {
				countResamples[int32](ctx, &next, resamples, sortedOld, sortedNew, rankNew, members, ratios)
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return RatioCI{}, err
	}
	slices.Sort(ratios)
	// The k-th smallest and the k-th largest, k = ceil(B·α/2): with
	// B = 2000, the 50th of each end. The lower end is the α/2-quantile
	// of the ratios (quantile.Index), the upper one its mirror (the
	// 1951st of 2000), not the 1-α/2-quantile (the 1950th): as many
	// resamples lie beyond each end.
	k := max(int(math.Ceil(float64(resamples)*(1-pairedConfidence)/2)), 1)
	return RatioCI{Lo: ratios[k-1], Hi: ratios[resamples-k]}, nil
}

// countResamples computes resamples, taking their numbers from next,
// until there are none left or ctx is canceled: it stores the ratio of
// medians of resample b in ratios[b]. members nil draws pairs, otherwise
// blocks of pairs. See bootstrapMedianRatio.
func countResamples[C uint16 | int32](ctx context.Context, next *atomic.Int64, resamples int,
	sortedOld, sortedNew []float64, rankNew []int32, members [][]int32, ratios []float64) {
	n := len(sortedOld)
	countOld, countNew := make([]C, n), make([]C, n)
	draws := make([]int32, n)
	if members != nil {
		draws = make([]int32, len(members))
	}
	var pcg rand.PCG
	for ctx.Err() == nil {
		b := next.Add(1) - 1
		if b >= int64(resamples) {
			return
		}
		pcg.Seed(bootstrapSeed, uint64(b))
		drawIndexes(&pcg, draws)
		total := len(draws)
		if members == nil {
			for _, i := range draws {
				countOld[i]++
				countNew[rankNew[i]]++
			}
		} else {
			total = 0
			for _, d := range draws {
				for _, i := range members[d] {
					countOld[i]++
					countNew[rankNew[i]]++
				}
				total += len(members[d])
			}
		}
		half := int32(quantile.Rank(total, 0.5)) // the median's rank among the draws: the lower middle one
		mo, mn := sortedOld[rankAt(countOld, half)], sortedNew[rankAt(countNew, half)]
		ratios[b] = max(mn, 1) / max(mo, 1)
		clear(countOld)
		clear(countNew)
	}
}

// sortedRanks returns v sorted, and the rank of each value of v in it
// (equal values in the order of v).
func sortedRanks(v []float64) (sorted []float64, rank []int32) {
	type entry struct {
		v float64
		i int32
	}
	order := make([]entry, len(v))
	for i, x := range v {
		order[i] = entry{x, int32(i)}
	}
	slices.SortFunc(order, func(a, b entry) int { return cmp.Or(cmp.Compare(a.v, b.v), cmp.Compare(a.i, b.i)) })
	sorted, rank = make([]float64, len(v)), make([]int32, len(v))
	for r, e := range order {
		sorted[r], rank[e.i] = e.v, int32(r)
	}
	return sorted, rank
}

// rankAt returns the first rank at which the running sum of counts
// reaches k (counts holds at least k).
func rankAt[C uint16 | int32](counts []C, k int32) int {
	var sum int32
	for r, c := range counts {
		if sum += int32(c); sum >= k {
			return r
		}
	}
	return len(counts) - 1
}

// drawIndexes fills draws with uniform integers in [0, len(draws)) from
// p, two from each 64-bit output: Lemire's multiply-shift on each
// 32-bit half, a half rejected when it would bias the result (with
// probability below n/2^32).
func drawIndexes(p *rand.PCG, draws []int32) {
	n := uint64(len(draws))
	thresh := uint32(-uint32(n) % uint32(n)) // 2^32 mod n
	for j := 0; j < len(draws); {
		x := p.Uint64()
		if m := (x & math.MaxUint32) * n; uint32(m) >= thresh {
			draws[j] = int32(m >> 32)
			j++
		}
		if m := (x >> 32) * n; uint32(m) >= thresh && j < len(draws) {
			draws[j] = int32(m >> 32)
			j++
		}
	}
}

// SignedRank is the result of a two-sided Wilcoxon signed-rank test of
// paired differences d_i (here log NEW/OLD per puzzle): are they
// centred on 0?
//
// Zero differences are dropped (Wilcoxon's own method, scipy's
// zero_method="wilcox"); the others are ranked by |d|, equal |d| taking
// the mean of their ranks. WPlus is the sum of the ranks of the positive
// differences. Z is its normal approximation, mean N(N+1)/4 and variance
// N(N+1)(2N+1)/24 less Σ(t³-t)/48 over the groups of t tied |d|, with no
// continuity correction (scipy's default); positive when NEW is larger.
// P is two-sided: exact (from the distribution of WPlus over the 2^N
// signs) when N <= 50 and no |d| are tied, else from Z. With no nonzero
// difference, P is 1 and Z is 0.
type SignedRank struct {
	N     int     `json:"n"`     // nonzero differences
	Zeros int     `json:"zeros"` // zero differences, dropped
	WPlus float64 `json:"w_plus"`
	Z     float64 `json:"z"`
	P     float64 `json:"p"`
	Exact bool    `json:"exact"` // P is exact
}

// exactSignedRankMax is the largest N for which P is exact (as scipy).
const exactSignedRankMax = 50

// signedRank tests the differences d (not changed).
func signedRank(d []float64) SignedRank {
	type diff struct {
		abs float64
		pos bool
	}
	nz := make([]diff, 0, len(d))
	for _, x := range d {
		if x != 0 && !math.IsNaN(x) {
			nz = append(nz, diff{math.Abs(x), x > 0})
		}
	}
	t := SignedRank{N: len(nz), Zeros: len(d) - len(nz), P: 1}
	if t.N == 0 {
		return t
	}
	slices.SortFunc(nz, func(a, b diff) int {
		switch {
		case a.abs < b.abs:
			return -1
		case a.abs > b.abs:
			return 1
		}
		return 0
	})
	ties := 0.0 // Σ(t³-t)
	for i := 0; i < len(nz); {
		j := i + 1
		for j < len(nz) && nz[j].abs == nz[i].abs {
			j++
		}
		rank := float64(i+1+j) / 2 // the mean of ranks i+1 .. j
		for _, x := range nz[i:j] {
			if x.pos {
				t.WPlus += rank
			}
		}
		if g := float64(j - i); g > 1 {
			ties += g*g*g - g
		}
		i = j
	}
	n := float64(t.N)
	mean := n * (n + 1) / 4
	sd := math.Sqrt(n*(n+1)*(2*n+1)/24 - ties/48)
	t.Z = (t.WPlus - mean) / sd
	if t.N <= exactSignedRankMax && ties == 0 {
		t.P, t.Exact = exactSignedRankP(t.N, int(t.WPlus)), true
	} else {
		t.P = math.Erfc(math.Abs(t.Z) / math.Sqrt2)
	}
	t.P = min(t.P, 1)
	return t
}

// exactSignedRankP returns the two-sided p-value of W+ = w over n
// untied nonzero differences: 2·min(P(W+ <= w), P(W+ >= w)), capped at
// 1, where under the null hypothesis each rank 1..n is positive with
// probability 1/2 independently. The counts of sign patterns by sum
// (at most C(50,25) < 2^53) are exact in float64.
func exactSignedRankP(n, w int) float64 {
	total := n * (n + 1) / 2
	counts := make([]float64, total+1)
	counts[0] = 1
	for r := 1; r <= n; r++ {
		for s := r * (r + 1) / 2; s >= r; s-- {
			counts[s] += counts[s-r]
		}
	}
	var below, above float64 // P(W+ <= w), P(W+ >= w), unnormalised
	for s, c := range counts {
		if s <= w {
			below += c
		}
		if s >= w {
			above += c
		}
	}
	return min(1, 2*min(below, above)/math.Ldexp(1, n))
}
