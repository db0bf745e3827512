"""The microcontroller on a PC: the real firmware (hardware/firmware) under CPython, its USB serial
replaced by a pseudo-terminal pair, `machine` and `neopixel` by the stubs next to it.

For tests, and for trying the ring protocol without a Pico: point the bridge at `device.port`.
Needs the source checkout (the firmware is not part of the installed package).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import sys
import threading
import time
import tty
from pathlib import Path
from typing import Any

FIRMWARE_DIR = Path(__file__).resolve().parents[1] / "hardware" / "firmware"
STUBS = ("machine", "neopixel", "micropython")


def load_firmware() -> Any:
    """The firmware's `arbitre_fw` package. Installs the stub modules only where no real module of
    that name exists: on a PC, nothing else imports `machine` or `neopixel`."""
    for name in STUBS:
        if name not in sys.modules:
            spec = importlib.util.spec_from_file_location(
                name, FIRMWARE_DIR / "stubs" / f"{name}.py"
            )
            module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
            spec.loader.exec_module(module)  # type: ignore[union-attr]
            sys.modules[name] = module
    if str(FIRMWARE_DIR) not in sys.path:
        sys.path.append(str(FIRMWARE_DIR))
    import arbitre_fw.pico

    return arbitre_fw


class _Fd:
    """A non-blocking file descriptor with the read/write/fileno the firmware loop uses: a full
    pty drops what does not fit, as USB would when nobody reads."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def fileno(self) -> int:
        return self.fd

    def read(self, n: int) -> bytes:
        try:
            return os.read(self.fd, n)
        except BlockingIOError:
            return b""

    def write(self, data: bytes) -> None:
        with contextlib.suppress(BlockingIOError):
            os.write(self.fd, data)


class EmulatedDevice:
    """A Pico with its ring and buttons, running in a thread until `unplug()`."""

    def __init__(self, n_leds: int = 24, n_buttons: int = 6, boot_id: int | None = None) -> None:
        fw = load_firmware()
        from arbitre_fw.device import Device

        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # until the bridge opens it: no echo of our own frames
        os.set_blocking(self.master, False)
        self.port = os.ttyname(self.slave)
        self.strip, self.pins = fw.pico.board(
            n_leds=n_leds, button_pins=tuple(range(10, 10 + n_buttons))
        )
        boot = fw.pico.boot_id() if boot_id is None else boot_id
        self.device = Device(n_leds, n_buttons, boot)
        self._fw = fw
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None

    def start(self) -> EmulatedDevice:
        self._thread = threading.Thread(target=self._run, name="arbitre-emulated-pico", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        port = _Fd(self.master)
        try:
            self._fw.pico.run(port, port, self.strip, self.pins, self.device, self._stop.is_set)
        except OSError as err:  # the pty went away under us
            self.error = err

    def press(self, index: int, seconds: float = 0.08) -> None:
        """Hold button `index` down for `seconds` (longer than the 20 ms debounce)."""
        self.pins[index].drive(0)
        time.sleep(seconds)
        self.pins[index].drive(1)

    def inject(self, data: bytes) -> None:
        """Bytes on the wire toward the host, as if the device or the cable garbled them."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.master, view) :]
            except BlockingIOError:
                time.sleep(0.001)

    @property
    def pixels(self) -> list[tuple[int, int, int]]:
        return list(self.strip.shown)

    def stop(self) -> None:
        """The firmware stops answering, the port stays: a hung device."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def unplug(self) -> None:
        self.stop()
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> EmulatedDevice:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.unplug()
