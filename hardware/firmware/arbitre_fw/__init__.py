"""Arbitre's microcontroller firmware (MicroPython on a Raspberry Pi Pico, RP2040).

Everything in this package except `pico.py` is plain Python that runs unchanged under CPython, so
the PC tests run the real protocol, ring and button logic against the real bridge. Keep it to the
subset MicroPython has: no dataclasses, no typing, no f-string `=` specifiers.
"""

VERSION = "1.0.0"
PROTOCOL = 1
