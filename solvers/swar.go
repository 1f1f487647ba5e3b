package solvers

// SWAR (SIMD within a register): eight cells or bytes in a uint64, one per
// byte lane, as the parser, validate, Grid.Empty, bitboard and dlx read
// them.
const (
	swarLow  = 0x0101010101010101 // 1 in each lane
	swarHigh = 0x8080808080808080 // the high bit of each lane
)

// nonZeroBytes returns the high bit of each byte of w that is not zero
// (exactly: no carry crosses a lane).
func nonZeroBytes(w uint64) uint64 {
	const low7 = 0x7f * swarLow
	return (w | (w&low7 + low7)) & swarHigh
}
