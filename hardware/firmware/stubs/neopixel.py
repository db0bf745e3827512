"""A stand-in for MicroPython's `neopixel`: remembers the pixels and what was last written."""


class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.buf = [(0, 0, 0)] * n
        self.shown = [(0, 0, 0)] * n
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, colour):
        self.buf[i] = tuple(colour)

    def __getitem__(self, i):
        return self.buf[i]

    def fill(self, colour):
        self.buf = [tuple(colour)] * self.n

    def write(self):
        self.shown = list(self.buf)
        self.writes += 1
