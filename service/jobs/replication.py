"""An accepted job survives the loss of the primary: before a submission is answered 202, a replica has
acknowledged it (Redis's WAIT), else it is refused (`NotReplicated`: the API answers 503) and the client sends the
same request again.

Redis replicates asynchronously: a job the primary wrote and answered for may die with the primary before any
replica has it, and a replica promoted by Sentinel would not know it. WAIT blocks until the replicas have
acknowledged every write the connection has made, so the submission writes a marker on the connection it then
waits on: the marker comes after the job in the replication stream, and a replica that has it has the job too,
whichever pooled connection wrote the job.

Only the replicas attached now are waited for: a primary with none (a lone server, or one just promoted whose old
primary is gone) has no replica to lose the job to, and waiting would refuse every submission until one attaches.
A 503 does not mean nothing was written: the job may exist and may run. The idempotency key (the
`Idempotency-Key` header, else the request body) makes sending the request again safe: it answers the same job,
waiting for a replica again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from redis import Redis
from redis.exceptions import ResponseError

from ..redisconf import RedisSettings
from .errors import NotReplicated, refused

#: The key every confirmed submission writes before it waits (its value is of no interest).
MARK = "longcards:replication-mark"
#: Seconds a client is told to wait after a submission no replica acknowledged in time.
RETRY_AFTER = 2


def replicas_wanted(config: Mapping[str, Any]) -> int:
    """How many replicas must acknowledge a submission: `SUBMIT_REPLICAS`, whose default (-1) means one when Redis is
    reached through Sentinels (they promote a replica when the primary is lost), else none."""
    wanted = int(config.get("SUBMIT_REPLICAS", -1))
    if wanted < 0:
        return 1 if RedisSettings.read(config).uses_sentinel else 0
    return wanted


def attached_replicas(connection: Redis) -> int:
    """The replicas attached to the primary now (ROLE; 0 on a server that is no primary)."""
    role = cast("list[Any]", connection.execute_command("ROLE"))
    return len(role[2]) if role and role[0] in (b"master", "master") else 0


def confirm(connection: Redis, wanted: int, timeout_ms: int) -> int:
    """Wait until `wanted` replicas (at most those attached) have every write made so far; the number that did.
    NotReplicated when fewer did within `timeout_ms`."""
    if wanted <= 0:
        return 0
    needed = min(wanted, attached_replicas(connection))
    if needed == 0:
        return 0
    # One connection for both: WAIT counts the writes of the connection it runs on.
    with connection.pipeline(transaction=False) as pipe:
        pipe.set(MARK, b"1", px=60_000)
        pipe.execute_command("WAIT", needed, timeout_ms)
        try:
            acknowledged = int(pipe.execute()[1])
        except ResponseError as error:
            if refused(error) is None:
                raise
            # The job was written (it may have filled Redis): unconfirmed, as when no replica acknowledges it.
            raise NotReplicated(needed, 0, timeout_ms, RETRY_AFTER) from error
    if acknowledged < needed:
        raise NotReplicated(needed, acknowledged, timeout_ms, RETRY_AFTER)
    return acknowledged
