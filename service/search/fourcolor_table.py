"""The shared table of Four Color Cards playouts: what every playout of one position shares.

`FourColorTable` holds the rule tables of a position (claim ranks per meld and role, the triple/quad an opponent
claims and the General or flower the drawer must take, per card), the seat orders in which public cards are
answered, the settlement and the win rule both policies use, and the player's side of the playouts: his claims on
public cards and the melds he may expose, memoised on his hand. The playouts themselves (seats, turns, the
opponents' discards) are `fourcolor.py`'s.
"""

from __future__ import annotations

from typing import Any

from ..rules.chan.captures import History
from ..rules.fourcolor.cards import FLOWER_BASE, N_KINDS
from ..rules.fourcolor.claims import OPEN_IDENTICAL
from ..rules.fourcolor.evaluate import melds_with
from ..rules.fourcolor.hand import FourColorHand
from ..rules.fourcolor.hu import evaluate_hu
from ..rules.fourcolor.melds import Meld, classify
from ..rules.fourcolor.rulesets import fourcolor_ruleset
from .exact import HOPELESS, tally
from .player import MEMO_LIMIT, Answer, Hold, Plan, Planner, with_meld
from .position import Position
from .shapes import Shapes

DRAW, DISCARD = "draw", "discard"


def role_of(seat: int, source: str, origin: int, seats: int) -> str:
    """drawer / discarder (the origin seat), next (the seat after it) or other."""
    if seat == origin:
        return "drawer" if source == DRAW else "discarder"
    return "next" if seat == (origin + 1) % seats else "other"


class FourColorTable:
    """What every playout of one position shares: rule tables, seat orders, the player's memoised plans."""

    policies = {"player": "greedy-exact-analysis", "opponents": "opponents-greedy-melds"}

    def __init__(self, position: Position, planner: Planner) -> None:
        rs, options = fourcolor_ruleset(position.ruleset), position.options
        self.position, self.options, self.planner = position, options, planner
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
        self.identical = [[self._identical(x, held) for held in range(5)] for x in range(N_KINDS + 5)]
        self.forced = [self._forced(x) for x in range(N_KINDS + 5)]
        self.shapes = Shapes(rules)
        self.melds: dict[tuple, list[tuple[Meld, tuple[int, ...], tuple[int, ...]]]] = {}
        counts = [0] * (N_KINDS + 5)
        for card in position.hand:
            counts[card] += 1
        self.start = planner.plan(tuple(counts), tuple(position.exposed))

    def _identical(self, x: int, held: int) -> Answer | None:
        """The triple/quad an opponent claims on `x` holding `held` copies (docs/rules.md#fc-claims: gan / pong), or
        None."""
        if x >= FLOWER_BASE or held not in (2, 3):
            return None
        kind = classify((x,) * (held + 1), self.rules)
        if kind not in OPEN_IDENTICAL:
            return None
        return Answer(self.rank[(kind, "other")], kind, Meld(kind, (x,) * (held + 1), False), (x,) * held)

    def _forced(self, x: int) -> Answer | None:
        """The take of a drawn General (flowers: or flower) the drawer must make (docs/rules.md#fc-must-take), or
        None."""
        flower = x >= FLOWER_BASE
        if (not flower and x % 7) or (flower and not self.flowers):
            return None
        if self.flowers and not self.options["must_take_drawn_general"]:
            return None
        kind = "flower" if flower else "general"
        return Answer(self.rank[(kind, "drawer")], kind, Meld(kind, (x,), False))

    def pays(self, points: int) -> bool:
        """Whether a win of these hu points pays the winner (the win rule of both policies: the rule-set's)."""
        return not self.payments or self.ruleset.win_pays(points, self.options)

    def settle(self, counts: Any, exposed: tuple[Meld, ...], card: int | None, winner: int, lucky: int | None) -> Any:
        """The engine's settlement of `winner`'s hu on `card` (None: the hand that must discard is all melds)."""
        hand = FourColorHand(tally(counts), exposed, card)
        return self.ruleset.settle_hand(hand, self.rules, self.options, self.seats, winner, lucky)

    # -- the player --------------------------------------------------------------------------------------------
    def answer(self, hold: Hold, x: int, role: str) -> Answer | None:
        """The player's claim on public card `x` in `role` (memoised on the hand)."""
        key = (x, role)
        if key not in hold.answers:
            hold.answers[key] = self._answer(hold, x, role)
        return hold.answers[key]

    def _answer(self, hold: Hold, x: int, role: str) -> Answer | None:
        """Win when it pays; else the meld whose best discard leaves the best hand, when it lowers the distance
        (or when he must take the card)."""
        if role == "discarder":
            return None
        gain = hold.waits.get(x)
        if gain is not None and (gain > 0 or not self.payments):
            return Answer(self.hu_rank[role], "hu")
        forced = role == "drawer" and self.forced[x] is not None
        if not forced and x not in hold.improving:
            return None
        options: list[tuple[Answer, tuple[int, ...], tuple[Any, ...], History | None]] = []
        for opened, used, rest in self.melds_on(hold.counts, x):
            priority = self.rank.get((opened.kind, role), 0)
            if priority:
                options.append((Answer(priority, opened.kind, opened, used), rest,
                                with_meld(hold.exposed, opened), None))
        return self.planner.choose(options, hold.distance, forced, self.plan_key)

    def melds_on(self, counts: tuple[int, ...], x: int) -> list[tuple[Meld, tuple[int, ...], tuple[int, ...]]]:
        """The melds the player may expose with public card `x`: the exposed meld, the hand cards it uses and the
        hand it leaves (memoised by hand and card: his hands in play repeat, with other melds and in other roles)."""
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

    def plan_key(self, plan: Plan) -> tuple[float, ...]:
        """A plan's ranking key; a hand left with no legal discard ends the round as its hu: best if it pays."""
        if plan.discard is not None:
            return plan.key
        gain = self.settle(plan.counts, plan.exposed, None, self.seat, None).deltas[self.seat]
        return (-1.0,) if gain > 0 or not self.payments else HOPELESS

    # -- opponents ---------------------------------------------------------------------------------------------
    def hu_points(self, counts: list[int], exposed: list[Meld], x: int) -> int:
        """Hu points of hand + `x` (exposed melds at exposed value), or -1 when it does not split into melds."""
        hand = FourColorHand(tally(counts), tuple(exposed), x)
        result = evaluate_hu(hand, self.rules, self.options.get("winning_meld_concealed", True))
        return result.points if result.hu and result.points is not None else -1

