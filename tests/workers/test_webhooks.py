"""Where webhooks go: the callback address is checked at submission and again at delivery, delivery connects to
the address it checked, redirects are never followed, and IPv6 forms embedding an IPv4 address are refused."""

from __future__ import annotations

import socket
import ssl
from collections.abc import Iterator

import pytest
import trustme
from rq.registry import ScheduledJobRegistry

from service.jobs import callbacks as resolution
from service.jobs.queues import QUEUE_REPLAYS, QUEUE_WEBHOOKS, enqueue, queue
from tests.support.jobs import WEBHOOK_SECRET, batch, run_worker
from tests.support.receivers import Receiver, receiving
from workers import callbacks
from workers.callbacks import ALLOW_PRIVATE_ENV
from workers.webhooks import DELIVERED_FIELD, SECRET_ENV, SIGNATURE_HEADER, WebhookRefused, deliver_webhook, verify

PAYLOAD = {"id": "job-1", "kind": "replay", "status": "finished", "result": {"ok": True}}
HOST = "hooks.example.test"


@pytest.fixture
def receivers(monkeypatch) -> Iterator[tuple[Receiver, Receiver]]:
    """Two webhook receivers on 127.0.0.1; the shared secret set; loopback deliveries allowed."""
    monkeypatch.setenv(SECRET_ENV, WEBHOOK_SECRET)
    monkeypatch.setenv(ALLOW_PRIVATE_ENV, "true")
    with receiving() as first, receiving() as second:
        yield first, second


def resolving_to(monkeypatch, address: str) -> list[str]:
    """Make the resolver (the API's check and delivery's) answer `address` for HOST; the hosts it was asked about."""
    asked: list[str] = []

    def lookup(host: str, port: int) -> list[resolution.Address]:
        asked.append(host)
        assert host == HOST, host
        return [(socket.AF_INET, (address, port))]

    monkeypatch.setattr(resolution, "lookup", lookup)
    return asked


def test_a_redirect_is_not_followed(receivers):
    """A receiver answering 302 to another receiver: the delivery fails, the second one never hears of it."""
    first, second = receivers
    first.answers, first.location = [302], second.url
    with pytest.raises(WebhookRefused, match="answered 302 \\(redirects are not followed\\)"):
        deliver_webhook(first.url, PAYLOAD)
    assert first.methods == ["POST"] and second.requests == []


def test_a_redirected_delivery_is_retried_like_a_refused_one(receivers, redis_db):
    """Through the queue a 3xx is a failed attempt: the webhook job is scheduled again with a retry fewer."""
    first, second = receivers
    first.answers, first.location = [303], second.url
    enqueue(deliver_webhook, redis_db, first.url, PAYLOAD)
    run_worker(redis_db, (QUEUE_WEBHOOKS,))
    [job_id] = ScheduledJobRegistry(queue=queue(QUEUE_WEBHOOKS, redis_db)).get_job_ids()
    assert len(first.requests) == 1 and second.requests == []


def test_delivery_refuses_a_host_that_now_resolves_to_a_private_address(receivers, monkeypatch):
    """The host passed the check at submission; at delivery it resolves to loopback: nothing is sent."""
    first, _ = receivers
    monkeypatch.delenv(ALLOW_PRIVATE_ENV)
    asked = resolving_to(monkeypatch, "127.0.0.1")
    with pytest.raises(WebhookRefused, match="127.0.0.1 is not a public address"):
        deliver_webhook(f"http://{HOST}:{first.port}/hook", PAYLOAD)
    assert asked == [HOST] and first.requests == []


def test_delivery_connects_to_the_address_it_checked_with_the_url_host(receivers, monkeypatch):
    """One resolution per delivery; the request goes to that address and keeps the URL's host as its Host."""
    first, _ = receivers
    asked = resolving_to(monkeypatch, "127.0.0.1")
    assert deliver_webhook(f"http://{HOST}:{first.port}/hook?site=7", PAYLOAD) == 200
    assert asked == [HOST]
    [(headers, body)] = first.requests
    assert headers["Host"] == f"{HOST}:{first.port}"
    assert verify(WEBHOOK_SECRET, headers[SIGNATURE_HEADER], body)


@pytest.mark.parametrize("certified", [HOST, "other.example.test"])
def test_https_delivery_checks_the_certificate_against_the_url_host(receivers, monkeypatch, certified):
    """Connected to the checked address, TLS still names and verifies the URL's host: a certificate for it is
    accepted, one for another name is not (and nothing is delivered)."""
    authority = trustme.CA()
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert(certified).configure_cert(server)

    def trusting() -> ssl.SSLContext:
        context = ssl.create_default_context()
        authority.configure_trust(context)
        return context

    monkeypatch.setattr(callbacks, "tls_context", trusting)
    with receiving(server) as receiver:
        resolving_to(monkeypatch, "127.0.0.1")
        url = f"https://{HOST}:{receiver.port}/hook"
        if certified == HOST:
            assert deliver_webhook(url, PAYLOAD) == 200
            assert receiver.requests[0][0]["Host"] == f"{HOST}:{receiver.port}"
        else:
            with pytest.raises(ssl.SSLCertVerificationError, match="other.example.test|match"):
                deliver_webhook(url, PAYLOAD)
            assert receiver.requests == []


@pytest.mark.slow  # over 2 s on 2 cores
def test_a_job_webhook_to_a_host_gone_private_is_never_sent(app, client, redis_db, receivers, monkeypatch):
    """End to end: accepted while the host was public, the finished job's webhook is refused at delivery."""
    first, _ = receivers
    monkeypatch.delenv(ALLOW_PRIVATE_ENV)
    resolving_to(monkeypatch, "127.0.0.1")
    response = client.post("/v1/replays", json={"logs": batch(1), "callback_url": f"http://{HOST}:{first.port}/"})
    assert response.status_code == 202
    run_worker(redis_db, (QUEUE_REPLAYS,))
    run_worker(redis_db, (QUEUE_WEBHOOKS,))
    assert first.requests == []
    [job_id] = ScheduledJobRegistry(queue=queue(QUEUE_WEBHOOKS, redis_db)).get_job_ids()


@pytest.mark.parametrize("address", [
    pytest.param("::ffff:7f00:1", id="ipv4_mapped"),
    pytest.param("::7f00:1", id="ipv4_compatible"),
    pytest.param("::ffff:0:7f00:1", id="ipv4_translated"),
    pytest.param("64:ff9b::7f00:1", id="nat64"),
    pytest.param("64:ff9b:1::a00:1", id="nat64_local"),
    pytest.param("64:ff9b::808:808", id="nat64_of_a_public_address"),
    pytest.param("2002:7f00:1::1", id="6to4"),
    pytest.param("2001:0:4136:e378:8000:63bf:80ff:fffe", id="teredo"),
])
def test_ipv6_forms_embedding_ipv4_are_refused_at_submission(app, redis_db, address):
    """IPv6 addresses that carry an IPv4 address are refused outright (422), whatever they embed."""
    app.config["WEBHOOK_ALLOW_PRIVATE"] = False
    response = app.test_client().post("/v1/replays", json={"logs": batch(1), "callback_url": f"http://[{address}]/h"})
    assert response.status_code == 422, response.get_json()
    body = response.get_json()
    assert body["code"] == "invalid_callback_url" and "embeds an IPv4 address" in body["detail"]
    assert "callback_url" in body["errors"]
    assert queue(QUEUE_REPLAYS, redis_db).count == 0


def test_a_delivery_run_again_after_its_worker_was_lost_sends_nothing_twice(receivers, redis_db):
    """A delivery job whose receiver answered 2xx but whose worker was lost before RQ recorded the end is found
    abandoned and run again: the second run sees the delivery noted on the job and sends nothing."""
    first, _ = receivers
    job = enqueue(deliver_webhook, redis_db, first.url, PAYLOAD)
    run_worker(redis_db, (QUEUE_WEBHOOKS,))
    assert len(first.requests) == 1 and redis_db.hget(job.key, DELIVERED_FIELD) == b"200"
    hooks = queue(QUEUE_WEBHOOKS, redis_db)
    hooks._enqueue_job(hooks.fetch_job(job.id), at_front=True)  # as the clean-up queues an abandoned job again
    assert run_worker(redis_db, (QUEUE_WEBHOOKS,))
    assert len(first.requests) == 1 and hooks.fetch_job(job.id).get_status() == "finished"


@pytest.mark.parametrize("address", ["::1", "::"])
def test_ipv6_loopback_and_unspecified_are_refused_as_not_public(app, redis_db, address):
    """:: and ::1 lie inside the IPv4-compatible prefix but embed no IPv4 address: the refusal says why they are
    refused, they are not public."""
    app.config["WEBHOOK_ALLOW_PRIVATE"] = False
    response = app.test_client().post("/v1/replays", json={"logs": batch(1), "callback_url": f"http://[{address}]/h"})
    assert response.status_code == 422, response.get_json()
    body = response.get_json()
    assert body["code"] == "invalid_callback_url" and f"{address} is not a public address" in body["detail"], body
    assert "callback_url" in body["errors"] and queue(QUEUE_REPLAYS, redis_db).count == 0


@pytest.mark.parametrize("private", [False, True], ids=["public_only", "private_allowed"])
@pytest.mark.parametrize("url", ["https://example.com/hook\x00", "https://example.com/h\x7fook",
                                 "https://example.com/hook\x1b[0m"], ids=["nul", "del", "escape"])
def test_a_control_character_in_the_callback_url_is_refused_at_submission(app, redis_db, monkeypatch, url, private):
    """No delivery could carry it: 422 naming the field, nothing queued, whether private addresses are allowed or
    not; a delivery refuses it too."""
    monkeypatch.setenv(SECRET_ENV, WEBHOOK_SECRET)
    app.config["WEBHOOK_ALLOW_PRIVATE"] = private
    response = app.test_client().post("/v1/replays", json={"logs": batch(1), "callback_url": url})
    assert response.status_code == 422, response.get_json()
    body = response.get_json()
    assert body["code"] == "invalid_callback_url" and "control character" in body["detail"], body
    assert "callback_url" in body["errors"] and queue(QUEUE_REPLAYS, redis_db).count == 0
    with pytest.raises(WebhookRefused, match="control character"):
        deliver_webhook(url, PAYLOAD)
