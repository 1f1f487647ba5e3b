// Package pipeline streams corpora through the strategies in parallel
// and writes one row per (puzzle, strategy) in order. It knows no terminal
// and no report: it writes rundir.Rows to a Sink (a rundir.Dir) and
// reports progress to a Progress that the command implements.
//
// One file per role: reader.go issues the units (reading the corpora
// with package corpus),
// worker.go solves them, writer.go writes their rows in order, and
// pipeline.go wires them (Run); units.go holds what travels between them.
//
// Data flow (one errgroup.WithContext group holds every goroutine):
//  1. The reader opens each corpus with corpus.Open (a file, a .gz
//     detected by its magic bytes, the embedded default corpus, or a
//     stream: "-", a pipe, a FIFO) and scans it line by line with
//     corpus.Scanner; it never holds more than one line. A file's size
//     and SHA-256 come from corpus.Identify, before the run (the command
//     records them in run.json at creation); a stream is read exactly
//     once, by the run, through a pump goroutine, so that a read that
//     waits on it ends at the first Ctrl-C; its bytes are hashed as they
//     are read and copied into the run directory (rundir.StreamFile), so
//     that -resume can read them again. Before it waits on a stream, the
//     reader hands its part-filled batch to the workers. Each selected
//     puzzle (Selection: ids, range, limit, shard, all applied to the ids
//     of each file) becomes one unit per strategy, numbered in (corpus,
//     id, strategy) order. A line that is not a puzzle becomes units with
//     status invalid. Every line is accounted for: CorpusInfo counts
//     lines, puzzle lines, invalid ones and skipped ones (blank, comment,
//     count header), and a file is read to its end even when the
//     selection ends before (a stream is not: it may not end).
//  2. Units go to the workers in batches of one strategy, sized from the
//     running mean time of a unit's first run (about 16ms of work, at most
//     a block of rundir.TimingBlock puzzles; slow units one by one; see
//     units.go), so that each strategy runs warm and channel operations
//     cost little per unit. Before a block, the reader takes one of its window slots
//     (Window units), so memory is bounded by the window, not by the
//     corpus. The channels have room for every batch
//     the slots let out, so that the workers do not run dry while the
//     reader waits for a P.
//  3. A worker runs each unit with Limits{Deadline: start+Timeout,
//     MaxCalls, Seed}, times Solve with the monotonic clock, recovers a
//     panic as status error, and checks every solved answer with
//     solvers.Check (a failure is status wrong). The seed of a puzzle is
//     derived from the run seed, the corpus index and the id, so it does
//     not depend on the worker count or the shard.
//  4. The writer keeps finished units in a ring until their turn, writes
//     rows to the Sink strictly in order, flushes every 250ms, and gives a
//     batch's slot back when its last row is written. A Sink that keeps
//     nothing of a row but copies (RowCopier: rundir.Dir) gets rows whose
//     solution text is in their batch's memory, so that a sweep allocates
//     nothing per unit (solution.go).
//
// Stopping: closing Config.Stop (the first Ctrl-C) stops the issuing of
// batches; the batches being solved finish (at most ~1ms of work or one
// unit each) and are written, the batches still queued are dropped, so
// results.csv is always a complete prefix of the run's order (but for the
// units of a foreign strategy that the stop cut short: foreign.go), and
// the run is Interrupted whenever Stop was closed before Run returned.
//
// Foreign strategies (an external solver, foreign.go) are timed as the
// built-in ones but where a program could cheat, stall or blur: every
// answer of every run is checked, a unit's time is its first request's
// unless the re-timing confirms another and the strategy is no cache,
// the stop ends a unit waiting on its answer, and a fault found after a
// unit's Solve returned makes its row an error at the end of the run. A
// corpus that cannot be opened or read to its end (a damaged .gz) does
// not stop the run: its CorpusInfo.Error says where and why (file, line,
// byte offset), the units of the puzzles read before it are written, and
// the next corpora are swept. A write error, an error copying a stream,
// or a canceled ctx stops everything at once. At the end, Run checks that
// every unit issued has its row: a run that was not interrupted and
// misses one returns an error (it would be a bug), never a finished run.
//
// Resuming (Config.Skip, Known, RunDir): corpus.VerifyRun checks, before a
// row is read, that each file has the size and SHA-256 the run recorded
// and counts its puzzles (up to damage, if any), which bounds the ids a
// row may hold; OpenStreams checks that a stream starts with the bytes of
// its copy (a stream the run read to its end is read from its copy).
//
// Decisions where the design is silent: several corpus files in one run
// restart their ids at 0 and are told apart by the `corpus` column (the
// path as given); -limit n takes the first n puzzles of each file, so
// that shards of a limited run merge into the limited run; a stream is
// kept whole in the run directory (as many bytes as were read), the
// price of a run over standard input that can be resumed.
package pipeline
