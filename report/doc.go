// Package report reads and writes results.csv and turns a run's rows into
// summaries and charts.
//
// Data flow:
//  1. The pipeline writes one Row per (puzzle, solver) with a Writer, in
//     (corpus, id, solver) order, flushing as it goes.
//  2. A Reader reads results.csv back, by column name, so that a finished,
//     interrupted, resumed or merged run is read the same way.
//
// results.csv has the columns of DESIGN.md in their order, then `corpus`:
// the corpus file as given on the command line. Ids restart at 0 in each
// corpus file of a run, so (corpus, id) names a puzzle; a run over a
// single file has the same corpus on every row. Error messages are kept
// on one line (line breaks become spaces) so that every row is one line.
package report
