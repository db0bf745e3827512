"""Watching a stream of frames: moving or settled, and one voted reading per settled throw.

A reading taken while dice still roll, or while a hand is over the table, is worse than none. So
the watcher compares each frame with the previous one on a small grey copy; it reads every frame
of a still scene, keeps the last `votes` readings, and once the scene has been still for
`settle_s` seconds keeps, for each die, the face most of them agree on (or, with `agree`, settles
at once when the last `agree` readings saw the same: on a slow reader that saves a whole reading). A die the frames disagree about gets its
confidence lowered in proportion, so the table asks the players rather than guess.
Each settled reading also teaches where the camera looks from (vision/camera_point.py): the
point below it, given to every later reading that knows the dice's size.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.camera_point import CameraPoint
from vision.read import read
from vision.readings import SAME_DIE, Die, Readings, check_kind

MOTION_SIDE = 160  # width of the grey copy frames are compared on
MOTION_LEVEL = 14  # grey levels a pixel must change by to count as moving
MOTION_SHARE = 0.002  # share of moving pixels above which the scene is moving


@dataclass(frozen=True)
class WatchEvent:
    """'moving' when the scene starts to move; 'settled' with the voted reading once still."""

    kind: str
    t: float
    readings: Readings | None = None


class Watcher:
    """Feed it frames, one at a time; it answers with an event when something happens."""

    def __init__(
        self,
        dice: str = "pips",
        calibration: Calibration | None = None,
        arena: str = "auto",
        settle_s: float = 0.18,
        votes: int = 3,
        reader: Callable[..., Readings] = read,
        agree: int | None = None,
        camera_point: CameraPoint | None = None,
    ) -> None:
        if votes < 1 or settle_s < 0:
            raise ValueError("votes must be at least 1 and settle_s at least 0")
        # Once the window has passed, this many last readings that agree die for die are
        # enough: the scene settles without reading one more frame (default: `votes`).
        self.agree = votes if agree is None else max(1, min(agree, votes))
        self.dice = check_kind(dice)
        self.calibration = calibration
        self.arena = arena
        self.settle_s = settle_s
        self.votes = votes
        self.reader = reader
        self.state = "moving"  # "moving", "settling" (still, reading) or "settled"
        self.last: Readings | None = None
        self._prev: np.ndarray | None = None
        self._anchor: np.ndarray | None = None  # the first frame of the still window
        self._still_since: float | None = None
        self._pending: list[Readings] = []
        self._hint: tuple | None = None  # the last dice's side, the frame size, the arena
        self._taught = False  # this throw's dice have taught the camera point already
        # the point below the camera, learned from the settled readings (None: the frame's centre)
        self.camera_point = camera_point if camera_point is not None else CameraPoint(self.dice)

    def _read(self, frame: np.ndarray) -> Readings:
        """One reading; without a calibrated die size, the side of the dice last settled on
        tells the reader where to look (the learned reader then looks once, not two to four
        times), and the arena last found where it is (no search: 11 ms a Strike frame). A hinted
        reading that finds nothing is done again without the hint: the dice may have changed
        (another game's, a camera moved)."""
        cal, below = self.calibration, self.camera_point.at(_size(frame))
        if self._hint and not (cal and cal.die_size):
            side, size, arena = self._hint
            if cal and cal.arena:
                arena = cal.for_frame(*size).arena
            hinted = Calibration(size, arena, side, below if size == _size(frame) else None)
            got = self.reader(frame, dice=self.dice, calibration=hinted, arena=self.arena)
            if got.dice:
                return got
        if cal and cal.die_size and below:
            cal = replace(cal.for_frame(*_size(frame)), below=below)
        return self.reader(frame, dice=self.dice, calibration=cal, arena=self.arena)

    def feed(self, frame: np.ndarray, t: float | None = None) -> WatchEvent | None:
        """Look at the next frame (t: its time in seconds; now by default).

        Every still frame is read as it comes, keeping the last `votes` readings; the moment the
        scene has been still for `settle_s` seconds they are voted over, so the settled event
        costs no more waiting than the settle window itself.
        """
        t = time.monotonic() if t is None else t
        moving = self._moved(frame)
        if moving:
            was = self.state
            # this frame is the first of the new scene: stillness is counted from it
            self.state, self._still_since, self._pending = "moving", t, []
            self._taught = False
            return WatchEvent("moving", t) if was != "moving" else None
        if self.state == "settled":
            return None
        if self._still_since is None:
            self._still_since = t
        self.state = "settling"
        elapsed = t - self._still_since >= self.settle_s - 1e-6  # (times are floats)
        if not (elapsed and self.agree < self.votes and self._agreed()):
            self._pending.append(self._read(frame))
            del self._pending[: -self.votes]
            if not elapsed:
                return None
        self.last = vote(self._pending)
        self._hint = _hint_of(self.last) or self._hint
        if not self._taught:  # (a throw read again, look_again, is one throw: taught once)
            self.camera_point.learn(frame, self.last)
            self._taught = True
        self.state, self._pending = "settled", []
        return WatchEvent("settled", t, self.last)

    def _agreed(self) -> bool:
        """Whether the last `agree` readings saw the same dice with the same faces."""
        last = self._pending[-self.agree :]
        return len(last) == self.agree and all(_same(last[0], r) for r in last[1:])

    def look_again(self) -> None:
        """Read the still scene once more and settle on it again (a motion meanwhile is told as
        usual, so a throw that comes first is not lost)."""
        self.state, self._still_since, self._pending = "settling", None, []
        self._anchor = self._prev

    def reset(self) -> None:
        """Forget the scene: the next still frames are read again (after a new throw, say)."""
        self.state, self._prev, self._still_since, self._pending = "moving", None, None, []
        self._anchor, self._taught = None, False

    def _moved(self, frame: np.ndarray) -> bool:
        h, w = frame.shape[:2]
        small = cv2.resize(
            frame, (MOTION_SIDE, max(1, h * MOTION_SIDE // w)), interpolation=cv2.INTER_AREA
        )
        if small.ndim == 3:
            small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        small = cv2.GaussianBlur(small, (5, 5), 0)
        prev, self._prev = self._prev, small
        if prev is None or prev.shape != small.shape:
            self._anchor = small
            return True
        if _differ(prev, small) or (self.state != "settled" and _differ(self._anchor, small)):
            # A die rolling to a stop changes little from one frame to the next, but keeps
            # drifting from where the still window began: that is motion too.
            self._anchor = small
            return True
        return False


def _size(frame: np.ndarray) -> tuple[int, int]:
    return frame.shape[1], frame.shape[0]


def _hint_of(r: Readings | None) -> tuple | None:
    """The side of the flat dice read fairly surely (median), the frame's size and the arena."""
    sides = [d.size for d in (r.dice if r else ()) if not d.cocked and d.confidence >= 0.5]
    if not sides or not r.frame_size[0]:
        return None
    return float(np.median(sides)), tuple(r.frame_size), r.arena


def _same(a: Readings, b: Readings) -> bool:
    if len(a.dice) != len(b.dice):
        return False
    for d in a.dice:
        other = _nearest([[e] for e in b.dice], d)
        if other is None or (other[0].face, other[0].cocked) != (d.face, d.cocked):
            return False
    return True


def _differ(a: np.ndarray | None, b: np.ndarray) -> bool:
    if a is None or a.shape != b.shape:
        return True
    return float((cv2.absdiff(a, b) > MOTION_LEVEL).mean()) > MOTION_SHARE


def vote(readings: list[Readings]) -> Readings:
    """One reading from several of a still scene: per die, the face most frames agree on."""
    first = readings[0]
    groups: list[list[Die]] = []
    for r in readings:
        for d in r.dice:
            home = _nearest(groups, d)
            if home is None:
                groups.append([d])
            else:
                home.append(d)
    n = len(readings)
    dice = [_agree(g, n) for g in groups if len(g) * 2 > n]
    dice.sort(key=lambda d: (d.y, d.x))
    ms = sum(r.ms for r in readings)
    return Readings(first.kind, tuple(dice), first.arena, ms, first.frame_size)


def _nearest(groups: list[list[Die]], d: Die) -> list[Die] | None:
    # (half a side until session 7: a die read a little off in some frames became two dice of
    # the vote, and a simulated Strike game's record had a die too many)
    best, best_dist = None, d.size * SAME_DIE
    for g in groups:
        dist = float(np.hypot(g[0].x - d.x, g[0].y - d.y))
        if dist < best_dist:
            best, best_dist = g, dist
    return best


def _agree(group: list[Die], n: int) -> Die:
    cocked = sum(d.cocked for d in group) * 2 > len(group)
    keys = Counter(("cocked" if d.cocked else d.face) for d in group)
    key, count = keys.most_common(1)[0]
    agreeing = [d for d in group if ("cocked" if d.cocked else d.face) == key]
    conf = float(np.mean([d.confidence for d in agreeing])) * count / n
    mid = agreeing[len(agreeing) // 2]
    face = None if cocked or key == "cocked" else key
    in_arena = sum(d.in_arena for d in group) * 2 > len(group)
    return Die(face, mid.x, mid.y, mid.size, in_arena, cocked, conf, mid.angle)
