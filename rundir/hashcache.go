package rundir

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// hashSettle is how long before its hashing a file must have last
// changed for its hash to be kept (KeptSHA256).
var hashSettle = 2 * time.Second

// keptMinSize is the size from which a file's hash is kept: a smaller
// file is hashed in under a millisecond, and a run over thousands of
// small corpus files would otherwise leave a file in the cache for each.
var keptMinSize int64 = 1 << 20

// KeptSHA256 returns the SHA-256 (hex) and the size of the regular file f
// opened at path, as hash computes them by reading f, and keeps them in
// the user's cache directory beside the identity of the file (see
// fileIdentity: its device, inode, size, modification and change
// times): a later call for the same file, unchanged, reads them from
// there instead of reading f (a run identifies its corpus before it
// starts: 3 ms for the 4 MB default corpus, in every run). Files under
// keptMinSize are hashed every time.
//
// A hash is kept only when it is certain to go stale with the file: the
// file's identity was the same before and after the hashing, its size
// the bytes hashed, and its last change (its change time, which the
// kernel sets on every write and no process can set back) at least
// hashSettle before the hashing began. A change after that gets a later
// change time: the kernel's file clock ticks every few milliseconds, and
// two changes in one tick (after the hash began) would otherwise leave
// the identity as it was. One write is not seen: a write through a
// shared memory mapping (mmap) to a page that an earlier write through
// it left dirty, before that page goes to disk, changes no time; the
// hash kept is then stale until the page is written back or the file is
// written again. Without a cache directory, or where the
// identity cannot be read (not Linux), hash is called every time.
func KeptSHA256(f *os.File, path string, hash func() (sum string, size int64, err error)) (string, int64, error) {
	cache, id, changed, size0 := "", "", time.Time{}, int64(0)
	if st, err := f.Stat(); err == nil {
		id, changed, size0 = fileIdentity(st), changeTime(st), st.Size()
	}
	if id != "" && size0 >= keptMinSize {
		if abs, err := filepath.Abs(path); err == nil {
			cache = cachePath("corpus", abs)
		}
	}
	if v := readKept(cache, id); v != "" {
		// What a damaged cache file says (cut short, or written over by
		// hand) is not believed: the hash must be 64 hex digits and the
		// size the file's, or run.json would record them.
		sum, size, ok := strings.Cut(v, " ")
		if n, err := strconv.ParseInt(size, 10, 64); ok && err == nil && n == size0 && isHex(sum, 2*sha256.Size) {
			return sum, n, nil
		}
	}
	start := time.Now()
	sum, size, err := hash()
	if err != nil || cache == "" || changed.IsZero() || changed.After(start.Add(-hashSettle)) {
		return sum, size, err
	}
	if st, err := f.Stat(); err == nil && fileIdentity(st) == id && st.Size() == size {
		writeCache(cache, id+"\t"+sum+" "+strconv.FormatInt(size, 10)+"\n")
	}
	return sum, size, nil
}

// cachePath returns the file of the user's cache directory that keeps
// what is known of the file at path (absolute) under kind ("binary",
// "corpus"); "" when there is no cache directory.
func cachePath(kind, path string) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(dir, "sudokubatch", kind+"-"+hex.EncodeToString(sum[:8]))
}

// readKept returns what the file cache keeps for the file identity id,
// or "" when it keeps nothing for it (or cache or id is "").
func readKept(cache, id string) string {
	if cache == "" || id == "" {
		return ""
	}
	b, err := os.ReadFile(cache)
	if err != nil {
		return ""
	}
	k, v, ok := strings.Cut(strings.TrimSuffix(string(b), "\n"), "\t")
	if !ok || k != id {
		return ""
	}
	return v
}
