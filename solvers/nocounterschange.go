//go:build !counterschange

package solvers

// countersChangeBuild is false: see counterschange.go (the
// counterschange build tag). The hook in dlx's Solve is behind this
// constant, so the compiler removes it.
const countersChangeBuild = false

func countersChange(*Puzzle, Limits, *Result) {}
