"""Fixtures shared by test modules."""

import pytest


@pytest.fixture
def models_dir(tmp_path, monkeypatch):
    """A models directory of our own, the committed default network linked into it."""
    from vision.learned import runtime

    for name in ("faces.onnx", "faces.json"):
        (tmp_path / name).symlink_to(runtime.MODELS / name)
    monkeypatch.setattr(runtime, "MODELS", tmp_path)
    caches = (runtime._routes, runtime._screens, runtime._meta, runtime._net)
    for c in caches:
        c.cache_clear()
    yield tmp_path
    for c in caches:
        c.cache_clear()
