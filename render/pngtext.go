package render

import (
	"bytes"
	"fmt"
	"image"
	"io"
	"strings"
)

// pngHeaderLen is the length of a PNG's signature and IHDR chunk, which
// every PNG starts with: 8 bytes, then 4 of length, 4 of type, 13 of data
// and 4 of CRC.
const pngHeaderLen = 8 + 4 + 4 + 13 + 4

// WritePNGText is [WritePNG] with a tEXt chunk right after the header.
//
// Image viewers and tools list the chunk among the image's properties
// (exiftool, ImageMagick's identify -verbose, PIL's Image.text). keyword
// is one of PNG's predefined keywords such as "Description" or "Comment"
// (1 to 79 printable ASCII characters, no leading, trailing or double
// spaces); text is printable ASCII. An empty text writes what WritePNG
// does.
func WritePNGText(w io.Writer, img image.Image, keyword, text string) error {
	if text == "" {
		return WritePNG(w, img)
	}
	if err := checkPNGText(keyword, text); err != nil {
		return err
	}
	var chunk bytes.Buffer
	if err := writeChunk(&chunk, "tEXt", []byte(keyword+"\x00"+text)); err != nil {
		return err
	}
	tw := &textAfterHeader{w: w, left: pngHeaderLen, chunk: chunk.Bytes()}
	if err := WritePNG(tw, img); err != nil {
		return err
	}
	if tw.chunk != nil {
		return fmt.Errorf("formats: png: the encoder wrote %d bytes, less than a header", pngHeaderLen-tw.left)
	}
	return nil
}

// checkPNGText checks a tEXt chunk's keyword and text.
func checkPNGText(keyword, text string) error {
	printable := func(s string) bool {
		for i := range len(s) {
			if s[i] < ' ' || s[i] > '~' {
				return false
			}
		}
		return true
	}
	switch {
	case len(keyword) < 1 || len(keyword) > 79 || !printable(keyword) ||
		keyword[0] == ' ' || keyword[len(keyword)-1] == ' ' || strings.Contains(keyword, "  "):
		return fmt.Errorf("formats: png: bad text keyword %q", keyword)
	case !printable(text):
		return fmt.Errorf("formats: png: text %q is not printable ASCII", text)
	}
	return nil
}

// textAfterHeader passes a PNG through to w, inserting chunk once the
// first left bytes (the header) have passed.
type textAfterHeader struct {
	w     io.Writer
	left  int
	chunk []byte // nil once written
}

func (t *textAfterHeader) Write(p []byte) (int, error) {
	n := 0
	if t.chunk != nil {
		k := min(len(p), t.left)
		if _, err := t.w.Write(p[:k]); err != nil {
			return 0, err
		}
		n, t.left, p = k, t.left-k, p[k:]
		if t.left > 0 {
			return n, nil
		}
		if _, err := t.w.Write(t.chunk); err != nil {
			return n, err
		}
		t.chunk = nil
	}
	m, err := t.w.Write(p)
	return n + m, err
}
