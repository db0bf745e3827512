"""SimCamera: the simulated table as a frame source, with the actions a game driver calls.

See vision/sim/__init__.py for the API. This module holds the frame source and what is on the
table; the hand's actions are vision/sim/hand.py (any game) and vision/sim/throws.py (throws
and rolls). Every action is scheduled after whatever is still
happening on the table (a throw waits for the gathering hand to leave), so a driver can queue
several and read frames until `settled`.
"""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np

from engine import strike_throw as st
from vision.sim.dice import CORNERS, DIE_MM, KINDS, NORMALS, top_slot
from vision.sim.optics import Optics
from vision.sim.render import DieView, Renderer
from vision.sim.scene import Plan, Scene, SimDie
from vision.sim.table import Layout, Look, oval
from vision.sim.throws import ThrowActions

GAMES = {"strike": "strike", "knister": "pips", "detrak": "detrak"}


class SimCamera(ThrowActions):
    """A frame source showing a simulated table; `read()` advances simulated time by 1/fps."""

    def __init__(
        self,
        game: str = "strike",
        seed: int = 0,
        size: tuple[int, int] = (1280, 960),
        fps: float = 30.0,
        players: int = 2,
        edition: str = "2012",
        look: Look | None = None,
        vary: bool = True,
        autoplay: bool = False,
    ):
        if game not in GAMES:
            raise ValueError(f"simulated game {game!r}: expected one of {', '.join(GAMES)}")
        if not 2 <= players <= 5:
            raise ValueError(f"players must be 2..5, not {players}")
        self.game, self.kind, self.fps = game, GAMES[game], float(fps)
        self.seed, self.players, self.edition = seed, players, edition
        self.name = f"sim:{game}" if game != "strike" else "sim"
        self.rng = np.random.default_rng([seed, 0])  # how things look and move
        self.model_rng = random.Random(seed)  # where dice end and on which face (engine model)
        self.look = look or (
            Look.draw(game, np.random.default_rng([seed, 1])) if vary else Look.plain(game)
        )
        self.layout = Layout(game)
        self.optics = Optics(
            width=size[0],
            height=size[1],
            height_mm=self.look.height_mm,
            tilt_deg=self.look.tilt_deg,
            k1=self.look.k1,
            view_mm=460.0 if game == "strike" else 420.0,
        )
        self.renderer = Renderer(
            self.layout, self.look, self.optics, np.random.default_rng([seed, 2])
        )
        self.scene = Scene()
        self.frame_index = 0
        self._truth: dict[str, Any] | None = None
        self._aside_count = 0
        self._neighbours: list[tuple[float, float]] = []
        self.autoplay = None
        if autoplay:
            from vision.sim.drivers import autoplay_for

            self.autoplay = autoplay_for(self)

    # --- the frame source ----------------------------------------------------------------
    @property
    def now(self) -> float:
        """Simulated time (s) of the next frame."""
        return self.frame_index / self.fps

    def read(self) -> np.ndarray:
        if self.autoplay is not None and self.settled:
            self.autoplay.step()
        t = self.now
        views, truth_dice = self._dice_at(t)
        hand = self.scene.hand_at(t)
        frame = self.renderer.frame(views, hand, int(self.rng.integers(1 << 30)))
        self._truth = {
            "frame": self.frame_index,
            "t": round(t, 4),
            "game": self.game,
            "settled": t >= self.scene.busy_until(),
            "hand": hand is not None,
            "dice": truth_dice,
        }
        self.frame_index += 1
        if self.frame_index % 300 == 0:
            self.scene.forget_before(t)
        return frame

    def truth(self) -> dict[str, Any] | None:
        """The ground truth of the last frame read (None before the first)."""
        return self._truth

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def settled(self) -> bool:
        """True when nothing moves any more from the next frame on."""
        return self.now >= self.scene.busy_until()

    def frames_until_settled(self) -> int:
        return max(0, math.ceil((self.scene.busy_until() - self.now) * self.fps))

    def skip(self, frames: int) -> None:
        """Advance time without rendering (datasets and tests that need only some frames)."""
        self.frame_index += max(0, int(frames))

    def arena_ellipse(self) -> dict[str, Any] | None:
        """The arena's floor outline in pixels (fitted ellipse), or None without an arena."""
        if self.game != "strike":
            return None
        import cv2

        pts = self.optics.project(oval(st.ARENA_A, st.ARENA_B, 0.0)).astype(np.float32)
        (cx, cy), (w, h), angle = cv2.fitEllipse(pts)
        return {"centre": [cx, cy], "axes": [w / 2, h / 2], "angle": angle}

    # --- what is on the table ------------------------------------------------------------
    def _dice_at(self, t: float) -> tuple[list[DieView], list[dict[str, Any]]]:
        views, truth = [], []
        dt = 1.0 / self.fps
        for die in self.scene.dice:
            if not die.visible(t):
                continue
            centre, rot = die.pose(t)
            moving = die.moving(t)
            velocity = (0.0, 0.0)
            if moving:
                before, _ = die.pose(t - dt)
                a, b = self.optics.project(np.stack([before, centre]))
                velocity = (float(b[0] - a[0]), float(b[1] - a[1]))
            inside = self.layout.inside_box(centre[0], centre[1])
            top = float((CORNERS @ rot.T)[:, 2].max() + centre[2])
            views.append(
                DieView(centre, rot, die.kind, velocity, inside and top < self.layout.wall)
            )
            truth.append(self._die_truth(die, centre, rot, moving))
        return views, truth

    def _die_truth(self, die: SimDie, centre, rot, moving: bool) -> dict[str, Any]:
        slot = top_slot(rot)
        normal = rot @ NORMALS[slot]
        face_centre = centre + normal * DIE_MM / 2
        px = self.optics.project(face_centre[None])[0]
        size = self.optics.scale_at(face_centre[0], face_centre[1], face_centre[2]) * DIE_MM
        resting = not moving
        cocked = die.plan.cocked if resting else normal[2] < math.cos(math.radians(10))
        return {
            "id": die.id,
            "face": KINDS[die.kind][slot],
            "x": round(float(px[0]), 2),
            "y": round(float(px[1]), 2),
            "size": round(float(size), 2),
            "cocked": bool(cocked),
            "in_arena": self._in_arena(centre, die),
            "moving": bool(moving),
            "aside": bool(die.plan.aside and resting),
            "mm": [round(float(centre[0]), 2), round(float(centre[1]), 2)],
        }

    def _in_arena(self, centre, die: SimDie) -> bool:
        if die.plan.aside and not die.moving(self.now):
            return False
        low = centre[2] < DIE_MM * 1.2  # on the floor, not flying over it
        if self.game == "strike":
            return bool(low and st.inside_oval(float(centre[0]), float(centre[1])))
        a, b = self.layout.box_half
        return bool(low and abs(centre[0]) < a - 8 and abs(centre[1]) < b - 8)

    def resting(self, t: float | None = None) -> list[SimDie]:
        """Dice on the table once every move is done (visible then), in the order they came."""
        t = self.scene.busy_until() if t is None else t
        return [d for d in self.scene.dice if d.hidden > t]

    def arena_dice(self) -> list[SimDie]:
        return [d for d in self.resting() if not d.plan.aside and self._plan_in_arena(d.plan)]

    def _plan_in_arena(self, plan: Plan) -> bool:
        if self.game == "strike":
            return st.inside_oval(plan.x, plan.y)
        return self.layout.inside_box(plan.x, plan.y)

    def arena_faces(self) -> list[int | str]:
        """The faces in the arena once settled: what the engine's throw action carries."""
        dice = self.arena_dice()
        if any(d.plan.cocked for d in dice):
            raise ValueError("a cocked die has no face: call reroll_cocked() first")
        return [d.plan.face for d in dice]

    def placed(self) -> list[st.PlacedDie]:
        """The arena's dice in the throw model's terms."""
        return [
            st.PlacedDie(d.plan.face, d.plan.x, d.plan.y, d.plan.yaw, d.plan.cocked)
            for d in self.arena_dice()
        ]
