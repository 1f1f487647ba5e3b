package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// decodeError is err, from decoding the JSON b of the file at path, with
// the file and the line where the decoder stopped when it says where
// (a syntax error, a value of the wrong type): "results/x/summary.json
// line 12: invalid character ...".
func decodeError(path string, b []byte, err error) error {
	var offset int64 = -1
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		offset = se.Offset
	} else if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		offset = te.Offset
	}
	if offset < 0 || offset > int64(len(b)) {
		return fmt.Errorf("%s: %w", path, err)
	}
	line := 1 + bytes.Count(b[:offset], []byte{'\n'})
	return fmt.Errorf("%s line %d: %w", path, line, err)
}
