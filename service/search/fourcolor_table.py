"""The shared table of Four Color Cards playouts: what every playout of one position shares.

`FourColorTable` holds the rule tables of a position (claim ranks per meld and role, the General or flower the
drawer must take, per card), the seat orders in which public cards are answered, the settlement, each seat's
planner (`player.py`: the searching player's and one per other seat, each with its own view) and the seats'
side of the playouts: their claims on public cards and the melds they may expose, memoised on the hand. The
playouts themselves (turns, hands, the end of the round) are `fourcolor.py`'s.
"""

from __future__ import annotations

from typing import Any

from ..rules.chan.captures import History
from ..rules.fourcolor.cards import FLOWER_BASE, N_KINDS
from ..rules.fourcolor.evaluate import melds_with
from ..rules.fourcolor.hand import FourColorHand
from ..rules.fourcolor.melds import Meld
from ..rules.fourcolor.rulesets import fourcolor_ruleset
from .exact import HOPELESS, tally
from .player import MEMO_LIMIT, Answer, Hold, Plan, Planner, with_meld
from .position import Position

DRAW, DISCARD = "draw", "discard"


def role_of(seat: int, source: str, origin: int, seats: int) -> str:
    """drawer / discarder (the origin seat), next (the seat after it) or other."""
    if seat == origin:
        return "drawer" if source == DRAW else "discarder"
    return "next" if seat == (origin + 1) % seats else "other"


class FourColorTable:
    """What every playout of one position shares: rule tables, seat orders, every seat's memoised plans."""

    policies = {"player": "greedy-exact-analysis", "opponents": "greedy-exact-analysis"}

    def __init__(self, position: Position, planners: list[Planner]) -> None:
        rs, options = fourcolor_ruleset(position.ruleset), position.options
        self.position, self.options, self.planners = position, options, planners
        self.planner = planner = planners[position.seat]
        self.flowers, self.ruleset = rs.has_flowers, rs
        self.rules = rules = rs.meld_rules(options)
        n = self.seats = position.seats
        self.seat = position.seat
        self.payments = rs.payments(options)
        self.orders = [tuple((s + k) % n for k in range(n)) for s in range(n)]
        # Per source and origin: the seats that answer a public card, in claim order, with their roles (the
        # discarder never claims his own discard).
        self.turns = {src: [tuple((s, role_of(s, src, o, n)) for s in self.orders[o if src == DRAW else (o + 1) % n]
                                  if role_of(s, src, o, n) != "discarder") for o in range(n)]
                      for src in (DRAW, DISCARD)}
        roles = ("drawer", "next", "other")
        self.rank = {(kind, role): (rs.claim_class(kind, role) or (None, 0))[1]
                     for kind, _, _ in rules.points for role in roles}
        self.hu_rank = {role: rs.priorities["drawer_hu" if self.flowers and role == "drawer" else "hu"]
                        for role in roles}
        self.hu_rank["discarder"] = 0
        self.forced = [self._forced(x) for x in range(N_KINDS + 5)]
        self.melds: dict[tuple, list[tuple[Meld, tuple[int, ...], tuple[int, ...]]]] = {}
        counts = [0] * (N_KINDS + 5)
        for card in position.hand:
            counts[card] += 1
        self.start = planner.plan(tuple(counts), tuple(position.exposed))

    def _forced(self, x: int) -> bool:
        """Whether the drawer must take `x` when he turns it up: a General (flowers: or flower),
        docs/rules.md#fc-must-take."""
        flower = x >= FLOWER_BASE
        if (not flower and x % 7) or (flower and not self.flowers):
            return False
        return not self.flowers or bool(self.options["must_take_drawn_general"])

    def settle(self, counts: Any, exposed: tuple[Meld, ...], card: int | None, winner: int, lucky: int | None) -> Any:
        """The engine's settlement of `winner`'s hu on `card` (None: the hand that must discard is all melds)."""
        hand = FourColorHand(tally(counts), exposed, card)
        return self.ruleset.settle_hand(hand, self.rules, self.options, self.seats, winner, lucky)

    # -- the seats ---------------------------------------------------------------------------------------------
    def answer(self, hold: Hold, x: int, role: str, seat: int) -> Answer | None:
        """The claim of `seat` holding `hold` on public card `x` in `role` (memoised on the hand)."""
        key = (x, role)
        if key not in hold.answers:
            hold.answers[key] = self._answer(hold, x, role, seat)
        return hold.answers[key]

    def _answer(self, hold: Hold, x: int, role: str, seat: int) -> Answer | None:
        """Win when it pays; else the meld whose best discard leaves the best hand, when it lowers the distance
        (or when he must take the card)."""
        if role == "discarder":
            return None
        gain = hold.waits.get(x)
        if gain is not None and (gain > 0 or not self.payments):
            return Answer(self.hu_rank[role], "hu")
        forced = role == "drawer" and self.forced[x]
        if not forced and x not in hold.improving:
            return None
        options: list[tuple[Answer, tuple[int, ...], tuple[Any, ...], History | None]] = []
        for opened, used, rest in self.melds_on(hold.counts, x):
            priority = self.rank.get((opened.kind, role), 0)
            if priority:
                options.append((Answer(priority, opened.kind, opened, used), rest,
                                with_meld(hold.exposed, opened), None))
        return self.planners[seat].choose(options, hold.distance, forced, lambda plan: self.plan_key(plan, seat))

    def melds_on(self, counts: tuple[int, ...], x: int) -> list[tuple[Meld, tuple[int, ...], tuple[int, ...]]]:
        """The melds a seat may expose with public card `x`: the exposed meld, the hand cards it uses and the hand
        it leaves (memoised by hand and card: the player's hands in play repeat, with other melds and in other
        roles)."""
        key = (counts, x)
        found = self.melds.get(key)
        if found is None:
            if len(self.melds) >= MEMO_LIMIT:
                self.melds.clear()  # only speed depends on the memo
            hand = tally(counts)
            hand.add(x)
            found = []
            for meld in melds_with(hand, x, self.rules):
                used = list(meld.cards)
                used.remove(x)
                rest = list(counts)
                for c in used:
                    rest[c] -= 1
                found.append((Meld(meld.kind, meld.cards, concealed=False), tuple(used), tuple(rest)))
            self.melds[key] = found
        return found

    def plan_key(self, plan: Plan, seat: int) -> tuple[float, ...]:
        """A plan's ranking key; a hand left with no legal discard ends the round as its hu (`seat`'s): best if it
        pays."""
        if plan.discard is not None:
            return plan.key
        gain = self.settle(plan.counts, plan.exposed, None, seat, None).deltas[seat]
        return (-1.0,) if gain > 0 or not self.payments else HOPELESS

