"""A narrower detector taught a stored one's maps (detect_train.py --width, --teacher): the
reader's rules were tuned on det17's heats, so a cheaper detector must learn them, not only the
truth (docs/vision-history.md, "Session 68")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")  # the train extra: CI has no torch, the trainer's machine has
pytest.importorskip("onnx")

from vision.learned.detect_data import HEADS, PATCH, STRIDE, Patches  # noqa: E402
from vision.learned.detect_train import (  # noqa: E402
    build_model,
    from_onnx,
    main,
    teacher_loss,
    train,
)

DETECTOR = Path(__file__).parents[1] / "vision" / "learned" / "models" / "dice.onnx"


def _maps(seed: int, n: int = 2, g: int = 8):
    """Output-shaped maps, truth with one centre a patch, and an all-ones mask."""
    rng = np.random.default_rng(seed)
    out = torch.from_numpy(rng.normal(0, 2, (n, HEADS, g, g)).astype(np.float32))
    targets = np.zeros((n, HEADS, g, g), np.float32)
    targets[:, 0, 3, 4] = 1.0
    return out, torch.from_numpy(targets), torch.ones(n, g, g)


def test_the_teacher_s_own_maps_cost_nothing_and_any_other_costs_more():
    teacher, targets, mask = _maps(1)
    assert abs(float(teacher_loss(teacher, teacher, targets, mask))) < 1e-5
    other, _, _ = _maps(2)
    assert float(teacher_loss(other, teacher, targets, mask)) > 0.1
    nearer = teacher + 0.1 * (other - teacher)  # nearer the teacher: cheaper
    assert (
        0
        < float(teacher_loss(nearer, teacher, targets, mask))
        < float(teacher_loss(other, teacher, targets, mask))
    )


def test_masked_cells_are_not_taught():
    teacher, targets, mask = _maps(3)
    student = teacher.clone()
    student[:, :, 0, 0] += 5.0  # wrong only where the mask hides the patch
    mask[:, 0, 0] = 0.0
    assert abs(float(teacher_loss(student, teacher, targets, mask))) < 1e-5


def test_width_scales_every_layer_and_keeps_the_maps_shape():
    full, narrow = build_model(), build_model(0.75)
    convs = [m for m in narrow.modules() if isinstance(m, torch.nn.Conv2d)]
    assert [c.out_channels for c in convs][:3] == [9, 18, 18]  # 12, 24, 24 at full width
    count = sum(p.numel() for p in narrow.parameters())
    assert count < 0.6 * sum(p.numel() for p in full.parameters())
    x = torch.zeros(1, 3, 64, 96)
    assert narrow.eval()(x).shape == full.eval()(x).shape == (1, HEADS, 16, 24)


def test_a_student_taught_only_the_teacher_comes_nearer_its_maps():
    rng = np.random.default_rng(4)
    side = PATCH // 6  # (small patches: a quick test; the network is fully convolutional)
    g = side // STRIDE
    images = rng.integers(0, 255, (256, side, side, 3), dtype=np.uint8)
    data = Patches(
        images, np.zeros((256, HEADS, g, g), np.float32), np.ones((256, g, g), np.float32)
    )
    teacher = from_onnx(DETECTOR).eval()
    x = torch.from_numpy(((images[:8].astype(np.float32) - 128) / 64).transpose(0, 3, 1, 2))

    def distance(model):
        with torch.no_grad():
            t = torch.from_numpy(data.targets[:8])
            return float(teacher_loss(model.eval()(x), teacher(x), t, torch.ones(8, g, g)))

    def taught(share: float):
        return train(
            data, 6, 7, log=lambda s: None, width=0.5, teacher=DETECTOR, teacher_share=share
        )

    torch.manual_seed(7)
    before = distance(build_model(0.5))
    by_teacher, by_truth = distance(taught(1.0)), distance(taught(0.0))
    assert by_teacher < 0.8 * before and by_teacher < 0.8 * by_truth


@pytest.mark.parametrize(
    "args, said",
    [
        (["--width", "0"], "--width"),
        (["--width", "0.75", "--init", str(DETECTOR)], "--width"),
        (["--teacher-share", "1.5", "--teacher", str(DETECTOR)], "--teacher-share"),
        (["--teacher", "missing.onnx"], "--teacher"),
    ],
)
def test_a_bad_recipe_is_refused_with_what_was_expected(args, said, capsys, tmp_path):
    with pytest.raises(SystemExit):
        main([*args, "--out", str(tmp_path)])
    assert said in capsys.readouterr().err
