"""Rendered trays for the readers' tests: a die of a named style, a tray of a named surface."""

from __future__ import annotations

from companion.dice import synth


def die(face: int, x: float, y: float, style: str = "ivory", **kw) -> synth.DieSpec:
    body, pips = synth.DIE_STYLES[style]
    return synth.DieSpec(face=face, x=x, y=y, body=body, pips=pips, **kw)


def tray(dice, surface: str = "felt-green", **kw) -> synth.Scene:
    colour, texture = synth.SURFACES[surface]
    return synth.Scene(dice=tuple(dice), surface=colour, texture=texture, **kw)


def proposed(monkeypatch, frame, pips, expected: int = 1) -> list:
    """The dice the pip search proposes (`reader.propose`) in `frame` when its frame-wide pass
    finds `pips` (a `pips.Pips`) and no more: the rest, from grouping to counting again, is
    the search's own."""
    from companion.dice import reader

    monkeypatch.setattr(reader.pipfind, "find", lambda frame, params: pips)
    return list(reader.propose(frame, reader.default_profile(), expected).dice)
