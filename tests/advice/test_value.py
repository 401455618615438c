"""The value model: the features of hand-made options worked out by hand, the shipped model files' schema, that each
loads for every rule-set, and that a missing or broken file is an error, never a value of zero."""

from __future__ import annotations

import json

import pytest

from service.advice import value
from service.advice.value import (
    DISTANCES,
    FEATURES,
    ModelMissing,
    ValueModel,
    bucket,
    calibrated,
    features,
    load_model,
    parse,
)
from service.rules.analysis import ClaimOption, DiscardOption, Wait, option_at_rest
from service.rules.registry import all_rulesets, get_ruleset

WAITS = (Wait(card=1, unseen=3, claims=("discard",), points=10, gain=12),
         Wait(card=2, unseen=1, claims=("stock",), points=4, gain=-6))


def test_features_of_a_waiting_discard_by_hand():
    """Two waits over 80 unseen cards: 3 copies gaining 12, 1 copy costing 6 (its gain floored at 0)."""
    option = DiscardOption(card=5, distance=0, waits=WAITS, improving=((7, 2),), improving_unseen=2,
                           expected_gain=36 / 80, card_unseen=2)
    # bias, eg, wait_share 4/80, wait_gain 36/4, costly 1/80, improving 2/80, stage .8, eg*.8, .05*.8, card_unseen,
    # sets_kept (none counted: a Four Color option)
    assert features(option, 80) == pytest.approx(
        (1.0, 0.45, 0.05, 9.0, 0.0125, 0.025, 0.8, 0.36, 0.04, 2.0, 0.0))


def test_the_sets_kept_feature_reads_the_hand_left_at_rest():
    """A Chắn discard's `sets_kept` is its last feature; a claim or pass has the count of the hand it leaves at rest
    (`option_at_rest` copies it from the follow-up or the resting hand)."""
    kept = DiscardOption(card=5, distance=1, waits=(), improving=(), improving_unseen=0, expected_gain=0.0,
                         sets_kept=7)
    assert features(kept, 80)[-1] == 7.0
    assert features(option_at_rest("pass", kept, 1, follows=False, cards=(), claim=None), 80)[-1] == 7.0
    assert features(option_at_rest("chan", kept, 1, cards=(5, 5), claim=object()), 80)[-1] == 7.0


def test_features_of_a_far_claim_and_of_pass():
    """A claim takes its follow-up discard's unseen copies; pass has none; no waits give zero wait figures."""
    follow = DiscardOption(card=9, distance=2, waits=(), improving=(), improving_unseen=10, expected_gain=0.0,
                           card_unseen=3)
    claim = ClaimOption("pong", (4, 4, 4), object(), follow, 2, (), (), 10, 0.0)
    passing = ClaimOption("pass", (), None, None, 2, (), (), 10, 0.0)
    assert features(claim, 50) == pytest.approx((1.0, 0.0, 0.0, 0.0, 0.0, 0.2, 0.5, 0.0, 0.0, 3.0, 0.0))
    assert features(passing, 50)[FEATURES.index("card_unseen")] == 0.0
    assert len(FEATURES) == len(features(passing, 50))


def test_distances_share_the_last_bucket():
    assert [bucket(d) for d in (-1, 0, 1, 2, 3, 7, 99)] == [0, 0, 1, 2, 3, 3, 3]


def model(objective: str = "expected_settlement") -> ValueModel:
    """A hand-made model: distance d's bias is -d, expected gain weighs 2."""
    rows = tuple(tuple([-float(d), 2.0] + [0.0] * (len(FEATURES) - 2)) for d in range(DISTANCES))
    return ValueModel("toy", "v", objective, rows, {})


def test_value_is_the_linear_model_of_the_distance_and_a_win_is_what_it_settles():
    option = DiscardOption(card=5, distance=1, waits=(), improving=(), improving_unseen=0, expected_gain=0.5)
    assert model().value(option, 80) == pytest.approx(-1 + 1.0)
    win = ClaimOption("hu", (), object(), None, -1, (), (), 0, 30.0, gain=30)
    assert model().value(win, 80) == 30.0
    assert model("win_probability").value(win, 80) == 1.0


def test_the_calibration_map_by_hand():
    """Knots (0, 0), (1, 2), (3, 3): linear between them, slope 1 beyond the ends, the identity without knots."""
    knots = ((0.0, 0.0), (1.0, 2.0), (3.0, 3.0))
    assert [calibrated(knots, x) for x in (0.5, 1.0, 2.0, 3.0)] == pytest.approx([1.0, 2.0, 2.5, 3.0])
    assert calibrated(knots, -1.0) == pytest.approx(-1.0) and calibrated(knots, 5.0) == pytest.approx(5.0)
    assert calibrated((), 1.234) == 1.234
    assert calibrated(((2.0, 5.0),), 3.0) == pytest.approx(6.0)  # one knot: a shift


def test_a_calibrated_model_bends_the_linear_score_and_a_win_stays_what_it_settles():
    """The value of an option is the map of its linear score; a win option is not mapped."""
    bent = ValueModel("toy", "v", "expected_settlement", model().weights, {}, ((0.0, 0.0), (1.0, 3.0)))
    option = DiscardOption(card=5, distance=0, waits=(), improving=(), improving_unseen=0, expected_gain=0.25)
    assert bent.linear(0, features(option, 80)) == pytest.approx(0.5)
    assert bent.value(option, 80) == pytest.approx(1.5)
    win = ClaimOption("hu", (), object(), None, -1, (), (), 0, 30.0, gain=30)
    assert bent.value(win, 80) == 30.0


@pytest.mark.parametrize("ruleset", [r.id for r in all_rulesets()])
def test_a_shipped_map_never_reorders_two_options(ruleset):
    """The map rises strictly: over scores from -40 to +40 (every linear score met in play lies inside), a higher
    linear score is always a higher value, so ranking by value is ranking by the linear score."""
    loaded = load_model(ruleset)
    assert len(loaded.knots) >= 2
    grid = [x / 10 for x in range(-400, 401)]
    mapped = [calibrated(loaded.knots, x) for x in grid]
    assert all(a < b for a, b in zip(mapped, mapped[1:]))


@pytest.mark.parametrize("ruleset", [r.id for r in all_rulesets()])
def test_every_ruleset_ships_a_valid_model(ruleset):
    """The file's schema: format, features, one row per distance, the objective of the rule-set's defaults, its
    provenance (command, seed, judged seeds kept apart) and data summary."""
    document = json.loads(value.model_path(ruleset).read_text(encoding="utf-8"))
    loaded = load_model(ruleset)
    rs = next(r for r in all_rulesets() if r.id == ruleset)
    assert loaded.objective == rs.objective(rs.resolve_options({}))
    assert document["features"] == list(FEATURES) and len(document["weights"]) == DISTANCES
    assert document["format"] == value.FORMAT == 3 and loaded.version.startswith(f"value-3/{ruleset}/")
    assert len(document["calibration"]["knots"]) >= 2
    training, data = document["training"], document["data"]
    assert training["command"].startswith(f"python -m service learn --ruleset {ruleset} ")
    assert training["seed"] < 7001 and "7001" in training["judged_on"]
    assert data["decisions"] > data["rounds"] > 0 and data["target_sd"] > 0
    assert loaded.version == document["version"]


def test_a_missing_model_is_an_error_not_zero(tmp_path, monkeypatch):
    monkeypatch.setattr(value, "MODELS", tmp_path)
    value.load_model.cache_clear()
    try:
        with pytest.raises(ModelMissing, match="no valid value model"):
            load_model("bga-taiwan")
        (tmp_path / "bga-taiwan.json").write_text('{"format": 1}', encoding="utf-8")
        with pytest.raises(ModelMissing):
            load_model("bga-taiwan")
    finally:
        value.load_model.cache_clear()


def test_a_model_of_another_shape_is_refused():
    good = {"format": 3, "ruleset": "x", "version": "v", "objective": "win_probability", "features": list(FEATURES),
            "weights": [[0.0] * len(FEATURES)] * DISTANCES, "calibration": {"knots": [[0, 0.1], [1, 0.5]]}}
    assert parse(good, "x").objective == "win_probability"
    assert parse(good, "x").knots == ((0.0, 0.1), (1.0, 0.5))
    for broken in ({**good, "ruleset": "y"}, {**good, "features": ["bias"]}, {**good, "weights": [[0.0]]},
                   {**good, "objective": "fun"}, {**good, "format": 1},
                   {k: v for k, v in good.items() if k != "calibration"}, {**good, "calibration": {"knots": []}},
                   {**good, "calibration": {"knots": [[0, 0.5], [1, 0.5]]}},
                   {**good, "calibration": {"knots": [[1, 0.1], [0, 0.5]]}},
                   {**good, "calibration": {"knots": [[0, "nan"], [1, 0.5]]}},
                   {**good, "calibration": {"knots": [[0, 0.1, 2]]}}):
        with pytest.raises(ValueError):
            parse(broken, "x")


def test_a_values_unit_follows_the_objective():
    """Points wherever a win is paid for; wins where nobody pays (cardavia-flowers' default, docs/rules.md#fl-payment),
    and points again once its option makes the losers pay; every shipped model's objective names a unit."""
    flowers = get_ruleset("cardavia-flowers")
    assert value.unit_of(flowers.objective(flowers.resolve_options({}))) == "wins"
    assert value.unit_of(flowers.objective(flowers.resolve_options({"payment": "each_loser_pays"}))) == "points"
    for ruleset in ("bga-taiwan", "cardavia-chan"):
        found = get_ruleset(ruleset)
        assert value.unit_of(found.objective(found.resolve_options({}))) == "points"
    assert {value.unit_of(load_model(r.id).objective) for r in all_rulesets()} == {"points", "wins"}
