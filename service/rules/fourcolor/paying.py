"""The paying distance of a bga-taiwan hand: how many of its cards must be replaced for a win that pays
(docs/advice.md#paying-distance-bga-taiwan).

A win below the threshold costs the winner (docs/rules.md#fc-settlement: h < 10, the caller pays each opponent
11), so a hand that splits into melds is worth nothing unless its melds score enough. The structural distance
(`distance.py`) counts a hand of ten pairs and a General as complete; the paying distance counts only complete
hands whose exposed melds plus concealed melds score at least the threshold (the lucky card is not known in
advance and is not counted: it can only add points).

Method: the structural distance's groups (per colour its G/A/E and C/H/P, the Soldiers) and targets
(`group_tables.py`), each target now with the most points its cards score as concealed melds. A group's table
gives, for each dropped count U and each score P (capped at the points still needed), the least missing count M
of a target scoring at least P; tables join by (min, +) over U and a capped sum over P. The paying distance of a
hand of n cards is the least U with a target of at least the points needed whose M fits: M <= U + N - n, as for
the structural distance (a smaller target is padded with pairs, which score 0; Generals, which never lower a
score). Tables stop at `CAP` replacements: a hand further than that has paying distance `CAP + 1`.

Cost: one table per canonical group key and threshold (memoised); per hand the joins of the groups without each
group (prefix and suffix joins, some 30-60 us each), then one query per discard; the cards that lower the paying
distance (`paying_improving`) reuse those joins, cut to the paying distance at hand rather than joined again, and
add a join per other group and a query per card for each discard at the least paying distance. Those joins are
never read as tables, only asked whether a card's group table completes them: they are kept as a `Reach` (per
dropped count and score, the least missing minus dropped), which answers that in one look-up per pair of the
card's table instead of a pass over pairs of pairs.
`bench/discards.py` measures the whole answer. Checked against every one-card replacement of a hand and every
discard of a hand plus a card (`tests/rules/test_paying.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import product

from .algebra import INF
from .cards import COPIES, N_KINDS, Tally
from .distance import group_keys, limits_of, place
from .group_tables import SOLDIER_GROUP, _soldier_targets, _triad_targets, canonical, shifted, soldier_counts
from .melds import Meld, MeldRules

CAP = 5  # replacements counted; beyond, CAP + 1 (in play the advice's hands are at most 4 from a paying win)
#: The lowering cards (`paying_improving`) are counted up to this paying distance: in play the advice's hands are
#: at most 4 replacements from a paying win (597 discards of 40 rounds: 0-3, and 15 at 4), and a far hand (a
#: random one) has many tied discards, each costing a join per group.
LOWERING_MOST = 4
#: A rich win is worth at least this many points over the threshold. Each opponent pays every point over it, so a
#: win of threshold + 5 earns 6 times a win at the threshold; the ranking counts the replacements from one after the
#: paying distance. 5 was the best of 2 to 5 in the duplicate arena (docs/advice.md#strength).
RICHER = 5
# [u]: for u cards dropped, the (score, least missing) pairs no other pair beats, in order of missing count
Table = tuple[tuple[tuple[int, int], ...], ...]


def _identical_points(n: int, rules: MeldRules, soldier: bool) -> int | None:
    """Most concealed points of n identical A/E/C/H/P (or same-colour Soldier) cards split into identical melds;
    None when they do not split."""
    if n == 0:
        return 0
    pair = 0 if (not soldier or rules.soldier_pairs) else None
    triple = rules.value("triple", True) if (not soldier or rules.soldier_sets) else None
    quad = rules.value("quad", True) if (not soldier or rules.soldier_sets) else None
    best: int | None = None
    for option, size in ((pair, 2), (triple, 3), (quad, 4)):
        if option is not None and n >= size:
            rest = _identical_points(n - size, rules, soldier) if n > size else 0
            if rest is not None:
                best = max(best if best is not None else -1, option + rest)
    return best


def _generals_points(n: int, rules: MeldRules) -> int:
    """Most points of n Generals left beside commands: singles, or a General quad where it exists."""
    single = rules.value("general", True)
    if n == 4 and rules.allows("general_quad"):
        return max(4 * single, rules.value("general_quad", True))
    return n * single


@cache
def _triad_points(t: tuple[int, int, int], general: bool, rules: MeldRules) -> int:
    """Most concealed points of one colour's G/A/E (`general`) or C/H/P counts `t` split into melds."""
    kind = "command" if general else "field"
    best = -1
    for k in range(min(t) + 1):
        parts = [_generals_points(t[0] - k, rules)] if general else [_identical_points(t[0] - k, rules, False)]
        parts += [_identical_points(n - k, rules, False) for n in t[1:]]
        if all(p is not None for p in parts):
            best = max(best, k * rules.value(kind, True) + sum(p for p in parts if p is not None))
    return best


@cache
def _soldier_sets(rules: MeldRules) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every count of Soldiers per colour that soldiers4 and soldiers3 groups (each missing one colour) take
    together, with the most points they score."""
    s3, s4 = rules.value("soldiers3", True), rules.value("soldiers4", True)
    best: dict[tuple[int, ...], int] = {}
    for n4, *missing in product(range(COPIES + 1), repeat=5):
        export = tuple(n4 + sum(missing) - missing[c] for c in range(4))
        points = n4 * s4 + sum(missing) * s3
        if max(export) <= COPIES and points > best.get(export, -1):
            best[export] = points
    return tuple(best.items())


@cache
def _soldier_points(t: tuple[int, ...], rules: MeldRules) -> int:
    """Most concealed points of Soldier counts `t` (per colour) split into soldiers3/soldiers4 and same-colour
    melds."""
    same = [_identical_points(n, rules, True) for n in range(COPIES + 1)]
    best = -1
    for export, points in _soldier_sets(rules):
        total = points
        for a, e in zip(t, export):
            rest = same[a - e] if a >= e else None
            if rest is None:
                break
            total += rest
        else:
            best = max(best, total)
    return best


def _rows(best: Sequence[int], width: int, top: int = CAP) -> Table:
    """The table of a flat [u * width + p] array of least missing counts (score p exactly, capped), u up to `top`:
    per u the (score, least missing) pairs no other pair of that u beats (more score for no more missing), in order
    of missing count; pairs missing more than any fit within `top` allows are dropped."""
    rows: list[tuple[tuple[int, int], ...]] = []
    for u in range(top + 1):
        kept: list[tuple[int, int]] = []
        least = top + 2
        for i in range(u * width + width - 1, u * width - 1, -1):  # from the highest score down
            if best[i] < least:
                least = best[i]
                kept.append((i - u * width, least))
        kept.reverse()
        rows.append(tuple(kept))
    return tuple(rows)


def _frontier(entries: dict[tuple[int, int], int], need: int) -> Table:
    """The table of a group's (dropped, score) -> least missing entries, scores capped at `need`."""
    width = need + 1
    best = [INF] * ((CAP + 1) * width)
    for (u, p), m in entries.items():
        i = u * width + (p if p < need else need)
        if m < best[i]:
            best[i] = m
    return _rows(best, width)


def _joined(a: Table, b: Table, need: int, top: int) -> list[int]:
    """The flat [u * (need + 1) + p] least missing counts of the pairs of a and b, u <= `top`, missing at most
    top + 1 (INF where none).

    A row's pairs rise in both score and missing count (`_rows`), so a pair's partners are read in order and the
    reading stops at the first whose sum misses more than top + 1 (no join keeps it: `_rows`, `truncated`; no
    `Reach` query can use it: x + y <= top) or reaches the capped score (every later partner gives the same score
    for more missing); the pairs of a stop likewise at the first that reaches the capped score alone."""
    width, bound = need + 1, top + 1
    best = [INF] * ((top + 1) * width)
    for u1, ra in enumerate(a[:top + 1]):
        if not ra:
            continue
        for u2 in range(min(top + 1 - u1, len(b))):
            rb = b[u2]
            if not rb:
                continue
            base = (u1 + u2) * width
            for p1, x in ra:
                if x + rb[0][1] > bound:
                    break
                for p2, y in rb:
                    m = x + y
                    if m > bound:
                        break
                    p = p1 + p2
                    if p >= need:
                        if m < best[base + need]:
                            best[base + need] = m
                        break
                    if m < best[base + p]:
                        best[base + p] = m
                if p1 >= need:
                    break
    return best


def join(a: Table, b: Table, need: int, top: int = CAP) -> Table:
    """(min, +) join over dropped counts and capped sums of scores; only the fits of `top` replacements or fewer
    are kept (CAP: all the tables hold)."""
    return _rows(_joined(a, b, need, top), need + 1, top)


#: For each u <= top and score q <= need: the least (missing - dropped) over the pairs of a table (or a join) with
#: at most u dropped and a score of at least q, flat [u * (need + 1) + q]; `reaches` asks it.
Reach = list[int]


def _reach(best: list[int], width: int, top: int) -> Reach:
    """The `Reach` of a flat [u * width + p] array of least missing counts (score p exactly, capped)."""
    out = [INF] * ((top + 1) * width)
    for u in range(top + 1):
        base, least = u * width, INF
        for i in range(base + width - 1, base - 1, -1):  # from the highest score down: at least q
            m = best[i] - u
            if m < least:
                least = m
            if u and out[i - width] < least:  # fewer dropped
                least = out[i - width]
            out[i] = least
    return out


def reach_of(table: Table, need: int, top: int) -> Reach:
    """The `Reach` of one table, up to `top` dropped."""
    width = need + 1
    best = [INF] * ((top + 1) * width)
    for u, row in enumerate(table[:top + 1]):
        for p, m in row:
            best[u * width + p] = m
    return _reach(best, width, top)


def join_reach(a: Table, b: Table, need: int, top: int) -> Reach:
    """The `Reach` of the join of a and b kept to `top` replacements (the join's pairs, not its table)."""
    return _reach(_joined(a, b, need, top), need + 1, top)


def reaches(reach: Reach, table: Table, need: int, top: int) -> bool:
    """Whether the join of `reach`'s table with `table` holds a target scoring `need` within `top` replacements
    (slack 0): some pair (u2, p2, y) of `table` and (u1, p1, x) of the other with u1 + u2 <= top, p1 + p2 >= need
    and x + y <= u1 + u2, i.e. reach[top - u2][need - p2] <= u2 - y. O(pairs of `table`)."""
    width = need + 1
    for u2, row in enumerate(table[:top + 1]):
        base = (top - u2) * width + need
        for p2, y in row:
            if reach[base - (p2 if p2 < need else need)] <= u2 - y:
                return True
    return False


UNIT: Table = ((((0, 0),),) + ((),) * CAP)


def _group_entries(held: Sequence[int], targets: Sequence[Sequence[int]], points: Sequence[int]
                   ) -> dict[tuple[int, int], int]:
    """(dropped, score) -> least missing over these targets."""
    out: dict[tuple[int, int], int] = {}
    for t, p in zip(targets, points):
        u = m = 0
        for h, n in zip(held, t):
            if h > n:
                u += h - n
            else:
                m += n - h
        if u <= CAP:
            key = (u, p)
            if m < out.get(key, INF):
                out[key] = m
    return out


@lru_cache(maxsize=1 << 14)
def _triad_table(held: tuple[int, ...], lim: tuple[int, ...], general: bool, rules: MeldRules, cap: int) -> Table:
    """The paying table of one colour's G/A/E (`general`) or C/H/P, scores capped at `cap`."""
    targets = _triad_targets(lim, general)
    points = [_triad_points(t, general, rules) for t in targets]
    return _frontier(_group_entries(held, targets, points), cap)


def group_table(group: int, key: tuple[int, ...], rules: MeldRules, threshold: int) -> Table:
    """The paying table of one group of a hand (its key as `distance.Groups.keys` gives it), scores capped at the
    threshold: one table whatever the exposed melds, since capping a join at the points still needed (at most the
    threshold) gives the same as capping the scores at that first. Interchangeable cards (a colour's A and E, its
    C, H and P, the Soldiers' colours) score alike, so their canonical key's table is the table."""
    return _group_table(group, canonical(group, key), rules, threshold)


@lru_cache(maxsize=1 << 15)
def _group_table(group: int, key: tuple[int, ...], rules: MeldRules, cap: int) -> Table:
    """`group_table` of a canonical key, scores capped at `cap` (the threshold)."""
    if group < SOLDIER_GROUP:
        return join(_triad_table(key[:3], key[6:9], True, rules, cap),
                    _triad_table(key[3:6], key[9:], False, rules, cap), cap)
    if group == SOLDIER_GROUP:
        held, lim = key[:4], key[4:]
        targets = _soldier_targets(lim, soldier_counts(rules))
        points = [_soldier_points(t, rules) for t in targets]
        return _frontier(_group_entries(held, targets, points), cap)
    raise ValueError("the paying distance is for bga-taiwan hands: no flowers")


def fits(a: Table, b: Table, need: int, slack: int) -> int:
    """The least U <= CAP whose join of a and b holds a target scoring `need` with M <= U + slack; else CAP + 1."""
    for u in range(CAP + 1):
        bound = u + slack
        for u1 in range(max(0, u - len(b) + 1), min(u, len(a) - 1) + 1):
            ra, rb = a[u1], b[u - u1]
            if ra and rb:
                for p1, x in ra:
                    if x > bound:
                        break
                    for p2, y in rb:
                        if p1 + p2 >= need and x + y <= bound:
                            return u
    return CAP + 1


def truncated(table: Table, top: int) -> Table:
    """`table` as a join kept to `top` replacements would give it: rows up to `top`, pairs missing at most top + 1."""
    bound = top + 1
    return tuple(row if not row or row[-1][1] <= bound else tuple(e for e in row if e[1] <= bound)
                 for row in table[:top + 1])


class _Without:
    """Joins of a hand's group tables without one group, or two (memoised): prefix and suffix joins first, then
    at most two joins each; only fits of `top` replacements or fewer are kept."""

    def __init__(self, tables: Sequence[Table], need: int, top: int = CAP) -> None:
        self.tables, self.need, self.top = tables, need, top
        self.prefix, self.suffix = [tables[0]], [tables[-1]]  # prefix[i]: tables 0..i; suffix[i]: n-1-i..n-1
        for t in tables[1:-1]:
            self.prefix.append(join(self.prefix[-1], t, need, top))
        for t in tables[-2:0:-1]:
            self.suffix.append(join(self.suffix[-1], t, need, top))
        self.found: dict[tuple[int, ...], Table] = {}

    def within(self, top: int) -> _Without:
        """The same joins keeping only fits of `top` (<= self.top) replacements or fewer: the tables cut, not joined
        again (a join's rows up to `top` do not depend on the rows past it, and the pairs missing more than `top`
        + 1 are exactly those a join kept to `top` drops)."""
        cut = _Without.__new__(_Without)
        cut.tables, cut.need, cut.top = [truncated(t, top) for t in self.tables], self.need, top
        cut.prefix, cut.suffix = [truncated(t, top) for t in self.prefix], [truncated(t, top) for t in self.suffix]
        cut.found = {k: truncated(t, top) for k, t in self.found.items()}
        return cut

    def _before(self, a: int) -> Table | None:
        """Tables 0..a-1 joined (None: none)."""
        return self.prefix[a - 1] if a > 0 else None

    def _after(self, b: int) -> Table | None:
        """Tables b+1..n-1 joined (None: none)."""
        n = len(self.tables)
        return self.suffix[n - 2 - b] if b < n - 1 else None

    def _join_all(self, parts: Sequence[Table | None]) -> Table:
        found = None
        for part in parts:
            if part is not None:
                found = part if found is None else join(found, part, self.need, self.top)
        return UNIT if found is None else found

    def one(self, a: int) -> Table:
        """Every table but a's."""
        table = self.found.get((a,))
        if table is None:
            table = self.found[a,] = self._join_all((self._before(a), self._after(a)))
        return table

    def two(self, a: int, b: int) -> Table:
        """Every table but a's and b's."""
        a, b = min(a, b), max(a, b)
        table = self.found.get((a, b))
        if table is None:
            table = self.found[a, b] = self._join_all((self._before(a), *self.tables[a + 1:b], self._after(b)))
        return table


def needed(rules: MeldRules, exposed: Sequence[Meld], threshold: int) -> int:
    """Points the concealed melds must still score (the exposed melds score their exposed values)."""
    return max(0, threshold - sum(m.points(rules) for m in exposed))


class _Hand:
    """A concealed hand's groups as the paying distance sees them: the points still needed, the copy limits, the
    group keys and tables, and the joins without each group (built once, shared by the distances and the lowering
    cards)."""

    def __init__(self, tally: Tally, rules: MeldRules, exposed: Sequence[Meld], threshold: int) -> None:
        self.tally, self.rules, self.threshold = tally, rules, threshold
        self.need = needed(rules, exposed, threshold)
        self.limits = limits_of(exposed, rules.flowers)
        self.keys = group_keys(tally, self.limits, False)
        self.tables = [group_table(g, k, rules, threshold) for g, k in enumerate(self.keys)]
        self.without = _Without(self.tables, self.need)

    def distances(self, discards: Sequence[int], slack: int) -> dict[int, int]:
        """`paying_distances` of this hand."""
        rests, keys, rules, threshold, need = self.without.one, self.keys, self.rules, self.threshold, self.need
        out: dict[int, int] = {}
        for x in discards:
            a, p = place(x)
            out[x] = fits(rests(a), group_table(a, shifted(keys[a], p, -1), rules, threshold), need, slack)
        return out


def paying_distances(tally: Tally, rules: MeldRules, exposed: Sequence[Meld], discards: Sequence[int],
                     threshold: int, slack: int = 1) -> dict[int, int]:
    """The paying distance after each of `discards` (each held), a waiting target: the rest plus `slack` cards."""
    return _Hand(tally, rules, exposed, threshold).distances(discards, slack)


def paying_distance(tally: Tally, rules: MeldRules, exposed: Sequence[Meld], threshold: int, slack: int) -> int:
    """The paying distance of the concealed `tally` to a complete hand of its size plus `slack` cards."""
    need = needed(rules, exposed, threshold)
    keys = group_keys(tally, limits_of(exposed, rules.flowers), False)
    joined = UNIT
    for g, k in enumerate(keys[:-1]):
        joined = join(joined, group_table(g, k, rules, threshold), need)
    return fits(joined, group_table(len(keys) - 1, keys[-1], rules, threshold), need, slack)


def paying_improving(tally: Tally, rules: MeldRules, exposed: Sequence[Meld], discards: Sequence[int],
                     threshold: int, unseen: Sequence[int], now: int) -> dict[int, int]:
    """For each of `discards` (each leaving paying distance `now`, 1 to CAP): the unseen copies of the cards y that
    bring the hand it leaves one replacement closer to a win that pays. The 20 cards R left plus y are 21: y
    improves R when R + y is `now` replacements from a complete paying hand (one fewer than R + any card that
    does not help). Per discard one join per other group (the tables without its group and y's, memoised, as a
    `Reach`) and one look-up per pair of each card's group table."""
    return _improving(_Hand(tally, rules, exposed, threshold), discards, unseen, now)


def _improving(hand: _Hand, discards: Sequence[int], unseen: Sequence[int], now: int) -> dict[int, int]:
    """`paying_improving` of a hand."""
    rules, threshold, need, keys, limits, tally = (hand.rules, hand.threshold, hand.need, hand.keys, hand.limits,
                                                   hand.tally)
    without = hand.without.within(now)  # only fits of `now` replacements or fewer count
    rests, without_two = without.one, without.two
    out: dict[int, int] = {}
    beside: dict[tuple[int, tuple[int, ...], int], Reach] = {}  # (a, canonical own key, b) -> rest of group b
    own: dict[int, Reach] = {}  # a -> every group but a
    verdicts: dict[tuple[int, tuple[int, ...], int, tuple[int, ...]], bool] = {}
    places = [place(y) for y in range(N_KINDS)]
    # a card of another group than the discard's adds to the hand's own key: its canonical key once per hand
    plus = [canonical(b, shifted(keys[b], q, 1)) if keys[b][q] < limits[y] else () for y, (b, q) in enumerate(places)]
    for x in discards:
        a, p = place(x)
        key_a = shifted(keys[a], p, -1)
        mine = canonical(a, key_a)  # discards of interchangeable cards leave the same tables
        total = 0
        for y in range(N_KINDS):
            if not unseen[y] or tally.counts[y] - (y == x) >= limits[y]:
                continue
            b, q = places[y]
            theirs = plus[y] if b != a else canonical(a, shifted(key_a, q, 1))
            verdict = verdicts.get((a, mine, b, theirs))
            if verdict is None:
                if b == a:
                    rest = own.get(a) or own.setdefault(a, reach_of(rests(a), need, now))
                else:
                    rest = beside.get((a, mine, b)) or beside.setdefault((a, mine, b), join_reach(
                        without_two(a, b), _group_table(a, mine, rules, threshold), need, now))
                verdict = verdicts[a, mine, b, theirs] = reaches(rest, _group_table(b, theirs, rules, threshold),
                                                                 need, now)
            if verdict:
                total += unseen[y]
        out[x] = total
    return out


def ranking_figures(tally: Tally, rules: MeldRules, exposed: Sequence[Meld], discards: Sequence[int],
                    threshold: int, unseen: Sequence[int], lowering: bool = True, rich: bool = True
                    ) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """What the ranking needs of each discard (the advice's `ranking.hand_key`): its paying distance; for the
    discards at the least one their distance to a rich win, one of at least `threshold + RICHER` points (the same
    count with that threshold; none without `rich`), and at a least paying distance of 1 to LOWERING_MOST the
    unseen cards that lower it (none without `lowering`). The other discards rank below them on the paying
    distance alone."""
    hand = _Hand(tally, rules, exposed, threshold)
    paying = hand.distances(discards, 1)
    low = min(paying.values(), default=0)
    tied = [x for x, d in paying.items() if d == low]
    richer = _Hand(tally, rules, exposed, threshold + RICHER).distances(tied, 1) if rich else {}
    if not lowering or not 1 <= low <= LOWERING_MOST:
        return paying, {}, richer
    return paying, _improving(hand, tied, unseen, low), richer
