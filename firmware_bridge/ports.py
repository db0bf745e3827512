"""Where the microcontroller is: a configured device path, or the first Pico found.

A Pico running MicroPython shows up as /dev/ttyACM<n> (the number changes from plug to plug) with a
stable name under /dev/serial/by-id/ ("usb-MicroPython_Board_in_FS_mode_<serial>-if00"); its USB
vendor id is 2E8A (Raspberry Pi). The by-id name is preferred: it survives a replug.
"""

from __future__ import annotations

import glob
import os

PICO_VID = 0x2E8A
BY_ID = "/dev/serial/by-id"
NAME_HINTS = ("micropython", "pico", "rp2040", "2e8a")


def find_port(setting: str = "auto", by_id_dir: str = BY_ID) -> str | None:
    """The serial device to open now, or None. setting: "auto", "none" or a device path."""
    if setting == "none":
        return None
    if setting != "auto":
        return setting if os.path.exists(setting) else None
    return _by_id(by_id_dir) or _by_vendor()


def _by_id(by_id_dir: str) -> str | None:
    for path in sorted(glob.glob(os.path.join(by_id_dir, "*"))):
        if any(hint in os.path.basename(path).lower() for hint in NAME_HINTS):
            return path
    return None


def _by_vendor() -> str | None:
    try:
        from serial.tools import list_ports
    except ImportError:
        return None
    for port in sorted(list_ports.comports(), key=lambda p: p.device):
        if port.vid == PICO_VID:
            return port.device
    return None


def why_not_found(setting: str, by_id_dir: str = BY_ID) -> tuple[str, str]:
    """Why find_port gives None, in French and English, for `arbitre doctor`."""
    if setting == "none":
        return "serial_port = none dans la config", "serial_port = none in the config"
    if setting != "auto":
        return f"{setting} n'existe pas", f"{setting} does not exist"
    entries = sorted(os.listdir(by_id_dir)) if os.path.isdir(by_id_dir) else []
    if entries:
        listed = ", ".join(entries)
        return (
            f"aucune Pico parmi {listed} ni d'appareil USB d'identifiant 2E8A",
            f"no Pico among {listed} and no USB device with vendor id 2E8A",
        )
    return (
        "aucun port série USB branché (rien dans /dev/serial/by-id, pas d'identifiant 2E8A)",
        "no USB serial device plugged in (nothing in /dev/serial/by-id, no vendor id 2E8A)",
    )
