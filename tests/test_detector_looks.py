"""Which of the detector's looks at a frame is kept (vision/learned/detector.py: find_dice and
its helpers), on looks made up to the case: no model is read. The looks are judged by their sure
finds' size at the network's input, GOOD_PX; these cases are the frames that taught each rule."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.learned import detector, pips_or_dice


def test_a_look_that_sees_few_dice_too_small_to_see_looks_closer():
    """A heap of 18 px dice in a 1280 px frame is one or two "dice" at the second look (5 px a
    die), with or without unsure finds beside: the reader looks closer. Many sure dice there,
    or dice already big enough to see, or a look as close as the frame allows, and it does
    not."""

    def looks(scale, sure, unsure=2):
        first = detector._Look(scale / 2, [], None, 0)
        found = [None] * (sure + unsure)
        return [first, detector._Look(scale, found, 12.0 if sure else None, sure)]

    top, big = detector._most_scale(960, 1280), detector._most_scale(3024, 4032)
    assert detector._closer_helps(looks(0.3, 1), top)
    assert detector._closer_helps(looks(0.3, 0), top)
    assert not detector._closer_helps(looks(0.3, 12), top)
    # one or two sure finds alone may be heaps too (session 52): Knister's two dice are looked
    # at closer as well
    assert detector._closer_helps(looks(0.3, 2, unsure=0), top)
    assert detector._closer_helps(looks(0.3, 1, unsure=0), top)
    assert not detector._closer_helps(looks(0.3, 3, unsure=0), top)
    # nothing at all: an empty table at 1280 px stays two looks (it is read at every still
    # frame), a 4032 px photo, where 18 px dice are specks, is looked at closer
    assert not detector._closer_helps(looks(0.3, 0, unsure=0), top)
    assert detector._closer_helps(looks(0.095, 0, unsure=0), big)
    assert not detector._closer_helps(looks(0.6, 1), top)  # 18 px dice are 10.8 px there
    assert not detector._closer_helps(looks(1.5, 0), top)  # MAX_UPSCALE


def _look(scale: float, dice: list[tuple[float, float, float]]) -> detector._Look:
    """A look at `scale` with sure flat finds (x, y, side in frame pixels)."""
    found = [detector.Found(x, y, side, flat_score=0.9, cocked_score=0.05) for x, y, side in dice]
    px = float(np.median([side for _, _, side in dice])) * scale
    return detector._Look(scale, found, px, len(found))


def test_the_second_look_is_alone_only_when_its_dice_are_small_and_none_holds_them():
    """Rule 157: a second look seeing many sure dice at 10-15 px, the first look would see them
    as specks. Not alone: dice seen bigger, so few sure finds that they may be a heap, or a find
    much bigger than the rest (pips benchmark seed 144 scene 50: four 140 px dice, their pips
    the second look's sure "dice", the dice themselves unsure 47-90 px finds)."""
    dice = [(50.0 * k, 100.0, 40.0) for k in range(1, 11)]
    assert detector._alone(_look(0.3, dice))
    assert not detector._alone(_look(0.6, dice))  # 24 px: the first look may see them well
    assert not detector._alone(_look(0.3, dice[:2]))
    pips = _look(0.6, [(100.0 + 25 * k, 100.0, 23.0) for k in range(5)])
    big = detector.Found(150, 110, 90, flat_score=0.39, cocked_score=0.05)
    assert detector._alone(pips)
    assert not detector._alone(detector._Look(0.6, pips.found + [big], pips.px, pips.sure))


def test_the_arena_seen_as_one_die_does_not_hide_the_dice_in_it():
    """A Strike photo (1600 px): the far look sees the arena as one 500 px die and one die
    outside it; the near look sees the five 40 px dice. The far look's median size is seven
    times the dice's, like a die to its pips, but the arena is twelve times a die: the dice are
    kept (session 10: the frame was read as one 500 px die)."""
    dice = [(725, 749, 41), (562, 606, 40), (988, 446, 43), (701, 602, 41), (697, 552, 38)]
    near = _look(0.4, dice)
    far = _look(0.12, [(815, 618, 502), (982, 444, 59)])
    assert pips_or_dice.likeliest([near], [far]) is near


def test_a_big_die_is_not_taken_for_its_pips():
    """A 200 px die showing five: the near look sees its pips as five 35 px dice, the far look
    the die. The die is kept, and so it is when the near look finds the die itself too."""
    pips = [(400, 400, 35), (460, 340, 35), (340, 340, 35), (460, 460, 35), (340, 460, 35)]
    far = _look(0.1, [(400, 400, 200)])
    assert pips_or_dice.likeliest([_look(0.4, pips)], [far]) is far
    assert pips_or_dice.likeliest([_look(0.4, pips + [(400, 400, 190)])], [far]) is far


def test_no_look_at_a_good_size_keeps_the_one_that_sees_the_dice():
    """A 4032 px photo of 20 px dice: the looks the frame allows see 13 and 16 dice at 8 px (a
    little too small), a far look one sure "die" at 9 px (a heap of them). The near look is
    kept; of looks seeing as many dice, the one nearest a good size is."""
    far = detector._Look(0.19, [], 9.0, 1)
    near = detector._Look(0.381, [], 7.8, 13)
    nearest = detector._Look(0.444, [], 7.9, 16)
    assert detector._nearest_good([far, near, nearest]) is nearest
    closer = detector._Look(0.5, [], 9.5, 15)
    assert detector._nearest_good([far, nearest, closer]) is closer


def test_the_nearest_look_a_big_frame_allows_is_good_from_7_px(monkeypatch):
    """Rule 178: a 4032 px photo of 21 px dice (Détrak seed 190 scene 109). The looks it took:
    heaps of them as 3 sure "dice" at 11 px (a good size), 12 at 8 px, and, at the most input
    pixels a look may cost, all 21 at 9.5 px. That look is as near as the frame allows: it is
    kept, not the 3 heaps. Under 7 px (less than the network was taught) it is not good."""
    top = detector._most_scale(3024, 4032)
    lone = [detector.Found(200.0 + 100 * k, 1500, 21, 0.9, 0.05) for k in range(21)]
    heaps = [detector.Found(200.0 + 700 * k, 1500, 59, 0.9, 0.05) for k in range(3)]
    unsure = [detector.Found(300.0 + 700 * k, 1800, 40, 0.3, 0.05) for k in range(6)]
    sizes = {}

    def fake_look(frame, scale, base=None):
        if scale > 0.9 * top:
            return [replace(f, size=sizes["capped"] / scale) for f in lone]
        if scale > 0.2:  # nearer: 12 of them at 8 px, and the reader goes on to the capped look
            return [replace(f, size=7.9 / scale) for f in lone[:12]]
        return heaps + unsure if scale > 0.15 else []

    monkeypatch.setattr(detector, "look", fake_look)
    frame = np.zeros((3024, 4032, 3), np.uint8)
    sizes["capped"] = 9.5
    assert len(detector.find_dice(frame, nearer=True, capped=True)) == 21
    assert detector.find_dice(frame, nearer=True) == heaps + unsure  # not asked: as before
    sizes["capped"] = 6.5  # under 7 px: the heaps' look is kept, as before rule 178
    assert detector.find_dice(frame, nearer=True, capped=True) == heaps + unsure
    assert not detector._good(detector._Look(top / 2, lone, 9.5, 21), top)
    assert not detector._good(detector._Look(top, lone, 30.0, 21), top)  # too big stays so


def test_the_strike_box_seen_as_one_die_from_far_sends_for_a_closer_look(monkeypatch):
    """A 4032 px photo of 20 px dice in the Strike box: the far looks see only the box, as
    one sure 257 px die (no die is that big: issue 5's dice are 18-150 px), and nothing
    unsure besides. That find is dropped, so the reader looks closer and finds the dice
    (session 12, a Blender scene: the box was read as one die, the dice never)."""
    box = detector.Found(2033, 1504, 257, flat_score=0.9, cocked_score=0.05)
    dice = [detector.Found(1980 + 30 * k, 1500, 20, 0.8, 0.05) for k in range(5)]

    def fake_look(frame, scale, base=None):
        return [box] + (dice if scale * 20 >= 3 else [])  # dice seen from 3 px on

    monkeypatch.setattr(detector, "look", fake_look)
    found = detector.find_dice(np.zeros((3024, 4032, 3), np.uint8))
    assert sorted(f.x for f in found) == [f.x for f in dice]


def test_tiny_dice_a_big_photo_hides_in_heaps_are_looked_for_whole(monkeypatch):
    """Rule 181: a 4032 px photo of 20 px Détrak dice is read at the nearest look the frame
    allows, 9 px a die; there ten are found, and three in a heap are not. Looked at whole,
    the heap's three are added; the ten are kept as the first look found them (seen whole,
    tiny cocked dice read as faces). Dice seen at a good size there, or a kind not capped,
    take no whole look."""
    top = detector._most_scale(3024, 4032)
    lone = [detector.Found(300.0 + 200 * k, 1500, 20, 0.9, 0.05) for k in range(10)]
    heap = [detector.Found(2500.0 + 21 * k, 2500, 20, 0.9, 0.05) for k in range(3)]
    side = {"px": 20.0}

    def fake_look(frame, scale, base=None):
        if scale < 0.3:
            return []
        found = lone if scale < 0.6 else [replace(f, x=f.x + 2) for f in lone] + heap
        return [replace(f, size=side["px"]) for f in found]

    monkeypatch.setattr(detector, "look", fake_look)
    frame = np.zeros((3024, 4032, 3), np.uint8)
    found = detector.find_dice(frame, capped=True)
    assert found[:10] == lone and len(found) == 13
    assert sorted(f.x for f in found[10:]) == [f.x for f in heap]
    assert detector.find_dice(frame) == lone  # not capped: no whole look
    side["px"] = 24.0  # 10.6 px at the capped look: a good size, no whole look
    assert len(detector.find_dice(frame, capped=True)) == 10
    assert detector._tiny(lone, top) and not detector._tiny(lone, 1.0)


def test_a_look_nearer_is_made_where_heaps_may_hide_or_unsure_finds_may_be_its_gain():
    """Rule 218, on the looks of read seeds: a look nearer is taken where it sees NEARER_SEES
    more sure dice. Heaps seen as dice come few (Détrak seed 263 scene 26: 5 finds, 3 sure, 22
    heaped dice behind them), so such a look is still made; a look seeing 10 sure dice or more
    can gain only from its unsure finds (pips seed 0 scene 32: 26 sure and 37 unsure, taken),
    and one with a few unsure finds among 20 (the speed frames) is not made: it was never
    taken, and costs 11-17 ms."""

    def look(sure, unsure):
        return detector._Look(0.3, [None] * (sure + unsure), 11.5, sure)

    assert detector._may_see_more(look(3, 2))  # heaps
    assert detector._may_see_more(look(26, 37))  # a gain of 13 from 37 unsure finds
    assert detector._may_see_more(look(14, 9))  # pips seed 2 scene 94: 7 needed
    assert not detector._may_see_more(look(20, 1))  # a speed frame
    assert not detector._may_see_more(look(20, 9))  # 10 needed
    assert not detector._may_see_more(look(5, 0))  # every find sure: nothing to see nearer
