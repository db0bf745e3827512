"""A stand-in for MicroPython's `machine`, so the firmware runs under CPython (tests, emulator).

A Pin keeps a level the test can change with `drive(level)`; a pulled-up input starts at 1, unless
`Pin.boot_levels[pin_id]` says otherwise (a button held down while the board powers up).
"""


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    boot_levels = {}

    def __init__(self, pin_id, mode=IN, pull=None):
        self.id = pin_id
        self.mode = mode
        self.level = Pin.boot_levels.get(pin_id, 1 if pull == Pin.PULL_UP else 0)

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = 1 if level else 0
        return None

    def drive(self, level):
        self.level = 1 if level else 0


def reset():
    raise SystemExit("machine.reset() called")
