package rundir

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestKeptSHA256 checks that a file's hash is kept and read back only
// while the file is unchanged: a write in place (the same size), or a
// new file renamed over it, is hashed again; a file changed less than
// hashSettle before its hashing, or that changed while it was hashed, is
// hashed every time; without a cache directory, every time. The files
// are small: keptMinSize is 0 but where the test says otherwise.
func TestKeptSHA256(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the hash is kept on Linux only")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	defer func(old int64) { keptMinSize = old }(keptMinSize)
	keptMinSize = 0
	dir := t.TempDir()
	path := filepath.Join(dir, "corpus.txt")
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sum := func(content string) string {
		s := sha256.Sum256([]byte(content))
		return hex.EncodeToString(s[:])
	}
	// kept hashes the file at path through KeptSHA256 and says whether it
	// was read (hash called) and what KeptSHA256 returned.
	kept := func(settle time.Duration) (read bool, got string, size int64) {
		t.Helper()
		defer func(old time.Duration) { hashSettle = old }(hashSettle)
		hashSettle = settle
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		got, size, err = KeptSHA256(f, path, func() (string, int64, error) {
			read = true
			b, err := os.ReadFile(path)
			return sum(string(b)), int64(len(b)), err
		})
		if err != nil {
			t.Fatal(err)
		}
		return read, got, size
	}
	// A file just written changed less than hashSettle ago: hashed every time.
	write(path, "first corpus")
	for range 2 {
		if read, got, size := kept(hashSettle); !read || got != sum("first corpus") || size != 12 {
			t.Fatalf("a file just written: read %v, %q, %d; want read, %q, 12", read, got, size, sum("first corpus"))
		}
	}
	// Settled (hashSettle negative: the file's change counts as long
	// past): hashed once, then read from the cache.
	if read, got, _ := kept(-time.Hour); !read || got != sum("first corpus") {
		t.Fatalf("first hash: read %v, %q", read, got)
	}
	if read, got, size := kept(-time.Hour); read || got != sum("first corpus") || size != 12 {
		t.Fatalf("second hash of the same file: read %v, %q, %d; want it from the cache", read, got, size)
	}
	// A write in place of the same size, its times set back: the change
	// time moves all the same (as soon as the kernel's file clock ticks).
	st0, _ := os.Stat(path)
	for i := 0; ; i++ {
		write(path, "other corpus")
		if err := os.Chtimes(path, st0.ModTime(), st0.ModTime()); err != nil {
			t.Fatal(err)
		}
		if st, _ := os.Stat(path); fileIdentity(st) != fileIdentity(st0) {
			break
		}
		if i == 1000 {
			t.Fatal("the file's change time did not move in 1000 writes")
		}
	}
	if read, got, _ := kept(-time.Hour); !read || got != sum("other corpus") {
		t.Fatalf("after a write in place: read %v, %q; want %q read", read, got, sum("other corpus"))
	}
	// A new file renamed over it.
	write(path+".new", "third corpus")
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	if read, got, _ := kept(-time.Hour); !read || got != sum("third corpus") {
		t.Fatalf("after a rename over it: read %v, %q", read, got)
	}
	// A hash of a size other than the file's (it changed while read) is
	// not kept.
	cache := cachePath("corpus", path)
	if err := os.Remove(cache); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(path)
	defer f.Close()
	hashSettle = -time.Hour
	KeptSHA256(f, path, func() (string, int64, error) { return sum("x"), 1, nil })
	hashSettle = 2 * time.Second
	if read, got, _ := kept(-time.Hour); !read || got != sum("third corpus") {
		t.Fatalf("after a hash of the wrong size: read %v, %q", read, got)
	}
	// What the cache holds is what is returned: a marker put there is.
	b, err := os.ReadFile(cache)
	if err != nil {
		t.Fatal(err)
	}
	id, _, _ := strings.Cut(string(b), "\t")
	write(cache, id+"\t"+strings.Repeat("ab", 32)+" 12\n")
	if read, got, _ := kept(-time.Hour); read || got != strings.Repeat("ab", 32) {
		t.Fatalf("a kept hash not read from the cache: read %v, %q", read, got)
	}
	// A file under keptMinSize: hashed every time.
	keptMinSize = 13
	for range 2 {
		if read, got, _ := kept(-time.Hour); !read || got != sum("third corpus") {
			t.Fatalf("a file under keptMinSize: read %v, %q; want it read every time", read, got)
		}
	}
	keptMinSize = 0
	// No cache directory: hashed every time.
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	for range 2 {
		if read, _, _ := kept(-time.Hour); !read {
			t.Fatal("no cache directory, and the file was not read")
		}
	}
}
