"""Build the evaluation tables of every rule-set's default profile ahead of the first request: the rules' tables,
filled by the advice's own discard analyses."""

from __future__ import annotations

import gc
import random
import time

from ..rules.registry import all_rulesets
from .analyse import analyse_discards

WARM_HANDS = 40  # seeded hands analysed per Four Color rule-set: fills the commonest distance tables


def warm_tables() -> float:
    """Build (and cache) the default profiles' tables; return the seconds it took.

    Besides the decomposition tables, a few discard analyses fill the distance tables' caches with the
    commonest groups, so the first /v1/discards requests do not pay for them (about 0.1 s in all). Then the
    objects made so far are frozen out of garbage collection: the tables are a quarter of a million objects that
    never die, which every full collection would otherwise walk (100-170 ms each), and frozen objects stay
    shared between the processes forked from this one."""
    from ..rules.fourcolor import samples
    from ..rules.fourcolor.cards import code
    from ..rules.fourcolor.evaluate import evaluator_for

    start = time.perf_counter()
    for ruleset in all_rulesets():
        if ruleset.meld_rules(ruleset.resolve_options(None)) is None:
            continue  # melds without points (Chắn's pairs): no tables to build
        options = ruleset.resolve_options(None)
        rules = ruleset.meld_rules(options)
        evaluator_for(rules)
        rng = random.Random(0)
        for i in range(WARM_HANDS):
            cards = (samples.near_miss if i % 2 else samples.random_hand)(rng, rules, 21)
            analyse_discards(ruleset, ruleset.parse(options, [code(c) for c in cards]), options, (), 4)
    gc.collect()
    gc.freeze()
    return time.perf_counter() - start
