"""The Pico firmware's own logic under CPython: ring pictures, debounced buttons, the device side of
the protocol. (The firmware against the real bridge over a pty is tests/test_serial_link.py.)"""

import sys

import pytest

from firmware_bridge import protocol as host
from firmware_bridge.emulator import load_firmware
from firmware_bridge.framing import Deframer, encode_frame
from firmware_bridge.signals import TableSignal
from kiosk.config import SEAT_COLOURS

fw = load_firmware()
machine = sys.modules["machine"]  # the stub
from arbitre_fw import messages as m  # noqa: E402
from arbitre_fw.buttons import Buttons  # noqa: E402
from arbitre_fw.device import EVENT_TTL_MS, HOST_TIMEOUT_MS, RESEND_MS, Device  # noqa: E402
from arbitre_fw.ring import DIM, render, sectors  # noqa: E402


def ring_state(signal, brightness=1.0):
    return m.decode_ring(host.ring_body(signal, SEAT_COLOURS, brightness, 0))


def rgb(colour):
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


# -- the numbers both sides use ---------------------------------------------------------------
@pytest.mark.parametrize("name", ["HELLO", "WELCOME", "ACK", "RING", "BUTTON", "PING", "PONG"])
def test_message_numbers_agree(name):
    assert getattr(host, name) == getattr(m, name)


def test_mode_numbers_and_protocol_agree():
    for mode, code in host.MODE_CODES.items():
        assert getattr(m, mode.upper()) == code
    assert host.PROTOCOL == fw.PROTOCOL
    assert (host.PRESS, host.HOLD, host.SHORT_RELEASE) == (m.PRESS, m.HOLD, m.SHORT_RELEASE)


def test_a_ring_body_decodes_to_the_same_state():
    state = ring_state(TableSignal("seat_out", seat=2, seats=4, out=(1,)), brightness=0.5)
    assert (state.mode, state.seat, state.n_seats) == (m.SEAT_OUT, 2, 4)
    assert state.out == 0b10 and state.brightness == 128
    assert state.colours[3] == rgb(SEAT_COLOURS[3])


@pytest.mark.parametrize("cut", [0, 6, 8, 12])
def test_a_malformed_ring_body_is_refused(cut):
    body = host.ring_body(TableSignal("turn", seat=0, seats=2), SEAT_COLOURS, 1, 0)
    assert m.decode_ring(body[:cut]) is None


def test_a_ring_body_naming_a_seat_beyond_the_table_is_refused():
    body = bytearray(host.ring_body(TableSignal("turn", seat=1, seats=2), SEAT_COLOURS, 1, 0))
    body[1] = 5
    assert m.decode_ring(bytes(body)) is None


# -- the ring's pictures ----------------------------------------------------------------------
def test_sectors_cover_the_ring_once():
    for seats in range(1, 7):
        leds = [i for sector in sectors(24, seats, 5) for i in sector]
        assert sorted(leds) == list(range(24))


def test_turn_lights_the_seat_sector_full_and_others_dim():
    px = render(ring_state(TableSignal("turn", seat=1, seats=4)), 24, 0)
    assert px[6:12] == [rgb(SEAT_COLOURS[1])] * 6
    dim0 = tuple(c * DIM // 255 for c in rgb(SEAT_COLOURS[0]))
    assert px[0:6] == [dim0] * 6


def test_an_out_seat_is_dark():
    px = render(ring_state(TableSignal("turn", seat=0, seats=4, out=(2,))), 24, 0)
    assert px[12:18] == [(0, 0, 0)] * 6
    assert px[18] != (0, 0, 0)


def test_waiting_for_a_throw_breathes():
    state = ring_state(TableSignal("waiting_throw", seat=0, seats=2))
    levels = {render(state, 24, t)[0] for t in range(0, 2000, 100)}
    assert len(levels) > 5


def test_check_blinks_the_whole_ring_amber():
    state = ring_state(TableSignal("check", seat=0, seats=3))
    assert set(render(state, 24, 100)) == {(255, 150, 0)}
    assert (255, 150, 0) not in render(state, 24, 600)


def test_brightness_scales_every_pixel():
    full = render(ring_state(TableSignal("turn", seat=0, seats=2)), 24, 0)
    half = render(ring_state(TableSignal("turn", seat=0, seats=2), brightness=0.5), 24, 0)
    assert half[0] == tuple(c * 128 // 255 for c in full[0])


def test_game_over_lights_only_the_winners():
    px = render(ring_state(TableSignal("game_over", seats=3, highlight=(2,))), 24, 750)
    assert px[16:24] != [(0, 0, 0)] * 8
    assert px[0:16] == [(0, 0, 0)] * 16


def test_off_is_dark_and_no_host_spins_one_led():
    assert set(render(ring_state(TableSignal()), 24, 0)) == {(0, 0, 0)}
    idle = render(None, 24, 0)
    assert sum(p != (0, 0, 0) for p in idle) == 1
    assert render(None, 24, 80) != idle


# -- buttons ----------------------------------------------------------------------------------
def test_a_press_counts_once_after_the_debounce_and_bounces_are_ignored():
    pin = machine.Pin(10, machine.Pin.IN, machine.Pin.PULL_UP)
    buttons = Buttons([pin])
    events = []
    for t, level in [(0, 0), (3, 1), (5, 0), (8, 1), (10, 0)]:  # contact bounce
        pin.drive(level)
        events += buttons.scan(t, 1500)
    assert events == []
    events += buttons.scan(40, 1500)
    assert events == [(0, m.PRESS)]
    pin.drive(1)
    events += buttons.scan(50, 1500) + buttons.scan(80, 1500)
    assert events == [(0, m.PRESS), (0, m.SHORT_RELEASE)]


def test_a_hold_reports_hold_and_no_short_release():
    pin = machine.Pin(11, machine.Pin.IN, machine.Pin.PULL_UP)
    buttons = Buttons([pin])
    pin.drive(0)
    events = buttons.scan(0, 300) + buttons.scan(30, 300) + buttons.scan(400, 300)
    events += buttons.scan(500, 300)
    pin.drive(1)
    events += buttons.scan(510, 300) + buttons.scan(540, 300)
    assert events == [(0, m.PRESS), (0, m.HOLD)]


# -- the device side of the protocol ----------------------------------------------------------
def host_frame(kind, seq=1, body=b""):
    return encode_frame(host.payload(kind, seq, body))


def replies(device, now):
    return [(p[0], p[1], p[2:]) for p in Deframer().feed(device.tick(now))]


def test_hello_gets_welcome_with_version_and_sets_hold_time():
    device = Device(24, 6, 0xBEEF)
    device.feed(host_frame(m.HELLO, 1, host.hello_body(400)), 0)
    (kind, _, body), *_ = replies(device, 0)
    welcome = host.Welcome.parse(body)
    assert kind == m.WELCOME and welcome.boot_id == 0xBEEF and welcome.version == fw.VERSION
    assert device.hold_ms == 400


def test_presses_before_any_host_are_not_queued():
    device = Device(24, 6, 1)
    assert device.press(0, m.PRESS, 0) is False
    assert replies(device, 0) == []


def test_a_button_event_is_resent_until_acked_then_never_again():
    device = Device(24, 6, 1)
    device.feed(host_frame(m.PING), 0)
    device.tick(0)
    device.press(3, m.PRESS, 10)
    first = [r for r in replies(device, 10) if r[0] == m.BUTTON]
    assert first == [(m.BUTTON, 1, bytes((3, m.PRESS)))]
    assert replies(device, 10 + RESEND_MS // 2) == []
    assert replies(device, 10 + RESEND_MS) == first
    device.feed(host_frame(m.ACK, 9, bytes((1,))), 10 + RESEND_MS)
    assert replies(device, 10 + 3 * RESEND_MS) == []


def test_a_stale_event_is_dropped():
    device = Device(24, 6, 1)
    device.feed(host_frame(m.PING), 0)
    device.press(0, m.PRESS, 0)
    device.tick(0)
    device.feed(host_frame(m.PING), EVENT_TTL_MS)  # the host is there but never acks
    device.tick(EVENT_TTL_MS)
    assert [r for r in replies(device, EVENT_TTL_MS + 1) if r[0] == m.BUTTON] == []


def test_without_the_host_for_long_the_ring_goes_back_to_waiting():
    device = Device(24, 6, 1)
    body = host.ring_body(TableSignal("turn", seat=0, seats=2), SEAT_COLOURS, 1, 0)
    device.feed(host_frame(m.RING, 5, body), 0)
    assert replies(device, 0) == [(m.ACK, 0, b"\x05")]
    assert device.pixels(100)[0] == rgb(SEAT_COLOURS[0])
    assert device.pixels(HOST_TIMEOUT_MS + 1) == render(None, 24, HOST_TIMEOUT_MS + 1)


def test_the_device_ignores_its_own_frames_echoed_back():
    device = Device(24, 6, 1)
    device.feed(encode_frame(host.payload(m.PONG, 0)) + encode_frame(host.payload(m.BUTTON, 3)), 0)
    assert device.host_seen is None and replies(device, 0) == []


# -- the Pico's entry point -------------------------------------------------------------------
def test_main_turns_ctrl_c_off_and_serves_stdin(monkeypatch):
    import micropython
    from arbitre_fw import pico

    calls = []
    monkeypatch.setattr(pico, "run", lambda *a, **k: calls.append((a, k)))
    monkeypatch.setattr(micropython, "kbd_intr_char", 3)
    pico.main()
    assert micropython.kbd_intr_char == -1  # a 0x03 byte is data, not KeyboardInterrupt
    ((args, kwargs),) = calls
    assert args[0] is sys.stdin.buffer and kwargs["poll_on"] is sys.stdin


def test_holding_button_0_at_power_up_leaves_the_repl(monkeypatch):
    import micropython
    from arbitre_fw import pico

    monkeypatch.setitem(machine.Pin.boot_levels, pico.BUTTON_PINS[0], 0)
    monkeypatch.setattr(pico, "run", lambda *a, **k: pytest.fail("the firmware started"))
    monkeypatch.setattr(micropython, "kbd_intr_char", 3)
    pico.main()
    assert micropython.kbd_intr_char == 3


def test_no_seat_named_lights_every_seat_in_play():
    state = ring_state(TableSignal("turn", seats=3, out=(1,)))
    px = render(state, 24, 0)
    assert px[0] == rgb(SEAT_COLOURS[0]) and px[16] == rgb(SEAT_COLOURS[2])
    assert px[8] == (0, 0, 0)
    waiting = ring_state(TableSignal("waiting_throw", seats=2))
    assert render(waiting, 24, 0)[0] != render(waiting, 24, 1000)[0]  # breathing
