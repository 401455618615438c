"""The value model: the features of hand-made options worked out by hand, the shipped model files' schema, that each
loads for every rule-set, and that a missing or broken file is an error, never a value of zero."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

from service.advice import value
from service.advice.loss import CLAIM_LOSS_FEATURES, LOSS_FEATURES, loss_features, losses
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
    assert model().base(option, 80) == pytest.approx(-1 + 1.0)
    win = ClaimOption("hu", (), object(), None, -1, (), (), 0, 30.0, gain=30)
    assert model().base(win, 80) == 30.0
    assert model("win_probability").base(win, 80) == 1.0


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
    assert bent.base(option, 80) == pytest.approx(1.5)
    win = ClaimOption("hu", (), object(), None, -1, (), (), 0, 30.0, gain=30)
    assert bent.base(win, 80) == 30.0


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
    assert document["format"] == value.FORMAT == 4 and loaded.version.startswith(f"value-3/{ruleset}/")
    assert len(document["calibration"]["knots"]) >= 2
    training, data = document["training"], document["data"]
    assert training["command"].startswith(f"python -m service learn --ruleset {ruleset} ")
    assert training["seed"] < 7001 and "7001" in training["judged_on"]
    assert data["decisions"] > data["rounds"] > 0 and data["target_sd"] > 0
    parts = [document["version"], document["loss"]["version"], document["claim_loss"]["version"]]
    assert loaded.version == "/".join(parts)


@pytest.mark.parametrize(("key", "names", "flag", "judge"), [("loss", LOSS_FEATURES, "--loss", "7011"),
                                                            ("claim_loss", CLAIM_LOSS_FEATURES, "--claims", "9711")])
@pytest.mark.parametrize("ruleset", [r.id for r in all_rulesets()])
def test_every_ruleset_ships_its_losses_fitted_apart_from_the_seeds_that_judge_them(ruleset, key, names, flag, judge):
    """The discards' loss and the answers' own loss: one weight per feature, the command that fits each, its
    training seed apart from the base's, from the other loss's, from its off-path check's (discards 7011, claims
    9711) and from the arena's (7001 and up), the base it was fitted beside, and some rows."""
    document = json.loads(value.model_path(ruleset).read_text(encoding="utf-8"))
    block = document[key]
    assert block["features"] == list(names) and len(block["weights"]) == len(names)
    assert getattr(load_model(ruleset), key) == tuple(block["weights"])
    training = block["training"]
    assert training["command"].startswith(f"python -m service learn --ruleset {ruleset} {flag} ")
    other = document["claim_loss" if key == "loss" else "loss"]["training"]["seed"]
    assert training["seed"] < 7001 and training["seed"] not in (document["training"]["seed"], other)
    assert judge in training["judged_on"] and training["base"] == document["version"]
    assert training["rows"] >= training["decisions"] > 0 and "/" + block["version"] in load_model(ruleset).version


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
    good = {"format": 4, "ruleset": "x", "version": "v", "objective": "win_probability", "features": list(FEATURES),
            "weights": [[0.0] * len(FEATURES)] * DISTANCES, "calibration": {"knots": [[0, 0.1], [1, 0.5]]}}
    assert parse(good, "x").objective == "win_probability"
    assert parse(good, "x").knots == ((0.0, 0.1), (1.0, 0.5))
    for broken in ({**good, "ruleset": "y"}, {**good, "features": ["bias"]}, {**good, "weights": [[0.0]]},
                   {**good, "objective": "fun"}, {**good, "format": 1},
                   {k: v for k, v in good.items() if k != "calibration"}, {**good, "calibration": {"knots": []}},
                   {**good, "calibration": {"knots": [[0, 0.5], [1, 0.5]]}},
                   {**good, "calibration": {"knots": [[1, 0.1], [0, 0.5]]}},
                   {**good, "calibration": {"knots": [[0, "nan"], [1, 0.5]]}},
                   {**good, "calibration": {"knots": [[0, 0.1, 2]]}},
                   {**good, "loss": {"features": ["bias"], "weights": [1.0]}},
                   {**good, "loss": {"features": list(LOSS_FEATURES), "weights": [1.0]}},
                   {**good, "loss": {"features": list(LOSS_FEATURES), "weights": ["x"] * len(LOSS_FEATURES)}},
                   {**good, "loss": {"features": list(LOSS_FEATURES), "weights": [math.inf] * len(LOSS_FEATURES)}}):
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


def at_rest(card: int, distance: int, rank: int, gain: float = 0.0) -> DiscardOption:
    """A discard leaving a hand `distance` from a win with one-card expected gain `gain`, ranked `rank`."""
    return DiscardOption(card=card, distance=distance, waits=(), improving=(), improving_unseen=0,
                         expected_gain=gain, rank=rank)


def lossy(weights: dict[str, float], objective: str = "expected_settlement") -> ValueModel:
    """The hand-made `model` with a loss of these weights (by feature name, the rest 0)."""
    return ValueModel("toy", "v", objective, model().weights, {}, (),
                      tuple(weights.get(name, 0.0) for name in LOSS_FEATURES))


def test_an_option_is_worth_the_first_minus_its_loss_and_ties_with_the_first_lose_nothing():
    """Base values: distance d, expected gain g is 2g - d. The loss is 0.5 plus 1 per replacement further; the
    first option and one tied with it (rank 1) are worth the first's base value, the others that minus their
    loss."""
    options = [at_rest(1, 0, 1, 1.0), at_rest(2, 0, 1, 0.5), at_rest(3, 1, 3, 0.5), at_rest(4, 2, 4)]
    toy = lossy({"bias": 0.5, "distance_gap": 1.0})
    assert value.values_of(toy, options, 80) == pytest.approx((2.0, 2.0, 2.0 - 1.5, 2.0 - 2.5))


def test_a_loss_never_falls_below_one_ranked_above_it():
    """The option ranked 3 has a smaller raw loss than the one ranked 2 (its base value is higher): it is raised
    to the loss above it, so the values never rise along the ranking; options of one rank share their largest."""
    options = [at_rest(1, 0, 1, 1.0), at_rest(2, 1, 2), at_rest(3, 1, 3, 1.0), at_rest(4, 1, 3, 0.9)]
    toy = lossy({"value_gap": 1.0})  # the loss is the base values' gap
    raw = [loss_features(options[0], o, 2.0, model().base(o, 80), 80)[1] for o in options]
    assert raw == pytest.approx([0.0, 3.0, 1.0, 1.2])
    assert losses(toy.loss, options, [model().base(o, 80) for o in options], 80) == pytest.approx([0, 3, 3, 3])
    found = value.values_of(toy, options, 80)
    assert found == pytest.approx((2.0, -1.0, -1.0, -1.0))
    assert all(a >= b for a, b in zip(found, found[1:]))


def test_a_hand_kept_below_a_win_is_worth_no_more_than_the_win_and_a_costly_win_stays_last():
    """Claims: a win that gains 1 ranks first and is worth what it settles; the hands left at rest below it are
    worth their first one's base value minus their loss, at most the win's; a win that costs 5, ranked last, is
    worth what it settles."""
    follow = at_rest(9, 0, 1, 2.0)
    win = ClaimOption("hu", (), object(), None, -1, (), (), 0, 1.0, gain=1, rank=1)
    passing = option_at_rest("pass", follow, 0, follows=False, cards=(), claim=None, rank=2)
    claim = option_at_rest("pair", at_rest(8, 1, 1), 1, cards=(8, 8), claim=object(), rank=3)
    costly = ClaimOption("hu", (), object(), None, -1, (), (), 0, -5.0, gain=-5, rank=4)
    toy = lossy({"bias": 0.25})
    # pass's base value is 2 * 2.0 - 0 = 4, above the win: worth the win's 1
    assert value.values_of(toy, [win, passing, claim, costly], 80) == pytest.approx((1.0, 1.0, 1.0, -5.0))
    assert value.values_of(toy, [passing, claim], 80) == pytest.approx((4.0, 3.75))


def test_a_chance_to_win_stays_inside_zero_and_one():
    """Where nobody pays a value is a chance: a base value above 1 is 1, a loss never takes a value below 0."""
    options = [at_rest(1, 0, 1, 1.0), at_rest(2, 3, 2)]
    found = value.values_of(lossy({"bias": 5.0}, "win_probability"), options, 80)
    assert found == (1.0, 0.0)


def test_without_a_loss_every_option_is_worth_the_first():
    """A model file without a loss block (a base fitted before its loss) values every option as the first."""
    options = [at_rest(1, 0, 1, 1.0), at_rest(2, 2, 2)]
    assert value.values_of(model(), options, 80) == (2.0, 2.0)


def test_answers_to_a_public_card_are_priced_by_their_own_loss_where_the_model_has_one():
    """With a claim loss (bias 0.5, 2 more when the answer below is a claim, 1 more when the first answer is a
    contested claim of priority 1), pass below a contested claim loses 0.5 + 1, a claim below pass 0.5 + 2; the
    discards keep the discards' loss (bias 3). Without a claim loss the answers take the discards' loss."""
    claim_weights = {"bias": 0.5, "claim_below": 2.0, "contested_first": 1.0}
    toy = replace(lossy({"bias": 3.0}), claim_loss=tuple(claim_weights.get(n, 0.0) for n in CLAIM_LOSS_FEATURES))
    contested = option_at_rest("command", at_rest(8, 0, 1, 1.0), 0, cards=(8, 9, 10), claim=object(), rank=1,
                               priority=1)
    passing = option_at_rest("pass", at_rest(9, 1, 2), 1, follows=False, cards=(), claim=None, rank=2)
    claim = option_at_rest("triple", at_rest(7, 1, 3), 1, cards=(7, 7, 7), claim=object(), rank=3, priority=2)
    assert value.values_of(toy, [contested, passing], 80) == pytest.approx((2.0, 0.5))
    first = option_at_rest("pass", at_rest(9, 0, 1, 1.0), 0, follows=False, cards=(), claim=None, rank=1)
    assert value.values_of(toy, [first, claim], 80) == pytest.approx((2.0, -0.5))
    assert value.values_of(toy, [at_rest(1, 0, 1, 1.0), at_rest(2, 1, 2)], 80) == pytest.approx((2.0, -1.0))
    assert value.values_of(lossy({"bias": 3.0}), [first, claim], 80) == pytest.approx((2.0, -1.0))


def test_a_preempted_claim_is_worth_the_pass_whatever_the_loss():
    """A claim that cannot take the card (ranked after the pass) is worth what passing is worth; the claims ranked
    below it keep their own loss."""
    passing = option_at_rest("pass", at_rest(9, 0, 1, 1.0), 0, follows=False, cards=(), claim=None, rank=1)
    futile = replace(option_at_rest("general", at_rest(9, 0, 1, 1.0), 0, follows=False, cards=(3,), claim=object(),
                                    rank=2, priority=1), preempted=True)
    quad = option_at_rest("general_quad", at_rest(6, 2, 3), 2, cards=(3, 3, 3, 3), claim=object(), rank=3,
                          priority=2)
    assert value.values_of(lossy({"bias": 3.0}), [passing, futile, quad], 80) == pytest.approx((2.0, 2.0, -1.0))


def test_a_claim_loss_block_is_read_and_checked_like_the_loss():
    document = json.loads(value.model_path("bga-taiwan").read_text(encoding="utf-8"))
    block = {"version": "claims/toy", "features": list(CLAIM_LOSS_FEATURES),
             "weights": [0.1] * len(CLAIM_LOSS_FEATURES)}
    read = parse({**document, "claim_loss": block}, "bga-taiwan")
    assert read.claim_loss == (0.1,) * len(CLAIM_LOSS_FEATURES) and read.version.endswith("/claims/toy")
    with pytest.raises(ValueError, match="claim_loss.features"):
        parse({**document, "claim_loss": {**block, "features": list(LOSS_FEATURES)}}, "bga-taiwan")
    with pytest.raises(ValueError, match="finite claim_loss weights"):
        parse({**document, "claim_loss": {**block, "weights": [math.inf] * len(CLAIM_LOSS_FEATURES)}}, "bga-taiwan")
