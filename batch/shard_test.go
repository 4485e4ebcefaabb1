package batch

import (
	"fmt"
	"testing"
)

func TestShardsCoverEachInputOnce(t *testing.T) {
	var inputs []Input
	for i := range 40 {
		inputs = append(inputs, Input{Path: fmt.Sprintf("v%02d", i)})
	}
	for n := 1; n <= 7; n++ {
		seen := map[string]int{}
		for i := range n {
			part := Shard{i, n}.Select(inputs)
			if len(part) < 40/n || len(part) > 40/n+1 {
				t.Errorf("shard %d/%d has %d inputs", i, n, len(part))
			}
			for _, in := range part {
				seen[in.Path]++
			}
		}
		for _, in := range inputs {
			if seen[in.Path] != 1 {
				t.Fatalf("n=%d: %s taken %d times", n, in.Path, seen[in.Path])
			}
		}
	}
}

func TestParseShard(t *testing.T) {
	if s, err := ParseShard("2/3"); err != nil || s != (Shard{2, 3}) {
		t.Fatalf("got %v, %v", s, err)
	}
	for _, bad := range []string{"3/3", "-1/3", "1", "a/b", "0/0", "1/-2"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestShardFromEnv(t *testing.T) {
	for _, c := range []struct {
		env    map[string]string
		shards int
		want   Shard
		ok     bool
		fails  bool
	}{
		{env: map[string]string{}, want: All},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, want: Shard{3, 4}, ok: true},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4"}, want: Shard{2, 4}, ok: true},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "8", "SLURM_ARRAY_TASK_STEP": "2"}, want: Shard{2, 5}, ok: true},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, shards: 3, want: Shard{2, 3}, ok: true},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, ok: true, fails: true},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "4"}, ok: true, fails: true},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"}, ok: true, fails: true},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "1"}, shards: 3, want: Shard{1, 3}, ok: true},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "1"}, ok: true, fails: true},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "3"}, shards: 3, ok: true, fails: true},
	} {
		s, _, ok, err := ShardFromEnv(func(k string) string { return c.env[k] }, c.shards)
		if ok != c.ok || (err != nil) != c.fails || (!c.fails && s != c.want) {
			t.Errorf("%v shards=%d: got %v ok=%v err=%v", c.env, c.shards, s, ok, err)
		}
	}
}

func ExampleShard_Select() {
	inputs := []Input{{Path: "a"}, {Path: "b"}, {Path: "c"}, {Path: "d"}, {Path: "e"}}
	for i := range 2 {
		fmt.Println(Shard{Index: i, Count: 2}.Select(inputs))
	}
	// Output:
	// [{a } {c } {e }]
	// [{b } {d }]
}
