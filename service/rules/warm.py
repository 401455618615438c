"""Build the evaluation tables of every rule-set's default profile ahead of the first request."""

from __future__ import annotations

import time

from .registry import all_rulesets


def warm_tables() -> float:
    """Build (and cache) the default profiles' tables; return the seconds it took."""
    from .fourcolor.evaluate import evaluator_for

    start = time.perf_counter()
    for ruleset in all_rulesets():
        if ruleset.family == "fourcolor":
            evaluator_for(ruleset.meld_rules(ruleset.resolve_options(None)))
    return time.perf_counter() - start
