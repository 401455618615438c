"""Webhooks: when a job ends, POST its result to the job's `callback_url`, signed, retried with backoff.

Signature: header `X-Longcards-Signature: t=<unix seconds>,v1=<hex>` where hex is HMAC-SHA256 with the shared
secret `LONGCARDS_WEBHOOK_SECRET` over `<t>.<raw body>`. A receiver recomputes it, compares in constant time
and rejects old timestamps (replays). Delivery resolves and checks the callback's host again and connects to the
checked addresses (workers/callbacks.py); a redirect is not followed but counts as a failed delivery.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import time
from typing import Any, cast

from rq import get_current_job

from service.jobs.callbacks import SECRET_ENV
from service.jobs.queues import DELIVER_WEBHOOK, enqueue
from service.redaction import redact
from service.rules.text import read_texts

from .callbacks import CallbackRefused, allow_private, post

SIGNATURE_HEADER = "X-Longcards-Signature"
#: The field of a delivery job's hash that notes the receiver's 2xx (it expires with the job).
DELIVERED_FIELD = "longcards_delivered"


class WebhookRefused(Exception):
    """The receiver answered with a non-2xx status, or its address may not be reached (RQ retries the delivery)."""


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The signature header value for a body sent at `timestamp`."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def verify(secret: str, header: str, body: bytes, tolerance: int = 300, now: float | None = None) -> bool:
    """What a receiving site does: check the signature and that it is recent."""
    try:
        parts = dict(item.split("=", 1) for item in header.split(","))
        timestamp = int(parts["t"])
    except (ValueError, KeyError):
        return False
    if abs((now or time.time()) - timestamp) > tolerance:
        return False
    return hmac.compare_digest(sign(secret, timestamp, body), header)


def deliver_webhook(url: str, payload: dict[str, Any]) -> int:
    """POST the payload to the address checked now; any answer but 2xx raises, so RQ retries with backoff (the job
    `service.jobs.queues.DELIVER_WEBHOOK`, with its retries there). A 2xx is noted on the delivery job at once
    (DELIVERED_FIELD): an attempt whose worker was lost before RQ recorded its end is run again, and then sends
    nothing. Only a worker lost between the receiver's answer and that note still sends twice."""
    secret = os.environ.get(SECRET_ENV)
    if not secret:
        raise RuntimeError(f"{SECRET_ENV} is not set: webhooks cannot be signed")
    current = get_current_job()
    delivered = current.connection.hget(current.key, DELIVERED_FIELD) if current is not None else None
    if delivered:
        return int(cast(bytes, delivered))
    body = json.dumps(payload, separators=(",", ":"), sort_keys=True).encode()
    headers = {"Content-Type": "application/json", SIGNATURE_HEADER: sign(secret, int(time.time()), body),
               "User-Agent": "longcards-webhooks/1"}
    try:
        status = post(url, body, headers, timeout=10, private=allow_private())
    except CallbackRefused as refused:
        raise WebhookRefused(f"{url} refused: {refused}") from None
    if 300 <= status < 400:
        raise WebhookRefused(f"{url} answered {status} (redirects are not followed)")
    if not 200 <= status < 300:
        raise WebhookRefused(f"{url} answered {status}")
    if current is not None:
        current.connection.hset(current.key, DELIVERED_FIELD, str(status))
    return status


def notify_success(job: Any, connection: Any, result: Any, *args: Any, pipeline: Any = None, **kwargs: Any) -> None:
    """RQ success callback: queue the webhook of a finished job (the worker calls it once the job has claimed its
    end, so never for a stopped one), on `pipeline` when given: the service's worker passes the transaction that
    records the result, so a job has its webhook exactly when it has its result. The delivery job is kept as long as
    the job."""
    url = job.meta.get("callback_url")
    if url:
        enqueue(DELIVER_WEBHOOK, connection, url, {"id": job.id, "kind": job.meta.get("kind"), "status": "finished",
                                                   "result": read_texts(result, str)}, ttl=job.result_ttl,
                pipeline=pipeline)


def notify_failure(job: Any, connection: Any, exc_type: Any, exc_value: Any, traceback: Any) -> None:
    """RQ failure callback: queue the webhook of a job that failed for good (not one about to be retried, nor one
    a cancel stopped); the delivery job is kept as long as the job. The error is redacted as the API's answer is
    (service/redaction.py): the receiver is a third party."""
    url = job.meta.get("callback_url")
    if url and not job.retries_left:
        detail = redact(f"{getattr(exc_type, '__name__', exc_type)}: {exc_value}")
        enqueue(DELIVER_WEBHOOK, connection, url, {
            "id": job.id, "kind": job.meta.get("kind"), "status": "failed",
            "error": {"code": "job_failed", "detail": detail}}, ttl=job.failure_ttl)
