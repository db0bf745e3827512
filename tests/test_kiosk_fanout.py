"""kiosk/fanout.py: what a reconnecting client is sent, and listeners that fail."""

from __future__ import annotations

import asyncio

import pytest

from kiosk.fanout import Fanout
from kiosk.moments import Moment


def _moment(seq: int = 0) -> Moment:
    return Moment(
        game=None,
        game_id=None,
        state=None,
        seq=seq,
        history=[],
        history_total=0,
        last_undoable=False,
        check=None,
        frame=None,
        camera="",
        notices=[],
    )


@pytest.fixture
def loop():
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def test_a_client_gets_what_it_missed_since_its_last_event(loop) -> None:
    fan = Fanout()
    first = fan.publish("game", _moment(1))
    fan.publish("action", _moment(2))
    fan.publish("action", _moment(3))
    _, missed = fan.subscribe(loop, first.id, _moment)
    assert [e.n for e in missed] == [2, 3]
    assert [e.kind for e in missed] == ["action", "action"]


@pytest.mark.parametrize(
    "last_id",
    [None, "", "ffffff.1", "{boot}.x", "{boot}.9", "{boot}.1"],
    ids=["none", "empty", "another process", "garbled", "from the future", "no longer kept"],
)
def test_a_client_that_cannot_be_caught_up_gets_one_snapshot(loop, last_id) -> None:
    fan = Fanout(kept=2)
    for seq in range(1, 6):
        fan.publish("action", _moment(seq))
    if last_id and last_id.startswith("{boot}"):
        last_id = last_id.format(boot=fan.boot)
    _, missed = fan.subscribe(loop, last_id, lambda: _moment(5))
    assert [(e.kind, e.n, e.moment.seq) for e in missed] == [("snapshot", 5, 5)]


def test_a_failing_listener_does_not_keep_the_event_from_the_others() -> None:
    fan, heard = Fanout(), []

    def broken(event):
        raise RuntimeError("LED strip unplugged")

    fan.add_listener(broken)
    fan.add_listener(heard.append)
    event = fan.publish("frame", _moment())
    fan.tell(event)
    assert heard == [event]


def test_a_subscriber_whose_loop_closed_is_dropped(loop) -> None:
    fan = Fanout()
    gone = asyncio.new_event_loop()
    fan.subscribe(gone, None, _moment)
    queue, _ = fan.subscribe(loop, None, _moment)
    gone.close()
    event = fan.publish("notice", _moment())
    loop.run_until_complete(asyncio.sleep(0))
    assert queue.get_nowait() == event
    assert list(fan._subscribers) == [queue]
