"""Benchmark: the bridge against the real firmware (emulated, over a pty) on this machine.

    .venv/bin/python bench/ring_link.py [--rounds N]

Prints the press -> ButtonPress latency (includes the firmware's 20 ms debounce), the
show() -> ring state applied latency, the unplug -> replug -> state resent time with the default
back-off, and the host deframer's throughput on random bytes (with the events it invented: 0).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.emulator import EmulatedDevice  # noqa: E402
from firmware_bridge.framing import Deframer  # noqa: E402
from firmware_bridge.link import LinkTiming, RingLink  # noqa: E402
from firmware_bridge.ring import RingSignals  # noqa: E402
from firmware_bridge.signals import TableSignal  # noqa: E402
from kiosk.config import SEAT_COLOURS  # noqa: E402


def wait(check, timeout=5.0):
    deadline = time.perf_counter() + timeout
    while not check():
        if time.perf_counter() > deadline:
            raise TimeoutError
        time.sleep(0.0005)
    return time.perf_counter()


def summary(name, seconds):
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(f"{name:<34} median {statistics.median(ms):7.1f} ms   p95 {p95:7.1f} ms   n={len(ms)}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--away", type=float, default=0.5, help="seconds the Pico stays unplugged")
    args = ap.parse_args()
    n = args.rounds
    box = {"dev": EmulatedDevice().start()}
    presses = []
    link = RingLink(lambda: box["dev"].port if box["dev"] else None, timing=LinkTiming())
    signals = RingSignals(link, SEAT_COLOURS, buttons=["stop:0"], on_press=presses.append)
    link.start()
    assert link.connected.wait(5)

    latencies = []
    for _ in range(n):
        before = len(presses)
        pin = box["dev"].pins[0]
        start = time.perf_counter()
        pin.drive(0)
        latencies.append(wait(lambda b=before: len(presses) > b) - start)
        pin.drive(1)
        time.sleep(0.05)
    summary("button press -> ButtonPress", latencies)

    latencies = []
    for i in range(n):
        start = time.perf_counter()
        signals.show(TableSignal("turn", seat=i % 4, seats=4))
        latencies.append(
            wait(lambda i=i: getattr(box["dev"].device.ring, "seat", None) == i % 4) - start
        )
        time.sleep(0.01)
    summary("show() -> ring state on the device", latencies)

    latencies = []
    for _ in range(max(3, n // 5)):
        box["dev"].unplug()
        box["dev"] = None
        link.lost.wait(5)
        time.sleep(args.away)  # the device is away a while: the back-off has grown
        box["dev"] = EmulatedDevice().start()
        start = time.perf_counter()
        latencies.append(wait(lambda: box["dev"].device.ring is not None) - start)
    summary(f"replug after {args.away:g} s -> state resent", latencies)
    link.close()
    box["dev"].unplug()

    noise = random.Random(1).randbytes(1_000_000)
    start = time.perf_counter()
    frames = Deframer().feed(noise)
    took = time.perf_counter() - start
    print(
        f"{'deframer on 1 MB of random bytes':<34} {len(noise) / took / 1e6:7.1f} MB/s    frames accepted: {len(frames)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
