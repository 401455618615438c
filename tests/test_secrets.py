"""Secrets never shown: recognisable secrets are planted in every secret setting (the password of REDIS_URL, the
Sentinels' password, an API key, the webhook secret), Redis is made unreachable in every way the settings allow (no
Sentinel answers; a Redis that refuses connections), and no answer (body or header) and no log line may show any
of them, in the app and in a real `python -m service serve` (its own lines, gunicorn's and the workers')."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from service.app import create_app
from service.http.auth import entry
from tests.support.jobs import search_body
from tests.support.ports import free_port
from tests.support.processes import ROOT, wait_for

REDIS_PASSWORD = "planted-redis-pass-4711"
SENTINEL_PASSWORD = "planted-sentinel-pass-4711"
API_KEY = "planted-api-key-4711-0123456789"
WEBHOOK_SECRET = "planted-webhook-secret-4711"
SECRETS = (REDIS_PASSWORD, SENTINEL_PASSWORD, API_KEY, WEBHOOK_SECRET)
LOG = {"ruleset": "bga-taiwan", "seats": 4, "seed": 1, "events": []}


def unreachable(how: str) -> dict[str, str]:
    """The Redis settings of an unreachable Redis, with its passwords: `sentinels` (no Sentinel answers at the
    address, as when all are down) or `server` (nothing listens at REDIS_URL)."""
    url = f"redis://:{REDIS_PASSWORD}@127.0.0.1:{free_port()}/0"
    if how == "server":
        return {"REDIS_URL": url}
    return {"REDIS_URL": url, "REDIS_SENTINELS": f"127.0.0.1:{free_port()},[::1]:{free_port()}",
            "REDIS_SENTINEL_MASTER": "longcards", "REDIS_SENTINEL_PASSWORD": SENTINEL_PASSWORD}


def shown(text: str) -> list[str]:
    """The planted secrets `text` shows."""
    return [secret for secret in SECRETS if secret in text]


REQUESTS = [
    ("GET", "/readyz", None), ("GET", "/healthz", None), ("GET", "/metrics", None), ("GET", "/v1/jobs", None),
    ("GET", "/v1/jobs/0123456789abcdef", None), ("DELETE", "/v1/jobs/0123456789abcdef", None),
    ("POST", "/v1/replays", {"logs": [LOG]}),
    ("POST", "/v1/replays", {"logs": [LOG], "callback_url": "https://example.com/hook"}),
    ("POST", "/v1/searches", search_body()), ("GET", "/v1/rulesets", None),
]


@pytest.mark.parametrize("how", ["sentinels", "server"])
def test_no_answer_and_no_log_line_of_the_app_shows_a_secret(how, caplog):
    caplog.set_level(logging.DEBUG)
    app = create_app({"TESTING": True, **unreachable(how), "WEBHOOK_SECRET": WEBHOOK_SECRET,
                      "API_KEYS": entry("site", API_KEY), "RATE_LIMIT": "1000/minute", "AUTH_FAIL_LIMIT": "50/minute"})
    client = app.test_client()
    statuses = {}
    for headers in ({"X-API-Key": API_KEY}, {"Authorization": f"Bearer {API_KEY}x"}):
        for method, path, body in REQUESTS:
            answer = client.open(path, method=method, json=body, headers=headers)
            statuses[(method, path, answer.status_code)] = True
            text = answer.get_data(as_text=True) + "".join(f"{k}: {v}\n" for k, v in answer.headers.items())
            assert not shown(text), (method, path, answer.status_code, text[:600])
    assert ("GET", "/readyz", 503) in statuses and ("POST", "/v1/searches", 503) in statuses, statuses
    assert caplog.records, "nothing was logged: the check saw nothing"
    for record in caplog.records:
        line = logging.Formatter("%(message)s").format(record)  # the message with any traceback
        assert not shown(line), line[:2000]
    assert any("redis unavailable" in record.getMessage() for record in caplog.records)


@pytest.mark.slow
def test_no_line_of_a_real_serve_shows_a_secret(tmp_path):
    """serve's own lines, gunicorn's error log and access log, and a worker's lines while no Sentinel answers."""
    base = f"http://127.0.0.1:{free_port()}"
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("LONGCARDS_", "REDIS_"))},
           **unreachable("sentinels"), "BIND": base.removeprefix("http://"), "WEB_CONCURRENCY": "1",
           "LONGCARDS_WORKERS": "1", "LONGCARDS_DATA_DIR": str(tmp_path / "run"), "GUNICORN_ACCESSLOG": "-",
           "LONGCARDS_WEBHOOK_SECRET": WEBHOOK_SECRET, "LONGCARDS_API_KEYS": entry("site", API_KEY),
           "LONGCARDS_RATE_LIMIT": "1000/minute"}
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        serve = subprocess.Popen([sys.executable, "-m", "service", "serve"], cwd=ROOT, env=env, stdout=out,
                                 stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for(lambda: "serve: ready" in log.read_text(errors="replace"), 90, "serve to be ready", 0.2)
        for method, path, body in REQUESTS:
            call = urllib.request.Request(base + path, method=method, headers={
                "X-API-Key": API_KEY, "Content-Type": "application/json"},
                data=None if body is None else json.dumps(body).encode())
            try:
                with urllib.request.urlopen(call, timeout=20) as response:
                    text = response.read().decode() + str(response.headers)
            except urllib.error.HTTPError as error:
                text = error.read().decode() + str(error.headers)
            assert not shown(text), (method, path, text[:600])
        time.sleep(3)  # the worker retries the Sentinels meanwhile: whatever it says is read too
    finally:
        serve.send_signal(signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            serve.wait(timeout=40)
        if serve.poll() is None:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait()
    said = log.read_text(errors="replace")
    assert "GET /readyz" in said and "MasterNotFoundError" in said, said[-3000:]
    assert not shown(said), [line for line in said.splitlines() if shown(line)][:5]


def test_the_redis_failure_text_names_the_error_class_and_the_host_only():
    from redis.sentinel import MasterNotFoundError

    from service.redisconf import failure

    settings = unreachable("sentinels")
    error = MasterNotFoundError(f"No master found for 'longcards' : password={SENTINEL_PASSWORD}")
    said = failure(error, settings)
    assert said.startswith("MasterNotFoundError from the primary 'longcards' of the Sentinels 127.0.0.1:")
    assert not shown(said)
    assert failure(ConnectionError(), unreachable("server")).startswith("ConnectionError from redis://127.0.0.1:")


def test_a_library_s_log_line_and_traceback_show_no_secret(caplog):
    """Any logger of the process (RQ's, redis-py's) is redacted once the app is made: a traceback of an exception
    holding a connection's repr with its password, and a message with a URL's password."""
    create_app({"TESTING": True, **unreachable("sentinels"), "WEBHOOK_SECRET": WEBHOOK_SECRET})
    caplog.set_level(logging.INFO)
    try:
        raise ConnectionError(f"No master: <Connection(host=h,port=1,password={SENTINEL_PASSWORD},db=0)>")
    except ConnectionError:
        logging.getLogger("rq.worker").exception("job failed, secret %s", WEBHOOK_SECRET)
    logging.getLogger("redis").warning("connecting to %s", f"redis://user:{REDIS_PASSWORD}@h:6379/0")
    text = caplog.text
    assert "job failed, secret ***" in text and "password=***" in text and "redis://user:***@h" in text, text
    assert not shown(text), text
