package external

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Spec is one -ext NAME=COMMAND: the strategy's name, the command that
// starts the program, and the files it is made of beyond those its
// arguments name (-ext-files NAME=PATH).
type Spec struct {
	Name    string
	Command string   // as given
	Args    []string // split (SplitCommand)
	Files   []string // -ext-files: files or directories hashed into the provenance
}

// maxName is the longest strategy name -ext accepts.
const maxName = 32

// ParseSpec parses NAME=COMMAND. NAME is 1 to 32 characters of a-z, 0-9,
// _ and -, starting with a letter; COMMAND is split by SplitCommand.
func ParseSpec(s string) (Spec, error) {
	name, cmd, ok := strings.Cut(s, "=")
	if !ok {
		return Spec{}, fmt.Errorf("%q: want NAME=COMMAND, e.g. py='python3 solver.py'", s)
	}
	if err := CheckName(name); err != nil {
		return Spec{}, err
	}
	args, err := SplitCommand(cmd)
	if err != nil {
		return Spec{}, fmt.Errorf("%s: %w", name, err)
	}
	if len(args) == 0 {
		return Spec{}, fmt.Errorf("%s: empty command", name)
	}
	return Spec{Name: name, Command: cmd, Args: args}, nil
}

// CheckName checks a strategy name of -ext (see ParseSpec).
func CheckName(name string) error {
	if name == "" || len(name) > maxName {
		return fmt.Errorf("name %q: want 1 to %d characters", name, maxName)
	}
	for i, c := range name {
		ok := c >= 'a' && c <= 'z' || i > 0 && (c >= '0' && c <= '9' || c == '_' || c == '-')
		if !ok {
			return fmt.Errorf("name %q: want a-z, 0-9, _ and -, starting with a letter", name)
		}
	}
	return nil
}

// SplitCommand splits a command line into arguments as a POSIX shell
// splits a line without expansions: fields are separated by spaces and
// tabs; '...' is literal; "..." is literal but for \" and \\ (and \$,
// \` left as the shell leaves them: quoted); outside quotes a backslash
// quotes the next character. No glob, variable or redirection is
// expanded: a command that needs a shell names one (sh -c '...', with
// -ext-files naming what it runs).
func SplitCommand(s string) ([]string, error) {
	var args []string
	var cur strings.Builder
	inArg := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated ' in the command")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inArg = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New(`unterminated " in the command`)
			}
			inArg = true
		case c == '\\':
			if i+1 >= len(s) {
				return nil, errors.New(`a \ ends the command`)
			}
			i++
			cur.WriteByte(s[i])
			inArg = true
		default:
			cur.WriteByte(c)
			inArg = true
		}
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args, nil
}

// AddFiles adds the -ext-files values (NAME=PATH each, in order) to the
// specs of their names.
func AddFiles(specs []Spec, files []string) error {
	for _, v := range files {
		name, path, ok := strings.Cut(v, "=")
		if !ok || path == "" {
			return fmt.Errorf("-ext-files %q: want NAME=PATH, e.g. py=solver.py or py=lib/", v)
		}
		i := slices.IndexFunc(specs, func(sp Spec) bool { return sp.Name == name })
		if i < 0 {
			return fmt.Errorf("-ext-files %s: no -ext %s=COMMAND", v, name)
		}
		specs[i].Files = append(specs[i].Files, path)
	}
	return nil
}

// shells are the programs whose -c argument is a command line of its
// own: the files that line runs are not among the arguments.
var shells = []string{"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "busybox"}

// Warning says, for a command run by a shell (sh -c '...') without
// -ext-files, that only the shell is hashed; "" otherwise.
func (sp Spec) Warning() string {
	if len(sp.Files) > 0 || len(sp.Args) < 2 || !slices.Contains(shells, filepath.Base(sp.Args[0])) || !slices.Contains(sp.Args[1:], "-c") {
		return ""
	}
	return fmt.Sprintf("-ext %s runs a shell (%s -c): run.json can record the SHA-256 of %s only, not of what the command line runs; "+
		"name the files that make up the solver with -ext-files %s=PATH (a file or a directory), so that -resume and merge refuse a changed solver",
		sp.Name, filepath.Base(sp.Args[0]), sp.Args[0], sp.Name)
}
