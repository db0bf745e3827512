"""Synthetic dice images with exact ground truth, for the vision benchmark and tests.

`faces` draws one die face; `scene` renders a whole table (`render_scene`, `benchmark_set`).
"""
