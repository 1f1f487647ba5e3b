package external

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// The batch binary plays two more roles, chosen by the environment
// variable roleVar when it starts: the guard that watches an external
// solver and its descendants, and the built-in echo peer that the null
// round trip is measured with. The tool starts them with os.Executable(),
// so every binary that starts external solvers (the tool, and the test
// binaries that do) calls Role first thing in main (or TestMain).
const (
	roleVar   = "SUDOKUBATCH_EXT_ROLE"
	nextVar   = "SUDOKUBATCH_EXT_NEXT" // the role of the guard's child ("echo"), or none
	roleGuard = "guard"
	roleEcho  = "echo"
)

// Role plays the role that the environment gives this process, if any:
// it returns the exit code of the role played and true, or false when the
// process has none (a plain run of the tool). A binary that starts
// external solvers calls it first in main:
//
//	if code, played := external.Role(); played {
//		os.Exit(code)
//	}
func Role() (code int, played bool) {
	switch os.Getenv(roleVar) {
	case roleGuard:
		return runGuard(os.Args[1:]), true
	case roleEcho:
		return runEcho(), true
	}
	return 0, false
}

// runEcho is the echo peer: it answers the handshake, then each request
// at once with its own grid as the solution (the tool times the round
// trip and does not check it).
func runEcho() int {
	in := bufio.NewReaderSize(os.Stdin, 4096)
	out := bufio.NewWriter(os.Stdout)
	first := true
	for {
		line, err := in.ReadSlice('\n')
		if err != nil {
			return 0
		}
		if first {
			first = false
			out.WriteString("solver echo 1 sizes=4,9,16\n")
			out.Flush()
			continue
		}
		f := strings.Fields(string(line))
		if len(f) < 4 {
			fmt.Fprintf(os.Stderr, "echo: bad request %q\n", line)
			return 2
		}
		out.WriteString(f[0])
		out.WriteString(" solved ")
		out.WriteString(f[3])
		out.WriteByte('\n')
		out.Flush()
	}
}
