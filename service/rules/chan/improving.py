"""Improving cards for the Chắn discard analysis (`discards`, docs/rules.md#chan): per legal discard, the distance of
the hand it leaves and the cards that bring that hand one replacement closer.

The tables, forward passes and scans are those of `distance` (the method is described there), built with the
faces a discard may take flagged: the mask of legal discards (an odd count, not forbidden by his history). The
hand's pass serves every discard: a discard changes one face, so only its value's table and the values from it
on are redone (all of them when the hand it leaves is beyond the bound the hand was passed at).

A card y improves a hand at distance d >= 1 (after y some legal discard leaves d - 1) exactly when a target at d
replacements misses y, drops a card that is a legal discard, and misses another card that may come (Chi chi
only with 6 Chắn). A backward pass over the per-value tables marks the states after each value that still reach
such a target; an option of a value then counts when the states before it meet them. The one case left, a
target d - 1 away missing only Chi chi with more than 6 Chắn, is tested for Chi chi as defined.

Cost: a 20-card hand takes one forward pass; each discard redoes the values from its own on (forward) and up to
it (backward). No discard leaves less than the hand's complete distance minus one, so which discards leave that
least takes one backward pass for the hand and one value per discard (`lowest_discards`): the search ranks only
those.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .captures import History, forbidden_faces, legal_faces
from .cards import CHI_CHI
from .distance import (
    UNREACHABLE,
    Frame,
    Layout,
    Options,
    Shifts,
    check_size,
    fewest_replacements,
    forward,
    frame_of,
    layout,
    scan,
    value_options,
    value_shifts,
    value_tables,
)
from .pairs import Pair


def _mask(faces: Iterable[int]) -> int:
    """Faces as a bit mask."""
    mask = 0
    for f in faces:
        mask |= 1 << f
    return mask


#: Per face, the other suits of its value (Chi chi: none): what rule 6 forbids once that face is discarded.
MATES = tuple(0 if f == CHI_CHI else _mask(g for g in range(f - f % 3, f - f % 3 + 3) if g != f)
              for f in range(CHI_CHI + 1))


class _Pass(NamedTuple):
    """One hand's tables at one bound and the states after each prefix of the values."""

    lay: Layout
    tables: list[Shifts]
    chi_chi: Options
    pre: list[tuple[int, int]]


def _pass(counts: Sequence[int], frame: Frame, legal: int, bound: int, base: _Pass | None = None,
          changed: int = CHI_CHI) -> _Pass:
    """The tables of `counts`; with `base` (a hand at the same bound differing from it in face `changed` only, its
    legal faces only in that face's value) reuse its prefix, and its Chi chi options unless Chi chi changed."""
    if base is None or changed == CHI_CHI:
        lay = layout(bound, frame.cap)
        chi_chi = value_options((counts[CHI_CHI],), (frame.limits[CHI_CHI],), legal >> CHI_CHI & 1)
        if base is None:
            tables, _ = value_tables(counts, frame, legal, bound)
            return _Pass(lay, tables, chi_chi, forward(tables, lay.valid))
        return _Pass(lay, base.tables, chi_chi, base.pre)
    v, at = changed // 3, changed - changed % 3
    tables = list(base.tables)
    tables[v] = value_shifts(tuple(counts[at:at + 3]), frame.limits[at:at + 3], legal >> at & 7, bound, frame.cap)
    return _Pass(base.lay, tables, base.chi_chi, base.pre[:v] + forward(tables[v:], base.lay.valid, base.pre[v]))


class Shared(NamedTuple):
    """What every discard of one hand reuses: the exposed pairs' frame, the hand's pass, the needs by goal, and
    what the legal faces after a discard are read from: the hand's odd faces, the faces its history forbids
    (masks) and whether he captured a Cạ (then rule 6 forbids the discard's other suits too)."""

    frame: Frame
    base: _Pass
    needs: dict[tuple[int, Options], list[Sequence[int]]]
    odd: int = 0
    forbid: int = 0
    captured_ca: bool = False

    def legal_after(self, x: int) -> int:
        """Faces a discard may take (mask) once he discarded `x`: `legal_faces` of the hand without x, his history
        then holding x (its forbidden faces are the history's and, having captured a Cạ, the other suits of x)."""
        forbid = self.forbid | MATES[x] if self.captured_ca else self.forbid
        return (self.odd ^ 1 << x) & ~forbid


def shared_tables(counts: list[int], exposed: tuple[Pair, ...], history: History) -> tuple[Shared | None, int]:
    """The tables every discard of a 20-card hand reuses, at a bound one above the hand's complete distance, and
    that distance."""
    frame = frame_of(exposed)
    check_size(counts, frame, 0)
    bound, now, shared = 1, UNREACHABLE, None
    odd, forbid = _mask(f for f, n in enumerate(counts) if n & 1), _mask(forbidden_faces(history))
    while frame.cap >= 0:
        base = _pass(counts, frame, odd & ~forbid, bound)
        now, _ = scan(base.pre[-1][0] | base.pre[-1][1], base.lay, base.chi_chi, 0, sum(counts) - counts[CHI_CHI])
        shared = Shared(frame, base, {}, odd, forbid, history.captured_ca)
        if now < bound or bound > frame.size:
            break  # a discard leaves at most one replacement more: within the bound
        bound = now + 1 if now < UNREACHABLE else 2 * bound + 1
    return shared, now


class Rest(NamedTuple):
    """The hand a discard leaves: its distance, fewest dropped cards, pass, and whether the pass reused the base."""

    d: int
    u_min: int
    found: _Pass
    reused: bool


def rest_distance(rest: list[int], shared: Shared, changed: int, legal: int | None = None) -> Rest:
    """Distance of the hand a discard of `changed` leaves (the legal faces flagged as his history will then be,
    unless `legal` gives them)."""
    frame, base = shared.frame, shared.base
    legal = shared.legal_after(changed) if legal is None else legal
    suited = sum(rest) - rest[CHI_CHI]
    bound = base.lay.bound
    start: _Pass | None = base  # past the base's bound a fresh pass, without it
    while True:
        found = _pass(rest, frame, legal, bound, start, changed)
        d, u_min = scan(found.pre[-1][0] | found.pre[-1][1], found.lay, found.chi_chi, 1, suited)
        if d <= bound or bound > frame.size:
            return Rest(d, u_min, found, start is not None)
        bound, start = max(2 * bound, d), None


def lowest_discards(counts: list[int], shared: Shared, now: int, faces: Sequence[int]) -> list[int]:
    """The discards among `faces` that leave distance `now` - 1, the least a discard can leave (`now`: the hand's
    complete distance; the hand at d replacements plus the card to come, with the discard replaced by that card,
    is the hand at d + 1 replacements), in the order given; empty when `now` is 0, unreachable or beyond the
    pass's bound.

    Distances only, so the flags do not matter: one backward pass from the targets at `now` - 1 over the hand's
    tables gives the states after each value that reach them (the values after a discard's own are unchanged),
    and a suited discard leaves `now` - 1 when an option of its value's new table joins the states before it to
    those. Which targets count is `scan`'s reading at `now` - 1: a suited card missing, or Chi chi alone with 4
    Cạ. (`scan`'s other case, a target missing only Chi chi that costs one replacement more, cannot arise one
    replacement lower: that target with the discard for Chi chi would make the whole hand win within `now` - 1.)
    A Chi chi discard (its own table changes) is passed as `rest_distance` does."""
    base = shared.base
    lay, t = base.lay, now - 1
    if not 0 <= t < lay.bound or now >= UNREACHABLE:
        return []
    block, top = (1 << lay.cap + 1) - 1, 1 << lay.cap
    goal = 0
    for u_c, m_c, _, _, _ in base.chi_chi:
        u_s, m_s = t - u_c, t + 1 - m_c
        if u_s >= 0 and 0 <= m_s <= lay.bound + 1:
            goal |= (block if m_s else top) << u_s * lay.u_stride + m_s * lay.m_stride
    needs = [goal] * len(base.tables)
    for v in range(len(base.tables) - 1, 0, -1):
        plain, flagged, _ = base.tables[v]
        need, back = needs[v], 0
        for shift in plain:
            back |= need >> shift
        for shift in flagged:
            back |= need >> shift
        needs[v - 1] = back & lay.valid
    frame, out = shared.frame, []
    for x in faces:
        if x == CHI_CHI:
            rest = list(counts)
            rest[x] -= 1
            if rest_distance(rest, shared, x).d == t:
                out.append(x)
            continue
        v, at = x // 3, x - x % 3
        held = list(counts[at:at + 3])
        held[x - at] -= 1
        plain, flagged, _ = value_shifts(tuple(held), frame.limits[at:at + 3], shared.legal_after(x) >> at & 7,
                                         lay.bound, frame.cap)
        before, need = base.pre[v][0] | base.pre[v][1], needs[v]
        if any(before << shift & need for shift in plain) or any(before << shift & need for shift in flagged):
            out.append(x)
    return out


def _goal(last: tuple[int, int], lay: Layout, chi_chi: Options, d: int) -> tuple[int, int, bool]:
    """The targets T at d replacements (d >= 1) that make a missing y improve: T drops a legal discard (the
    flag, from the suited values or Chi chi) and keeps a card to come besides y (Chi chi only with 4 Cạ, i.e.
    6 Chắn). Returns the suited states (unflagged, flagged) that complete such a T for a suited y, and whether
    the states after every suited value `last` complete one that misses Chi chi (y = Chi chi)."""
    goal0 = goal1 = 0
    chi_chi_missed = False
    every, top = (1 << lay.cap + 1) - 1, 1 << lay.cap
    for u_c, m_c, _, flag_c, _ in chi_chi:
        u_s, m_s = d - u_c, d + 1 - m_c
        if u_s < 0 or not 0 <= m_s <= lay.bound + 1:
            continue
        at = u_s * lay.u_stride + m_s * lay.m_stride
        cas = (every if m_s >= 2 else top) << at  # a second suited card missing, or 4 Cạ
        goal1 |= cas
        goal0 |= cas if flag_c else 0
        states = last[1] | (last[0] if flag_c else 0)
        chi_chi_missed |= bool(m_c and states >> at & (every if m_s else top))
    return goal0, goal1, chi_chi_missed


def _back(need: Sequence[int], table: Shifts, valid: int) -> tuple[int, int]:
    """The states before one value from which one of its options reaches `need`."""
    plain, flagged, _ = table
    n0, n1 = need
    r0 = r1 = 0
    if n0 and n1:
        # both halves in one int, the flagged one `wide` bits up (as `forward` does): what a shift moves out of
        # the upper half stays above valid's width
        wide = 2 * valid.bit_length()
        both = n0 | n1 << wide
        for shift in plain:
            r0 |= both >> shift
        r1 = r0 >> wide
    elif n0:
        for shift in plain:
            r0 |= n0 >> shift
    elif n1:  # an empty half (often the unflagged one) costs no shifts
        for shift in plain:
            r1 |= n1 >> shift
    if n1:
        back = 0
        for shift in flagged:
            back |= n1 >> shift
        r0 |= back
        r1 |= back
    return r0 & valid, r1 & valid


def _needs(tables: list[Shifts], lay: Layout, goal: Sequence[int], shared: list[Sequence[int]] | None = None,
           value: int = 7) -> list[Sequence[int]]:
    """needs[g]: the states after values 0..g from which values g+1.. reach `goal`. `shared` holds them for
    tables that differ from these at `value` only, so needs[value..] are taken from it."""
    needs: list[Sequence[int]] = list(shared) if shared else [goal] * len(tables)
    for g in range(value, 0, -1):
        needs[g - 1] = _back(needs[g], tables[g], lay.valid)
    return needs


def _improving(pre: list[tuple[int, int]], tables: list[Shifts], needs: list[Sequence[int]]) -> int:
    """Suited faces (mask) some option joins into a goal state: the missing faces of those targets."""
    faces = 0
    for v, (p0, p1) in enumerate(pre[:-1]):
        n0, n1 = needs[v]
        if not (n0 or n1):
            continue  # no goal to reach
        either, got = p0 | p1, 0  # got: the value's faces found so far
        for shift, flag, missing in tables[v][2]:
            if missing & ~got and (either & n1 >> shift if flag else p0 & n0 >> shift or p1 & n1 >> shift):
                got |= missing
                if got == 7:
                    break  # every face of the value found
        faces |= got << 3 * v
    return faces


def improving_faces(rest: list[int], after: History, shared: Shared, changed: int, at: Rest) -> int:
    """Improving faces (mask) of the hand a discard of `changed` leaves at distance `at.d`."""
    d, found = at.d, at.found
    if d == 0 or d == UNREACHABLE:
        return 0
    *goal, chi_chi_missed = _goal(found.pre[-1], found.lay, found.chi_chi, d)
    if not at.reused:
        needs = _needs(found.tables, found.lay, goal)
    else:
        key = (d, found.chi_chi)
        if key not in shared.needs:
            shared.needs[key] = _needs(shared.base.tables, found.lay, goal)
        needs = _needs(found.tables, found.lay, goal, shared.needs[key], changed // 3 if changed < CHI_CHI else 0)
    faces = _improving(found.pre, found.tables, needs)
    if chi_chi_missed or at.u_min == d - 1 and _chi_chi_improves(rest, shared.frame, after, d):
        faces |= 1 << CHI_CHI
    return faces


def _chi_chi_improves(rest: list[int], frame: Frame, after: History, d: int) -> bool:
    """Chi chi as the next card, tested as defined: the rare case where a target d - 1 cards away misses only
    Chi chi and has more than 6 Chắn, so that a card the hand keeps must be the card to come."""
    if rest[CHI_CHI] >= frame.limits[CHI_CHI]:
        return False
    grown = list(rest)
    grown[CHI_CHI] += 1
    for z in legal_faces(grown, forbidden_faces(after)):
        grown[z] -= 1
        lower = fewest_replacements(grown, frame, 1) == d - 1
        grown[z] += 1
        if lower:
            return True
    return False
