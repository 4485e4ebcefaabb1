package cuda

import "testing"

// TestFatbinMatchesSources fails when a kernel source changed without
// rebuilding the committed fatbin (run cuda/build.sh on a machine with
// nvcc).
func TestFatbinMatchesSources(t *testing.T) {
	got, err := sourcesSHA256()
	if err != nil {
		t.Fatal(err)
	}
	want, err := recordedSHA256()
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("kernel sources hash %s, the fatbin was built from %s: run cuda/build.sh", got, want)
	}
	b, err := fatbin()
	if err != nil || len(b) < 1024 {
		t.Fatalf("fatbin of %d bytes: %v", len(b), err)
	}
}
