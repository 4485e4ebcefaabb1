package render

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"reflect"
	"testing"
)

// pngChunk is one chunk of a PNG file.
type pngChunk struct {
	kind string
	data []byte
}

// pngChunks splits a PNG into its chunks, checking every CRC.
func pngChunks(t *testing.T, b []byte) []pngChunk {
	t.Helper()
	if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatal("no PNG signature")
	}
	var chunks []pngChunk
	for b = b[8:]; len(b) > 0; {
		if len(b) < 12 {
			t.Fatalf("%d bytes of a chunk", len(b))
		}
		n := int(binary.BigEndian.Uint32(b))
		if len(b) < 12+n {
			t.Fatalf("chunk of %d bytes in %d", n, len(b))
		}
		if crc32.ChecksumIEEE(b[4:8+n]) != binary.BigEndian.Uint32(b[8+n:]) {
			t.Fatalf("chunk %s: bad CRC", b[4:8])
		}
		chunks = append(chunks, pngChunk{string(b[4:8]), b[8 : 8+n]})
		b = b[12+n:]
	}
	return chunks
}

// oneByteWriter passes on one byte per Write.
type oneByteWriter struct{ buf bytes.Buffer }

func (w *oneByteWriter) Write(p []byte) (int, error) {
	for i := range p {
		w.buf.WriteByte(p[i])
	}
	return len(p), nil
}

func TestWritePNGText(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 5, 3))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 37)
	}
	img.SetNRGBA(0, 0, color.NRGBA{1, 2, 3, 255})
	var plain, text, empty bytes.Buffer
	if err := WritePNG(&plain, img); err != nil {
		t.Fatal(err)
	}
	if err := WritePNGText(&empty, img, "Description", ""); err != nil || !bytes.Equal(empty.Bytes(), plain.Bytes()) {
		t.Fatalf("empty text: not WritePNG's bytes (%v)", err)
	}
	if err := WritePNGText(&text, img, "Description", "frame 0 of 3"); err != nil {
		t.Fatal(err)
	}
	// The chunks of WritePNG, with tEXt after IHDR; the pixels decode
	// alike.
	want := pngChunks(t, plain.Bytes())
	want = append(want[:1], append([]pngChunk{{"tEXt", []byte("Description\x00frame 0 of 3")}}, want[1:]...)...)
	if got := pngChunks(t, text.Bytes()); !reflect.DeepEqual(got, want) {
		t.Fatalf("chunks %v\nwant %v", got, want)
	}
	back, err := png.Decode(bytes.NewReader(text.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if b := back.Bounds(); b != img.Bounds() || !reflect.DeepEqual(back.(*image.NRGBA).Pix, img.Pix) {
		t.Fatalf("decoded %v %T", b, back)
	}
	// The header may come a byte at a time.
	var slow oneByteWriter
	if err := WritePNGText(&slow, img, "Description", "frame 0 of 3"); err != nil || !bytes.Equal(slow.buf.Bytes(), text.Bytes()) {
		t.Fatalf("byte by byte: %v", err)
	}
	for _, c := range []struct{ keyword, text string }{
		{"", "x"}, {" Lead", "x"}, {"Trail ", "x"}, {"Two  spaces", "x"}, {string(make([]byte, 80)), "x"},
		{"Description", "line\nbreak"}, {"Descr\x00iption", "x"}, {"Description", "é"},
	} {
		if err := WritePNGText(&bytes.Buffer{}, img, c.keyword, c.text); err == nil {
			t.Errorf("keyword %q, text %q accepted", c.keyword, c.text)
		}
	}
	fail := errors.New("disk full")
	for n := range 80 { // a failing writer's error comes back, wherever it fails
		if err := WritePNGText(&failAfter{n: n, err: fail}, img, "Comment", "x"); !errors.Is(err, fail) {
			t.Errorf("writer failing after %d bytes: %v", n, err)
		}
	}
}
