package external

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// The batch binary plays two more roles, chosen by the environment
// variable roleVar when it starts (init below): the guard that leads an
// external solver's process, and the built-in echo peer that the null
// round trip is measured with. Any binary that links this package (the
// tool, and the test binaries) can play them, so the tool starts them
// with os.Executable().
const (
	roleVar   = "SUDOKUBATCH_EXT_ROLE"
	nextVar   = "SUDOKUBATCH_EXT_NEXT" // the role of the guard's child ("echo"), or none
	roleGuard = "guard"
	roleEcho  = "echo"
)

func init() {
	switch os.Getenv(roleVar) {
	case roleGuard:
		os.Exit(runGuard(os.Args[1:]))
	case roleEcho:
		os.Exit(runEcho())
	}
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
		if len(f) != 3 {
			fmt.Fprintf(os.Stderr, "echo: bad request %q\n", line)
			return 2
		}
		out.WriteString(f[1])
		out.WriteString(" solved ")
		out.WriteString(f[2])
		out.WriteByte('\n')
		out.Flush()
	}
}
