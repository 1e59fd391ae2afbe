"""Moctezuma's Revenge! from the button panel alone (the rig of conftest.py: gpiozero
MockFactory buttons, luma's dummy OLED, the real Table): a whole turn of moves, and what a
Research or an Explore shows its player only in the private peek."""

from __future__ import annotations

from companion.screens import common


def card_words(drawn):
    """How the peek writes each drawn card: "1) 4" for a treasure, the name for a name card."""
    return [
        f"{i + 1}) {c['points']}" if c["kind"] == "treasure" else c["name"]
        for i, c in enumerate(drawn)
    ]


def test_a_turn_from_the_panel_with_its_reveals_only_in_the_private_peek(rig):
    """MOCT-TURN-1, MOCT-RES-1, MOCT-EXPL-1, MOCT-EXPL-2, MOCT-ROUND-1 on the buttons and
    OLED: no chit face or drawn card is on the shared screen outside the peek."""
    assert rig.table.new_game("moctezuma", {}, ["Ana", "Ben", "Cy"], seed=2).ok
    ana = rig.table.public_view()["turn"]
    shared = []  # every screen shown to the whole table

    def look(screen):
        if screen.name != "peek":
            shared.append(screen.text)
        return screen

    screen = look(rig.wait(0))
    assert "Round 1 of 15" in screen.text and "No chit turned yet" in screen.text
    assert screen.find("Ana") and screen.find("5 pts") and "at the Library" in screen.text
    assert screen.ink_height("5 pts") >= 10

    # Research: the chits are typed by number, starting from the next ones to turn.
    look(rig.pick("Research 2 chits (2)"))
    screen = look(rig.shown())
    assert screen.find("1 2") and "Chit 1 of 2" in screen.text
    look(rig.press("UP"))  # chit 2 for the first
    look(rig.press("OK"))
    screen = look(rig.press("UP"))  # and chit 3 for the second
    assert screen.find("2 3") and "Chit 2 of 2" in screen.text
    screen = look(rig.press("OK"))
    assert screen.name == "peek-warning" and "Ana" in screen.text
    seen = rig.table.seat_view(ana)["you"]["research"]
    assert [r["space"] for r in seen] == [1, 2]
    peek, let_go = rig.hold("MENU")
    assert peek.name == "peek"
    assert f"Chits: 2 {seen[0]['face']}, 3 {seen[1]['face']}." in peek.text
    screen = look(let_go())
    assert screen.name == "status" and screen.find("3 pts")

    look(rig.pick("Temple 3 (1 pt)"))
    screen = look(rig.home())
    assert "at temple 3" in screen.text and screen.find("2 pts")

    # Explore: the cards drawn are Ana's alone; the menu offers each by its number.
    look(rig.pick("Explore 2 cards (2)"))
    screen = look(rig.shown())
    assert screen.name == "peek-warning"
    peek, let_go = rig.hold("MENU")
    drawn = rig.table.seat_view(ana)["you"]["drawn"]["cards"]
    assert peek.name == "peek" and all(w in peek.text for w in card_words(drawn))
    screen = look(let_go())
    assert "keeps 1 of 2 cards" in screen.text
    look(rig.press("OK"))
    labels = [t.text for t in look(rig.shown()).texts]
    assert "Keep card 1" in labels and "Keep card 2" in labels
    name_card = next(i for i, c in enumerate(drawn) if c["kind"] != "treasure")
    treasure = 1 - name_card
    screen = look(rig.pick(f"Keep card {name_card + 1}"))
    # MOCT-EXPL-2's refusal would show which card is the name card: only Ana reads it.
    assert screen.name == "peek-warning" and "Only Ana!" in screen.text
    peek, let_go = rig.hold("MENU")
    assert peek.name == "peek" and "name card may never be kept" in peek.text
    look(let_go())
    look(rig.pick(f"Keep card {treasure + 1}"))
    assert rig.table.seat_view(ana)["you"]["hand"] == [
        {"temple": 3, "points": drawn[treasure]["points"]}
    ]

    # No points left: the turn has passed on; the others end theirs and a chit is turned.
    screen = look(rig.home())
    assert screen.find("5 pts") and not screen.find("Ana")
    look(rig.pick("End the turn"))
    look(rig.pick("End the turn"))
    screen = look(rig.home())
    face = rig.table.public_view()["chits"][0]["face"]
    assert "Round 2 of 15" in screen.text and f"Chits turned: {face[0]}" in screen.text
    assert screen.find("Ana")

    hidden = ["Cursed", "Safe", *card_words(drawn)]
    assert not [text for text in shared for word in hidden if word in text]


def test_refusing_the_name_card_tells_the_table_nothing(rig):
    """MOCT-EXPL-2, secrecy: whichever drawn card the player tries to keep, the shared OLED
    shows the same picture as before any private peek, and the table's views do not change;
    the reason is in that seat's peek only."""
    assert rig.table.new_game("moctezuma", {}, ["Ana", "Ben"], seed=2).ok
    rig.wait(0)
    rig.pick("Temple 3 (1 pt)")
    rig.pick("Explore 2 cards (2)")
    ana = rig.table.public_view()["turn"]
    drawn = rig.table.seat_view(ana)["you"]["drawn"]["cards"]
    name_card = next(i for i, c in enumerate(drawn) if c["kind"] != "treasure")
    rig.press("BACK")  # past the warning the Explore gave
    before = (rig.table.public_view(), rig.table.seat_view(1 - ana))
    rig.press("OK")
    rig.pick(f"Keep card {name_card + 1}")
    assert rig.display.device.image.tobytes() == common.peek_warning("Ana").image.tobytes()
    assert (rig.table.public_view(), rig.table.seat_view(1 - ana)) == before
