"""A stored network rewritten with plain float32 weights, the form OpenCV is given.

The repository keeps the networks small: weights as float16 widened by a Cast node (half.py),
the classifiers' as int8 with a scale per output channel, widened by a DequantizeLinear node
(narrow.py). Both are valid ONNX, and OpenCV 5 reads both, but OpenCV 4.6 (Raspberry Pi OS
Bookworm's `python3-opencv`) refuses a float16 initializer ("Unsupported data type: FLOAT16")
and a DequantizeLinear without its zero point (an assertion of three inputs). So every network
is folded before any OpenCV sees it, one path for all: each Cast or DequantizeLinear whose
inputs are all stored weights becomes the float32 weight it computes, under the name the network
reads; nothing else changes, and OpenCV 4.6 and 5 give the same outputs to 4e-5.

The `onnx` package is not in the product (it would bring pip's numpy beside apt's), so the
rewrite walks the protobuf wire format itself: only ModelProto.graph, the graph's nodes and
initializers are decoded, and every other byte is copied as it is. The training tools read
networks through it too (network.from_onnx, average.py): what they start from is what the
product reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

MODEL_GRAPH = 7  # ModelProto.graph
GRAPH_NODE, GRAPH_INITIALIZER = 1, 5  # GraphProto's fields
NODE_INPUT, NODE_OUTPUT, NODE_OP_TYPE, NODE_ATTRIBUTE = 1, 2, 4, 5  # NodeProto's fields
ATTRIBUTE_NAME, ATTRIBUTE_INT = 1, 3  # AttributeProto's fields
TENSOR_DIMS, TENSOR_DATA_TYPE, TENSOR_FLOAT_DATA, TENSOR_INT32_DATA = 1, 2, 4, 5  # TensorProto's
TENSOR_NAME, TENSOR_RAW_DATA, TENSOR_DATA_LOCATION = 8, 9, 14
FLOAT, UINT8, INT8, FLOAT16 = 1, 2, 3, 10  # TensorProto.DataType
STORED = {FLOAT: "<f4", UINT8: "u1", INT8: "i1", FLOAT16: "<f2"}  # the types folded here
VARINT, FIXED64, LENGTH, FIXED32 = 0, 1, 2, 5  # wire types


def widened(data: bytes) -> bytes:
    """The ONNX model `data` with every weight stored narrower folded into a float32 one; `data`
    itself when it has none. ValueError when the bytes are not a model, or a folded weight is
    stored in a way the fold does not know (outside the file, an unknown type)."""
    out = bytearray()
    for number, wire, value, span in _fields(data, "model"):
        if number == MODEL_GRAPH and wire == LENGTH:
            graph = _graph(value)
            out += _key(number, LENGTH) + _varint(len(graph)) + graph
        else:
            out += span
    out = bytes(out)
    return data if out == data else out


@dataclass
class _Node:
    op: str
    inputs: list[str]
    outputs: list[str]
    ints: dict[str, int] = field(default_factory=dict)


def _graph(data: bytes) -> bytes:
    """The graph with its folds made: each folded node's float32 weight takes the place of the
    first weight it reads, and the weights only folded nodes read are dropped."""
    fields = list(_fields(data, "graph"))
    nodes = [_node(v) if n == GRAPH_NODE else None for n, w, v, _ in fields]
    heads = [_tensor_head(v) if n == GRAPH_INITIALIZER else (None, None) for n, w, v, _ in fields]
    names = [name for name, _ in heads]
    stored = {name: i for i, (name, dtype) in enumerate(heads) if dtype in STORED}
    folds = {i: node for i, node in enumerate(nodes) if node and _foldable(node, stored)}
    if not folds:
        return data
    kept_reads = {x for i, node in enumerate(nodes) if node and i not in folds for x in node.inputs}
    dropped = {x for node in folds.values() for x in node.inputs} - kept_reads
    placed: dict[int, list[_Node]] = {}
    for node in folds.values():
        placed.setdefault(stored[node.inputs[0]], []).append(node)
    out = bytearray()
    for i, span in enumerate(f[3] for f in fields):
        for node in placed.get(i, []):
            tensor = _folded(node, {x: fields[stored[x]][2] for x in node.inputs if x})
            out += _key(GRAPH_INITIALIZER, LENGTH) + _varint(len(tensor)) + tensor
        if i not in folds and names[i] not in dropped:
            out += span
    return bytes(out)


def _foldable(node: _Node, stored: dict[str, int]) -> bool:
    """A Cast to float32 or a DequantizeLinear, every input a weight stored in a type folded
    here (any other node is left to OpenCV)."""
    if node.op == "Cast" and node.ints.get("to") != FLOAT:
        return False
    inputs = [x for x in node.inputs if x]  # (an optional input left out is named "")
    least = {"Cast": 1, "DequantizeLinear": 2}.get(node.op)  # (steps, then their scale)
    return least is not None and len(inputs) >= least and all(x in stored for x in inputs)


def _folded(node: _Node, tensors: dict[str, bytes]) -> bytes:
    """The float32 TensorProto a folded node computes, named by its output."""
    dims, values = _tensor_values(tensors[node.inputs[0]])
    if node.op == "DequantizeLinear":
        values = _dequantized(node, dims, values, tensors)
    return _float_tensor(node.outputs[0], dims, values.astype("<f4"))


def _dequantized(node: _Node, dims: list[int], q: np.ndarray, tensors: dict) -> np.ndarray:
    """(q - zero point) * scale, per tensor or along the node's axis (ONNX's default: 1)."""
    scale = _tensor_values(tensors[node.inputs[1]])[1].astype(np.float32)
    zero = np.zeros(1, np.float32)
    if len(node.inputs) > 2 and node.inputs[2]:
        zero = _tensor_values(tensors[node.inputs[2]])[1].astype(np.float32)
    values = q.astype(np.float32).reshape(dims)
    if scale.size > 1:
        axis = node.ints.get("axis", 1) % max(len(dims), 1)
        if len(dims) <= axis or dims[axis] != scale.size:
            raise ValueError(
                f"{node.outputs[0]}: expected a scale per slice along axis {axis} of {dims},"
                f" found {scale.size} scales"
            )
        shape = [1] * len(dims)
        shape[axis] = scale.size
        scale, zero = scale.reshape(shape), zero.reshape(shape if zero.size > 1 else [1])
    return (values - zero) * scale


def _node(data: bytes) -> _Node:
    node = _Node("", [], [])
    for number, _, value, _ in _fields(data, "node"):
        if number == NODE_OP_TYPE:
            node.op = value.decode()
        elif number == NODE_INPUT:
            node.inputs.append(value.decode())
        elif number == NODE_OUTPUT:
            node.outputs.append(value.decode())
        elif number == NODE_ATTRIBUTE:
            name, integer = _attribute(value)
            if integer is not None:
                node.ints[name] = integer
    return node


def _attribute(data: bytes) -> tuple[str, int | None]:
    name, integer = "", None
    for number, wire, value, _ in _fields(data, "attribute"):
        if number == ATTRIBUTE_NAME:
            name = value.decode()
        elif number == ATTRIBUTE_INT and wire == VARINT:
            integer = value - (1 << 64) if value >= 1 << 63 else value  # (int64, two's complement)
    return name, integer


def _tensor_head(data: bytes) -> tuple[str, int | None]:
    """A stored weight's name and data type."""
    name, dtype = "", None
    for number, _, value, _ in _fields(data, "tensor"):
        if number == TENSOR_NAME:
            name = value.decode()
        elif number == TENSOR_DATA_TYPE:
            dtype = value
    return name, dtype


def _tensor_values(data: bytes) -> tuple[list[int], np.ndarray]:
    """A stored weight's dims and values (raw data, or ONNX's typed fields)."""
    dims, dtype, raw, typed, floats = [], None, None, [], b""
    for number, wire, value, _ in _fields(data, "tensor"):
        if number == TENSOR_DIMS:
            dims += _varints(value) if wire == LENGTH else [value]
        elif number == TENSOR_DATA_TYPE:
            dtype = value
        elif number == TENSOR_RAW_DATA:
            raw = value
        elif number == TENSOR_INT32_DATA:  # (float16 bits or 8-bit integers, one value each)
            typed += _varints(value) if wire == LENGTH else [value]
        elif number == TENSOR_FLOAT_DATA:
            floats += value
        elif number == TENSOR_DATA_LOCATION and value != 0:
            raise ValueError("tensor: weights stored outside the file are not supported")
    if dtype not in STORED:
        raise ValueError(f"tensor: expected float32, float16 or 8-bit weights, found type {dtype}")
    if raw is not None:
        return dims, np.frombuffer(raw, STORED[dtype])
    if dtype == FLOAT:
        return dims, np.frombuffer(floats, "<f4")
    bits = np.array([v - (1 << 64) if v >= 1 << 63 else v for v in typed], np.int64)
    if dtype == FLOAT16:
        return dims, bits.astype(np.uint16).view("<f2")
    return dims, bits.astype(STORED[dtype])


def _float_tensor(name: str, dims: list[int], values: np.ndarray) -> bytes:
    out = bytearray()
    for d in dims:
        out += _key(TENSOR_DIMS, VARINT) + _varint(d)
    out += _key(TENSOR_DATA_TYPE, VARINT) + _varint(FLOAT)
    encoded = name.encode()
    out += _key(TENSOR_NAME, LENGTH) + _varint(len(encoded)) + encoded
    raw = values.tobytes()
    out += _key(TENSOR_RAW_DATA, LENGTH) + _varint(len(raw)) + raw
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
