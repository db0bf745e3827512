"""A halved network (vision/learned/half.py) rewritten with float32 weights, for an OpenCV that
cannot read float16 tensors.

Raspberry Pi OS Bookworm ships OpenCV 4.6 (`python3-opencv`), and the Pi's venv takes OpenCV
from apt (docs/hardware.md). OpenCV 4.6 refuses a float16 initializer ("Unsupported data type:
FLOAT16") but runs the rest of our networks, the Cast nodes included: with the weights widened
back to float32, it gives the same outputs as OpenCV 5 to 1e-5. The `onnx` package is not in the
product (it would bring pip's numpy beside apt's), so the rewrite walks the protobuf wire format
itself: only ModelProto.graph, GraphProto.initializer and the float16 TensorProtos are decoded;
every other byte is copied as it is.
"""

from __future__ import annotations

import numpy as np

MODEL_GRAPH = 7  # ModelProto.graph
GRAPH_INITIALIZER = 5  # GraphProto.initializer
TENSOR_DATA_TYPE, TENSOR_INT32_DATA, TENSOR_RAW_DATA = 2, 5, 9  # TensorProto's fields
TENSOR_DATA_LOCATION = 14
FLOAT, FLOAT16 = 1, 10  # TensorProto.DataType
VARINT, FIXED64, LENGTH, FIXED32 = 0, 1, 2, 5  # wire types


def unhalved(data: bytes) -> bytes:
    """The ONNX model `data` with each float16 initializer stored as float32 (same name, same
    shape); `data` itself when it has none. ValueError when the bytes are not a model."""
    return _rewrite(data, {MODEL_GRAPH: _graph}, "model")


def _graph(data: bytes) -> bytes:
    return _rewrite(data, {GRAPH_INITIALIZER: _tensor}, "graph")


def _tensor(data: bytes) -> bytes:
    """A float16 TensorProto as float32, its other fields (dims, name, ...) unchanged."""
    fields = list(_fields(data, "tensor"))
    types = [value for number, wire, value, _ in fields if number == TENSOR_DATA_TYPE]
    if not types or types[-1] != FLOAT16:
        return data
    if any(number == TENSOR_DATA_LOCATION and value != 0 for number, _, value, _ in fields):
        raise ValueError("tensor: float16 weights stored outside the file are not supported")
    raw, bits, kept = b"", [], bytearray()
    for number, wire, value, span in fields:
        if number == TENSOR_RAW_DATA:
            raw = value
        elif number == TENSOR_INT32_DATA:  # (float16 bits, one value each, packed or not)
            bits += _varints(value) if wire == LENGTH else [value]
        elif number != TENSOR_DATA_TYPE:
            kept += span
    halves = np.frombuffer(raw, "<f2") if raw else np.array(bits, np.uint16).view("<f2")
    wide = halves.astype("<f4").tobytes()
    kept += _key(TENSOR_DATA_TYPE, VARINT) + _varint(FLOAT)
    kept += _key(TENSOR_RAW_DATA, LENGTH) + _varint(len(wide)) + wide
    return bytes(kept)


def _rewrite(data: bytes, rewrites: dict, what: str) -> bytes:
    """`data` with the length-delimited fields named in `rewrites` passed through their
    function; the others copied byte for byte."""
    out = bytearray()
    for number, wire, value, span in _fields(data, what):
        if wire == LENGTH and number in rewrites:
            new = rewrites[number](value)
            out += _key(number, LENGTH) + _varint(len(new)) + new
        else:
            out += span
    return bytes(out)


def _fields(data: bytes, what: str):
    """(field number, wire type, value, the field's bytes) of a protobuf message: a varint's
    value as an int, a length-delimited field's as bytes, a fixed field's as bytes."""
    i, n = 0, len(data)
    while i < n:
        start = i
        key, i = _read_varint(data, i, what)
        number, wire = key >> 3, key & 7
        if wire == VARINT:
            value, i = _read_varint(data, i, what)
        elif wire == LENGTH:
            size, i = _read_varint(data, i, what)
            value, i = data[i : i + size], i + size
        elif wire in (FIXED64, FIXED32):
            size = 8 if wire == FIXED64 else 4
            value, i = data[i : i + size], i + size
        else:
            raise ValueError(
                f"{what}: expected an ONNX protobuf, found wire type {wire} at {start}"
            )
        if i > n or number == 0:
            raise ValueError(f"{what}: expected an ONNX protobuf, truncated or garbled at {start}")
        yield number, wire, value, data[start:i]


def _read_varint(data: bytes, i: int, what: str) -> tuple[int, int]:
    value = shift = 0
    while True:
        if i >= len(data) or shift > 63:
            raise ValueError(f"{what}: expected an ONNX protobuf, a number runs off at {i}")
        byte = data[i]
        value |= (byte & 0x7F) << shift
        i, shift = i + 1, shift + 7
        if byte < 0x80:
            return value, i


def _varints(data: bytes) -> list[int]:
    values, i = [], 0
    while i < len(data):
        value, i = _read_varint(data, i, "tensor")
        values.append(value)
    return values


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _key(number: int, wire: int) -> bytes:
    return _varint(number << 3 | wire)
