import pytest

from companion.game import GAMES


@pytest.fixture(autouse=True)
def tiny_game_registered(monkeypatch):
    """The tiny test game (tinygame.py, beside this file) is known to load_game as "tiny"."""
    monkeypatch.setitem(GAMES, "tiny", "tinygame:TinyGame")
