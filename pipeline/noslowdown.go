//go:build !slowdown

package pipeline

import "time"

// slowdownBuild is false: see slowdown.go (the slowdown build tag).
const slowdownBuild = false

func slowdown(time.Time, time.Duration, int64) {}
