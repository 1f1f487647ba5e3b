package report

// pageRank is where a puzzle ranks in a strategy: "12th of 49151".
type pageRank struct {
	Solver                 string
	Status                 string
	Time, Calls            string
	NS                     int64
	CallsN                 uint64
	ByTime, ByCalls        string // "12th of 49151"; "" when the unit is not measured
	TiedTime, TiedCalls    string // "tied with 238 others"; "" when the rank is its own
	RankTime, RankCalls, N int
}

// setPageRanks sets each strategy's outcome and ranks of the named
// puzzles (order) in their entries (rows, parallel to order).
func setPageRanks(res *Results, s *Summary, rows []pagePuzzle, order []PuzzleRef) {
	// The entries by puzzle index (Series.Puzzle).
	corpusIndex := make(map[string]int, len(res.Corpora))
	for ci, c := range res.Corpora {
		corpusIndex[c] = ci
	}
	wantPuzzle := make(map[int32]int, len(order))
	for i, r := range order {
		if ci, ok := corpusIndex[r.Corpus]; ok {
			if p, ok := res.puzzleAt(ci, r.ID); ok {
				wantPuzzle[p] = i
			}
		}
	}
	for j, st := range s.Strategies {
		ser := res.Solver(st.Solver)
		if ser == nil {
			continue
		}
		// The rows of the puzzles named, then their ranks among the
		// measured units: a unit's rank is 1 + the number above its own,
		// as in the hardest lists (the units a timeout stopped tie at its
		// limit).
		rs := newRankedSeries(res, ser, 0)
		var named, measured []int32
		n := 0
		for k := range ser.Len() {
			m := ser.Status(k).Measured()
			if m {
				n++
			}
			if _, ok := wantPuzzle[ser.Puzzle(k)]; ok {
				named = append(named, int32(k))
				if m {
					measured = append(measured, int32(k))
				}
			}
		}
		if !ser.Counts(countCalls) {
			n = 0 // no ranking by calls
		}
		units := rs.units(measured)
		for _, k := range named {
			e := ser.At(int(k))
			i := wantPuzzle[ser.Puzzle(int(k))]
			u := rankedUnit(res, st.Solver, &e)
			if e.Status.Measured() {
				u, units = units[0], units[1:]
			}
			u.Unconfirmed = unconfirmed(res, ser, int(k))
			r := pageRank{Solver: st.Solver, Status: e.Status.String(), Calls: unitValue(u, float64(u.Calls), fmtCount), Time: unitTime(u),
				NS: e.NS, CallsN: e.Calls}
			if e.Status.Measured() {
				r.RankCalls, r.RankTime, r.N = u.RankCalls, u.RankTime, n
				r.ByCalls, r.TiedCalls = RankText(u.RankCalls, 0, r.N), tiedWith(u.TiedCalls)
				r.ByTime, r.TiedTime = RankText(u.RankTime, 0, r.N), tiedWith(u.TiedTime)
			}
			rows[i].Ranks[j] = r
		}
	}
}
