#!/usr/bin/env python3
"""Times whole cclabel commands per backend, as a user waits for them.

For each row (an input from `cclabel gen` and the command that labels it)
and each backend, the command runs ROUNDS times, the backends alternating
within a round. The table gives the median wall seconds (with the range),
the command's own `--json` total and its read, label and write stages, the
label stage's GPU setup, wall minus total (start and exit), and the backend
that ran. A backend that cannot run (no GPU) is reported once and skipped.

Usage, from the repository root:

  bench/whole_commands.py [--cclabel PATH] [--rounds 3] [--small]
                          [--rows label,volume,npy,neurites,graph,rmat]
                          [--backends cpu,gpu,auto] [--dump FILE]

Inputs and the built binary stay in $CCLABEL_BENCH_DIR (default
$TMPDIR/cclabel-bench); --small uses inputs a 2-core machine labels in
seconds. --dump writes every run's --json summary, with its row, backend
and wall time, as JSON lines (the cost model's rates come from them).
Python's standard library only.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

# name: (full size, small size, gen arguments, command arguments after the
# input). Sizes fill {size} in the gen arguments.
ROWS = {
    "label": ("8192x8192", "2048x2048",
              ["image", "--size", "{size}", "--kind", "blobs", "--density", "0.5", "--seed", "1"], ".png",
              ["label", "{input}", "--binary", "-o", "{out}.png"]),
    "volume": ("512,512,512", "128,128,128",
               ["volume", "--size", "{size}", "--kind", "blobs", "--density", "0.5", "--seed", "1"], ".nii.gz",
               ["volume", "{input}", "--binary", "-o", "{out}.nii.gz"]),
    "npy": ("1024,1024,1024", "256,256,256",
            ["volume", "--size", "{size}", "--kind", "random", "--density", "0.3", "--seed", "1"], ".npy",
            ["volume", "{input}", "--binary", "-o", "{out}.npy"]),
    "neurites": ("512,512,512", "128,128,128",
                 ["volume", "--size", "{size}", "--kind", "neurites", "--cells", "2500", "--seed", "1"], ".npy",
                 ["volume", "{input}", "-c", "26", "-o", "{out}.npy"]),
    "graph": ("8388608", "1048576",
              ["graph", "random", "--vertices", "{size}", "--degree", "4", "--seed", "1"], ".egr",
              ["graph", "{input}"]),
    "rmat": ("24", "18",
             ["graph", "rmat", "--scale", "{size}", "--edge-factor", "16", "--seed", "1"], ".egr",
             ["graph", "{input}"]),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cclabel", help="the binary (default: built into the bench folder)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--small", action="store_true", help="small inputs")
    ap.add_argument("--rows", default=",".join(ROWS))
    ap.add_argument("--backends", default="cpu,gpu,auto")
    ap.add_argument("--dump", help="write each run's summary as a JSON line to this file")
    args = ap.parse_args()
    work = os.environ.get("CCLABEL_BENCH_DIR") or os.path.join(tempfile.gettempdir(), "cclabel-bench")
    folder = os.path.join(work, "whole-small" if args.small else "whole")
    os.makedirs(folder, exist_ok=True)
    cc = args.cclabel or os.path.join(work, "cclabel")
    if not args.cclabel:
        subprocess.run(["go", "build", "-o", cc, "./cmd/cclabel"], check=True)
    rows = [r for r in args.rows.split(",") if r]
    backends = [b for b in args.backends.split(",") if b]
    for r in rows:
        if r not in ROWS:
            sys.exit(f"whole_commands: unknown row {r!r} (rows: {', '.join(ROWS)})")

    dump = open(args.dump, "w") if args.dump else None
    print(f"{'row':<8} {'backend':<7} {'wall s (min-max)':<22} {'total':>7} {'read':>7} {'label':>7} "
          f"{'write':>7} {'gpu_setup':>9} {'wall-total':>10}  ran")
    for r in rows:
        full, small, gen, ext, cmd = ROWS[r]
        size = small if args.small else full
        inp = os.path.join(folder, f"{r}-{size.replace(',', 'x')}{ext}")
        if not os.path.exists(inp):
            subprocess.run([cc, "gen"] + [a.format(size=size) for a in gen] + ["-o", inp], check=True,
                           stdout=subprocess.DEVNULL)
        runs = {b: [] for b in backends}
        skipped = {}
        for _ in range(args.rounds):
            for b in backends:
                if b in skipped:
                    continue
                argv = [cc] + [a.format(input=inp, out=os.path.join(folder, "out-" + r)) for a in cmd]
                argv[2:2] = ["--backend", b, "--json"]
                start = time.perf_counter()
                p = subprocess.run(argv, capture_output=True, text=True)
                wall = time.perf_counter() - start
                if p.returncode != 0:
                    skipped[b] = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
                    continue
                s = json.loads(p.stdout)
                if isinstance(s, list):
                    s = s[0]
                runs[b].append((wall, s))
                if dump:
                    dump.write(json.dumps({"row": r, "backend": b, "wall": wall, "summary": s}) + "\n")
                    dump.flush()
        for b in backends:
            if b in skipped:
                print(f"{r:<8} {b:<7} skipped: {skipped[b]}")
                continue
            walls = [w for w, _ in runs[b]]
            med = lambda f: statistics.median(f(s) for _, s in runs[b])
            sec = lambda k: med(lambda s: s.get("seconds", {}).get(k, 0.0))
            setup = med(lambda s: s.get("label_seconds", {}).get("gpu_setup", 0.0))
            over = statistics.median(w - s.get("seconds", {}).get("total", 0.0) for w, s in runs[b])
            ran = sorted({s.get("backend", "?") for _, s in runs[b]})
            span = f"{statistics.median(walls):.3f} ({min(walls):.3f}-{max(walls):.3f})"
            print(f"{r:<8} {b:<7} {span:<22} {sec('total'):>7.3f} {sec('read'):>7.3f} {sec('label'):>7.3f} "
                  f"{sec('write'):>7.3f} {setup:>9.3f} {over:>10.3f}  {','.join(ran)}")


if __name__ == "__main__":
    main()
