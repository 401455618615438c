"""Exact discard analysis, shared by both families: what a discard leaves the player waiting on, how far the
hand is from a win, and the ranking of every legal discard (POST /v1/discards, the decision review).

Terms:
- *distance*: the fewest cards of the hand (after the discard) that must be replaced by other cards so that
  one more public card can complete a win; 0 means the hand is waiting (the analogue of mahjong's tenpai).
- *wait*: a card that, as the next public card, completes a win for this player.
- *unseen*: copies of a card the player has not seen (deck minus his own cards minus every visible card).
- *gain*: what the player's settlement would be on a win (his delta; where a rule-set has no payments, the
  points of the win), the value the ranking and the expected loss are counted in.
- *expected gain*: the expected gain on the next card turned up from the stock. To the player the stock is a random
  order of the unseen cards, so that card is each unseen card with probability unseen copies / all unseen cards,
  whatever route a wait has: exact for a wait that only the stock can bring (a General, a flower: never
  discarded). Another player's discard is his choice, not a draw, so the discard route is not counted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .text import Text, ntext, text


@dataclass(frozen=True)
class Wait:
    """One card that completes a win, how many copies are unseen, how it can be taken and what it is worth."""

    card: int
    unseen: int
    claims: tuple[str, ...]  # how the card can be won: "discard", "stock", "chiu" (Chắn: a Chíu-completed win)
    points: int  # points of the win (Four Color: exposed + concealed meld points; Chắn: the score)
    gain: int  # the player's settlement delta on that win (points where nobody pays)


@dataclass(frozen=True)
class DiscardOption:
    """Everything the exact analysis says about one legal discard."""

    card: int
    distance: int
    waits: tuple[Wait, ...]
    improving: tuple[tuple[int, int], ...]  # (card, unseen copies) of cards that lower the distance by one
    improving_unseen: int  # sum of unseen copies of the improving cards
    expected_gain: float  # sum over waits of unseen * max(gain, 0) / every unseen card: the next stock card
    rank: int = 0  # 1 = best; equal keys share a rank
    reason: str = ""
    card_unseen: int = 0  # unseen copies of the discarded card itself: the fewer, the fewer players can use it
    reach: float = 0.0  # the cards that move the hand on, weighted by how often they can be had (family's; 0: none)
    paying: int | None = None  # bga-taiwan: replacements from a win that pays (None: every win pays; `distance`)
    paying_improving: int | None = None  # bga-taiwan, at the least paying distance: unseen cards that lower it
    rich: int | None = None  # bga-taiwan, at the least paying distance: replacements from a rich win (`paying.RICHER`
    #                          points over the threshold; None: not counted, or richer wins pay no more)
    sets_kept: int | None = None  # Chắn: what of the Tôm and Lèo sets the cards left keep (`chan.discards.sets_kept`);
    #                               None: Four Color Cards


@dataclass(frozen=True)
class DiscardAnalysis:
    """The ranking of every legal discard of a hand, best first, and the distance of the hand as it stands."""

    options: tuple[DiscardOption, ...]
    distance_now: int  # distance of the whole hand to a complete win (0: the hand already wins as it stands)
    unseen_total: int


def paying_of(option: DiscardOption | ClaimOption) -> int:
    """The replacements from a win that pays: the paying distance where a win can cost (bga-taiwan, under the
    threshold), else the distance (every win pays)."""
    return option.distance if option.paying is None else option.paying


def hand_key(option: DiscardOption | ClaimOption) -> tuple[float, ...]:
    """What a hand left at rest is worth to the ranking: fewest replacements from a win that pays first
    (`paying_of`: in bga-taiwan a win under the threshold costs the winner, docs/rules.md#fc-settlement, so a
    complete hand that scores too little is no win; the duplicate arena measured it against the frozen advice,
    docs/advice.md#strength), then fewest replacements from a rich win (bga-taiwan: every point over the
    threshold is paid by each opponent, docs/advice.md#paying-distance-bga-taiwan; else 0), then the most unseen
    cards that lower the paying distance (bga-taiwan, counted at the least paying distance; else 0), then fewest
    replacements from any win, then the family's `reach` (Four Color Cards: the improving cards weighted by how
    often they can be claimed, and where the objective is the win rate the waiting copies weighted by how many
    public cards may bring them; Chắn: 0), then the one-card expected gain, then (a Chắn discard) the most kept of
    the Tôm and Lèo sets (`sets_kept`: they add to the score of any win, docs/advice.md#tôm-and-lèo-sets; a claim
    is compared on its hand alone, 0), then the number of unseen improving cards, then the most waiting copies."""
    waiting = sum(w.unseen for w in option.waits)
    kept = (option.sets_kept or 0) if isinstance(option, DiscardOption) else 0
    return (paying_of(option), option.rich or 0, -(option.paying_improving or 0), option.distance, -option.reach,
            -option.expected_gain, -kept, -option.improving_unseen, -waiting)


def _ranked(options: list[Any], key: Any, then: Any, describe: Any) -> tuple[Any, ...]:
    """Sort by `key` (then `then`), give equal keys equal ranks (1 = best), attach `describe(option)` as reason."""
    from dataclasses import replace

    out: list[Any] = []
    previous, rank = None, 0
    for i, option in enumerate(sorted(options, key=lambda o: (key(o), then(o)))):
        found = key(option)
        if found != previous:
            rank, previous = i + 1, found
        out.append(replace(option, rank=rank, reason=describe(option)))
    return tuple(out)


@dataclass(frozen=True)
class ClaimOption:
    """One answer to a public card: pass, a legal claim (with the discard that should follow it), or a win."""

    kind: str  # "pass"; "hu" (Four Color) / "win" (Chắn); else the meld kind of the claim
    cards: tuple[int, ...]  # the exposed meld's cards; () for pass and for a win
    claim: Any  # the engine's legal-claim object this option stands for (None for pass)
    follow: DiscardOption | None  # the top option of the exact ranking of the hand after the claim
    distance: int  # of the hand the option leaves at rest (pass: the hand as it stands); a win: -1
    waits: tuple[Wait, ...]
    improving: tuple[tuple[int, int], ...]
    improving_unseen: int
    expected_gain: float  # as DiscardOption; a win: its gain, it is certain
    gain: int | None = None  # a win: the player's settlement delta (points where nobody pays)
    priority: int = 0  # the claim's priority class (pass 0)
    forced: bool = False
    rank: int = 0  # 1 = best
    reason: str = ""
    reach: float = 0.0  # as DiscardOption
    paying: int | None = None  # as DiscardOption (a win: None)
    paying_improving: int | None = None  # as DiscardOption
    rich: int | None = None  # as DiscardOption
    sets_kept: int | None = None  # as DiscardOption, of the hand left at rest (the value reads it; the order does not)


@dataclass(frozen=True)
class ClaimAnalysis:
    """Every answer to a public card, best first: options[0] is the advice."""

    options: tuple[ClaimOption, ...]
    forced: bool  # a drawn General (flowers: or flower) that must be taken: only the forced takes, no pass
    unseen_total: int = 0  # every unseen card the options are counted on (the value model's denominator)


WIN_KINDS = ("hu", "win")
WIN_DISTANCE = -1


class Ranking:
    """An order of the advice: how the discards of a hand (`discard`) and the answers to a public card (`claim`)
    rank, both by what the hand each option leaves at rest is worth (`hand`). The advice ranks by `SHIPPED`; the
    analyses (`ranked`, `ranked_claims`, a rule-set's `analyse_discards` and `analyse_claims`) and the arena's
    `Advice` take another as their `ranking`, so a variant of the order (bench/variants.py) is a subclass passed
    in, never a module attribute replaced. Overriding `hand` changes both orders."""

    def hand(self, option: DiscardOption | ClaimOption) -> tuple[float, ...]:
        """What a hand left at rest is worth (`hand_key`)."""
        return hand_key(option)

    def discard(self, option: DiscardOption) -> tuple[float, ...]:
        """The discard ranking order: the hand the discard leaves (`hand`), then, between discards that leave
        equally good hands, the card with fewer unseen copies: the fewer copies others may hold, the fewer can
        pair it into a meld, a capture or a win (a freshly dealt hand often has many discards tied on the hand
        alone). The duplicate arena measured this tie-break against card order (docs/advice.md#strength)."""
        return (*self.hand(option), option.card_unseen)

    def claim(self, option: ClaimOption) -> tuple[float, ...]:
        """The claim ranking order: a win that gains comes first (the more it gains, the better); then pass and
        every claim by the value of the hand each leaves at rest (`hand`, the discard ranking's order), pass before
        a claim that is no better (a claim is advised only when strictly better than passing); last a win that
        costs the caller (docs/rules.md#fc-settlement: a hu under the threshold pays every opponent)."""
        if option.kind in WIN_KINDS:
            gain = option.gain or 0
            return (0 if gain > 0 else 2, -gain)
        return (1, *self.hand(option), 0 if option.kind == "pass" else 1)


#: The advice's order as it ships.
SHIPPED = Ranking()


def rank_key(option: DiscardOption) -> tuple[float, ...]:
    """The shipped discard ranking order (`Ranking.discard`)."""
    return SHIPPED.discard(option)


def claim_rank_key(option: ClaimOption) -> tuple[float, ...]:
    """The shipped claim ranking order (`Ranking.claim`)."""
    return SHIPPED.claim(option)


def ranked(options: list[DiscardOption], describe: Callable[[DiscardOption], str],
           ranking: Ranking = SHIPPED) -> tuple[DiscardOption, ...]:
    """Sort by `ranking.discard` (then card order), give equal keys equal ranks, attach `describe(option)` as
    reason."""
    return _ranked(options, ranking.discard, lambda o: o.card, describe)


def ranked_claims(options: list[ClaimOption], describe: Callable[[ClaimOption], str],
                  ranking: Ranking = SHIPPED) -> tuple[ClaimOption, ...]:
    """Sort by `ranking.claim` (then kind and cards), give equal keys equal ranks, attach `describe(option)`."""
    return _ranked(options, ranking.claim, lambda o: (o.kind, o.cards), describe)


#: The claims' kinds as a reason names them (the kind codes of docs/rules.md#fc-melds and the Chắn pairs).
KIND_NAMES: dict[str, Text] = {
    "general": text("General"), "flower": text("flower"), "pair": text("pair"), "triple": text("triple"),
    "quad": text("quad"), "general_quad": text("four Generals"), "command": text("command"), "field": text("field"),
    "soldiers3": text("three Soldiers"), "soldiers4": text("four Soldiers"),
    "chan": text("Chắn"), "ca": text("Cạ"), "chiu": text("Chíu"),
}


def describe_answer(option: ClaimOption, code: Any, standing: str) -> Text:
    """The reason of pass or a claim (a win's reason is its family's), given where the hand it leaves stands."""
    if option.kind == "pass":
        return text("pass: the hand stays {standing}", standing=standing)
    cards = " ".join(code(c) for c in option.cards)
    kind = KIND_NAMES.get(option.kind, option.kind)
    if option.follow is None:
        return text("{kind} {cards}: no legal discard follows", kind=kind, cards=cards)
    return text("{kind} {cards}, then discard {card}: {standing}", kind=kind, cards=cards,
                card=code(option.follow.card), standing=standing)


def standing(option: ClaimOption, waits: str, claimable: Text | str = "") -> Text:
    """Where the hand an option leaves stands, in words: waiting on `waits` (its waits as its family writes card
    codes) with their unseen copies and one-card expected gain, or the replacements it still needs and the unseen
    cards that improve it, then `claimable` (a family's clause on a far hand's reach, else nothing)."""
    if option.distance == 0:
        gain = f"{option.expected_gain:.2f}"
        return text("waiting on {cards} ({unseen} unseen), one-card expected gain {gain}", cards=waits,
                    unseen=sum(w.unseen for w in option.waits), gain=gain)
    return text("{replacements}, {improving}{claimable}",
                replacements=ntext("{n} replacement from waiting", "{n} replacements from waiting", option.distance),
                improving=ntext("{n} unseen card improves it", "{n} unseen cards improve it", option.improving_unseen),
                claimable=claimable)


def option_at_rest(kind: str, rest: DiscardOption | None, fallback_distance: int, follows: bool = True,
                   **fields: Any) -> ClaimOption:
    """A non-winning option whose figures are those of the hand it leaves at rest: `rest` (for a claim, the
    follow-up discard, kept as `follow` when `follows`), or with no legal discard after a claim
    `fallback_distance` and no waits."""
    if rest is None:
        return ClaimOption(kind, distance=fallback_distance, waits=(), improving=(), improving_unseen=0,
                           expected_gain=0.0, follow=None, **fields)
    return ClaimOption(kind, distance=rest.distance, waits=rest.waits, improving=rest.improving,
                       improving_unseen=rest.improving_unseen, expected_gain=rest.expected_gain, reach=rest.reach,
                       paying=rest.paying, paying_improving=rest.paying_improving, rich=rest.rich,
                       sets_kept=rest.sets_kept, follow=rest if follows else None,
                       **fields)
