"""A small learned classifier of a die's top face (issue 5), run through OpenCV's dnn module.

    from vision.learned import available, classify_faces, crop_die
    if available("strike"):
        crops = [crop_die(frame, d.x, d.y, d.size) for d in dice]
        for face, p in classify_faces(crops, "strike"):   # face: 1..6, "X", a Détrak symbol or None
            ...                                           # p: calibrated, >= 0.9 is >= 99 % right

The network (models/faces.onnx, trained by `python -m vision.learned.train`, which needs torch)
sees a 32 x 32 crop; see docs/vision-learned.md for how it was trained and how well it does.
"""

from .classes import CLASSES, KIND_FACES, NONE, kind_classes
from .crops import CROP_FACTOR, INPUT, crop_die
from .runtime import available, classify_faces, probabilities

__all__ = [
    "CLASSES",
    "CROP_FACTOR",
    "INPUT",
    "KIND_FACES",
    "NONE",
    "available",
    "classify_faces",
    "crop_die",
    "kind_classes",
    "probabilities",
]
