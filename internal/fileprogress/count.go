package fileprogress

import "io"

// Reader counts the bytes read through r on b.
func Reader(r io.Reader, b *Bar) io.Reader {
	if b == nil {
		return r
	}
	return &countingReader{r: r, b: b}
}

// Writer counts the bytes written through w on b.
func Writer(w io.Writer, b *Bar) io.Writer {
	if b == nil {
		return w
	}
	return &countingWriter{w: w, b: b}
}

type countingReader struct {
	r io.Reader
	b *Bar
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.b.Add(int64(n))
	return n, err
}

type countingWriter struct {
	w io.Writer
	b *Bar
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.b.Add(int64(n))
	return n, err
}
