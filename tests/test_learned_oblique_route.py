"""classifiers.json's "oblique" routes (vision/learned/runtime.py: oblique_photo, rule 242):
taken by the kinds they name within the context the reader enters for an oblique photo."""

import json

import pytest
from test_learned import _softer_copy

from vision.learned import available


def test_an_oblique_photo_takes_its_kind_s_oblique_route_where_it_has_one(models_dir):
    """classifiers.json's "oblique" routes are taken within oblique_photo() only, by the kinds
    they name; a kind whose oblique network is missing is not available (no half route)."""
    from vision.learned import runtime

    _softer_copy(models_dir, "soft")
    routes = {"kinds": {"pips": ["faces"]}, "oblique": {"pips": ["soft", "faces"]}}
    (models_dir / "classifiers.json").write_text(json.dumps(routes))
    runtime._routes.cache_clear()
    assert runtime.models_for("pips") == ("faces",)
    with runtime.oblique_photo():
        assert runtime.models_for("pips") == ("soft", "faces")
        assert runtime.models_for("strike") == ("faces",)
    assert runtime.models_for("pips") == ("faces",)
    assert runtime.onnx_paths("pips") == [models_dir / "faces.onnx", models_dir / "soft.onnx"]
    assert available("pips")
    (models_dir / "soft.onnx").unlink()
    assert not available("pips") and available("strike")


def test_a_garbled_oblique_route_says_what_was_expected(models_dir):
    from vision.learned import runtime

    routes = {"kinds": {"pips": "faces"}, "oblique": ["faces"]}
    (models_dir / "classifiers.json").write_text(json.dumps(routes))
    runtime._routes.cache_clear()
    with pytest.raises(ValueError, match='expected {"oblique": {kind: model file stem'):
        available("pips")  # (checked with the kind's other networks, before any frame)
