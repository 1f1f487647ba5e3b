package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"sudokubatch/rundir"
)

// WriteSummaryFiles writes summary.md, summary.json, summary.bench and
// hard.csv into dir. Each file is rendered in memory, then written
// through a temporary file and a rename, so a file is either the new one
// in full or the old one.
func WriteSummaryFiles(dir string, s *Summary) error {
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{rundir.SummaryMarkdown, s.WriteMarkdown},
		{rundir.SummaryJSON, s.WriteJSON},
		{rundir.SummaryBench, s.WriteBench},
		{rundir.HardCSV, s.WriteHardCSV},
	}
	for _, f := range files {
		var buf bytes.Buffer
		if err := f.write(&buf); err != nil {
			return err
		}
		if err := rundir.WriteFile(filepath.Join(dir, f.name), buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// WriteJSON writes summary.json: every number exact (time in integer ns,
// counts as integers, no scaling), indented.
func (s *Summary) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return fmt.Errorf("writing summary.json: %w", err)
	}
	return nil
}
