package chart

import (
	"os"
	"syscall"
	"unsafe"
)

// releasePages advises the kernel that the whole pages inside b are not
// needed (MADV_DONTNEED): they leave the resident set, and a later read
// maps them again from the file b was loaded from. b must be bytes of
// the executable that nothing writes (a write would be lost).
func releasePages(b []byte) {
	if len(b) == 0 {
		return
	}
	page := uintptr(os.Getpagesize())
	p := unsafe.Pointer(unsafe.SliceData(b))
	start := uintptr(p)
	first := (start + page - 1) &^ (page - 1)
	last := (start + uintptr(len(b))) &^ (page - 1)
	if last <= first {
		return
	}
	// An error (a kernel that refuses the advice) leaves the pages as
	// they were: nothing to do about it.
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, first-start)), last-first), syscall.MADV_DONTNEED)
}
