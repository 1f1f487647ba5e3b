package report

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"testing"

	"sudokubatch/internal/testenv"
)

func TestSignedRank(t *testing.T) {
	near := func(got, want, tol float64) bool { return math.Abs(got-want) <= tol }
	for _, c := range []struct {
		name  string
		d     []float64
		want  SignedRank // Z and P within 1e-9
		ztol  float64
		ptol  float64
		check string
	}{
		{
			// scipy.stats.wilcoxon's documentation: the differences in height
			// of cross- and self-fertilized corn (Darwin, in Fisher's Design
			// of Experiments). wilcoxon(d) gives statistic=24.0 (min of W+
			// and W-; W+ = 120-24 = 96: -48 and -67 have ranks 10 and 14),
			// pvalue=0.041259765625 (exact: 676 of the 2^15 sign patterns
			// have W+ <= 24). Z by hand: (96-60)/sqrt(15·16·31/24 = 310).
			name: "corn",
			d:    []float64{6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75},
			want: SignedRank{N: 15, WPlus: 96, Z: 36 / math.Sqrt(310), P: 0.041259765625, Exact: true},
		},
		{
			// The same, negated: W+ is W- of the above, Z changes sign.
			name: "corn negated",
			d:    []float64{-6, -8, -14, -16, -23, -24, -28, -29, -41, 48, -49, -56, -60, 67, -75},
			want: SignedRank{N: 15, WPlus: 24, Z: -36 / math.Sqrt(310), P: 0.041259765625, Exact: true},
		},
		{
			// By hand: zeros dropped (N = 8); |d| 1,1 | 2,2 | 3 | 4,4 | 5 take
			// ranks 1.5,1.5 | 3.5,3.5 | 5 | 6.5,6.5 | 8; W+ = 1.5+3.5+3.5+5+6.5+8
			// = 28 (W- = 8); mean 8·9/4 = 18; variance 8·9·17/24 = 51 less
			// (3·6)/48 = 0.375: 50.625; Z = 10/sqrt(50.625) = 1.40546;
			// P = 2(1-Φ(1.40546)) = 0.15988 (Φ(1.40) = 0.91924, Φ(1.41) = 0.92073
			// in a normal table, interpolated: 0.92006).
			name: "ties and zeros",
			d:    []float64{0, 1, -1, 2, 2, 3, -4, 4, 5, 0},
			want: SignedRank{N: 8, Zeros: 2, WPlus: 28, Z: 10 / math.Sqrt(50.625), P: 0.15988},
			ptol: 5e-5,
		},
		{
			name: "all zero", // calls of the same code: no difference, P = 1
			d:    []float64{0, 0, 0},
			want: SignedRank{Zeros: 3, P: 1},
		},
		{
			name: "one difference", // P(W+ >= 1) = 1/2 for N = 1: P = 1
			d:    []float64{0, 0.3, 0},
			want: SignedRank{N: 1, Zeros: 2, WPlus: 1, Z: (1 - 0.5) / math.Sqrt(0.25), P: 1, Exact: true},
		},
		{
			// 60 positive differences, no ties: beyond the exact range. W+ =
			// 60·61/2 = 1830, mean 915, variance 60·61·121/24 = 18452.5: Z =
			// 915/sqrt(18452.5) = 6.73591, P = erfc(Z/√2) ≈ 1.6e-11.
			name: "normal approximation",
			d:    ramp(60),
			want: SignedRank{N: 60, WPlus: 1830, Z: 915 / math.Sqrt(18452.5), P: math.Erfc(915 / math.Sqrt(18452.5) / math.Sqrt2)},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := signedRank(c.d)
			ptol := cmpOr(c.ptol, 1e-12)
			if got.N != c.want.N || got.Zeros != c.want.Zeros || got.WPlus != c.want.WPlus || got.Exact != c.want.Exact ||
				!near(got.Z, c.want.Z, 1e-9) || !near(got.P, c.want.P, ptol) {
				t.Errorf("signedRank(%v)\n = %+v\nwant %+v", c.d, got, c.want)
			}
		})
	}
	// The exact P of the corn data, counted sign pattern by sign pattern:
	// an enumeration that shares nothing with exactSignedRankP.
	atMost := 0
	for mask := range 1 << 15 {
		w := 0
		for r := 1; r <= 15; r++ {
			if mask&(1<<(r-1)) != 0 {
				w += r
			}
		}
		if w <= 24 {
			atMost++
		}
	}
	if atMost != 676 || exactSignedRankP(15, 96) != 2*676.0/(1<<15) {
		t.Errorf("%d patterns with W+ <= 24 (want 676); exact P %v", atMost, exactSignedRankP(15, 96))
	}
}

func cmpOr(a, b float64) float64 {
	if a != 0 {
		return a
	}
	return b
}

// ramp returns 1, 2, ..., n.
func ramp(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(i + 1)
	}
	return v
}

// refMedianRatioCI is the bootstrap done the plain way, with the same
// draws as bootstrapMedianRatio (pair numbers in the order of the OLD
// values): copy each resample and sort it.
func refMedianRatioCI(oldV, newV []float64, resamples int) RatioCI {
	n := len(oldV)
	byOld := make([]int, n)
	for i := range byOld {
		byOld[i] = i
	}
	sort.SliceStable(byOld, func(a, b int) bool { return oldV[byOld[a]] < oldV[byOld[b]] })
	ratios := make([]float64, resamples)
	o, nw := make([]float64, n), make([]float64, n)
	draws := make([]int32, n)
	var pcg rand.PCG
	for b := range resamples {
		pcg.Seed(bootstrapSeed, uint64(b))
		drawIndexes(&pcg, draws)
		for j, d := range draws {
			i := byOld[d]
			o[j], nw[j] = oldV[i], newV[i]
		}
		sort.Float64s(o)
		sort.Float64s(nw)
		k := (n+1)/2 - 1
		ratios[b] = max(nw[k], 1) / max(o[k], 1)
	}
	sort.Float64s(ratios)
	k := int(math.Ceil(float64(resamples) * (1 - pairedConfidence) / 2))
	return RatioCI{ratios[k-1], ratios[resamples-k]}
}

// noisyPairs returns n pairs: OLD lognormal around 10µs (spread like
// the times of one strategy over a corpus), NEW = OLD × scale × a
// multiplicative noise of sd noise, from a fixed seed.
func noisyPairs(n int, scale, noise float64, seed uint64) (oldV, newV []float64) {
	r := rand.New(rand.NewPCG(seed, 1))
	oldV, newV = make([]float64, n), make([]float64, n)
	for i := range n {
		oldV[i] = math.Round(1e4 * math.Exp(1.5*r.NormFloat64()))
		newV[i] = math.Round(oldV[i] * scale * math.Exp(noise*r.NormFloat64()))
	}
	return oldV, newV
}

func TestBootstrapMedianRatio(t *testing.T) {
	testenv.Heavy(t, "40 bootstrap intervals over 2,000 puzzles each, for their coverage: 5 s, 140 s under -race")
	ctx := context.Background()
	t.Run("same draws as sorting each resample", func(t *testing.T) {
		for _, n := range []int{1, 2, 7, 100, 101} {
			for _, clock := range []float64{1, 1e4} { // 1e4 ns: a coarse clock, many ties
				oldV, newV := noisyPairs(n, 1.1, 0.2, uint64(n))
				for i := range oldV {
					oldV[i], newV[i] = math.Round(oldV[i]/clock)*clock, math.Round(newV[i]/clock)*clock
				}
				want := refMedianRatioCI(oldV, newV, 200)
				for _, workers := range []int{1, 3} {
					got, err := bootstrapMedianRatio(ctx, oldV, newV, nil, 200, workers)
					if err != nil || got != want {
						t.Errorf("n=%d, clock %vns, %d workers: %+v %v, want %+v", n, clock, workers, got, err, want)
					}
				}
			}
		}
	})
	t.Run("exact scale", func(t *testing.T) {
		oldV, _ := noisyPairs(501, 1, 0, 1)
		newV := make([]float64, len(oldV))
		for i, v := range oldV {
			newV[i] = 1.25 * v // exact in binary
		}
		if got, b, err := medianRatioCI(ctx, oldV, newV, nil); err != nil || got != (RatioCI{1.25, 1.25}) || b != BootstrapResamples {
			t.Errorf("NEW = 1.25 OLD: %+v %v", got, err)
		}
	})
	t.Run("coverage", func(t *testing.T) {
		// 2000 puzzles, 5% noise per unit: the interval covers the true
		// ratio and is a few percent wide (the medians of OLD and NEW are
		// of different puzzles: pairing narrows it little). 20 data sets: a 95% interval
		// misses about one; more than 4 misses has probability < 0.3%.
		misses := 0
		for seed := range uint64(20) {
			oldV, newV := noisyPairs(2000, 1.2, 0.05, 100+seed)
			iv, _, err := medianRatioCI(ctx, oldV, newV, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !iv.Covers(1.2) {
				misses++
			}
			if iv.Hi-iv.Lo > 0.1 || iv.Lo < 1.1 || iv.Hi > 1.3 {
				t.Errorf("seed %d: interval %+v", seed, iv)
			}
		}
		if misses > 4 {
			t.Errorf("%d of 20 intervals miss the true ratio 1.2", misses)
		}
	})
	t.Run("blocks carry the machine's drift", func(t *testing.T) {
		// 40 blocks of 256 pairs, NEW 1.2 × OLD × a drift of 3% (sd) that
		// all the units of a block share × 2% noise per unit: drawn by
		// puzzle, the interval (±0.4%) sees only the units' noise and
		// misses 1.2 often (7 of these 20); drawn by block (±1%), it
		// misses about one in 20 (none of these).
		const blocks, size = 40, 256
		missPuzzles, missBlocks := 0, 0
		for seed := range uint64(20) {
			r := rand.New(rand.NewPCG(seed, 3))
			oldV, newV, block := make([]float64, blocks*size), make([]float64, blocks*size), make([]int32, blocks*size)
			for b := range blocks {
				drift := math.Exp(0.03 * r.NormFloat64())
				for j := range size {
					i := b*size + j
					oldV[i] = math.Round(1e4 * math.Exp(0.5*r.NormFloat64()))
					newV[i] = math.Round(oldV[i] * 1.2 * drift * math.Exp(0.02*r.NormFloat64()))
					block[i] = int32(b)
				}
			}
			byPuzzle, _, _ := medianRatioCI(ctx, oldV, newV, nil)
			byBlock, _, _ := medianRatioCI(ctx, oldV, newV, block)
			if !byPuzzle.Covers(1.2) {
				missPuzzles++
			}
			if !byBlock.Covers(1.2) {
				missBlocks++
			}
			if byBlock.Hi-byBlock.Lo <= byPuzzle.Hi-byPuzzle.Lo {
				t.Errorf("seed %d: by block %+v no wider than by puzzle %+v", seed, byBlock, byPuzzle)
			}
		}
		t.Logf("of 20 intervals, by puzzle %d miss 1.2, by block %d", missPuzzles, missBlocks)
		if missBlocks > 2 || missPuzzles < 4 {
			t.Errorf("of 20 intervals, by puzzle %d miss 1.2, by block %d: want the blocks to cover it", missPuzzles, missBlocks)
		}
	})
	t.Run("reproducible", func(t *testing.T) {
		oldV, newV := noisyPairs(3001, 1, 0.1, 7)
		a, _, _ := medianRatioCI(ctx, oldV, newV, nil)
		b, _ := bootstrapMedianRatio(ctx, oldV, newV, nil, BootstrapResamples, 1)
		if a != b || a.Lo >= 1 || a.Hi <= 1 {
			t.Errorf("%+v then %+v, want the same interval around 1", a, b)
		}
	})
	t.Run("canceled", func(t *testing.T) {
		oldV, newV := noisyPairs(1000, 1, 0.1, 7)
		ctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, _, err := medianRatioCI(ctx, oldV, newV, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("canceled: %v", err)
		}
	})
}

// BenchmarkBootstrap measures one interval (BootstrapResamples
// resamples) over the 49,151 puzzles of the 17-clue corpus: by counting
// ranks (medianRatioCI), on one goroutine and on GOMAXPROCS, and, for
// comparison, by a quickselect on a copy of each resample; and one over
// ten copies of the corpus.
func BenchmarkBootstrap(b *testing.B) {
	const n = 49151
	oldV, newV := noisyPairs(n, 1.05, 0.1, 1)
	ctx := context.Background()
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("count/workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				if _, err := bootstrapMedianRatio(ctx, oldV, newV, nil, BootstrapResamples, workers); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// Ten copies of the corpus: 491,510 pairs, bootstrapResamples(n) = 400.
	bigOld, bigNew := noisyPairs(10*n, 1.05, 0.1, 1)
	b.Run(fmt.Sprintf("count/n=%d/resamples=%d/workers=1", 10*n, bootstrapResamples(10*n)), func(b *testing.B) {
		for b.Loop() {
			if _, err := bootstrapMedianRatio(ctx, bigOld, bigNew, nil, bootstrapResamples(10*n), 1); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("quickselect/workers=1", func(b *testing.B) {
		o, nw := make([]float64, n), make([]float64, n)
		ratios := make([]float64, BootstrapResamples)
		draws := make([]int32, n)
		for b.Loop() {
			var pcg rand.PCG
			for r := range BootstrapResamples {
				pcg.Seed(bootstrapSeed, uint64(r))
				drawIndexes(&pcg, draws)
				for j, i := range draws {
					o[j], nw[j] = oldV[i], newV[i]
				}
				k := (n+1)/2 - 1
				ratios[r] = quickselect(nw, k, &pcg) / quickselect(o, k, &pcg)
			}
		}
	})
}

// quickselect returns the k-th smallest of v (reordering v): Hoare
// partitions around random pivots.
func quickselect(v []float64, k int, pcg *rand.PCG) float64 {
	lo, hi := 0, len(v)-1
	for lo < hi {
		pivot := v[lo+int(pcg.Uint64()%uint64(hi-lo+1))]
		i, j := lo, hi
		for i <= j {
			for v[i] < pivot {
				i++
			}
			for v[j] > pivot {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return v[k]
		}
	}
	return v[k]
}
