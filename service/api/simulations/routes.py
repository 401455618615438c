"""POST /v1/simulations: legal rounds played by the seeded simulators, to try the audit, the replay analysis or
a replay viewer on."""

from __future__ import annotations

from flask.views import MethodView

from ...replay.families import simulate
from ..blueprint import Blueprint
from ..common import echo, resolve
from ..examples import SIMULATE_ROUNDS
from .schemas import SimulationRequestSchema, SimulationResponseSchema

blp = Blueprint("simulations", __name__, url_prefix="/v1", description="Simulated rounds")


@blp.route("/simulations")
class Simulations(MethodView):
    """Seeded simulated rounds."""

    @blp.doc(operationId="simulate_rounds")
    @blp.arguments(SimulationRequestSchema(), example=SIMULATE_ROUNDS)
    @blp.response(200, SimulationResponseSchema())
    def post(self, payload: dict):
        """Play `rounds` legal rounds with seeded players and answer their game logs (each audits clean)."""
        ruleset, options = resolve(payload)
        seats = payload["seats"]
        ruleset.check_seats(seats)
        logs = [simulate(ruleset.id, payload["seed"] + i, seats, payload["policy"], options)
                for i in range(payload["rounds"])]
        return {**echo(ruleset, options), "seed": payload["seed"], "seats": seats, "policy": payload["policy"],
                "logs": logs}
