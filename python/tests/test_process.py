"""Process-level behaviour, each in a fresh interpreter: the library installs
no handler for asynchronous signals (Ctrl-C keeps working): only the Go
runtime's own, for synchronous signals, SIGPIPE and SIGURG (its preemption
signal), which forward what Go did not cause to the handler they replaced.
A forked child of a process that loaded it gets a clear error."""

import os
import subprocess
import sys
import textwrap

from conftest import PYDIR

PRELUDE = textwrap.dedent("""
    import ctypes, os, signal, sys, threading, time
    sys.path.insert(0, %r)
    import numpy as np

    libc = ctypes.CDLL(None, use_errno=True)

    def handler_address(sig):
        buf = ctypes.create_string_buffer(256)  # struct sigaction, sa_handler first
        if libc.sigaction(sig, None, buf) != 0:
            raise OSError(ctypes.get_errno(), "sigaction")
        return int.from_bytes(buf.raw[:8], sys.byteorder)
""") % PYDIR


def run(code):
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(code)], capture_output=True,
                       text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def test_no_async_signal_handlers():
    out = run("""
        sigs = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1,
                signal.SIGUSR2, signal.SIGALRM, signal.SIGCHLD, signal.SIGWINCH]
        before = {s: handler_address(s) for s in sigs}
        py_before = signal.getsignal(signal.SIGINT)
        import cclabel
        cclabel.label(np.ones((32, 32, 32), np.uint8))  # loads the library, starts Go
        cclabel.graph_components((np.array([0, 1, 1]), np.array([1])))
        assert signal.getsignal(signal.SIGINT) is py_before is signal.default_int_handler
        after = {s: handler_address(s) for s in sigs}
        changed = [signal.Signals(s).name for s in sigs if before[s] != after[s]]
        assert not changed, changed
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(2)
        except KeyboardInterrupt:
            print("interrupted")
        # SIGPIPE stays ignored, as Python set it: a write to a closed pipe
        # raises BrokenPipeError instead of killing the process.
        r, w = os.pipe()
        os.close(r)
        try:
            os.write(w, b"x")
        except BrokenPipeError:
            print("broken pipe")
    """)
    assert "interrupted" in out and "broken pipe" in out


def test_only_the_runtime_handlers_change():
    out = run("""
        import signal as S
        before = {}
        for s in range(1, S.NSIG):
            try:
                before[s] = handler_address(s)
            except OSError:  # signals the C library reserves
                pass
        every = sorted(before)
        import cclabel
        cclabel.label(np.ones((32, 32, 32), np.uint8))
        changed = {s for s in every if handler_address(s) != before[s]}
        allowed = {S.SIGSEGV, S.SIGBUS, S.SIGFPE, S.SIGPIPE, S.SIGURG}
        assert changed <= allowed, sorted(changed - allowed)
        print("ok")
    """)
    assert "ok" in out


def test_ctrl_c_during_a_call():
    out = run("""
        import cclabel
        a = (np.random.default_rng(1).random((256, 256, 256)) > 0.7)
        cclabel.label(a, binary=True)
        threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT)).start()
        try:
            for _ in range(20):
                cclabel.label(a, binary=True, threads=1)
            print("not interrupted")
        except KeyboardInterrupt:
            print("interrupted")
    """)
    assert "interrupted" in out.split()


def test_fork_after_load_fails_clearly():
    out = run("""
        import cclabel
        cclabel.label(np.ones((4, 4), np.uint8))
        pid = os.fork()
        if pid == 0:
            try:
                cclabel.label(np.ones((4, 4), np.uint8))
                os._exit(3)
            except RuntimeError as e:
                os._exit(0 if "spawn" in str(e) else 4)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status))
        # The parent goes on working.
        assert cclabel.label(np.ones((4, 4), np.uint8)).max() == 1
    """)
    assert "child 0" in out


def test_fork_before_load_and_spawn_work():
    out = run("""
        import multiprocessing as mp
        import cclabel
        pid = os.fork()  # the library is not loaded yet: the child may load it
        if pid == 0:
            os._exit(0 if cclabel.label(np.ones((4, 4), np.uint8)).max() == 1 else 5)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status))
        cclabel.label(np.ones((4, 4), np.uint8))
        with mp.get_context("spawn").Pool(1) as pool:
            print("spawn", int(pool.apply(cclabel.label, (np.ones((4, 4), np.uint8),)).max()))
    """)
    assert "child 0" in out and "spawn 1" in out


def test_gil_released_during_a_call():
    # While one thread labels, another keeps running Python: the longest
    # pause between its steps is far below the call's duration.
    out = run("""
        import cclabel
        a = (np.random.default_rng(3).random((256, 256, 256)) < 0.3).astype(np.uint8)
        cclabel.label(a, binary=True, threads=1)  # load the library first
        done = threading.Event()
        span = []
        def work():
            t = time.perf_counter()
            cclabel.label(a, binary=True, connectivity=6, threads=1)
            span.append(time.perf_counter() - t)
            done.set()
        w = threading.Thread(target=work)
        last, gap = time.perf_counter(), 0.0
        w.start()
        while not done.is_set():
            now = time.perf_counter()
            gap, last = max(gap, now - last), now
        w.join()
        print(span[0], gap)
    """)
    span, gap = map(float, out.split())
    assert span > 0.02, span
    assert gap < span / 2, (span, gap)
