"""`arbitre doctor [--config FILE] [--lang en] [--json]`: is this table's hardware there, and why not.

Five checks (camera, pins, serial link, disk, and whether this OpenCV reads the dice networks),
each found or not with the reason and what to do.
Something the config asks for explicitly and that is missing exits 1; something optional that is
absent ("auto" found nothing: the simulator or no ring will be used) is reported and exits 0.
Stop the service first on a running table (`sudo systemctl stop arbitre`): it holds the pins and
the serial port.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HELP = "check the camera, pins, serial link and disk, and say why one is missing"
OK, INFO, FAIL = "ok", "info", "fail"
MARKS = {OK: "✔", INFO: "·", FAIL: "✘"}
TITLES = {
    "config": ("configuration", "configuration"),
    "camera": ("caméra", "camera"),
    "pins": ("broches", "pins"),
    "serial": ("liaison série", "serial link"),
    "disk": ("disque", "disk"),
    "vision": ("vision", "vision"),
    "calibration": ("calibration", "calibration"),
}
MIN_FREE_MB = 200
# Video nodes of the Pi's own codecs and ISP: not cameras.
NOT_CAMERAS = ("bcm2835-codec", "bcm2835-isp", "rpi-hevc", "pispbe", "rp1-cfe", "unicam", "hevc")


@dataclass(frozen=True)
class Check:
    name: str
    status: str
    fr: str
    en: str

    def text(self, lang: str) -> str:
        title = TITLES[self.name][0 if lang == "fr" else 1]
        return f"{MARKS[self.status]} {title:<14} {self.fr if lang == 'fr' else self.en}"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="TOML", default=None, help="the table's config file")
    p.add_argument("--lang", choices=("fr", "en"), default=None, help="language (default: config)")
    p.add_argument("--json", action="store_true", help="one JSON object instead of text")
    p.add_argument(
        "--probe-timeout", type=float, default=2.0, help="seconds to wait for the Pico's answer"
    )


def run(args: argparse.Namespace) -> int:
    from kiosk.config import Config, find_config_file, load_config

    checks: list[Check] = []
    path = args.config or find_config_file()
    try:
        config = load_config(path)
        if path is None:
            checks.append(
                Check("config", INFO, "aucun fichier : valeurs par défaut", "no file: defaults")
            )
        else:
            checks.append(Check("config", OK, f"lue : {path}", f"read: {path}"))
    except (OSError, ValueError) as err:
        config = Config()
        text = getattr(err, "strerror", None) or str(err)
        checks.append(
            Check(
                "config",
                FAIL,
                f"illisible ({text}) ; valeurs par défaut",
                f"unreadable ({text}); using defaults",
            )
        )
    checks += [
        check_camera(config.camera),
        check_pins(config),
        check_serial(config, args.probe_timeout),
        check_disk(config.data_path),
        check_vision(),
        check_calibration(config),
    ]
    lang = args.lang or config.language
    if args.json:
        print(
            json.dumps(
                {
                    c.name: {"status": c.status, "detail": c.en if lang == "en" else c.fr}
                    for c in checks
                },
                ensure_ascii=False,
            )
        )
    else:
        for c in checks:
            print(c.text(lang))
    return 1 if any(c.status == FAIL for c in checks) else 0


# -- camera -------------------------------------------------------------------------------------
def check_camera(spec: str, video_root: str = "/sys/class/video4linux") -> Check:
    if spec.startswith("sim"):
        return Check("camera", OK, "table simulée (camera = sim)", "simulated table (camera = sim)")
    if spec.startswith("file:"):
        path = spec[5:]
        if os.path.exists(path):
            return Check("camera", OK, f"fichier {path}", f"file {path}")
        return Check("camera", FAIL, f"{path} n'existe pas", f"{path} does not exist")
    pi, pi_why = pi_cameras()
    usb = usb_cameras(video_root)
    if spec in ("auto", "picamera2") and pi:
        return Check("camera", OK, f"caméra du Pi : {', '.join(pi)}", f"Pi camera: {', '.join(pi)}")
    if spec == "picamera2":
        return Check(
            "camera", FAIL, f"caméra du Pi absente : {pi_why[0]}", f"no Pi camera: {pi_why[1]}"
        )
    wanted = [u for u in usb if spec in ("auto", f"v4l2:{u[0]}")]
    if wanted:
        index, name = wanted[0]
        return Check(
            "camera",
            OK,
            f"webcam USB /dev/video{index} ({name})",
            f"USB webcam /dev/video{index} ({name})",
        )
    if spec == "auto":
        return Check(
            "camera",
            INFO,
            f"aucune ({pi_why[0]} ; pas de webcam USB) : la table simulée servira",
            f"none ({pi_why[1]}; no USB webcam): the simulated table will be used",
        )
    return Check(
        "camera",
        FAIL,
        f"{spec} introuvable (webcams : {_names(usb)})",
        f"{spec} not found (webcams: {_names(usb)})",
    )


def _names(usb: list[tuple[int, str]]) -> str:
    return ", ".join(f"/dev/video{i}" for i, _ in usb) or "—"


def pi_cameras() -> tuple[list[str], tuple[str, str]]:
    """The Pi cameras' models, or [] and why (fr, en)."""
    try:
        from picamera2 import Picamera2
    except ImportError:
        why = "python3-picamera2 not installed (sudo apt install python3-picamera2)"
        return [], (
            "python3-picamera2 n'est pas installé (sudo apt install python3-picamera2)",
            why,
        )
    try:
        models = [str(c.get("Model", "?")) for c in Picamera2.global_camera_info()]
    except Exception as err:  # noqa: BLE001 - libcamera's errors are many; report, don't crash
        return [], (f"libcamera : {err}", f"libcamera: {err}")
    if not models:
        return [], (
            "rien sur le connecteur caméra (nappe, sens du câble ?)",
            "nothing on the camera connector (ribbon cable seated, right way round?)",
        )
    return models, ("", "")


def usb_cameras(root: str = "/sys/class/video4linux") -> list[tuple[int, str]]:
    """(index, name) of the video capture nodes that are not the Pi's own codecs."""
    found = []
    for node in sorted(glob.glob(os.path.join(root, "video*"))):
        suffix = os.path.basename(node)[5:]
        try:
            name = Path(node, "name").read_text(errors="replace").strip()
        except OSError:
            continue
        if suffix.isdigit() and not any(n in name.lower() for n in NOT_CAMERAS):
            found.append((int(suffix), name))
    return sorted(found)


# -- pins ---------------------------------------------------------------------------------------
def check_pins(config: Any, pin_factory: Any = None, on_pi: bool | None = None) -> Check:
    from firmware_bridge.factory import default_pin_factory, is_raspberry_pi, wants_gpio

    if config.gpio == "none":
        return Check("pins", INFO, "gpio = none : broches ignorées", "gpio = none: pins ignored")
    if not wants_gpio(config):
        return Check(
            "pins", INFO,
            "aucune broche configurée (seat_led_pins, seat_button_pins, table_button_pin)",
            "no pins configured (seat_led_pins, seat_button_pins, table_button_pin)",
        )  # fmt: skip
    on_pi = is_raspberry_pi() if on_pi is None else on_pi
    try:
        from firmware_bridge.gpio import GpioSignals

        factory = pin_factory or default_pin_factory(config.gpio)
        signals = GpioSignals(
            config.seat_led_pins,
            config.seat_colours,
            button_pins=config.seat_button_pins,
            table_pin=config.table_button_pin,
            undo_pin=config.undo_button_pin,
            active_high=config.led_active_high,
            pin_factory=factory,
        )
    except ImportError as err:
        return Check(
            "pins",
            FAIL,
            f"{err.name} manque (pip install 'arbitre[hardware]')",
            f"{err.name} missing (pip install 'arbitre[hardware]')",
        )
    except Exception as err:  # noqa: BLE001 - gpiozero raises many kinds; each is the reason
        hint_fr, hint_en = _pin_hint(err)
        return Check(
            "pins",
            FAIL,
            f"{type(err).__name__}: {err}{hint_fr}",
            f"{type(err).__name__}: {err}{hint_en}",
        )
    leds, buttons = len(signals.leds), len(signals.buttons)
    mock = "Mock" in type(signals.leds[0].pin_factory if signals.leds else factory).__name__
    signals.close()
    if mock:
        why = "pas un Raspberry Pi" if not on_pi else "gpio = mock"
        return Check(
            "pins",
            INFO,
            f"broches simulées ({why}) : {leds} DEL, {buttons} boutons",
            f"mock pins ({'not a Raspberry Pi' if not on_pi else 'gpio = mock'}): {leds} LEDs, {buttons} buttons",
        )
    return Check(
        "pins",
        OK,
        f"{leds} DEL et {buttons} boutons réservés sans erreur",
        f"{leds} LEDs and {buttons} buttons claimed without error",
    )


def _pin_hint(err: Exception) -> tuple[str, str]:
    text = str(err).lower()
    if "busy" in text or "in use" in text:
        return (
            " — arbitre tourne-t-il ? (sudo systemctl stop arbitre)",
            " — is arbitre running? (sudo systemctl stop arbitre)",
        )
    if "permission" in text:
        return (" — ajoutez l'utilisateur au groupe gpio", " — add the user to the gpio group")
    return ("", "")


# -- serial -------------------------------------------------------------------------------------
def check_serial(config: Any, timeout: float = 2.0, opener: Any = None) -> Check:
    from firmware_bridge.link import LinkError, probe
    from firmware_bridge.ports import find_port, why_not_found

    setting = config.serial_port
    port = find_port(setting)
    if port is None:
        fr, en = why_not_found(setting)
        status = FAIL if setting not in ("auto", "none") else INFO
        return Check("serial", status, f"pas d'anneau : {fr}", f"no ring: {en}")
    try:
        welcome = probe(port, timeout, opener)
    except LinkError as err:
        return Check(
            "serial",
            FAIL,
            f"{port} répond mais pas avec le micrologiciel Arbitre ({err})",
            f"{port} is there but not running the Arbitre firmware ({err})",
        )
    except Exception as err:  # noqa: BLE001 - pyserial's SerialException and OSError alike
        busy = "busy" in str(err).lower() or "lock" in str(err).lower()
        hint = (" — arbitre tourne-t-il ?", " — is arbitre running?") if busy else ("", "")
        return Check(
            "serial",
            FAIL,
            f"{port} ne s'ouvre pas : {err}{hint[0]}",
            f"cannot open {port}: {err}{hint[1]}",
        )
    fr = f"Pico sur {port} : micrologiciel {welcome.version}, {welcome.leds} DEL, {welcome.buttons} boutons"
    en = f"Pico on {port}: firmware {welcome.version}, {welcome.leds} LEDs, {welcome.buttons} buttons"
    if welcome.leds != config.ring_leds:
        fr += f" (la config dit ring_leds = {config.ring_leds})"
        en += f" (the config says ring_leds = {config.ring_leds})"
    return Check("serial", OK, fr, en)


# -- disk ---------------------------------------------------------------------------------------
def check_disk(path: Path, min_free_mb: int = MIN_FREE_MB) -> Check:
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    free_mb = shutil.disk_usage(existing).free // 2**20
    if not os.access(existing, os.W_OK):
        return Check(
            "disk",
            FAIL,
            f"{existing} n'est pas accessible en écriture",
            f"{existing} is not writable",
        )
    if free_mb < min_free_mb:
        return Check(
            "disk",
            FAIL,
            f"{free_mb} Mo libres sous {path} (il en faut {min_free_mb})",
            f"{free_mb} MB free under {path} (needs {min_free_mb})",
        )
    return Check("disk", OK, f"{free_mb} Mo libres sous {path}", f"{free_mb} MB free under {path}")


# -- vision -------------------------------------------------------------------------------------
def check_calibration(config: Any) -> Check:
    """The calibration `arbitre run` will read: `run` reads on without one it cannot read (the
    arena is then looked for), so a maker learns here, not from a table reading worse. Dice
    under 18 px are read less surely (rule 183): said, not failed."""
    from vision.calibration import load

    from .calibrate import small_dice

    path = config.calibration_path
    if not path.exists():
        sim = config.camera.startswith("sim")
        fr = "aucune (table simulée)" if sim else f"aucune ({path}) : lancez arbitre calibrate"
        en = "none (simulated table)" if sim else f"none ({path}): run arbitre calibrate"
        return Check("calibration", INFO, fr, en)
    try:
        cal = load(path)
    except (OSError, ValueError) as err:
        return Check("calibration", FAIL, f"illisible : {err}", f"unreadable: {err}")
    (w, h), size = cal.frame_size, cal.die_size
    seen = f"{size:.0f} px" if size else "?"
    fr, en = f"{w}x{h}, dés de {seen}", f"{w}x{h}, dice {seen}"
    words = small_dice(size)
    if words:
        return Check("calibration", INFO, f"{fr} ; {words[0]}", f"{en}; {words[1]}")
    return Check("calibration", OK, fr, en)


def check_vision(models: Path | None = None, read: Any = None) -> Check:
    """Whether this machine's OpenCV loads every dice network: a Pi takes Raspberry Pi OS's own
    OpenCV (4.6 on Bookworm), and a network it cannot load would stop the table at its first
    frame, long after the install said it was done."""
    try:
        import cv2

        from vision.learned import runtime
        from vision.learned.onnx_net import read_onnx
    except ImportError as err:
        return Check(
            "vision",
            FAIL,
            f"OpenCV absent ({err}) : sudo apt install python3-opencv",
            f"no OpenCV ({err}): sudo apt install python3-opencv",
        )
    version = cv2.__version__
    paths = sorted((models or runtime.MODELS).glob("*.onnx"))
    if not paths:
        return Check(
            "vision",
            INFO,
            f"OpenCV {version} ; aucun réseau : lecteur classique",
            f"OpenCV {version}; no networks: the classical reader",
        )
    for path in paths:
        try:
            (read or read_onnx)(path)
        except (cv2.error, ValueError) as err:  # (ValueError: a garbled file, widen.py)
            why = _opencv_reason(err)
            return Check(
                "vision",
                FAIL,
                f"OpenCV {version} ne lit pas {path.name} ({why}) : OpenCV 4.6 ou plus récent",
                f"OpenCV {version} cannot read {path.name} ({why}): OpenCV 4.6 or newer",
            )
    return Check(
        "vision",
        OK,
        f"OpenCV {version}, {len(paths)} réseaux lus",
        f"OpenCV {version}, {len(paths)} networks read",
    )


def _opencv_reason(err: Exception) -> str:
    """OpenCV's own words, without the source file it was raised in."""
    text = str(err).strip().splitlines()[-1] if str(err).strip() else type(err).__name__
    found = re.search(r"error: \([^)]*\) (.+?)(?: in function .*)?$", text)
    return found.group(1) if found else text[:160]
