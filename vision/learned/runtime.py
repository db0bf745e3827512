"""Running the face classifier with OpenCV's dnn module: no torch at run time.

The network and its metadata (faces.json: classes, input size, per-kind temperatures) are loaded
once and kept; models/classifiers.json may route a kind to other networks (`models_for`). A
batch of crops goes through a network in one forward pass; each kind takes the softmax of its
own faces plus "cocked" and "none" at its calibrated temperature, so a confidence of 0.9 or more
was right at least 99 % of the time on held-out generated crops.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

import numpy as np

from .classes import CLASSES, COCKED, NONE, check_kind, kind_classes
from .crops import CHANNELS, CROP_FACTOR, INPUT, to_input
from .onnx_net import read_onnx
from .temperature import kind_softmax

MODELS = Path(__file__).parent / "models"
DEFAULT = "faces"  # the network that reads every kind no route names another for
ROUTES = "classifiers.json"  # {"kinds": {kind: stem or [stems]}}: which networks read a kind
# ... and {"screens": {kind: stem}}: a narrow network read first, whose sure crops skip the route
# ... and {"oblique": {kind: [stems]}}: the route within oblique_photo(), where one is named
ONNX_PATH = MODELS / f"{DEFAULT}.onnx"
META_PATH = MODELS / f"{DEFAULT}.json"
SURE_ALONE = 0.98  # a crop the first network reads this sure is not shown to the others
SCREEN_SURE = 0.99  # a crop the kind's screen reads this sure is not shown to its route
_lock = threading.Lock()  # a cv2.dnn.Net is not safe to run from two threads at once
_oblique = ContextVar("oblique", default=False)  # (per thread and task: see oblique_photo)


def models_for(kind: str) -> tuple[str, ...]:
    """The stems of the networks that read this kind (`<stem>.onnx`, `<stem>.json` in MODELS).

    One network is trained over all three kinds, but networks trained on different data do not
    read every kind alike: the one taught Blender renders as well (m18, session 16) read pips
    and Strike dice better and Détrak symbols worse. A route lets each kind take the network
    that reads it best, without a training that has to win at all three at once; a route to
    several networks reads the kind with all of them (`probabilities`). Within
    `oblique_photo()`, a kind with an oblique route takes it."""
    check_kind(kind)
    if _oblique.get() and kind in _routes("oblique"):
        return _routes("oblique")[kind]
    return _routes().get(kind, (DEFAULT,))


@contextmanager
def oblique_photo() -> Iterator[None]:
    """Within it, the frame being read is an oblique photo (the reader found the point below
    the camera off the frame's centre), and each kind is read by its oblique route if it has
    one. Détrak's asks faces-oblique, taught Blender's oblique renders, of the crops its first
    network doubts, where every other frame asks m14: on oblique photos it reads renders and
    cocked dice better, but as a second opinion on every frame it cost the table's reads 23
    errors in 150 scenes (docs/vision-history.md, "Session 77"). The table's camera, which
    knows its dice's size, never takes the oblique route."""
    token = _oblique.set(True)
    try:
        yield
    finally:
        _oblique.reset(token)


def onnx_paths(kind: str) -> list[Path]:
    """The network files that read this kind (its screen last)."""
    return [MODELS / f"{stem}.onnx" for stem in _all_stems(kind)]


def _all_stems(kind: str) -> tuple[str, ...]:
    screen = screen_for(kind)
    oblique = [s for s in _routes("oblique").get(kind, ()) if s not in models_for(kind)]
    return models_for(kind) + tuple(oblique) + ((screen,) if screen else ())


def screen_for(kind: str) -> str | None:
    """The stem of the kind's screen, if it has one: a network a few times cheaper than the
    route's, taught to read as the route reads (train.py --teacher-share). It reads every crop;
    the crops it is SCREEN_SURE of take its reading, and only the rest cost the route's networks,
    which take most of a frame's time. None is named since the one tried (session 32) saved
    time only where it also read more faces wrong at 0.9 (docs/vision-learned.md, "A screen in
    front of the route")."""
    check_kind(kind)
    return _screens().get(kind)


@lru_cache(maxsize=1)
def _screens() -> dict[str, str]:
    path = MODELS / ROUTES
    if not path.exists():
        return {}
    screens = json.loads(path.read_text()).get("screens", {})
    expected = f'{path}: expected {{"screens": {{kind: model file stem}}}}'
    if not isinstance(screens, dict) or not all(isinstance(v, str) and v for v in screens.values()):
        raise ValueError(f"{expected}, got {screens!r}")
    for kind in screens:
        check_kind(kind)
    return dict(screens)


@lru_cache(maxsize=2)
def _routes(section: str = "kinds") -> dict[str, tuple[str, ...]]:
    """The routes of classifiers.json's `section`: "kinds" (every frame's) or "oblique"."""
    path = MODELS / ROUTES
    if not path.exists():
        return {}
    routes = json.loads(path.read_text()).get(section, {} if section == "oblique" else None)
    expected = f'{path}: expected {{"{section}": {{kind: model file stem, or a list of them}}}}'
    if not isinstance(routes, dict):
        raise ValueError(f"{expected}, got {routes!r}")
    out = {}
    for kind, stems in routes.items():
        check_kind(kind)
        stems = [stems] if isinstance(stems, str) else stems
        if (
            not isinstance(stems, list)
            or not stems
            or not all(isinstance(x, str) and x for x in stems)
        ):
            raise ValueError(f"{expected}, got {kind!r}: {stems!r}")
        out[kind] = tuple(stems)
    return out


def available(kind: str) -> bool:
    """True when the kind's networks and their metadata are there and know this kind's faces."""
    stems = _all_stems(kind)  # a garbled route file is an error, not a missing model
    try:
        return all(
            (MODELS / f"{stem}.onnx").exists() and kind in _meta(stem)["temperatures"]
            for stem in stems
        )
    except (OSError, ValueError, KeyError):
        return False


@lru_cache(maxsize=8)  # one per network in models/ (four classifiers since session 21)
def _meta(stem: str = DEFAULT) -> dict:
    path = MODELS / f"{stem}.json"
    meta = json.loads(path.read_text())
    classes = tuple(meta["classes"])
    made = (classes, meta["input"], meta.get("channels", 3), meta.get("crop_factor", 1.3))
    if made != (CLASSES, INPUT, CHANNELS, CROP_FACTOR):
        raise ValueError(
            f"{path}: model made for classes {classes} at {made[1]} px, {made[2]} planes,"
            f" crops {made[3]} x the die; expected {CLASSES} at {INPUT} px, {CHANNELS} planes,"
            f" crops {CROP_FACTOR} x the die: retrain (python -m vision.learned.train)"
        )
    return meta


@lru_cache(maxsize=8)  # one per network in models/ (four classifiers since session 21)
def _net(stem: str = DEFAULT):
    path = MODELS / f"{stem}.onnx"
    if not path.exists():
        raise FileNotFoundError(
            f"{path} is missing: train it with `python -m vision.learned.train`"
        )
    return read_onnx(path)


def logits(crops: list[np.ndarray], stem: str = DEFAULT) -> np.ndarray:
    """Raw outputs of one network, N x len(CLASSES)."""
    if not len(crops):
        return np.zeros((0, len(CLASSES)), np.float32)
    return blob_logits(to_input(crops), stem)


def blob_logits(blob: np.ndarray, stem: str = DEFAULT) -> np.ndarray:
    """Raw outputs of one network for crops already made its input (N x CHANNELS x INPUT x
    INPUT): the training reads the route's outputs this way (distill.py)."""
    with _lock:
        net = _net(stem)
        net.setInput(blob)
        out = net.forward()
    return np.asarray(out, np.float32).reshape(len(blob), len(CLASSES))


def probabilities(crops: list[np.ndarray], kind: str, needed=None) -> np.ndarray:
    """N x (faces of the kind, "cocked", "none") calibrated probabilities, in kind_classes(kind)
    order. With several networks on the kind's route, the first reads every crop, and a crop it
    is not SURE_ALONE of is read by the others too, with the mean of their probabilities (each
    at its own temperature): networks taught on different data err on different crops, and a
    face stays sure only where they agree. Asking the others of every crop cost a pips frame
    10 ms more, of the doubtful crops alone 1-2 ms (session 17, docs/vision-history.md).
    A kind with a screen (screen_for) shows the route only the crops its screen doubts.

    `needed(first, most)`: for a caller that uses only some rows, given the first network's
    probabilities and the most each can become once the others are asked, which rows to ask
    them of; the others keep the first network's reading (the ring look: session 56)."""
    if not len(crops):
        return np.zeros((0, len(kind_classes(kind))), np.float32)
    return blob_probabilities(to_input(crops), kind, needed=needed)


def blob_probabilities(blob: np.ndarray, kind: str, screen: bool = True, needed=None) -> np.ndarray:
    """`probabilities` of crops already made the networks' input; `screen=False`: by the
    kind's route alone, what its screen is taught (distill.py). `needed` is not asked where a
    screen reads first (its bound would be the screen's)."""
    stem = screen_for(kind) if screen else None
    if stem is None:
        return _route(blob, kind, needed)
    p = _calibrated(blob, kind, stem)
    doubt = np.flatnonzero(p.max(axis=1) < SCREEN_SURE)
    if len(doubt):
        p[doubt] = _route(blob[doubt], kind)
    return p


def _route(blob: np.ndarray, kind: str, needed=None) -> np.ndarray:
    first, *others = models_for(kind)
    p = _calibrated(blob, kind, first)
    doubt = np.flatnonzero(p.max(axis=1) < SURE_ALONE)
    if others and len(doubt) and needed is not None:
        most = p.copy()  # the mean with n others each giving 1 at most
        most[doubt] = (p[doubt] + len(others)) / (len(others) + 1)
        doubt = doubt[np.asarray(needed(p, most), bool)[doubt]]
    if others and len(doubt):
        few = blob[doubt]
        p[doubt] = np.mean([p[doubt]] + [_calibrated(few, kind, s) for s in others], axis=0)
    return p


def calibrated(crops, kind: str, stem: str) -> np.ndarray:
    """One network's probabilities for the kind, at its own temperature, whatever the route
    says (`probabilities` combines a route's; vision/learned/doubt.py asks each network)."""
    if not len(crops):
        return np.zeros((0, len(kind_classes(kind))), np.float32)
    return _calibrated(to_input(crops), kind, stem)


def _calibrated(blob: np.ndarray, kind: str, stem: str) -> np.ndarray:
    return kind_softmax(blob_logits(blob, stem), kind, float(_meta(stem)["temperatures"][kind]))


def classify_faces(crops: list[np.ndarray], kind: str) -> list[tuple[object, float]]:
    """(face, probability) per crop; face None when the crop shows no readable flat die (a
    cocked die, the table, half a die, two dice: vision/read_learned.py tells the first apart).
    Crops follow vision.learned.crops.crop_die: a square of CROP_FACTOR x the die's side centred
    on its top face, turned outward, BGR and the reach plane, any size (resized to the
    network's)."""
    p = probabilities(crops, kind)
    names = kind_classes(kind)
    best = p.argmax(axis=1)
    return [
        (None if names[b] in (COCKED, NONE) else names[b], float(p[i, b]))
        for i, b in enumerate(best)
    ]
