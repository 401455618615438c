"""Frozen baselines of the advice: arena policies loaded by their name, `py:bench.baselines.MODULE:FACTORY`
(docs/bots.md#python-policies), that later advice is measured against."""
