package sweep

import (
	"fmt"
	"path/filepath"
	"slices"

	"sudokubatch/report"
	"sudokubatch/rundir"
	"sudokubatch/solvers/external"
)

// The external solvers in run.json: solvers/external knows no run.json
// and rundir no external solver; the sweep maps one onto the other.

// recordsOf is run.json's record of the program of each of xs.
func recordsOf(xs external.Set) []rundir.External {
	var out []rundir.External
	for _, x := range xs {
		p := x.Program()
		r := rundir.External{Name: p.Name, Command: p.Command, Args: p.Args, Executable: p.Executable, SHA256: p.SHA256,
			Reported: p.Reported, Version: p.Version, Caps: p.Caps}
		for _, f := range p.Files {
			r.Files = append(r.Files, rundir.FileSum{Path: f.Path, SHA256: f.SHA256, Named: f.Named, Files: f.Files})
		}
		out = append(out, r)
	}
	return out
}

// nullsOf is run.json's record of the null round trip each of xs
// measured during the sweep.
func nullsOf(xs external.Set) []rundir.NullRoundTrip {
	var out []rundir.NullRoundTrip
	for _, x := range xs {
		n := x.Null()
		out = append(out, rundir.NullRoundTrip{Name: x.Name(), Samples: n.Samples, MedianNS: n.MedianNS, P10NS: n.P10NS,
			P90NS: n.P90NS, P99NS: n.P99NS})
	}
	return out
}

// programOf is the program of run.json's record.
func programOf(e rundir.External) external.Program {
	p := external.Program{Name: e.Name, Command: e.Command, Args: e.Args, Executable: e.Executable, SHA256: e.SHA256,
		Reported: e.Reported, Version: e.Version, Caps: e.Caps}
	for _, f := range e.Files {
		p.Files = append(p.Files, external.FileHash{Path: f.Path, SHA256: f.SHA256, Named: f.Named, Files: f.Files})
	}
	return p
}

// specsOf returns the specs of the programs a run recorded (to start
// them again when it is resumed): their commands and named files.
func specsOf(was []rundir.External) []external.Spec {
	var specs []external.Spec
	for _, e := range was {
		sp := external.Spec{Name: e.Name, Command: e.Command, Args: e.Args}
		for _, f := range e.Files {
			if f.Named {
				sp.Files = append(sp.Files, f.Path)
			}
		}
		specs = append(specs, sp)
	}
	return specs
}

// namedRecords is what -ext and -ext-files name of each program, as
// run.json records it, for rundir.Settings.CheckResume: the name, the
// command and the named files.
func namedRecords(specs []external.Spec) []rundir.External {
	var out []rundir.External
	for _, sp := range specs {
		r := rundir.External{Name: sp.Name, Command: sp.Command, Args: slices.Clone(sp.Args)}
		for _, path := range sp.Files {
			r.Files = append(r.Files, rundir.FileSum{Path: path, Named: true})
		}
		out = append(out, r)
	}
	return out
}

// checkUnchanged refuses to go on with a program that is not the one the
// run in dir swept (-resume), before starting it.
func checkUnchanged(dir string, was []rundir.External) error {
	for i, sp := range specsOf(was) {
		now, err := external.Identify(sp)
		if err != nil {
			return fmt.Errorf("-resume: %w", err)
		}
		if why := external.Changed(programOf(was[i]), now); why != "" {
			return fmt.Errorf("-resume: the external solver %s is not the program %s/%s recorded: %s", sp.Name, dir, rundir.ManifestFile, why)
		}
	}
	return nil
}

// resumeLine says which run is resumed and how many rows it has.
func resumeLine(out string, dir *rundir.Dir) string {
	return fmt.Sprintf("resuming %s: %s already done", out, report.Count(dir.Rows(), "row", "rows"))
}

// streamLines say, for each standard input the run read but not to its
// end, that the same input must be given again.
func streamLines(out string, m *rundir.Manifest) []string {
	var lines []string
	for i, c := range m.Corpora {
		if c.Stream && !c.Complete && c.Path == "-" {
			lines = append(lines, fmt.Sprintf("the run read %d bytes of standard input (kept in %s): give the same input again, it is checked against them",
				c.Size, filepath.Join(out, rundir.StreamFile(i))))
		}
	}
	return lines
}
