"""vision.synth.faces: a drawn face shows what it claims, at every size and rotation."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.synth.faces import (
    DETRAK_SYMBOLS,
    DIE_COLOURS,
    MARK_COLOURS,
    draw_face,
    face_kind,
    face_patch,
)


def _mark_mask(patch: np.ndarray, marks: str, die: str) -> np.ndarray:
    """Pixels nearer the mark colour than the die colour, on the flat top (within 0.41 of the
    side from the centre: the marks reach 0.37, the shaded bevel starts at 0.40)."""
    bgr = patch[..., :3].astype(float)
    to_mark = np.linalg.norm(bgr - MARK_COLOURS[marks], axis=2)
    to_die = np.linalg.norm(bgr - DIE_COLOURS[die], axis=2)
    n = patch.shape[0]
    yy, xx = np.mgrid[0:n, 0:n] - (n - 1) / 2
    side = _side.get(n, n)
    inner = np.hypot(xx, yy) < 0.41 * side
    return ((to_mark < to_die) & (patch[..., 3] > 200) & inner).astype(np.uint8)


_side: dict[int, float] = {}  # patch side -> die side, for rotated patches


def _blobs(mask: np.ndarray, min_area: float) -> int:
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return int(sum(stats[i, cv2.CC_STAT_AREA] >= min_area for i in range(1, n)))


@pytest.mark.parametrize("size", [18, 30, 64, 150])
@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_pip_count_equals_face(face, size):
    for angle, (die, marks) in zip(
        (0, 23, 45), (("white", "black"), ("black", "white"), ("red", "white")), strict=True
    ):
        patch = face_patch(face, size, die, marks, angle=angle)
        _side[patch.shape[0]] = size
        pip_area = np.pi * (0.095 * size) ** 2
        assert _blobs(_mark_mask(patch, marks, die), 0.3 * pip_area) == face, (angle, die)


def test_strike_cross_is_one_white_blob_through_the_centre():
    patch = face_patch("X", 60, "black", "white")
    mask = _mark_mask(patch, "white", "black")
    assert _blobs(mask, 20) == 1
    assert mask[30, 30] and mask[15, 15] and mask[15, 44]
    assert not mask[30, 12]  # between the arms


@pytest.mark.parametrize("size", [24, 80])
def test_detrak_symbols_are_distinct_and_cover_the_centre_area(size):
    masks = {
        s: _mark_mask(face_patch(s, size, "white", "black"), "black", "white")
        for s in DETRAK_SYMBOLS
    }
    for a in DETRAK_SYMBOLS:
        assert masks[a].sum() > 0.04 * size * size, a
        for b in DETRAK_SYMBOLS:
            if a < b:
                inter = np.logical_and(masks[a], masks[b]).sum()
                union = np.logical_or(masks[a], masks[b]).sum()
                assert inter / union < 0.6, (a, b)


def test_patch_is_the_die_side_with_transparent_rounded_corners():
    patch = face_patch(2, 40, "ivory", "red")
    assert patch.shape == (40, 40, 4)
    assert patch[0, 0, 3] < 30 and patch[20, 20, 3] == 255
    rotated = face_patch(2, 40, "ivory", "red", angle=45)
    assert rotated.shape[0] >= int(40 * np.sqrt(2))


def test_translucent_body_lets_the_table_through_but_marks_do_not():
    patch = face_patch(5, 60, "translucent", "white")
    assert 150 < patch[30, 12, 3] < 230  # body, between pips
    assert patch[30, 30, 3] > 240  # the centre pip


def test_marbled_dice_differ_by_texture_seed():
    a = face_patch(4, 60, "marbled", "gold", texture_seed=1)
    b = face_patch(4, 60, "marbled", "gold", texture_seed=2)
    assert np.abs(a.astype(int) - b.astype(int)).mean() > 2


def test_draw_face_puts_the_centre_at_x_y():
    img = np.zeros((120, 160, 3), np.uint8)
    draw_face(img, 6, 70.25, 50.75, 40, "white", "black", angle=30)
    ys, xs = np.nonzero(img.max(axis=2) > 15)  # the silhouette, pips included
    assert abs(xs.mean() - 70.25) < 0.4 and abs(ys.mean() - 50.75) < 0.4
    assert 36**2 < len(xs) < 41**2


def test_draw_face_clips_at_the_border():
    img = np.zeros((50, 50, 3), np.uint8)
    draw_face(img, 3, 2, 48, 30)
    assert img.any()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: face_kind(7), "expected 1..6"),
        (lambda: face_kind("square"), "hash"),
        (lambda: face_patch(1, 40, "pink"), "die colour 'pink'"),
        (lambda: face_patch(1, 40, "white", (0, 0)), "BGR triple"),
        (lambda: face_patch(1, 0.5), "size"),
    ],
)
def test_bad_input_says_what_was_expected(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_face_kinds():
    assert [face_kind(f) for f in (1, 6, "X", "hash", "cross")] == [
        "pips",
        "pips",
        "strike",
        "detrak",
        "detrak",
    ]
