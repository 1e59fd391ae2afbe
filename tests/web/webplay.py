"""Driving a game through the pages' API, as the phones do."""

from __future__ import annotations

from pathlib import Path

NAMES = ["Ana", "Ben", "Caro"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"


def host_client(app):
    """A test client signed in as the host (PIN from the data dir, as the OLED shows it)."""
    client = app.test_client()
    pin = app.extensions["companion"].access.pin
    response = client.post("/api/host/login", json={"pin": pin})
    assert response.status_code == 200, response.json
    return client


def seat_client(app, seat: int):
    """A test client that joined `seat` through its join link."""
    client = app.test_client()
    token = app.extensions["companion"].access.seat_token(seat)
    response = client.get(f"/join/{token}")
    assert response.status_code == 303
    return client


def start_game(host, names=NAMES, seed: int = 1, **options) -> None:
    """Host starts a game, every seat takes its first dealt adventurer, seat 0 keeps the dice."""
    response = host.post(
        "/api/host/new-game", json={"seats": names, "options": options, "seed": seed}
    )
    assert response.status_code == 200, response.json


def to_first_roll(app) -> None:
    """From a new game to the first "roll 5 dice for actions" prompt, through the seats' pages."""
    host = host_client(app)
    for seat in range(len(app.extensions["companion"].table.seats)):
        client = seat_client(app, seat)
        choice = client.get("/api/seat").json["legal"][0]
        assert client.post("/api/seat/command", json=choice).status_code == 200
    response = host.post("/api/host/command", json={"type": "first_dicekeeper", "keeper": 0})
    assert response.status_code == 200, response.json


def decipher(app, seat: int = 0) -> dict:
    """From a new game: roll, walk seat 0 (the dicekeeper) into zone 1, decipher its glyph.

    Returns the seat's view afterwards.
    """
    assert seat == 0, "the dicekeeper acts first"
    to_first_roll(app)
    host = host_client(app)
    assert (
        host.post("/api/host/command", json={"type": "dice", "values": [6] * 5}).status_code == 200
    )
    phone = seat_client(app, seat)
    entrance_to_zone = phone.post("/api/seat/command", json={"type": "move", "to": "Z1"})
    assert entrance_to_zone.status_code == 200, entrance_to_zone.json
    response = phone.post("/api/seat/command", json={"type": "decipher"})
    assert response.status_code == 200, response.json
    return phone.get("/api/seat").json["view"]


def write_glyph_pictures(data_dir) -> dict[int, bytes]:
    """A catalog of 14 distinct PNG pictures in DIR/glyphs/<n>.png, as calibration writes it."""
    import io

    from PIL import Image, ImageDraw

    folder = data_dir / "glyphs"
    folder.mkdir(parents=True, exist_ok=True)
    pictures = {}
    for n in range(1, 15):
        image = Image.new("RGB", (120, 120), "white")
        draw = ImageDraw.Draw(image)
        draw.ellipse((10, 10, 110, 110), outline=(n * 15, 40, 200 - n * 10), width=6)
        draw.text((45, 50), f"g{n}", fill="black")
        out = io.BytesIO()
        image.save(out, format="PNG")
        pictures[n] = out.getvalue()
        (folder / f"{n}.png").write_bytes(pictures[n])
    return pictures


def corrected_board(directory: Path) -> Path:
    """An owner's corrected board file: renamed, with one more corridor space (C30) before
    the exit."""
    from companion.game.chac.board import DEFAULT_BOARD

    text = DEFAULT_BOARD.read_text(encoding="utf-8")
    for old, new in (
        ('name = "Temple of Chac (default reconstruction)"', 'name = "Our corrected temple"'),
        ('"C28", "C29",\n]', '"C28", "C29", "C30",\n]'),
        ('exit_from = "C29"', 'exit_from = "C30"'),
    ):
        assert old in text, old
        text = text.replace(old, new)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "our-board.toml"
    path.write_text(text, encoding="utf-8")
    return path
