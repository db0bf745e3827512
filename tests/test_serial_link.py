"""The real bridge against the real firmware (under CPython, stub pins and ring) over a pty."""

import os
import random
import time

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.emulator import EmulatedDevice
from firmware_bridge.framing import encode_frame
from firmware_bridge.link import LinkTiming, RingLink
from firmware_bridge.ring import RingSignals
from firmware_bridge.signals import ButtonPress, TableSignal
from kiosk.config import SEAT_COLOURS

FAST = LinkTiming(heartbeat=0.1, timeout=0.5, handshake=0.5, backoff_min=0.05, backoff_max=0.2)
BUTTONS = ["stop:0", "stop:1", "stop:2", "stop:3", "confirm", "table"]


def ring_mode(table):
    ring = table.device.device.ring
    return ring.mode if ring else None


def wait_for(check, timeout=2.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.005)
    return check()


class Table:
    """An emulated Pico that can be unplugged and replaced, and the bridge's signals on it."""

    def __init__(self, timing=FAST):
        self.device = EmulatedDevice().start()
        self.presses = []
        self.link = RingLink(lambda: self.device.port if self.device else None, timing=timing)
        self.link.hold_ms = 300
        self.signals = RingSignals(
            self.link, SEAT_COLOURS, buttons=BUTTONS, brightness=1.0, on_press=self.presses.append
        )
        self.link.start()

    def close(self):
        self.link.close()
        if self.device:
            self.device.unplug()


@pytest.fixture
def table():
    t = Table()
    assert t.link.connected.wait(2), t.link.error
    yield t
    t.close()


def test_handshake_reports_the_firmware(table):
    status = table.link.status()
    assert status["connected"] and status["port"] == table.device.port
    assert status["firmware"] == "1.0.0" and status["leds"] == 24
    assert table.device.device.hold_ms == 300  # the host's hold time reached the device


def test_the_ring_shows_the_state_and_repeating_it_changes_nothing(table):
    turn = TableSignal("turn", seat=1, seats=4)
    table.signals.show(turn)
    assert wait_for(lambda: table.device.pixels[6] == (0x43, 0x63, 0xD8))
    ring = table.device.device.ring
    table.signals.show(turn)
    time.sleep(0.1)
    assert table.device.device.ring is ring  # nothing new was sent
    table.signals.show(TableSignal("seat_out", seat=3, seats=4))
    assert wait_for(lambda: ring_mode(table) == p.MODE_CODES["seat_out"])


def test_bytes_0x03_and_0x00_in_a_state_go_through(table):
    table.signals.colours = ["#030303", "#000300"]  # Ctrl-C and zero bytes in the body
    table.signals.show(TableSignal("turn", seat=0, seats=2))
    assert wait_for(
        lambda: getattr(table.device.device.ring, "colours", None) == [(3, 3, 3), (0, 3, 0)]
    )


def test_a_button_press_arrives_once_and_is_acknowledged(table):
    table.device.press(2)
    assert wait_for(lambda: table.presses)
    assert wait_for(lambda: not table.device.device.events)  # the device got its ACK
    time.sleep(0.4)  # past the device's resend time: nothing more
    assert table.presses == [ButtonPress("stop", 2, source="ring")]


def test_a_resent_event_is_acknowledged_again_but_delivered_once(table):
    table.device.press(4)
    assert wait_for(lambda: table.presses and not table.device.device.events)
    seq = table.device.device.event_seq
    table.device.inject(encode_frame(p.payload(p.BUTTON, seq, bytes((4, p.PRESS)))))
    time.sleep(0.2)
    assert table.presses == [ButtonPress("confirm", source="ring")]


def test_the_table_button_confirms_when_short_and_undoes_when_held(table):
    table.device.press(5, 0.08)
    assert wait_for(lambda: len(table.presses) == 1)
    table.device.press(5, 0.45)
    assert wait_for(lambda: len(table.presses) == 2)
    time.sleep(0.1)
    assert [x.kind for x in table.presses] == ["confirm", "undo"]


def test_heartbeat_loss_is_detected(table):
    table.device.stop()  # hung firmware: the port stays open, nothing answers
    start = time.monotonic()
    assert table.link.lost.wait(2)
    assert time.monotonic() - start < FAST.timeout + 1.0
    assert not table.link.connected.is_set()
    assert "heartbeat" in table.link.error


def test_unplug_and_replug_reconnects_within_two_seconds_and_resends_the_state(table):
    signal = TableSignal("waiting_throw", seat=2, seats=3, out=(0,))
    table.signals.show(signal)
    assert wait_for(lambda: table.device.device.ring is not None)
    table.device.unplug()
    assert table.link.lost.wait(1)
    table.device = EmulatedDevice().start()  # a fresh boot: it knows nothing
    replugged = time.monotonic()
    assert table.link.connected.wait(2)
    assert wait_for(lambda: table.device.device.ring is not None, timeout=2)
    assert time.monotonic() - replugged < 2.0
    ring = table.device.device.ring
    assert (ring.mode, ring.seat, ring.out) == (p.MODE_CODES["waiting_throw"], 2, 0b1)
    assert table.link.connects == 2


def test_ten_thousand_random_bytes_invent_nothing_and_lose_no_sync(table):
    rng = random.Random(2026)
    noise = bytes(rng.getrandbits(8) for _ in range(10_000))
    table.device.inject(noise[:5000])  # toward the bridge
    os.write(table.device.slave, noise[5000:])  # toward the firmware (as if the host sent it)
    time.sleep(0.3)
    assert table.presses == []
    assert table.link.connected.is_set()
    table.signals.show(TableSignal("check", seat=0, seats=2))
    assert wait_for(lambda: ring_mode(table) == p.MODE_CODES["check"])
    table.device.press(0)
    assert wait_for(lambda: table.presses)
    time.sleep(0.3)
    assert table.presses == [ButtonPress("stop", 0, source="ring")]
    assert table.device.error is None


def test_a_firmware_speaking_another_protocol_is_refused(monkeypatch):
    import arbitre_fw.device

    monkeypatch.setattr(arbitre_fw.device, "PROTOCOL", 9)
    t = Table()
    try:
        assert wait_for(lambda: "protocol 9" in t.link.error, timeout=2)
        assert not t.link.connected.is_set()
    finally:
        t.close()
