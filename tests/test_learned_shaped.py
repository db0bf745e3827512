"""A network kept as one OpenCV net per recent input shape (vision/learned/shaped.py)."""

import numpy as np
import pytest

from vision.learned import detector
from vision.learned.onnx_net import read_onnx
from vision.learned.shaped import PerShape


class FakeNet:
    """Records the shapes it was set up for, as cv2.dnn.Net sets itself up again on a new one."""

    def __init__(self, loads: list) -> None:
        loads.append(self)
        self.shapes: list[tuple] = []
        self._blob = None

    def setInput(self, blob):  # noqa: N802 (cv2.dnn.Net's name)
        if not self.shapes or self.shapes[-1] != blob.shape:
            self.shapes.append(blob.shape)
        self._blob = blob

    def forward(self):
        return self._blob.sum(axis=tuple(range(1, self._blob.ndim)))


def blob(*shape):
    return np.ones(shape, np.float32)


def test_alternating_shapes_never_set_a_net_up_again():
    loads: list[FakeNet] = []
    nets = PerShape(lambda: FakeNet(loads))
    for _ in range(5):
        nets.run(blob(1, 3, 144, 192))
        nets.run(blob(1, 3, 288, 384))
        nets.run(blob(20, 4, 32, 32))
    assert len(loads) == 3
    assert sorted(len(n.shapes) for n in loads) == [1, 1, 1]


def test_the_first_net_is_loaded_before_any_input():
    """A missing or broken model file says so when the reader loads, not in a frame."""
    loads: list[FakeNet] = []
    PerShape(lambda: FakeNet(loads))
    assert len(loads) == 1


def test_beyond_keep_the_least_recent_net_is_set_up_again_not_a_new_one_loaded():
    loads: list[FakeNet] = []
    nets = PerShape(lambda: FakeNet(loads), keep=2)
    nets.run(blob(1, 4))
    nets.run(blob(2, 4))
    nets.run(blob(1, 4))  # (2, 4) is now the least recently used
    nets.run(blob(3, 4))
    assert len(loads) == 2
    assert nets.shapes() == [(1, 4), (3, 4)]
    assert [(2, 4), (3, 4)] in [n.shapes for n in loads]


def test_big_inputs_take_over_a_net_and_drop_the_others_to_bound_memory():
    loads: list[FakeNet] = []
    nets = PerShape(lambda: FakeNet(loads), keep=4, values=1000)
    nets.run(blob(1, 100))
    nets.run(blob(2, 100))
    assert nets.shapes() == [(1, 100), (2, 100)]
    nets.run(blob(1, 900))  # 1 200 values with the others: it takes over the oldest's net
    assert nets.shapes() == [(1, 900)] and len(loads) == 2
    nets.run(blob(1, 2000))  # over the bound alone: still run
    assert nets.shapes() == [(1, 2000)] and len(loads) == 2


def test_outputs_are_those_of_one_net_given_each_input():
    loads: list[FakeNet] = []
    nets = PerShape(lambda: FakeNet(loads))
    got = nets.run(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    np.testing.assert_array_equal(got, [66, 210])


def test_keep_must_be_a_net_or_more():
    with pytest.raises(ValueError, match="keep must be 1 or more"):
        PerShape(lambda: None, keep=0)


@pytest.mark.skipif(not detector.available(), reason="detector model missing")
def test_the_detector_reads_the_same_through_nets_kept_per_shape():
    rng = np.random.default_rng(5)
    blobs = [rng.random((1, 3, h, w), np.float32) for h, w in ((144, 192), (288, 384))] * 2
    one = read_onnx(detector.ONNX_PATH)
    want = []
    for b in blobs:
        one.setInput(b)
        want.append(np.asarray(one.forward()).copy())
    nets = PerShape(lambda: read_onnx(detector.ONNX_PATH))
    for b, w in zip(blobs, want, strict=True):
        np.testing.assert_allclose(nets.run(b), w, atol=1e-5)
