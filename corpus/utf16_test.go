package corpus

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf16"
)

// encodeUTF16 encodes s in UTF-16, little- or big-endian, with a byte
// order mark or not.
func encodeUTF16(s string, bigEndian, bom bool) []byte {
	var b bytes.Buffer
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	for _, u := range units {
		if bigEndian {
			b.Write([]byte{byte(u >> 8), byte(u)})
		} else {
			b.Write([]byte{byte(u), byte(u >> 8)})
		}
	}
	return b.Bytes()
}

// A corpus in UTF-16 is read as any file whose lines are not puzzles
// (every line an invalid entry, the read goes on), and each entry's
// error names the encoding and the command that converts the file.
func TestScannerNamesUTF16(t *testing.T) {
	text := corpus0 + "\n" + corpus0 + "\n"
	for _, tc := range []struct {
		name           string
		bigEndian, bom bool
		want           string
	}{
		{"LE with BOM", false, true, "looks like UTF-16 (byte order mark FF FE, little-endian): convert it to UTF-8, e.g. iconv -f UTF-16LE -t UTF-8"},
		{"BE with BOM", true, true, "looks like UTF-16 (byte order mark FE FF, big-endian): convert it to UTF-8, e.g. iconv -f UTF-16BE -t UTF-8"},
		{"LE", false, false, "looks like UTF-16 (no byte order mark, little-endian: a zero after each character): convert it to UTF-8, e.g. iconv -f UTF-16LE"},
		{"BE", true, false, "looks like UTF-16 (no byte order mark, big-endian: a zero before each character): convert it to UTF-8, e.g. iconv -f UTF-16BE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			entries, err := scanAll(t, bytes.NewReader(encodeUTF16(text, tc.bigEndian, tc.bom)))
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) < 2 {
				t.Fatalf("%d entries, want every line an entry: %+v", len(entries), entries)
			}
			for _, e := range entries {
				if e.Err == nil || !strings.Contains(e.Err.Error(), tc.want) {
					t.Fatalf("line %d: error %v, want it to say %q", e.Line, e.Err, tc.want)
				}
			}
		})
	}
	// UTF-8 (with its byte order mark) is not mistaken for UTF-16, nor
	// is a bad line that holds zero bytes after good lines.
	entries, err := scanAll(t, strings.NewReader("\uFEFF"+corpus0+"\n1\x002\x003\x004\x00\n"))
	if err != nil || len(entries) != 2 || entries[0].Err != nil || strings.Contains(entries[1].Err.Error(), "UTF-16") {
		t.Fatalf("UTF-8: %v %+v", err, entries)
	}
}
