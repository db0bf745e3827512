"""SimCamera: the simulated table as a frame source, with the actions a game driver calls.

See vision/sim/__init__.py for the API. Every action is scheduled after whatever is still
happening on the table (a throw waits for the gathering hand to leave), so a driver can queue
several and read frames until `settled`.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

import numpy as np

from engine import strike_throw as st
from vision.sim.dice import CORNERS, DIE_MM, KINDS, NORMALS, exp_rotation, pose, top_slot
from vision.sim.motion import HandPath, Move, closest_progress
from vision.sim.optics import Optics
from vision.sim.render import DieView, Renderer
from vision.sim.scene import Plan, Scene, SimDie
from vision.sim.table import Layout, Look, oval

GAMES = {"strike": "strike", "knister": "pips", "detrak": "detrak"}
SHOULDER_MM = 470.0
HAND_H = 45.0  # mm above the table where the hand hovers to pick or push dice
COCK_TILT = (18.0, 30.0)


class SimCamera:
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

    # --- scheduling helpers --------------------------------------------------------------
    def _start(self) -> float:
        return max(self.now, self.scene.busy_until())

    def shoulder(self, seat: int) -> tuple[float, float]:
        angle = math.pi / 2 + 2 * math.pi * seat / self.players
        return SHOULDER_MM * math.cos(angle) * 1.2, SHOULDER_MM * math.sin(angle)

    def _rest_rot(self, plan: Plan) -> np.ndarray:
        if plan.cocked:
            tilt = float(self.rng.uniform(*COCK_TILT))
            # Leaning towards v means turning about up x v: axis (-vy, vx), at angle lean + 90°.
            return pose(self.kind, plan.face, plan.yaw, tilt, plan.lean + math.pi / 2)
        return pose(self.kind, plan.face, plan.yaw)

    def _random_rot(self) -> np.ndarray:
        return exp_rotation(self.rng.normal(0, 2.0, 3))

    def _hand(self, seat: int, keys: list[tuple[float, float, float, float]]) -> None:
        sx, sy = self.shoulder(seat)
        t0, t1 = keys[0][0] - 0.45, keys[-1][0] + 0.45
        full = [(t0, sx * 0.8, sy * 0.8, 150.0), *keys, (t1, sx * 0.8, sy * 0.8, 150.0)]
        self.scene.hands.append(HandPath(tuple(full), (sx, sy)))

    def _carry(self, die: SimDie, t0: float, t1: float, plan: Plan, rot1, arch: float = 40.0):
        centre, rot0 = die.pose(t0)
        die.moves.append(
            Move(
                t0,
                t1,
                (float(centre[0]), float(centre[1])),
                (plan.x, plan.y),
                rot0,
                rot1,
                ease=0,
                arch=arch,
            )
        )
        die.plan, die.rest_rot = plan, rot1

    # --- actions for any game ------------------------------------------------------------
    def hand_in_view(self, seat: int = 0, duration: float = 1.5, at=None) -> float:
        """The player's hand reaches over the table and back (a distraction for the watcher)."""
        t = self._start()
        x, y = (
            at
            if at is not None
            else (float(self.rng.uniform(-60, 60)), float(self.rng.uniform(-40, 40)))
        )
        self._hand(seat, [(t + 0.3, x, y, 70.0), (t + 0.3 + duration, x + 10, y + 5, 80.0)])
        return self.scene.busy_until()

    def clear(self, seat: int = 0) -> None:
        """Every die leaves the table (a new round): swept away by the hand."""
        dice = [d for d in self.resting() if d.hidden == float("inf")]
        if dice:
            self._take(dice, seat)
        self._aside_count = 0

    def take(self, ids, seat: int = 0) -> list[SimDie]:
        """The hand takes these dice (by id) off the table."""
        wanted = set(ids)
        dice = [d for d in self.resting() if d.id in wanted]
        self._take(dice, seat)
        return dice

    def _take(self, dice: list[SimDie], seat: int) -> None:
        if not dice:
            return
        t = self._start() + 0.45
        cx = float(np.mean([d.plan.x for d in dice]))
        cy = float(np.mean([d.plan.y for d in dice]))
        sweep = 0.35
        for d in dice:
            centre, rot = d.pose(t)
            d.moves.append(
                Move(
                    t,
                    t + sweep,
                    (float(centre[0]), float(centre[1])),
                    (cx, cy),
                    rot,
                    rot,
                    ease=0,
                    arch=12.0,
                )
            )
            d.hidden = t + sweep
        self._hand(seat, [(t, cx, cy, HAND_H), (t + sweep + 0.1, cx, cy, HAND_H + 10)])

    def set_aside(self, ids, seat: int = 0) -> list[SimDie]:
        """The hand puts these dice beside the box, one by one (crosses, dice out of the arena)."""
        wanted = set(ids)
        dice = [d for d in self.resting() if d.id in wanted and not d.plan.aside]
        t = self._start() + 0.45
        keys = []
        for d in dice:
            spot = self.layout.aside_spot(self._aside_count)
            self._aside_count += 1
            plan = replace(
                d.plan,
                x=spot[0],
                y=spot[1],
                yaw=float(self.rng.uniform(0, 90)),
                cocked=False,
                aside=True,
            )
            rot1 = pose(self.kind, plan.face, plan.yaw)
            keys += [(t, d.plan.x, d.plan.y, HAND_H), (t + 0.6, spot[0], spot[1], HAND_H)]
            self._carry(d, t, t + 0.6, plan, rot1, arch=45.0)
            t += 0.85
        if keys:
            self._hand(seat, keys)
        return dice

    # --- Strike ----------------------------------------------------------------------------
    def place_start(self, face: int | str | None = None, seat: int = 0) -> int | str:
        """The start die, placed in the arena by hand (its face from the throw model)."""
        die = st.start_die(self.model_rng, self.edition)
        if face is not None:
            die = replace(die, face=face)
        t = self._start() + 0.5
        plan = Plan(die.face, die.x, die.y, die.angle)
        rot = pose(self.kind, die.face, die.angle)
        sx, sy = self.shoulder(seat)
        new = self.scene.add(self.kind, plan, rot, shown=t)
        new.moves.append(
            Move(t, t + 0.6, (sx * 0.3, sy * 0.3), (die.x, die.y), rot, rot, ease=0, arch=50.0)
        )
        self._hand(seat, [(t, sx * 0.3, sy * 0.3, 60.0), (t + 0.6, die.x, die.y, HAND_H)])
        return die.face

    def throw(self, count: int = 1, gather: bool = False, seat: int = 0) -> st.ThrowResult:
        """Throw `count` dice into the arena; the throw model decides where they end."""
        dice = self.arena_dice()
        before = [
            st.PlacedDie(d.plan.face, d.plan.x, d.plan.y, d.plan.yaw, d.plan.cocked) for d in dice
        ]
        result = st.throw(before, count, self.model_rng, gather_first=gather)
        self._neighbours = [(d.x, d.y) for d in result.after if d.in_arena]
        if gather and dice:
            self._gather(dice, result.before, seat)
        t = self._start() + 0.5
        moves = [self._throw_one(result.after[i], t, seat) for i in result.thrown]
        for i in result.knocked:
            self._knock(dice[i], result.after[i], moves)
        release = moves[0].start
        self._hand(
            seat,
            [
                (t - 0.15, release[0] * 1.2, release[1] * 1.2, 90.0),
                (t + 0.05, release[0], release[1], 80.0),
            ],
        )
        return result

    def _gather(self, dice: list[SimDie], spots, seat: int) -> None:
        t = self._start() + 0.45
        for d, spot in zip(dice, spots, strict=True):
            centre, rot = d.pose(t)
            plan = replace(d.plan, x=spot.x, y=spot.y)
            d.moves.append(
                Move(
                    t,
                    t + 0.6,
                    (float(centre[0]), float(centre[1])),
                    (spot.x, spot.y),
                    rot,
                    rot,
                    ease=2.0,
                )
            )
            d.plan = plan
        sx, sy = self.shoulder(seat)
        d = math.hypot(sx, sy)
        edge = (sx / d * st.ARENA_B, sy / d * st.ARENA_B)
        self._hand(seat, [(t, -edge[0], -edge[1], 20.0), (t + 0.6, 0.0, 0.0, 20.0)])

    def _landing(self, placed: st.PlacedDie) -> Plan:
        if placed.in_arena and placed.cocked:
            return self._lean(placed)
        if placed.in_arena:
            return Plan(placed.face, placed.x, placed.y, placed.angle)
        x, y = self.layout.beside_box(placed.x, placed.y, self.rng)
        return Plan(placed.face, x, y, placed.angle, False)

    def _lean(self, placed: st.PlacedDie) -> Plan:
        """A cocked die rests against its nearest neighbour, or else against the wall."""
        others = [
            (x, y) for x, y in self._neighbours if math.dist((x, y), (placed.x, placed.y)) > 1
        ]
        near = min(others, key=lambda p: math.dist(p, (placed.x, placed.y)), default=None)
        x, y = placed.x, placed.y
        if near is not None and math.dist(near, (x, y)) < 1.8 * DIE_MM:
            lean = math.atan2(near[1] - y, near[0] - x)
            gap = 1.3 * DIE_MM  # its top edge rests on the neighbour's side
            nx, ny = near[0] - math.cos(lean) * gap, near[1] - math.sin(lean) * gap
            if st.inside_oval(nx, ny, margin=DIE_MM / 2):
                x, y = nx, ny
        else:
            r = math.hypot(x / st.ARENA_A, y / st.ARENA_B) or 1.0
            scale = 1.0 - 0.75 * DIE_MM / min(st.ARENA_A, st.ARENA_B)
            x, y = x / r * scale * 0.999, y / r * scale * 0.999
            lean = math.atan2(y / st.ARENA_B**2, x / st.ARENA_A**2)  # the wall's outward normal
        return Plan(placed.face, x, y, placed.angle, True, lean=lean)

    def _throw_one(self, placed: st.PlacedDie, t: float, seat: int) -> Move:
        sx, sy = self.shoulder(seat)
        d = math.hypot(sx, sy)
        reach = max(self.layout.box_half) + 10
        jitter = self.rng.uniform(-40, 40)
        start = (sx / d * reach - sy / d * jitter, sy / d * reach + sx / d * jitter)
        t0 = t + float(self.rng.uniform(0, 0.2))
        plan = self._landing(placed)
        rot1 = self._rest_rot(plan)
        hops = tuple(float(h) for h in sorted(self.rng.uniform(3, 30, 3), reverse=True))
        move = Move(
            t0,
            t0 + float(self.rng.uniform(1.0, 1.5)),
            start,
            (plan.x, plan.y),
            self._random_rot(),
            rot1,
            lift=80.0,
            hops=hops,
            quarter_turns=int(self.rng.integers(4, 10)),
            arch=0.0 if placed.in_arena else 45.0,
        )
        die = self.scene.add(self.kind, plan, rot1, shown=t0)
        die.moves.append(move)
        return move

    def _knock(self, die: SimDie, placed: st.PlacedDie, throws: list[Move]) -> None:
        here = (die.plan.x, die.plan.y)
        hitter = min(throws, key=lambda m: math.dist(m.end, here))
        t0 = max(closest_progress(hitter, here), hitter.t0 + 0.3 * (hitter.t1 - hitter.t0))
        centre, rot0 = die.pose(t0)
        plan = self._landing(placed)
        rot1 = self._rest_rot(plan)
        turns = int(self.rng.integers(0, 3)) if placed.face != die.plan.face else 0
        die.moves.append(
            Move(
                t0,
                t0 + float(self.rng.uniform(0.45, 0.9)),
                (float(centre[0]), float(centre[1])),
                (plan.x, plan.y),
                rot0,
                rot1,
                quarter_turns=turns,
                arch=0.0 if placed.in_arena else 40.0,
            )
        )
        die.plan, die.rest_rot = plan, rot1

    def reroll_cocked(self, seat: int = 0) -> list[SimDie]:
        """Each cocked die is thrown again beside the box and put back in its place, new face."""
        cocked = [d for d in self.arena_dice() if d.plan.cocked]
        placed = [st.PlacedDie(d.plan.face, d.plan.x, d.plan.y, d.plan.yaw, True) for d in cocked]
        fresh = st.reroll_cocked(placed, self.model_rng)
        t = self._start() + 0.45
        for d, new in zip(cocked, fresh, strict=True):
            home = Plan(new.face, d.plan.x, d.plan.y, new.angle)
            bx, by = self.layout.beside_box(d.plan.x, d.plan.y, self.rng)
            mid = Plan(new.face, bx, by, new.angle)
            rot = pose(self.kind, new.face, new.angle)
            self._carry(d, t, t + 0.6, mid, self._random_rot(), arch=45.0)
            d.moves.append(
                Move(t + 0.6, t + 1.1, (bx + 30, by), (bx, by), d.rest_rot, rot, quarter_turns=3)
            )
            self._carry(d, t + 1.4, t + 2.0, home, rot, arch=45.0)
            self._hand(
                seat,
                [
                    (t, home.x, home.y, HAND_H),
                    (t + 0.6, bx, by, HAND_H),
                    (t + 1.4, bx, by, HAND_H),
                    (t + 2.0, home.x, home.y, HAND_H),
                ],
            )
            t += 2.4
        return cocked

    def settle_turn(self, seat: int = 0) -> dict[str, list[SimDie]]:
        """Mirror the engine after a throw: crosses and dice out set aside, doubled values taken."""
        dice = self.arena_dice()
        out = [
            d
            for d in self.resting()
            if not d.plan.aside and not self._plan_in_arena(d.plan) and d.hidden == float("inf")
        ]
        crosses = [d for d in dice if d.plan.face == "X"]
        counts: dict[Any, int] = {}
        for d in dice:
            if d.plan.face != "X":
                counts[d.plan.face] = counts.get(d.plan.face, 0) + 1
        taken = [d for d in dice if d.plan.face != "X" and counts[d.plan.face] >= 2]
        self.set_aside([d.id for d in out + crosses], seat)
        self.take([d.id for d in taken], seat)
        return {"out": out, "crosses": crosses, "taken": taken}

    # --- Knister and Détrak ----------------------------------------------------------------
    def roll_two(self, faces=None, seat: int = 0) -> tuple:
        """Pick up the dice on the table, if any, and roll two (faces given, or random)."""
        values = KINDS[self.kind]
        if faces is None:
            faces = tuple(self.model_rng.choice(values) for _ in range(2))
        faces = tuple(faces)
        for f in faces:
            if f not in values:
                raise ValueError(f"a {self.kind} die shows one of {list(values)}, not {f!r}")
        self.clear(seat)
        t = self._start() + 0.5
        a, b = self.layout.box_half
        moves = []
        for face in faces:
            placed = st.PlacedDie(
                face,
                float(self.rng.uniform(-a + 25, a - 25)),
                float(self.rng.uniform(-b + 25, b - 25)),
                float(self.rng.uniform(0, 90)),
            )
            moves.append(self._throw_one(placed, t, seat))
        _separate_two(self.scene.dice[-2:])
        release = moves[0].start
        self._hand(
            seat,
            [
                (t - 0.15, release[0] * 1.2, release[1] * 1.2, 90.0),
                (t + 0.05, release[0], release[1], 80.0),
            ],
        )
        return faces


def _separate_two(dice: list[SimDie]) -> None:
    """Two dice rolled together must not end on the same spot: nudge the second one away."""
    a, b = dice
    dx, dy = b.plan.x - a.plan.x, b.plan.y - a.plan.y
    dist = math.hypot(dx, dy)
    need = DIE_MM * 1.6
    if dist >= need:
        return
    ux, uy = (dx / dist, dy / dist) if dist > 1e-6 else (1.0, 0.0)
    x, y = a.plan.x + ux * need, a.plan.y + uy * need
    move = b.moves[-1]
    b.moves[-1] = replace(move, end=(x, y))
    b.plan = replace(b.plan, x=x, y=y)
