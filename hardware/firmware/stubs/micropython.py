"""A stand-in for MicroPython's `micropython` module."""

kbd_intr_char = 3


def kbd_intr(char):
    global kbd_intr_char
    kbd_intr_char = char


def const(value):
    return value
