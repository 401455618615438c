"""GET /v1/rulesets: the rule-sets with their cards, meld kinds and points, claim priorities and options."""

from __future__ import annotations

from flask.views import MethodView

from ...advice.value import engine_version
from ...http.errors import problem
from ...i18n import localize
from ...rules.errors import UnknownRuleset
from ...rules.registry import ENGINE_VERSION, all_rulesets, get_ruleset
from ..blueprint import Blueprint
from ..caching import cached
from .schemas import RulesetListSchema, RulesetSchema

blp = Blueprint("rulesets", __name__, url_prefix="/v1/rulesets", description="Rule-sets and their options")


def described(ruleset) -> dict:
    """A rule-set's description with its texts for people (option names, docs and choices, Chắn bonus conditions)
    in the reader's language."""
    found = ruleset.describe()
    if "bonuses" in found:
        found = {**found, "bonuses": [{**b, "condition": localize(b["condition"])} for b in found["bonuses"]]}
    return {**found, "options": [option_said(o) for o in found["options"]]}


def option_said(option: dict) -> dict:
    """A rule option's description with its name, doc and choice names in the reader's language (its codes as
    they are)."""
    said = {**option, "label": localize(option["label"]), "doc": localize(option["doc"])}
    if "choice_labels" in option:
        said["choice_labels"] = [localize(c) for c in option["choice_labels"]]
    return said


@blp.route("")
class Rulesets(MethodView):
    """Every rule-set the engine knows."""

    @cached
    @blp.doc(operationId="list_rulesets")
    @blp.response(200, RulesetListSchema())
    @blp.alt_response(304, description="If-None-Match names the current ETag")
    def get(self):
        """List rule-sets with cards, meld table, claim priorities and options with defaults."""
        return {"engine_version": ENGINE_VERSION,
                "rulesets": [{"engine_version": engine_version(r), **described(r)} for r in all_rulesets()]}


@blp.route("/<string:ruleset_id>")
class Ruleset(MethodView):
    """One rule-set."""

    @cached
    @blp.doc(operationId="get_ruleset")
    @blp.response(200, RulesetSchema())
    @blp.alt_response(304, description="If-None-Match names the current ETag")
    @blp.alt_response(404, description="`unknown_ruleset`: no such rule-set")
    def get(self, ruleset_id: str):
        """Describe one rule-set."""
        try:
            ruleset = get_ruleset(ruleset_id)
        except UnknownRuleset as error:
            return problem(404, "unknown_ruleset", error.message)
        return {"engine_version": engine_version(ruleset), **described(ruleset)}
