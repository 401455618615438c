"""GET /v1/drills: drill `index` of a seed, a decision met in a seeded round that the advice plays at every seat."""

from __future__ import annotations

from flask.views import MethodView

from ...arena.drills import SEATS, deal_drill
from ...replay.decisions import Pricing
from ...rules.registry import get_ruleset
from ..blueprint import Blueprint
from ..caching import cached
from ..common import echo
from .schemas import DrillArgsSchema, DrillSchema

blp = Blueprint("drills", __name__, url_prefix="/v1", description="Drills")


@blp.route("/drills")
class Drills(MethodView):
    """Positions to practise on."""

    @cached
    @blp.doc(operationId="get_drill")
    @blp.arguments(DrillArgsSchema(), location="query")
    @blp.response(200, DrillSchema())
    @blp.alt_response(304, description="If-None-Match names the current ETag")
    def get(self, args: dict):
        """Deal drill `index` of `seed`: a discard or an answer to a public card of the difficulty asked, with the
        exact request whose answer (/v1/discards or /v1/claims) ranks its options. Same arguments, same drill."""
        ruleset = get_ruleset(args["ruleset"])
        options = dict(ruleset.resolve_options(None))
        drill = deal_drill(ruleset, args["difficulty"], args["seed"], args["index"], args["kind"])
        return {**echo(ruleset, options), "seed": args["seed"], "index": args["index"],
                "difficulty": args["difficulty"], "loss_unit": Pricing.of(ruleset, options, SEATS).unit, **drill}
