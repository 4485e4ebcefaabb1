package fileprogress

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// ETA thresholds: the time left is shown once the stage is past
// etaMinFraction of its work and has run etaMinTime, when the rate it
// gives is worth something.
const (
	etaMinFraction = 0.02
	etaMinTime     = time.Second
)

// status is what a bar shows: the file, its stage, the work done in the
// stage out of the total (0 when unknown), the time since the file's
// start and since the stage's.
type status struct {
	name, stage string
	done, total int64
	prior       int64 // of done, before the stage began
	unit        Unit
	elapsed     time.Duration
	inStage     time.Duration
}

// fraction returns the share of the stage's work done, when its total is
// known.
func (s status) fraction() (float64, bool) {
	if s.total <= 0 {
		return 0, false
	}
	return float64(min(s.done, s.total)) / float64(s.total), true
}

// eta returns the time left in the stage at its rate so far,
// elapsed/fraction - elapsed, once the fraction is past etaMinFraction and
// the stage has run etaMinTime. Work done before the stage (prior) counts
// as done but not in the rate: the fraction is then the stage's own.
func (s status) eta() (time.Duration, bool) {
	if s.total <= 0 || s.inStage < etaMinTime {
		return 0, false
	}
	done := min(s.done, s.total)
	own := done - min(s.prior, done)
	if float64(own) <= etaMinFraction*float64(s.total) {
		return 0, false
	}
	return time.Duration(float64(s.inStage) * float64(s.total-done) / float64(own)), true
}

// percent is the fraction as a whole percentage, rounded down so that
// 100% means done.
func percent(f float64) int { return int(math.Floor(f * 100)) }

// amount writes the work done and its total: in MiB for bytes, as a count
// ("12/40 planes") for other units but steps; "" for steps and when
// nothing is known.
func (s status) amount() string {
	const mib = 1 << 20
	switch {
	case s.unit == Bytes && s.total > 0:
		return fmt.Sprintf("%.0f/%.0f MiB", float64(s.done)/mib, float64(s.total)/mib)
	case s.unit == Bytes:
		return fmt.Sprintf("%.0f MiB", float64(s.done)/mib)
	case s.unit != Steps && s.total > 0:
		return fmt.Sprintf("%d/%d %s", s.done, s.total, s.unit)
	}
	return ""
}

// Widths of the terminal line: the bar takes barMin to barMax columns,
// sized as if the text after it took at least tailBudget, so that it does
// not change width as the numbers do.
const (
	barMin, barMax = 10, 20
	tailBudget     = 36
)

// terminalLine formats the bar's line of exactly width-1 columns: the
// file and stage, then when the total is known a bar and the percentage,
// the amount done, the elapsed time and the ETA once known. A name too
// long for the line is cut from the left; on a narrow line the amount,
// then the elapsed time, then the bar give way to the stage.
func (s status) terminalLine(width int) string {
	f, known := s.fraction()
	minHead := len(s.stage) + 5 // "...: " and the stage
	var tail string
	for _, parts := range [][]string{{"percent", "amount", "elapsed", "eta"}, {"percent", "elapsed", "eta"}, {"percent", "eta"}} {
		tail = s.tail(parts)
		if width-1-len(tail) >= minHead {
			break
		}
	}
	head := fmt.Sprintf("%s: %-10s", s.name, s.stage)
	room := width - 1 - len(tail) // for the head and the bar
	if known {
		barWidth := min(max(width-1-max(len(tail), tailBudget)-len(head)-3, barMin), barMax)
		if room-barWidth-3 >= minHead {
			filled := int(f * float64(barWidth))
			head = cutLeft(head, room-barWidth-3) + " [" + strings.Repeat("=", filled) + strings.Repeat(" ", barWidth-filled) + "]"
		}
	}
	line := cutLeft(head, room) + tail
	if len(line) > width-1 {
		line = line[:max(width-1, 0)]
	}
	return line + strings.Repeat(" ", max(0, width-1-len(line)))
}

// tail writes the parts of the terminal line after the bar that are
// named and known: "percent", "amount", "elapsed" and "eta".
func (s status) tail(parts []string) string {
	var b strings.Builder
	for _, p := range parts {
		switch p {
		case "percent":
			if f, ok := s.fraction(); ok {
				fmt.Fprintf(&b, " %3d%%", percent(f))
			}
		case "amount":
			if a := s.amount(); a != "" {
				b.WriteString("  " + a)
			}
		case "elapsed":
			b.WriteString("  " + s.elapsed.Round(100*time.Millisecond).String())
		case "eta":
			if eta, ok := s.eta(); ok {
				b.WriteString("  ETA " + formatETA(eta))
			}
		}
	}
	return b.String()
}

// cutLeft cuts s to at most n columns, dropping its start for "...".
func cutLeft(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-max(n-3, 0):]
}

// plainLine formats a line for a log: "in.nii.gz: reading 45% (ETA 12 s)",
// "in.nii.gz: reading 45%" before the ETA is known, and
// "in.nii.gz: labeling (12 s so far)" when the stage's total is not.
func (s status) plainLine() string {
	f, known := s.fraction()
	if !known {
		return fmt.Sprintf("%s: %s (%s so far)", s.name, s.stage, formatETA(s.inStage))
	}
	line := fmt.Sprintf("%s: %s %d%%", s.name, s.stage, percent(f))
	if eta, ok := s.eta(); ok {
		line += " (ETA " + formatETA(eta) + ")"
	}
	return line
}

// formatETA writes a duration in whole seconds, rounded up: "12 s",
// "3 min 05 s", "2 h 07 min".
func formatETA(d time.Duration) string {
	secs := int64(math.Ceil(d.Seconds()))
	switch {
	case secs < 60:
		return fmt.Sprintf("%d s", max(secs, 0))
	case secs < 3600:
		return fmt.Sprintf("%d min %02d s", secs/60, secs%60)
	}
	mins := (secs + 59) / 60
	return fmt.Sprintf("%d h %02d min", mins/60, mins%60)
}
