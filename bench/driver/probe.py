#!/usr/bin/env python3
"""Runs probe (probe.c, built beside it) cold, beside a holder, and through
each way of exiting; usage: probe.py FATBIN (cuda/kernels.fatbin)."""
import subprocess, time, sys, os, statistics
B = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe")
def run(args, env=None):
    t0 = time.clock_gettime(time.CLOCK_MONOTONIC)
    p = subprocess.run([B] + args, capture_output=True, text=True, env=env)
    t1 = time.clock_gettime(time.CLOCK_MONOTONIC)
    return t0, t1, p.stdout.strip(), p.stderr.strip()
def settle(): time.sleep(2.5)
fat = {**os.environ, "FATBIN": sys.argv[1]}
lazy = {**fat, "CUDA_MODULE_LOADING": "LAZY"}
eager = {**fat, "CUDA_MODULE_LOADING": "EAGER"}
print("== probe cold (wall, stages)")
one = {**fat, "CUDA_DEVICE_MAX_CONNECTIONS": "1"}
for env, name in ((fat, "default"), (lazy, "lazy"), (eager, "eager"), (one, "one queue")):
    for i in range(3):
        settle(); t0, t1, o, e = run(["probe"], env); print(name, "wall %.3f" % (t1 - t0), o, e)
print("== probe with a holder")
for mode in ("init", "ctxfree", "ctx"):
    settle()
    h = subprocess.Popen([B, "hold", mode, "6"], stdout=subprocess.PIPE, text=True)
    h.stdout.readline(); time.sleep(0.3)
    for i in range(2):
        t0, t1, o, e = run(["probe"], fat); print("holder", mode, "wall %.3f" % (t1 - t0), o, e)
    h.wait()
print("== exit latency")
for v in ("plain", "release", "handoff", "release+handoff"):
    for i in range(3):
        settle(); t0, t1, o, e = run(["exit", v], fat)
        parts = o.split(); end = float(parts[3])
        line = "%-16s wall %.3f exit %.4f release %s %s" % (v, t1 - t0, t1 - end, parts[1], e)
        if "handoff" in v:
            a, b, o2, _ = run(["probe"], fat); line += " | next probe wall %.3f %s" % (b - a, o2)
        print(line)
