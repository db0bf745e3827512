"""train.calibration_crops and calibrate: the crops a temperature is fitted on are made again
the same from the seed alone, which is what lets bench/calibration_figures.py read a kept
network on the very crops its json's figures were counted on."""

import numpy as np

from vision.learned.classes import CLASSES
from vision.learned.train import calibrate, calibration_crops
from vision.learned.train_options import options


def _quiet(_msg):
    pass


def _small(kind="strike"):
    return options(
        ["--kinds", kind, "--seed", "5", "--calib-scenes", "2", "--sim-tables", "3", "--no-hard"],
        "",
    )


def test_calibration_crops_are_made_again_the_same_from_the_seed():
    a, hard = _small()
    first_images, first_labels = calibration_crops(a, hard, _quiet).arrays()
    images, labels = calibration_crops(a, hard, _quiet).arrays()
    assert len(labels) > 20
    assert np.array_equal(labels, first_labels)
    assert np.array_equal(images, first_images)


def test_calibrate_fits_each_kind_on_those_crops():
    a, hard = _small()
    _, labels = calibration_crops(a, hard, _quiet).arrays()

    def always_right(blob):
        assert len(blob) == len(labels)  # every crop, in the order they were made
        logits = np.zeros((len(blob), len(CLASSES)), np.float32)
        logits[np.arange(len(blob)), labels] = 9.0
        return logits

    temps, stats = calibrate(always_right, a, hard, _quiet)
    assert set(temps) == {"strike"}
    assert stats["strike"]["calibration_crops"] == len(labels)
    assert stats["strike"]["accuracy"] == 1.0 and stats["strike"]["accuracy_at_0.9"] == 1.0
