"""A screen is taught the route's reading (vision/learned/distill.py, train.py --teacher-share):
its targets must be the route's probabilities mixed with the label, placed on the kind's
classes, and the loss must read them without the kind mask's -inf turning into NaN."""

from __future__ import annotations

import numpy as np
import pytest

from vision.learned import runtime
from vision.learned.classes import CLASSES, kind_indices
from vision.learned.crops import crop_die, to_input
from vision.learned.distill import agreement, route_targets
from vision.synth.faces import face_patch


def _blob(faces=(4, 2, 6)):
    crops = []
    for face in faces:
        patch = face_patch(face, 40, "white", "black")  # BGRA
        table = np.full((64, 64, 3), 60.0, np.float32)
        a = patch[:, :, 3:4] / 255.0
        table[12:52, 12:52] = table[12:52, 12:52] * (1 - a) + patch[:, :, :3] * a
        crops.append(crop_die(table.astype(np.uint8), 31.5, 31.5, 40))
    return to_input(crops)


def test_targets_mix_the_label_with_the_route_on_the_kind_classes():
    x = _blob()
    labels = np.array([CLASSES.index(4), CLASSES.index(2), CLASSES.index(6)])
    route = runtime.blob_probabilities(x, "pips", screen=False)
    got = route_targets(x, labels, ["pips"] * 3, 0.25)
    want = np.zeros_like(got)
    want[np.arange(3), labels] = 0.75
    want[:, kind_indices("pips")] += 0.25 * route
    np.testing.assert_allclose(got, want, atol=1e-6)
    np.testing.assert_allclose(got.sum(axis=1), 1.0, atol=1e-5)
    off_kind = [i for i in range(len(CLASSES)) if i not in kind_indices("pips")]
    assert not got[:, off_kind].any()  # (Strike's X: the mask's -inf there)
    hard = route_targets(x, labels, ["pips"] * 3, 0.0)
    np.testing.assert_array_equal(hard.argmax(axis=1), labels)
    assert hard.max(axis=1).min() == 1.0


def test_agreement_counts_the_route_part_not_the_mixed_target():
    labels = np.array([0, 1])
    targets = np.zeros((2, len(CLASSES)), np.float32)
    targets[0, 0], targets[0, 2] = 0.5 + 0.1, 0.4  # the route read crop 0 as class 2
    targets[1, 1] = 1.0
    assert agreement(targets, labels, 0.5) == 0.5
    assert agreement(targets, labels, 0.0) == 1.0


def test_a_share_outside_0_1_is_refused():
    with pytest.raises(ValueError, match="between 0 and 1"):
        route_targets(_blob((4,)), np.array([CLASSES.index(4)]), ["pips"], 1.5)


def test_the_soft_loss_is_cross_entropy_for_one_hot_targets_and_finite_under_the_mask():
    torch = pytest.importorskip("torch")  # the train extra
    from vision.learned.training_loop import crop_loss

    logits = torch.randn(5, len(CLASSES))
    logits[:, CLASSES.index("X")] = float("-inf")  # a pips crop: Strike's X masked
    labels = torch.tensor([CLASSES.index(f) for f in (1, 2, 3, 4, 5)])
    one_hot = torch.nn.functional.one_hot(labels, len(CLASSES)).float()
    assert torch.isclose(crop_loss(logits, labels, one_hot), crop_loss(logits, labels))
    soft = 0.5 * one_hot
    soft[:, CLASSES.index(6)] += 0.5
    loss = crop_loss(logits, labels, soft)
    assert torch.isfinite(loss) and loss > 0
