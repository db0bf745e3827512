"""The frame codec, host and firmware halves: they must agree byte for byte."""

import binascii
import random

from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import framing as host
from firmware_bridge.emulator import load_firmware

fw = load_firmware().framing


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_leaves_no_zero(data):
    encoded = host.cobs_encode(data)
    assert 0 not in encoded
    assert host.cobs_decode(encoded) == data


@given(st.binary(max_size=600))
def test_firmware_cobs_is_the_same_as_the_host(data):
    assert fw.cobs_encode(data) == host.cobs_encode(data)
    assert fw.cobs_decode(host.cobs_encode(data)) == data


@given(st.binary(max_size=300))
def test_firmware_crc_is_binascii_crc_hqx(data):
    assert fw.crc16(data) == binascii.crc_hqx(data, 0xFFFF) == host.crc16(data)


def test_crc_is_ccitt_false_check_value():
    assert host.crc16(b"123456789") == 0x29B1  # the catalogue's check value for CRC-16/CCITT-FALSE


def test_cobs_rejects_a_code_running_past_the_end():
    assert host.cobs_decode(b"\x05ab") is None
    assert fw.cobs_decode(b"\x05ab") is None


@given(st.lists(st.binary(min_size=2, max_size=60), max_size=8))
def test_frames_come_out_whole_and_in_order_whatever_the_chunking(payloads):
    stream = b"".join(fw.encode_frame(p) for p in payloads)
    deframer = host.Deframer()
    out = []
    rng = random.Random(len(stream))
    i = 0
    while i < len(stream):
        step = rng.randint(1, 7)
        out += deframer.feed(stream[i : i + step])
        i += step
    assert out == payloads


def test_garbage_before_a_frame_costs_nothing_but_itself():
    good = host.encode_frame(b"\x20\x07\x01\x00")
    for deframer in (host.Deframer(), fw.Deframer()):
        got = deframer.feed(b"\x13\x37garbage\xff" + b"\x00" + good)
        assert got == [b"\x20\x07\x01\x00"]
        assert deframer.dropped == 1


def test_a_flipped_bit_is_dropped_and_the_next_frame_still_read():
    frame = bytearray(host.encode_frame(b"\x10\x01hello"))
    frame[3] ^= 0x04
    deframer = host.Deframer()
    assert deframer.feed(bytes(frame) + host.encode_frame(b"\x30\x02")) == [b"\x30\x02"]
    assert deframer.dropped == 1


def test_an_endless_frame_is_skipped_up_to_the_next_zero():
    deframer = host.Deframer(max_frame=32)
    assert deframer.feed(b"\x01" * 1000) == []
    assert len(deframer.buf) <= 32
    assert deframer.feed(b"\x00" + host.encode_frame(b"ok")) == [b"ok"]


def test_random_bytes_make_no_frame():
    rng = random.Random(8)
    noise = bytes(rng.getrandbits(8) for _ in range(10_000))
    assert host.Deframer().feed(noise) == []
    assert fw.Deframer().feed(noise) == []
