//go:build !linux

package chart

// releasePages does nothing where the kernel's advice is not used.
func releasePages([]byte) {}
