"""Drawing a reading over its frame, for humans: kept apart from reading, as supervision does.

Green: a face read with confidence at or above the table's threshold; orange: read but unsure;
red: cocked or unreadable. The arena is drawn in blue.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.readings import Readings

SURE = 0.9


def draw(frame: np.ndarray, readings: Readings, sure: float = SURE) -> np.ndarray:
    """A copy of the frame with each die's box, face and confidence, and the arena."""
    out = frame.copy()
    if out.ndim == 2:
        out = cv2.cvtColor(out, cv2.COLOR_GRAY2BGR)
    thick = max(1, round(max(out.shape[:2]) / 700))
    if readings.arena:
        a = readings.arena
        cv2.ellipse(out, ((a.cx, a.cy), (2 * a.a, 2 * a.b), a.angle), (255, 120, 0), thick)
    for d in readings.dice:
        if d.face is None:
            col = (40, 40, 230)
        elif d.confidence >= sure:
            col = (60, 200, 60)
        else:
            col = (0, 160, 255)
        box = cv2.boxPoints(((d.x, d.y), (d.size, d.size), d.angle)).astype(np.int32)
        cv2.polylines(out, [box], True, col, thick, cv2.LINE_AA)
        label = "cocked" if d.cocked else f"{d.face if d.face is not None else '?'}"
        label += f" {d.confidence:.2f}"
        if d.in_arena is False:
            label += " out"
        org = (int(d.x - d.size / 2), int(d.y - d.size / 2 - 3 * thick))
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thick, (0, 0, 0), thick + 2)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thick, col, thick)
    return out
