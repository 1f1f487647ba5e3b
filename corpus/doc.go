// Package corpus reads puzzle corpora: it opens one (a file, a .gz, the
// default corpus embedded in the binary, a stream and its copy in a run
// directory), scans it line by line into entries, identifies it (size,
// SHA-256), counts its puzzles and finds a puzzle by id. It is the only
// package that opens a corpus: the pipeline's reader, the page's grids
// (report) and `batch show` all go through it.
//
// Data flow:
//  1. Classify tells how a path is read without opening it: a regular
//     file; the embedded default corpus (data.Name when there is no such
//     file, so that a binary run from any directory sweeps it); or a
//     stream ("-", a pipe, a FIFO, a device), which can be read only once.
//  2. Identify gives a file's size and SHA-256 before a run reads it, so
//     that run.json records them at the run's creation; VerifyRun checks
//     them again before -resume writes a row, and checks a stream's copy.
//  3. Open returns a File: the raw bytes, hashed as they are read when
//     their identity is not known yet, and the text, gunzipped when the
//     bytes start with gzip's magic (the name does not matter). A stream
//     is read by a pump goroutine, so that a read that waits on it ends at
//     the first Ctrl-C, and is copied as it is read into the run directory
//     (rundir.StreamFile); a resumed run compares the stream with its copy
//     before it reads on.
//  4. A Scanner reads the text one line at a time, like bufio.Scanner, and
//     never holds more than one line. Each puzzle line becomes an Entry
//     (id, line number, solvers.Puzzle), or carries a *SyntaxError (file,
//     line, reason) that travels with the data instead of stopping it: a
//     bad line is not fatal.
//  5. Each walks the entries of a file (never a stream); Find stops at an
//     id; InRun names the file that holds a run's corpus now (the copy of
//     a stream).
//
// Dependencies: corpus imports solvers (the puzzle parser), data (the
// embedded corpus) and rundir (CorpusInfo, the description run.json
// records, and the name of a stream's copy). rundir imports none of
// pipeline, report or corpus: it describes a corpus, it does not read
// one. pipeline, report and cmd import corpus.
//
// Decisions where the design is silent:
//   - A count header is a bare integer on the first line that is neither
//     blank nor a comment.
//   - A line longer than MaxLineLen bytes is skipped over without being
//     held in memory and becomes an invalid entry.
//   - A file in UTF-16 (with a byte order mark, or without one but with a
//     zero byte in every other place of its first line) is read as it is:
//     its lines are invalid entries, as any line that is not a puzzle, and
//     each one's reason names the encoding and how to convert the file.
//     The run goes on and says it at its first invalid line; it is not
//     refused up front, so a file that is only partly damaged is treated
//     like any other.
package corpus
