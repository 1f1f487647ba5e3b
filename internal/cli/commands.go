package cli

import (
	"fmt"
	"io"
	"strings"
)

// Command is a subcommand as the overview of the commands lists it: its
// name, the arguments it takes and what it does.
type Command struct{ Name, Args, Summary string }

// WriteCommands writes the list of the overview: each command with its
// arguments, its summary beside it when both fit HelpWidth columns, else
// under it, indented as flag.PrintDefaults indents a usage.
func WriteCommands(w io.Writer, cmds []Command) {
	for _, c := range cmds {
		line := strings.TrimSpace("  batch "+c.Name+" "+c.Args) + "  "
		if len(line)+2+len(c.Summary) > HelpWidth {
			line = strings.TrimRight(line, " ") + "\n    \t"
		}
		fmt.Fprintf(w, "  %s%s\n", line, c.Summary)
	}
}

// IsBareWord reports whether s could be a command name: letters, digits,
// - and _ only (no / or .: a path or a file name with an extension).
func IsBareWord(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return s != ""
}

// UnknownCommand is the error of a first argument, word, that is neither
// a command of names nor a file: it names the command within two edits,
// if any (Nearest), and how to sweep a file of that name.
func UnknownCommand(word string, names []string) error {
	hint := "batch -h lists the commands"
	if best := Nearest(word, names, 2); best != "" {
		hint = "did you mean " + best + "?"
	}
	return fmt.Errorf("unknown command %q; %s (no file %s here either; batch run %s sweeps a corpus file of that name)", word, hint, word, word)
}
