//go:build !linux

package external

import "syscall"

// setDeathSignal: only Linux has a parent-death signal; elsewhere the
// guard's life line alone ends the group.
func setDeathSignal(*syscall.SysProcAttr) {}
