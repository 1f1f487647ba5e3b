package external

import "syscall"

// setDeathSignal makes the solver die with its guard (KILL when the guard
// ends), should the guard be killed before it could end the group.
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
