package imageio

import "image"

// gifOnScreen places a GIF's first frame on the logical screen of cfg when
// the frame does not cover it; the rest of the screen takes the background
// colour index of the logical screen descriptor (byte 11 of data) when
// there is a global colour table and the frame's palette has that index,
// else index 0.
func gifOnScreen(img image.Image, cfg image.Config, data []byte) image.Image {
	frame, ok := img.(*image.Paletted)
	screen := image.Rect(0, 0, cfg.Width, cfg.Height)
	if !ok || frame.Rect == screen || !frame.Rect.In(screen) {
		return img
	}
	dst := image.NewPaletted(screen, frame.Palette)
	if hasGlobal := len(data) > 11 && data[10]&0x80 != 0; hasGlobal && int(data[11]) < len(frame.Palette) {
		for i := range dst.Pix {
			dst.Pix[i] = data[11]
		}
	}
	for y := frame.Rect.Min.Y; y < frame.Rect.Max.Y; y++ {
		copy(dst.Pix[dst.PixOffset(frame.Rect.Min.X, y):], frame.Pix[frame.PixOffset(frame.Rect.Min.X, y):frame.PixOffset(frame.Rect.Max.X, y)])
	}
	return dst
}
