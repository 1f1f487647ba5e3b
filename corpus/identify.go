package corpus

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"sudokubatch/data"
	"sudokubatch/rundir"
)

// Identify describes the corpora at paths before a run reads them, so
// that run.json records them from its creation and -resume can check them:
// a file's size and SHA-256 (the embedded default corpus's are known), and
// whether it is gzipped; a stream is only marked Stream (it can be read
// once, by the run). The counts are left to the run. The error names a
// corpus that is missing, a directory, or cannot be read. A file's hash
// is kept in the user's cache, and taken from there while the file is
// unchanged (rundir.KeptSHA256); -resume hashes the file again
// (VerifyRun).
func Identify(ctx context.Context, paths []string) ([]rundir.CorpusInfo, error) {
	infos := make([]rundir.CorpusInfo, len(paths))
	for i, path := range paths {
		info, err := identify(ctx, path, true)
		if err != nil {
			return nil, err
		}
		infos[i] = info
	}
	return infos, nil
}

// identify is Identify for one corpus; kept says whether a file's hash
// may be taken from the user's cache.
func identify(ctx context.Context, path string, kept bool) (rundir.CorpusInfo, error) {
	info := rundir.CorpusInfo{Path: path}
	kind, err := Classify(path)
	if err != nil {
		return info, err
	}
	switch kind {
	case KindStream:
		info.Stream = true
	case KindEmbedded:
		info.Size, info.SHA256 = int64(len(data.Sudoku17)), data.SHA256
	case KindFile:
		f, err := os.Open(path)
		if err != nil {
			return info, fmt.Errorf("corpus %s: %w", path, errors.Unwrap(err))
		}
		defer f.Close()
		var magic [2]byte
		n, err := f.ReadAt(magic[:], 0)
		if err != nil && err != io.EOF {
			return info, fmt.Errorf("reading corpus %s: %w", path, err)
		}
		info.Gzip = isGzip(magic[:n])
		hash := func() (string, int64, error) { return hashFile(ctx, f, path) }
		if kept {
			info.SHA256, info.Size, err = rundir.KeptSHA256(f, path, hash)
		} else {
			info.SHA256, info.Size, err = hash()
		}
		if err != nil {
			return info, err
		}
	}
	return info, nil
}

// hashFile returns the SHA-256 (hex) and the size of the bytes of f, read
// from its start; path names it in the error, which is ctx.Err() when
// ctx is canceled.
func hashFile(ctx context.Context, f *os.File, path string) (string, int64, error) {
	h := sha256.New()
	// A small file gets a small buffer: a run over thousands of small
	// corpus files would otherwise allocate 256 KB for each.
	n := 256 << 10
	if st, err := f.Stat(); err == nil && st.Size() < int64(n) {
		n = max(int(st.Size())+1, 512)
	}
	buf := make([]byte, n)
	var size int64
	for {
		if ctx.Err() != nil {
			return "", 0, ctx.Err()
		}
		n, err := f.Read(buf)
		h.Write(buf[:n])
		size += int64(n)
		if err == io.EOF {
			return hex.EncodeToString(h.Sum(nil)), size, nil
		}
		if err != nil {
			return "", 0, fmt.Errorf("reading corpus %s: %w", path, err)
		}
	}
}

// isGzip reports whether b starts with gzip's magic bytes.
func isGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

// VerifyRun is the rundir.CorpusCheck of `batch -resume` for the run
// in runDir, before it reads a row: each file (or the embedded default
// corpus) must have the size and SHA-256 the run recorded; the copy of a
// stream, kept in the run directory, must be there, and have the recorded
// checksum when the run read the stream to its end. It returns each
// corpus's puzzle count: the recorded one when the run read the corpus
// whole, else a count made now (of the copy, for a stream: the rows can
// only be of puzzles in it).
func VerifyRun(ctx context.Context, runDir string) rundir.CorpusCheck {
	return func(m *rundir.Manifest) ([]int, error) {
		counts := make([]int, len(m.Settings.Corpora))
		for i, path := range m.Settings.Corpora {
			var rec rundir.CorpusInfo
			if i < len(m.Corpora) {
				rec = m.Corpora[i]
			} else if kind, err := Classify(path); err == nil && kind == KindStream {
				rec.Stream = true
			}
			if rec.Stream {
				n, err := verifyStreamCopy(ctx, runDir, m, i, rec)
				if err != nil {
					return nil, err
				}
				counts[i] = n
				continue
			}
			now, err := identify(ctx, path, false)
			if err != nil {
				return nil, fmt.Errorf("cannot resume: %w", err)
			}
			if err := m.CheckCorpus(i, now); err != nil {
				return nil, fmt.Errorf("cannot resume: %w", err)
			}
			if rec.Complete {
				counts[i] = rec.Puzzles
				continue
			}
			if counts[i], err = countPuzzles(ctx, path); err != nil {
				return nil, fmt.Errorf("cannot resume: %w", err)
			}
		}
		return counts, nil
	}
}

// verifyStreamCopy checks the copy of stream corpus i in runDir and
// returns the number of its puzzle lines.
func verifyStreamCopy(ctx context.Context, runDir string, m *rundir.Manifest, i int, rec rundir.CorpusInfo) (int, error) {
	path := filepath.Join(runDir, rundir.StreamFile(i))
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if rec.Size > 0 {
			return 0, fmt.Errorf("cannot resume: the copy of %s that the run read (%s) is missing", rec.Path, path)
		}
		return 0, nil // the run read nothing of it
	}
	if rec.Complete {
		now, err := identify(ctx, path, false)
		if err != nil {
			return 0, fmt.Errorf("cannot resume: %w", err)
		}
		if err := m.CheckCorpus(i, now); err != nil {
			return 0, fmt.Errorf("cannot resume: the copy of %s: %w", rec.Path, err)
		}
	}
	n, err := countPuzzles(ctx, path)
	if err != nil {
		return 0, fmt.Errorf("cannot resume: %w", err)
	}
	return n, nil
}

// countPuzzles counts the puzzle lines (valid or not) of the corpus at
// path, to its end or to damage that stops its reading (a corrupt .gz):
// a resumed run meets the damage again and records it, and its rows can
// only be of puzzles before it. Only a canceled ctx is an error.
func countPuzzles(ctx context.Context, path string) (int, error) {
	n := 0
	if err := Each(ctx, path, path, func(*Entry) bool { n++; return true }); err != nil && ctx.Err() != nil {
		return 0, ctx.Err()
	}
	return n, ctx.Err()
}
