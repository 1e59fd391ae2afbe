"""Rendered trays for the readers' tests: a die of a named style, a tray of a named surface."""

from __future__ import annotations

from companion.dice import synth


def die(face: int, x: float, y: float, style: str = "ivory", **kw) -> synth.DieSpec:
    body, pips = synth.DIE_STYLES[style]
    return synth.DieSpec(face=face, x=x, y=y, body=body, pips=pips, **kw)


def tray(dice, surface: str = "felt-green", **kw) -> synth.Scene:
    colour, texture = synth.SURFACES[surface]
    return synth.Scene(dice=tuple(dice), surface=colour, texture=texture, **kw)
