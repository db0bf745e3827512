"""Photoreal scenes rendered with Blender, to check the reader on images made by another
renderer than the one it learned from (vision/synth draws with OpenCV): path-traced light,
shadows and glare, dice at rest where rigid-body physics left them. See docs/vision-photoreal.md.
"""
