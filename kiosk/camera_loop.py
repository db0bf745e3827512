"""Camera → watcher → reader → controller → table: the path a die takes to the record.

One `CameraLoop.step()` reads one frame, feeds it to the watcher and, when the scene has settled,
hands the voted reading to the game's controller. What the controller decides goes to the table:
a sure action is submitted, a doubt opens a check («À vérifier»), a cocked die asks for a re-roll,
dice moving when none are expected are ignored and the page says so. `run()` loops in a thread for
`arbitre run`; the demo calls `step()` itself so a seed replays the same game.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from kiosk.controllers import DICE_KIND, Decision, decide, still_cocked
from kiosk.controllers.decision import ignore
from kiosk.controllers.strike import agrees
from kiosk.table import Table

log = logging.getLogger(__name__)

PREVIEW_WIDTH = 800  # the arena picture sent to the pages
PREVIEW_EVERY_S = 0.25
LOST_BACKOFF_S = (0.2, 0.5, 1.0, 2.0)
REROLL_WAIT_S = 4.0  # asked to throw a cocked die again and nothing moved: look again, then ask


@dataclass
class LoopStats:
    frames: int = 0
    settled: int = 0
    decisions: dict[str, int] = field(default_factory=dict)
    camera_lost: int = 0


class CameraLoop:
    """Reads a frame source for the table; `frame_time` gives each frame's time in seconds."""

    def __init__(
        self,
        table: Table,
        camera: Any,
        *,
        calibration: Any = None,
        reader: Callable[..., Any] | None = None,
        frame_time: Callable[[], float] = time.monotonic,
        on_decision: Callable[[Decision], None] | None = None,
        settle_s: float = 0.18,
        votes: int = 3,
    ) -> None:
        self.table = table
        self.camera = camera
        self.calibration = calibration
        self.reader = reader
        self.frame_time = frame_time
        self.on_decision = on_decision
        self.settle_s, self.votes = settle_s, votes
        self.stats = LoopStats()
        self._watcher: Any = None
        self._kind: str | None = None
        # the point below the camera each dice kind's watcher learned (vision/camera_point.py):
        # kept when the game changes, as the camera does not move
        self._points: dict[str, Any] = {}
        self._armed = False  # a motion was seen since the last dice action
        # Strike: the last still reading that agreed with the record, and the record's dice then
        self._before: list[dict[str, Any]] | None = None
        self._before_dice: Any = None
        self._asked: Any = None  # the last check opened, until the record moves
        self._still: list[dict[str, Any]] | None = None  # the last reading, while nothing moved
        self._looked: Any = None  # the record's dice when the still scene was last read again
        self._relook = False
        self._reroll_at: float | None = None  # when a re-roll was asked and nothing moved since
        self._recheck = False
        self._t = 0.0
        self._moving_seq: int | None = None  # the record's seq when the dice last started moving
        self._last_preview = -1e9
        self._stop = threading.Event()
        self._lost = 0

    # --- one frame -----------------------------------------------------------------------
    def step(self) -> Decision | None:
        watcher = self._watcher_for_game()
        if watcher is None:
            return None  # no game, or a game without dice: nothing to look at
        frame = self.camera.read()
        if frame is None:
            return self._camera_lost()
        if self._lost:
            self.table.notice("camera_back")
        self._lost = 0
        self.stats.frames += 1
        t = self._t = self.frame_time()
        self._look_again(watcher)
        self._still_cocked(watcher, t)
        event = watcher.feed(frame, t)
        settled = event is not None and event.kind == "settled"
        if not settled and t - self._last_preview >= PREVIEW_EVERY_S:
            self._preview(frame, watcher)
            self._last_preview = t
        if event is None:
            return None
        if event.kind == "moving":
            self._armed = True
            self._still = None
            self._reroll_at, self._recheck = None, False
            self._relook = False  # a throw may follow: its reading is decided as any other
            self._moving_seq = self.table.seq
            return None
        self.stats.settled += 1
        if self._moving_seq is not None and self._moving_seq != self.table.seq:
            # The record moved while these dice came to rest (the players confirmed a check, or
            # wrote): this picture may show what the record has already dealt with.
            self._moving_seq = self.table.seq
            self.stats.decisions["stale"] = self.stats.decisions.get("stale", 0) + 1
            return None
        dice = event.readings.to_json()["dice"]
        try:
            return self._settled(frame, dice)
        finally:  # the picture after the decision: the record does not wait for it
            self._preview(frame, watcher, dice)
            self._last_preview = t

    def _settled(self, frame: np.ndarray, dice: list[dict[str, Any]]) -> Decision | None:
        if self._relook:
            self._relook = False
            looked = ignore("no_change", dice)  # nothing moved: never a throw
            self._remember(looked, dice)
            self._still = dice
            if self.on_decision is not None:
                self.on_decision(looked)
            return looked
        decision = self._decide(frame, dice)
        self._still = dice
        return decision

    def _watcher_for_game(self) -> Any:
        state = self.table.state
        kind = DICE_KIND.get(state.game.name) if state is not None else None
        if kind != self._kind:
            self._kind = kind
            self._watcher = self._new_watcher(kind) if kind else None
        return self._watcher

    def _new_watcher(self, kind: str) -> Any:
        from vision import Watcher
        from vision.camera_point import CameraPoint

        options: dict[str, Any] = {"settle_s": self.settle_s, "votes": self.votes, "agree": 2}
        options["camera_point"] = self._points.setdefault(kind, CameraPoint(kind))
        if self.reader is not None:
            options["reader"] = self.reader
        arena = "auto" if kind == "strike" else "none"
        return Watcher(kind, calibration=self.calibration, arena=arena, **options)

    def _decide(self, frame: np.ndarray, dice: list[dict[str, Any]]) -> Decision | None:
        state = self.table.state
        if state is None or self.table.pending is not None:
            return None
        if state.game.name != "strike" and not self._armed:
            return None  # the dice of the last roll, still lying there
        self._sync_before(state)
        decision = decide(state, dice, self._before)
        if self._recheck:
            self._recheck = False
            if decision.kind == "reroll":
                decision = still_cocked(state, dice)
        self.stats.decisions[decision.kind] = self.stats.decisions.get(decision.kind, 0) + 1
        self._carry_out(decision, frame)
        self._remember(decision, dice)
        if self.on_decision is not None:
            self.on_decision(decision)
        return decision

    def _remember(self, decision: Decision, dice: list[dict[str, Any]]) -> None:
        """Keep this reading as Strike's `before` when it shows what the record now says."""
        state = self.table.state
        if decision.kind not in ("ignore", "submit") or state is None:
            return
        if state.game.name != "strike":
            return
        self._before_dice = _record_dice(state)
        if decision.kind == "submit":  # the throw's own scene: the players may tidy it next
            self._before = dice if agrees(state, dice) and not _tidy_due(state) else None
        elif agrees(state, dice):  # a scene after a motion: tidied already, if it had to be
            self._before = dice

    def _sync_before(self, state: Any) -> None:
        if _record_dice(state) != self._before_dice:
            # the dice changed in the record since: that scene is gone
            self._before, self._before_dice = None, _record_dice(state)
            self._adopt(state)

    def _look_again(self, watcher: Any) -> None:
        """Strike: when the players changed the record and no reading agrees with it, read the
        still scene once more (a die missed in one reading is often seen in the next), so the
        next throw has a `before` to be checked on. That reading is never taken for a throw."""
        state = self.table.state
        if state is None or state.game.name != "strike" or self.table.pending is not None:
            return
        self._sync_before(state)
        if self._before is not None or watcher.state != "settled" or _tidy_due(state):
            return
        if self._looked == self._before_dice:
            return  # once per record state
        self._looked, self._relook = self._before_dice, True
        self._moving_seq = self.table.seq
        watcher.look_again()

    def _still_cocked(self, watcher: Any, t: float) -> None:
        """The table asked for a cocked die to be thrown again and nothing moved: read the scene
        again (the die may have been read cocked by mistake); if it still looks cocked, the
        players are asked (see `still_cocked`). The table never waits for ever."""
        if self._reroll_at is None or t - self._reroll_at < REROLL_WAIT_S:
            return
        if watcher.state != "settled" or self.table.pending is not None:
            return
        self._reroll_at, self._recheck = None, True
        self._moving_seq = self.table.seq
        watcher.look_again()

    def _adopt(self, state: Any) -> None:
        """The players changed the record (answered a check, or entered a throw): the scene they
        answered about, as they corrected it, or else the last reading if nothing moved since,
        becomes `before` when it shows what the record now says."""
        asked, self._asked = self._asked, None
        if state.game.name != "strike" or _tidy_due(state):
            return
        scenes = [self._still]
        if asked is not None and self.table.pending is not asked:
            scenes.insert(0, asked.dice)
        for dice in scenes:
            if dice is not None and agrees(state, dice):
                self._before, self._before_dice = [dict(d) for d in dice], _record_dice(state)
                return

    def _carry_out(self, decision: Decision, frame: np.ndarray) -> None:
        if decision.kind == "submit":
            try:
                self.table.submit(decision.line, source="camera")
                self._armed = False
            except ValueError as err:  # the rules refused it after all: ask the players
                self.table.propose(decision.line, [str(err)], _jpeg(frame), decision.dice)
        elif decision.kind == "check":
            self._asked = self.table.propose(
                decision.line or {}, list(decision.reasons), _jpeg(frame), decision.dice
            )
            self._armed = False
        elif decision.kind == "reroll":
            self.table.notice("reroll_notice")
            self._reroll_at = self._t
        elif decision.reasons and decision.reasons[0] == "not_expected":
            self.table.notice("dice_moved_off_turn")

    # --- the picture and lost cameras ----------------------------------------------------
    def _preview(self, frame: np.ndarray, watcher: Any, dice: list | None = None) -> None:
        if dice is None:
            last = getattr(watcher, "last", None)
            dice = last.to_json()["dice"] if last is not None and watcher.state == "settled" else []
        scale = min(1.0, PREVIEW_WIDTH / frame.shape[1])
        small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        scaled = [_scaled(d, scale) for d in dice]
        self.table.set_frame(_jpeg(small), scaled)

    def _camera_lost(self) -> None:
        self.stats.camera_lost += 1
        if self._lost == 0:
            self.table.notice("camera_lost")
        self._lost += 1
        if not self._stop.is_set():
            self._stop.wait(LOST_BACKOFF_S[min(self._lost, len(LOST_BACKOFF_S)) - 1])
        return None

    # --- the thread ----------------------------------------------------------------------
    def run(self, fps: float = 30.0, before_frame: Callable[[], None] | None = None) -> None:
        """Loop until stop(); paces to `fps` (a real camera blocks in read() anyway)."""
        period = 1.0 / fps
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                if before_frame is not None:
                    before_frame()
                self.step()
            except Exception:  # one bad frame or reading must not stop the table
                log.exception("camera loop: frame skipped")
            self._stop.wait(max(0.0, period - (time.monotonic() - started)))

    def stop(self) -> None:
        self._stop.set()


def _tidy_due(state: Any) -> bool:
    """After a throw that sent dice out of the arena, showed a cross or made a pair, the players
    set dice aside or take them: the scene is about to change, so it cannot be the next throw's
    `before`, and reading it again is pointless."""
    last = state.view().get("last") or {}
    return bool(last.get("left") or last.get("crosses") or last.get("taken"))


def _record_dice(state: Any) -> Any:
    """What the record says of the dice (arena, reserves, dice out): a stop leaves it as it was."""
    view = state.view()
    return (view.get("game"), view.get("arena"), view.get("reserves"), view.get("out_of_game"))


def _scaled(die: dict[str, Any], scale: float) -> dict[str, Any]:
    out = dict(die)
    for key in ("x", "y", "size"):
        if isinstance(out.get(key), int | float):
            out[key] = out[key] * scale
    return out


def _jpeg(frame: np.ndarray, quality: int = 80) -> bytes:
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return data.tobytes() if ok else b""
