"""Table controllers: a settled reading becomes an action only when sure; every doubt goes to the players."""

from __future__ import annotations

import pytest

from engine.record import replay
from kiosk.controllers import decide


def _die(face, in_arena=True, confidence=0.99, cocked=False, x=0.0, y=0.0):
    return {"face": face, "x": x, "y": y, "size": 30.0, "in_arena": in_arena,
            "cocked": cocked, "confidence": confidence}  # fmt: skip


def _state(*lines: str, game="strike", players=2):
    names = ", ".join(f'"p{i}"' for i in range(players))
    header = f'{{"game": "{game}", "players": [{names}]}}'
    return replay("\n".join([header, *lines])).state


STRIKE_MID = ('{"act": "start", "arena": [3]}', '{"act": "throw", "seat": 0, "arena": [3, 5]}')


def test_strike_start_die_is_submitted():
    decision = decide(_state(), [_die(4)])
    assert decision.kind == "submit"
    assert decision.line == {"act": "start", "arena": [4]}


def test_strike_throw_carries_every_face_in_the_arena_and_ignores_dice_outside():
    state = _state(*STRIKE_MID)
    before = [_die(3), _die(5), _die(6, in_arena=False, x=10, y=10)]
    decision = decide(state, [*before, _die("X", x=300, y=100)], before=before)
    assert decision.kind == "submit"
    assert decision.line == {"act": "throw", "seat": 0, "arena": [3, 5, "X"]}


def test_strike_gathering_without_a_throw_is_no_throw():
    decision = decide(_state(*STRIKE_MID), [_die(5), _die(3)])
    assert decision.kind == "ignore" and decision.reasons == ("no_change",)


def test_strike_more_dice_than_can_be_goes_to_check():
    decision = decide(_state(*STRIKE_MID), [_die(2), _die(3), _die(4), _die(6)])
    assert decision.kind == "check"
    assert "bad_count" in decision.reasons
    assert decision.line["arena"] == [2, 3, 4, 6]


def test_strike_low_confidence_goes_to_check_not_the_record():
    decision = decide(_state(*STRIKE_MID), [_die(3), _die(5), _die(6, confidence=0.6)])
    assert decision.kind == "check" and decision.reasons == ("low_confidence",)


def test_strike_cocked_die_asks_for_a_reroll():
    decision = decide(_state(*STRIKE_MID), [_die(3), _die(None, cocked=True), _die(6)])
    assert decision.kind == "reroll"


def test_strike_start_on_the_cross_is_checked():
    decision = decide(_state(), [_die("X")])
    assert decision.kind == "check"


def test_strike_dice_moving_after_the_game_are_ignored():
    over = _state(
        '{"act": "start", "arena": [4]}',
        '{"act": "throw", "seat": 0, "arena": [4, 4]}',
        '{"act": "throw", "seat": 1, "arena": [2, 3, 4, 5, 6]}',
    )
    assert over.is_over()
    decision = decide(over, [_die(2)])
    assert decision.kind == "ignore" and decision.reasons == ("not_expected",)


@pytest.mark.parametrize("game, faces", [("knister", [3, 5]), ("detrak", ["hash", "circle"])])
def test_pair_games_exactly_two_dice(game, faces):
    lines = []
    if game == "detrak":
        lines = [
            '{"act": "choose", "seat": 0, "symbol": "hash"}',
            '{"act": "choose", "seat": 1, "symbol": "cross"}',
        ]
    state = _state(*lines, game=game)
    assert decide(state, [_die(f) for f in faces]).line == {"act": "roll", "dice": faces}
    three = decide(state, [_die(f) for f in [*faces, faces[0]]])
    assert three.kind == "check" and "wrong_dice_count" in three.reasons
    one = decide(state, [_die(faces[0])])
    assert one.kind == "check" and one.line is None
    assert decide(state, []).kind == "ignore"  # the dice are still in a hand


def test_knister_roll_not_expected_while_seats_write():
    state = _state('{"act": "roll", "dice": [3, 4]}', game="knister")
    assert decide(state, [_die(1), _die(2)]).reasons == ("not_expected",)


def test_phone_games_ignore_dice():
    state = _state(game="joust")
    assert decide(state, [_die(1), _die(2)]).kind == "ignore"


# Strike's scene before the throw: arena 3, 5 (as the record says) and a cross set aside.
BEFORE = [_die(3, x=100, y=100), _die(5, x=200, y=100), _die("X", in_arena=False, x=10, y=10)]


def test_strike_die_flying_out_without_changing_the_arena_is_a_throw():
    state = _state(*STRIKE_MID)
    flew = decide(state, [*BEFORE, _die(6, in_arena=False, x=400, y=300)], before=BEFORE)
    assert flew.kind == "submit"
    assert flew.line == {"act": "throw", "seat": 0, "arena": [3, 5]}


def test_strike_same_arena_is_no_throw_while_the_players_tidy():
    state = _state(*STRIKE_MID)
    assert decide(state, BEFORE, before=None).kind == "ignore"
    out = [*BEFORE, _die(6, in_arena=False, x=400, y=300)]
    assert decide(state, out, before=None).kind == "ignore"  # no scene to tell a throw by


def test_strike_thrown_die_seen_nowhere_asks_once_the_table_is_tidy():
    state = _state(*STRIKE_MID)
    nothing_new = decide(state, BEFORE, before=BEFORE)
    assert nothing_new.kind == "check" and nothing_new.reasons == ("vanished",)


def test_strike_dice_pushed_together_before_a_throw_are_no_throw():
    # The rules advise gathering the arena's dice in the middle before throwing: the same
    # faces, closer together, with no die seen anywhere new, are that and not a lost throw.
    state = _state(*STRIKE_MID)
    gathered = [_die(3, x=140, y=100), _die(5, x=170, y=100), BEFORE[2]]
    assert decide(state, gathered, before=BEFORE).kind == "ignore"
    # ...and pushed together again, swapped, they stay a pack: no throw either
    swapped = [_die(5, x=140, y=100), _die(3, x=170, y=100), BEFORE[2]]
    assert decide(state, swapped, before=gathered).kind == "ignore"
    # the same faces moved apart are no gathering: the throw's die is seen nowhere
    apart = [_die(3, x=60, y=100), _die(5, x=240, y=100), BEFORE[2]]
    assert decide(state, apart, before=BEFORE).reasons == ("vanished",)


def test_strike_dice_vanishing_from_the_arena_goes_to_check():
    state = _state(*STRIKE_MID)  # 2 dice in the arena, 1 thrown: 3 can be there
    two_left = decide(state, [_die(4)], before=BEFORE)
    assert two_left.kind == "check" and "many_left" in two_left.reasons
    assert decide(state, [], before=BEFORE).kind == "check"


def test_strike_die_missing_from_the_arena_must_be_seen_outside():
    state = _state(*STRIKE_MID)  # arena 3, 5; one die thrown
    knocked = [_die(3, x=100, y=100), _die(6, x=150, y=100), BEFORE[2]]
    seen_out = decide(state, [*knocked, _die(5, in_arena=False, x=400, y=300)], before=BEFORE)
    assert seen_out.kind == "submit"  # the 5 was knocked out and lies beside the box
    unseen = decide(state, knocked, before=BEFORE)
    assert unseen.kind == "check" and unseen.reasons == ("vanished",)


def test_strike_a_new_die_in_the_pile_or_unsure_is_no_proof_a_die_left():
    state = _state(*STRIKE_MID)
    knocked = [_die(3, x=100, y=100), _die(6, x=150, y=100), BEFORE[2]]
    by_the_pile = decide(state, [*knocked, _die("X", in_arena=False, x=10, y=45)], before=BEFORE)
    assert by_the_pile.kind == "check"  # 35 px from a die set aside: the pile read differently
    unsure = decide(
        state, [*knocked, _die(5, in_arena=False, confidence=0.5, x=400, y=300)], before=BEFORE
    )
    assert unsure.kind == "check"


def test_strike_a_die_seen_twice_breaks_the_count():
    state = _state(*STRIKE_MID)
    scene = [*BEFORE, _die(6, x=300, y=100), _die(4, in_arena=False, x=400, y=300)]
    decision = decide(state, scene, before=BEFORE)
    assert decision.kind == "check" and decision.reasons == ("bad_count",)


def test_strike_without_a_scene_to_check_on_only_the_count_is_checked():
    # No still reading agreed with the record since it changed (the players tidied and threw
    # at once): a scene where every die is where it can be is a throw...
    state = _state(*STRIKE_MID)
    assert decide(state, [_die(3), _die(5), _die(6)], before=None).kind == "submit"
    assert decide(state, [_die(3), _die(5)], before=None).kind == "ignore"  # nothing thrown
    assert decide(state, [_die(3), _die(6)], before=None).reasons == ("vanished",)
    # ...unless a die may be one the last throw removed, not yet taken away: asked
    paired = _state(*STRIKE_MID, '{"act": "throw", "seat": 0, "arena": [3, 5, 5]}')
    assert paired.view()["arena"] == [3]
    assert decide(paired, [_die(3), _die(5)], before=None).reasons == ("leftover",)
    assert decide(paired, [_die(3), _die(4)], before=None).kind == "submit"


def test_an_unsure_reading_that_matches_the_record_can_be_before():
    from kiosk.controllers.strike import agrees

    state = _state(*STRIKE_MID)  # the record's arena: 3, 5
    assert agrees(state, [_die(3, confidence=0.6), _die(5), _die(2, in_arena=False)])
    assert not agrees(state, [_die(3), _die(None)])
    assert not agrees(state, [_die(3), _die(6)])
