package batch

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is one part of a batch split over Count machines. It holds the inputs
// whose position in the sorted input list is Index modulo Count.
type Shard struct {
	Index, Count int
}

// All is the shard that takes every input.
var All = Shard{Index: 0, Count: 1}

// String returns "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Validate checks 0 <= Index < Count.
func (s Shard) Validate() error {
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("batch: shard %d/%d: want 0 <= i < n", s.Index, s.Count)
	}
	return nil
}

// Select returns the shard's inputs: every Count-th, starting at Index. The
// shards 0/n .. n-1/n together take each input exactly once and split runs of
// similar files evenly.
func (s Shard) Select(inputs []Input) []Input {
	var out []Input
	for i := s.Index; i < len(inputs); i += s.Count {
		out = append(out, inputs[i])
	}
	return out
}

// ParseShard reads "i/n" (0-based i).
func ParseShard(spec string) (Shard, error) {
	a, b, ok := strings.Cut(spec, "/")
	if !ok {
		return Shard{}, fmt.Errorf("batch: shard %q: want i/n, such as 0/4", spec)
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("batch: shard %q: want i/n, such as 0/4", spec)
	}
	s := Shard{Index: i, Count: n}
	return s, s.Validate()
}

// ShardFromEnv finds the shard of a scheduler's array task in the
// environment. getenv is [os.Getenv] in production; shards is the --shards
// count, 0 when not given. It returns the shard, the variables it came from,
// and ok false when no scheduler variable is set.
//
// SLURM job arrays: the index is (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN)
// / SLURM_ARRAY_TASK_STEP (MIN 0 and STEP 1 when unset); the count is
// shards when given, else SLURM_ARRAY_TASK_COUNT, else
// (MAX − MIN)/STEP + 1. Kubernetes Indexed Jobs: the index is
// JOB_COMPLETION_INDEX and the count must be given as shards (the Job's
// completions). SLURM wins when both are set.
func ShardFromEnv(getenv func(string) string, shards int) (s Shard, source string, ok bool, err error) {
	if id := getenv("SLURM_ARRAY_TASK_ID"); id != "" {
		s, err := slurmShard(getenv, id, shards)
		return s, "SLURM_ARRAY_TASK_ID", true, err
	}
	if idx := getenv("JOB_COMPLETION_INDEX"); idx != "" {
		i, err := envInt("JOB_COMPLETION_INDEX", idx)
		if err != nil {
			return Shard{}, "", true, err
		}
		if shards < 1 {
			return Shard{}, "", true, fmt.Errorf("batch: JOB_COMPLETION_INDEX is set: give --shards N, the Indexed Job's completions")
		}
		s := Shard{Index: i, Count: shards}
		return s, "JOB_COMPLETION_INDEX", true, s.Validate()
	}
	return All, "", false, nil
}

// slurmShard reads the SLURM array variables.
func slurmShard(getenv func(string) string, idText string, shards int) (Shard, error) {
	id, err := envInt("SLURM_ARRAY_TASK_ID", idText)
	if err != nil {
		return Shard{}, err
	}
	lo, step := 0, 1
	if v := getenv("SLURM_ARRAY_TASK_MIN"); v != "" {
		if lo, err = envInt("SLURM_ARRAY_TASK_MIN", v); err != nil {
			return Shard{}, err
		}
	}
	if v := getenv("SLURM_ARRAY_TASK_STEP"); v != "" {
		if step, err = envInt("SLURM_ARRAY_TASK_STEP", v); err != nil || step < 1 {
			return Shard{}, fmt.Errorf("batch: SLURM_ARRAY_TASK_STEP=%q: want a positive integer", v)
		}
	}
	if (id-lo)%step != 0 {
		return Shard{}, fmt.Errorf("batch: SLURM_ARRAY_TASK_ID %d is not MIN %d plus a multiple of STEP %d: use a range array such as --array=0-9", id, lo, step)
	}
	n := shards
	if n < 1 {
		if v := getenv("SLURM_ARRAY_TASK_COUNT"); v != "" {
			if n, err = envInt("SLURM_ARRAY_TASK_COUNT", v); err != nil {
				return Shard{}, err
			}
		} else if v := getenv("SLURM_ARRAY_TASK_MAX"); v != "" {
			hi, err := envInt("SLURM_ARRAY_TASK_MAX", v)
			if err != nil {
				return Shard{}, err
			}
			n = (hi-lo)/step + 1
		} else {
			return Shard{}, fmt.Errorf("batch: SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT or MAX: give --shards N")
		}
	}
	s := Shard{Index: (id - lo) / step, Count: n}
	if err := s.Validate(); err != nil {
		return Shard{}, fmt.Errorf("%w (from SLURM_ARRAY_TASK_ID %d, MIN %d, STEP %d)", err, id, lo, step)
	}
	return s, nil
}

// envInt parses a non-negative integer environment variable.
func envInt(name, v string) (int, error) {
	i, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || i < 0 {
		return 0, fmt.Errorf("batch: %s=%q: want a non-negative integer", name, v)
	}
	return i, nil
}
