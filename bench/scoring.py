"""How a reading is scored against the renderer's truth: dice paired with truth dice, and the
counts every figure of issue 5 comes from (face F1, over all dice and over issue 5's sizes alone,
cocked dice flagged by tip, in/out of the arena, faces at 0.9 or more right). bench_vision.py
prints them for the synthetic benchmark; bench_photoreal.py, compare_trees.py, pooled_counts.py,
vision_errors.py and sure_faces.py read or count the same way, so they are kept here, apart from
any one benchmark's command line."""

from __future__ import annotations

import math
from collections import Counter

SURE = 0.9
# the counts kept scene by scene too, so that two readers can be compared scene against scene
# (bench/compare_trees.py: how many scenes each reads better, and whether that is chance)
PER_SCENE = ("tp", "fp", "fn", "cocked", "cocked_flagged", "sure_total", "sure_right")
F1_KEYS = ("tp", "fp", "fn")


TIP_BANDS = ("25-35°", "35-55°", "55-65°")  # a die tipped near 25° or 65° looks nearly flat
# issue 5's dice sizes: the far dice of an oblique photo are drawn smaller (pips seeds 159 and 175:
# 21 of the 84 dice lost were under 18 px, session 62), counted apart as "tp outside" etc.
ISSUE_PX = (18.0, 150.0)


def _tip_band(tip: float) -> str:
    return TIP_BANDS[0] if tip < 35 else TIP_BANDS[1] if tip < 55 else TIP_BANDS[2]


def match(dice, truth) -> dict[int, int]:
    """Truth index -> read index, nearest centres paired first, within 0.6 of the die's side."""
    pairs = []
    for i, t in enumerate(truth):
        for j, d in enumerate(dice):
            dist = math.hypot(d.x - t.x, d.y - t.y)
            if dist < max(0.6 * t.size, 4.0):
                pairs.append((dist, i, j))
    pairs.sort()
    used_t, used_d, out = set(), set(), {}
    for _, i, j in pairs:
        if i not in used_t and j not in used_d:
            used_t.add(i)
            used_d.add(j)
            out[i] = j
    return out


class Tally:
    def __init__(self) -> None:
        # (the "outside" keys and "cocked_unasked" at 0 too: pooled_counts.py tells these counts
        # from older ones by them)
        self.c = Counter({f"{k} outside": 0 for k in F1_KEYS} | {"cocked_unasked": 0})
        self.bad_conditions = Counter()
        self.conditions = Counter()
        self.each: list[dict] = []

    def scene(self, scene, readings) -> bool:
        c = self.c
        before = {k: c[k] for k in PER_SCENE}
        dice, truth = readings.dice, scene.dice
        pairs = match(dice, truth)
        matched_d = set(pairs.values())
        errors = 0
        for i, t in enumerate(truth):
            was = {k: c[k] for k in F1_KEYS}
            d = dice[pairs[i]] if i in pairs else None
            if t.cocked:
                c["cocked"] += 1
                c["cocked_flagged"] += bool(d and d.cocked)
                band = _tip_band(t.tip)
                c[f"cocked {band}"] += 1
                c[f"cocked {band} flagged"] += bool(d and d.cocked)
                errors += not (d and d.cocked)
                if d is not None and d.face is not None:
                    c["fp"] += 1
                    c["sure_total"] += d.confidence >= SURE
                    c["cocked_unasked"] += d.confidence >= SURE  # recorded without a question
            else:
                c["flat"] += 1
                right = d is not None and d.face == t.face and not d.cocked
                c["tp"] += right
                c["fn"] += not right
                errors += not right
                if d is not None and d.face is not None and not right:
                    c["fp"] += 1
                if d is not None and d.face is not None:
                    c["sure_total"] += d.confidence >= SURE
                    c["sure_right"] += right and d.confidence >= SURE
                c["missed"] += d is None
                c["unread"] += d is not None and d.face is None
                c["misread"] += d is not None and d.face is not None and not right
            if d is not None and t.in_arena is not None:
                c["arena_n"] += 1
                c["arena_ok"] += d.in_arena == t.in_arena
                errors += d.in_arena != t.in_arena
            if not ISSUE_PX[0] <= t.size <= ISSUE_PX[1]:
                for k in F1_KEYS:
                    c[f"{k} outside"] += c[k] - was[k]
        for j, d in enumerate(dice):
            if j not in matched_d:
                c["extra"] += 1
                errors += 1
                if d.face is not None:
                    c["fp"] += 1
                    c["sure_total"] += d.confidence >= SURE
        c["scenes"] += 1
        self.each.append({k: c[k] - before[k] for k in PER_SCENE})
        for k, v in _condition_keys(scene.conditions):
            self.conditions[(k, v)] += 1
            if errors:
                self.bad_conditions[(k, v)] += 1
        return errors > 0

    def report(self, kind: str) -> None:
        c = self.c
        f1 = 2 * c["tp"] / max(2 * c["tp"] + c["fp"] + c["fn"], 1)
        print(f"== {kind}: {c['scenes']} scenes, {c['flat']} flat dice, {c['cocked']} cocked")
        print(
            f"   face F1 over flat dice     {f1:.4f}  (tp {c['tp']}, fp {c['fp']}, fn {c['fn']};"
            f" missed {c['missed']}, unread {c['unread']}, misread {c['misread']},"
            f" extra {c['extra']})"
        )
        outside = c["tp outside"] + c["fn outside"]
        print(f"   ...of 18-150 px dice only  {f1_in_range(c):.4f}  ({outside} flat dice outside)")
        print(f"   cocked flagged             {_ratio(c['cocked_flagged'], c['cocked'])}")
        bands = (f"{b}: {c[f'cocked {b} flagged']}/{c[f'cocked {b}']}" for b in TIP_BANDS)
        print(f"   ...by tip                  {', '.join(bands)}")
        print(f"   ...read as sure faces      {_ratio(c['cocked_unasked'], c['cocked'])}")
        print(f"   in/out of arena right      {_ratio(c['arena_ok'], c['arena_n'])}")
        print(f"   faces at conf>=0.9 right   {_ratio(c['sure_right'], c['sure_total'])}")
        print(f"   flat dice read sure+right  {_ratio(c['sure_right'], c['flat'])}")
        worst = sorted(
            ((self.bad_conditions[k] / n, n, k) for k, n in self.conditions.items() if n >= 5),
            reverse=True,
        )[:6]
        print(
            "   scenes with an error, by condition (worst):",
            ", ".join(f"{k[0]}={k[1]} {r:.0%} of {n}" for r, n, k in worst),
        )


def f1_in_range(c: Counter) -> float:
    """Face F1 over the dice of ISSUE_PX alone: the truth dice outside it left out, with the
    faces read on them (a face where no die lies counts, whatever its size)."""
    tp, fp, fn = (c[k] - c[f"{k} outside"] for k in F1_KEYS)
    return 2 * tp / max(2 * tp + fp + fn, 1)


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.4f}  ({a}/{b})" if b else "n/a"


def _condition_keys(cond: dict):
    for k in ("background", "die_colour", "mark_colour", "shadows", "glare", "jpeg", "noise"):
        v = cond.get(k)
        if k == "jpeg":
            v = v is not None
        yield k, v
    yield "size", int(cond.get("die_size", 0) // 20 * 20)
    yield "tilt>10", cond.get("tilt", 0) > 10
    yield "cluster", cond.get("cluster")
    yield "frame", tuple(cond.get("frame", ()))
