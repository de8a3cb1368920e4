#!/usr/bin/env python3
# Key response while a recording plays (not a test): the monitor runs on a pseudo-terminal of
# 160x48 and each key's time is from writing it to the terminal to reading the monitor's answer
# (h: the help pane, whose "colour theme" line it draws; Esc: the help gone, the ring rows under
# it redrawn: their durations, "ms"). Esc includes curses' wait for a key sequence that starts
# with Esc (set_escdelay). The recording's snapshots must not change from one to the next where
# the help pane covers them (replay-scale.sh's do not): else a redraw of its own could answer.
# Usage: bench/replay-keys.py BINARY RECORDING [KEYS]
import os
import pty
import select
import struct
import sys
import time
import fcntl
import termios

BIN, REC = sys.argv[1], sys.argv[2]
KEYS = int(sys.argv[3]) if len(sys.argv) > 3 else 20

pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 48, 160, 0, 0))
    os.environ.update(LANG="C.UTF-8", TERM="xterm-256color")
    os.execv(BIN, [BIN, "--replay", REC, "-d", "0.5"])


ended = []  # keys answered before the monitor said the recording had ended


def watch(chunk):
    if not ended and b"end of the recording" in chunk:
        ended.append(sum(len(v) for v in times.values()))


def read_until(needle, limit_s):
    """Output read until needle is in it; the time it arrived (None: not within limit_s)."""
    seen = b""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
        if not ready:
            break
        try:
            chunk = os.read(fd, 1 << 16)
        except OSError:
            return None
        watch(chunk)
        seen += chunk
        if needle in seen:
            return time.monotonic()
        seen = seen[-len(needle):]
    return None


def drain(quiet_s):
    """Reads until the terminal has been quiet for quiet_s."""
    while select.select([fd], [], [], quiet_s)[0]:
        try:
            watch(os.read(fd, 1 << 16))
        except OSError:
            return


times = {"h": [], "Esc": []}
if read_until(b"Rings (", 60) is None:
    sys.exit("replay-keys: the monitor never showed the recording")
for i in range(KEYS):
    key, name, needle = (b"h", "h", b"colour theme") if i % 2 == 0 else (b"\x1b", "Esc", b"ms")
    drain(0.05)
    t0 = time.monotonic()
    os.write(fd, key)
    t1 = read_until(needle, 5)
    if t1 is None:
        sys.exit(f"replay-keys: no answer to {name} within 5 s")
    times[name].append((t1 - t0) * 1000)
    time.sleep(0.2)
os.write(fd, b"q")
os.waitpid(pid, 0)
print("the recording played throughout" if not ended else
      f"the recording ended after {ended[0]} of {KEYS} keys")
for name, ms in times.items():
    ms.sort()
    print(f"key {name}: {len(ms)} presses, median {ms[len(ms) // 2]:.1f} ms, worst {ms[-1]:.1f} ms")
