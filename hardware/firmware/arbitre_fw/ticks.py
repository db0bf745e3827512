"""Millisecond ticks: MicroPython's wrapping `time.ticks_ms`, or a CPython stand-in."""

try:
    from time import ticks_diff, ticks_ms  # MicroPython
except ImportError:  # CPython: the tests and the emulated device
    import time

    def ticks_ms():
        return int(time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b
