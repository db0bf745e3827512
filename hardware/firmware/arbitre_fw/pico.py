"""The Pico's board and main loop: USB serial in and out, the NeoPixel ring, the buttons.

`run` takes its streams, strip and pins as arguments, so the PC emulator runs this very loop with
the stub `machine` / `neopixel` modules and a pseudo-terminal in place of USB.
"""

import os
import select

import machine
import neopixel

from .buttons import Buttons
from .device import Device
from .ticks import ticks_ms

RING_PIN = 16  # GP16 (physical pin 21): the ring's DIN, through a 330 ohm resistor
RING_LEDS = 24
BUTTON_PINS = (10, 11, 12, 13, 14, 15)  # GP10..GP15 (physical 14-17, 19, 20), each to GND
READ_CHUNK = 64


def board(ring_pin=RING_PIN, n_leds=RING_LEDS, button_pins=BUTTON_PINS):
    strip = neopixel.NeoPixel(machine.Pin(ring_pin, machine.Pin.OUT), n_leds)
    pins = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in button_pins]
    return strip, pins


def boot_id():
    b = os.urandom(2)
    return (b[0] << 8) | b[1]


def _read(inp, poll, wait_ms):
    data = b""
    ready = poll.poll(wait_ms)
    while ready and len(data) < READ_CHUNK:
        byte = inp.read(1)
        if not byte:
            break
        data += byte
        ready = poll.poll(0)
    return data


def _show(strip, pixels):
    for i, colour in enumerate(pixels):
        strip[i] = colour
    strip.write()


def run(inp, out, strip, pins, device=None, should_stop=None, wait_ms=5, poll_on=None):
    """Serve the host until should_stop() says so (never, on the Pico). poll_on: what to poll
    for input when `inp` itself cannot be polled (the Pico's sys.stdin.buffer: poll sys.stdin)."""
    if device is None:
        device = Device(strip.n, len(pins), boot_id())
    buttons = Buttons(pins)
    poll = select.poll()
    poll.register(inp if poll_on is None else poll_on, select.POLLIN)
    shown = None
    while not (should_stop and should_stop()):
        data = _read(inp, poll, wait_ms)
        now = ticks_ms()
        if data:
            device.feed(data, now)
        for index, kind in buttons.scan(now, device.hold_ms):
            device.press(index, kind, now)
        reply = device.tick(now)
        if reply:
            out.write(reply)
        pixels = device.pixels(now)
        if pixels != shown:
            _show(strip, pixels)
            shown = pixels
    return device


def main():
    """Entry point on the Pico (main.py). Hold seat 0's button while plugging in for a REPL."""
    import sys

    import micropython

    strip, pins = board()
    if pins[0].value() == 0:
        return
    micropython.kbd_intr(-1)  # a 0x03 byte is data, not Ctrl-C
    try:
        run(sys.stdin.buffer, sys.stdout.buffer, strip, pins, poll_on=sys.stdin)
    except Exception as err:  # noqa: BLE001 - restart rather than leave the table dark
        sys.print_exception(err)
        import time

        time.sleep(1)
        machine.reset()
