package main

import (
	"os"
	"testing"
	"time"
)

func TestLinger(t *testing.T) {
	for _, c := range []struct {
		env  string
		set  bool
		want time.Duration
	}{
		{"", false, defaultLinger},
		{"0", true, 0},
		{"2s", true, 2 * time.Second},
		{"250ms", true, 250 * time.Millisecond},
		{"-1s", true, 0},
		{"1h", true, maxLinger},
		{"soon", true, defaultLinger},
	} {
		t.Run(c.env, func(t *testing.T) {
			t.Setenv(lingerEnv, c.env)
			if !c.set {
				os.Unsetenv(lingerEnv)
			}
			if got := linger(); got != c.want {
				t.Errorf("linger() with %s=%q = %v, want %v", lingerEnv, c.env, got, c.want)
			}
		})
	}
}

func TestSetDriverDefaults(t *testing.T) {
	t.Run("unset", func(t *testing.T) {
		t.Setenv(connectionsEnv, "")
		os.Unsetenv(connectionsEnv)
		setDriverDefaults()
		if got := os.Getenv(connectionsEnv); got != "1" {
			t.Errorf("%s = %q, want 1", connectionsEnv, got)
		}
	})
	t.Run("the user's kept", func(t *testing.T) {
		t.Setenv(connectionsEnv, "4")
		setDriverDefaults()
		if got := os.Getenv(connectionsEnv); got != "4" {
			t.Errorf("%s = %q, want the user's 4", connectionsEnv, got)
		}
	})
}
