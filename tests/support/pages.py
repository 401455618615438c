"""Steps the page tests share: opening the lab and the replay viewer, clicking the lab's deck, a planted violation."""

from __future__ import annotations

import copy

from playwright.sync_api import expect

from service.replay.families import simulate


def click_card(page, where: str, code: str, times: int = 1) -> None:
    """Click a deck card `times` times with the click target set to `where`."""
    page.check(f"input[name=target][value={where}]")
    for _ in range(times):
        page.click(f"#palette button.card[data-code='{code}']")


def open_lab(page, server: str, query: str = "") -> None:
    page.goto(f"{server}/ui{query}")
    expect(page.locator("#palette button.card").first).to_be_visible()


RULESET = "bga-taiwan"


def planted() -> tuple[dict, int, str]:
    """A simulated round with one discard changed to a card the discarder was never dealt.

    In Four Color Cards a seat's concealed cards only leave it: drawn cards are turned up in public and join a
    hand only inside an exposed meld (docs/rules.md#fc-turn). So a card absent from the seat's deal is never in
    its hand, and discarding it breaks `not_in_hand` at exactly that event. The discard chosen is one nobody
    claimed (the next event is a draw), so the rest of the round replays as it was.
    """
    log = copy.deepcopy(simulate(RULESET, 11, 3, "greedy"))
    events = log["events"]
    index = next(i for i, e in enumerate(events[:-1]) if i >= 4 and e["type"] == "discard"
                 and events[i + 1]["type"] == "draw")
    seat = events[index]["seat"]
    card = next(c for c in ("rA", "yA", "gA", "wA", "rE", "yE", "gE", "wE", "rC", "yC", "gC", "wC")
                if c not in log["hands"][seat])
    events[index]["card"] = card
    return log, index, card


def open_viewer(page, server: str) -> None:
    page.goto(f"{server}/ui/replay")
    expect(page.locator("#sim-ruleset option").first).to_be_attached()


def simulate_in_viewer(page, seed: int, rounds: int, seats: int = 3) -> None:
    """Fill the viewer's simulate form (RULESET, `seats`, `seed`, `rounds`) and load the simulated logs."""
    page.select_option("#sim-ruleset", RULESET)
    page.fill("#sim-seats", str(seats))
    page.fill("#sim-seed", str(seed))
    page.fill("#sim-rounds", str(rounds))
    page.click("#simulate")


#: The English names of the cards' colours and characters (docs/rules.md#fc-cards), as the pages say a card.
COLOURS = {"r": "red", "y": "yellow", "g": "green", "w": "white"}
CHARACTERS = {"G": "General", "A": "Advisor", "E": "Elephant", "C": "Chariot", "H": "Horse", "P": "Cannon",
              "S": "Soldier"}


def card_name(code: str) -> str:
    """A Four Color Cards card as the English pages name it in a sentence: "red General (rG)"."""
    return f"{COLOURS[code[0]]} {CHARACTERS[code[1]]} ({code})"
