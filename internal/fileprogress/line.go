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

// eta returns the time left in the stage at the rate so far,
// elapsed/fraction - elapsed, once the fraction is past etaMinFraction and
// the stage has run etaMinTime.
func (s status) eta() (time.Duration, bool) {
	f, ok := s.fraction()
	if !ok || f <= etaMinFraction || s.inStage < etaMinTime {
		return 0, false
	}
	return time.Duration(float64(s.inStage)/f) - s.inStage, true
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

// terminalLine formats the bar's line of exactly width-1 columns: the
// file and stage, then when the total is known a bar and the percentage,
// the amount done, the elapsed time and the ETA once known. A name too
// long for the line is cut from the left.
func (s status) terminalLine(width int) string {
	var tail strings.Builder
	f, known := s.fraction()
	if known {
		fmt.Fprintf(&tail, " %3d%%", percent(f))
	}
	if a := s.amount(); a != "" {
		tail.WriteString("  " + a)
	}
	tail.WriteString("  " + s.elapsed.Round(100*time.Millisecond).String())
	if eta, ok := s.eta(); ok {
		tail.WriteString("  ETA " + formatETA(eta))
	}
	head := fmt.Sprintf("%s: %-10s", s.name, s.stage)
	room := width - 1 - tail.Len()
	if known {
		if barWidth := min(30, room-len(head)-3); barWidth >= 10 {
			filled := int(f * float64(barWidth))
			head += " [" + strings.Repeat("=", filled) + strings.Repeat(" ", barWidth-filled) + "]"
		}
	}
	if len(head) > room {
		head = "..." + head[len(head)-max(room-3, 0):]
	}
	line := head + tail.String()
	if len(line) > width-1 {
		line = line[:max(width-1, 0)]
	}
	return line + strings.Repeat(" ", max(0, width-1-len(line)))
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
