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


def test_a_secret_cut_by_an_ellipsis_or_the_end_of_a_text_does_not_leak(caplog):
    """A truncated repr keeps a prefix of a secret: no prefix of 8 characters or more of a known secret reaches an
    answer's text or a log line, whether it ends at an ellipsis or at the end of the text."""
    from service.redaction import redact

    config = {"WEBHOOK_SECRET": WEBHOOK_SECRET, "REDIS_URL": unreachable("server")["REDIS_URL"]}
    create_app({"TESTING": True, **config})
    caplog.set_level(logging.INFO)
    caplog.clear()
    for cut in (WEBHOOK_SECRET[:-1], WEBHOOK_SECRET[:12], REDIS_PASSWORD[:17], REDIS_PASSWORD[:8]):
        for text in (f"args=('{cut}...', 3)", f"args=('{cut}\u2026", f"job failed: {cut}", f"{cut}\n  at line 2"):
            said = redact(text, config)
            assert cut not in said and "***" in said, (text, said)
            logging.getLogger("rq.worker").info("%s", text)
    logged = [record.getMessage() for record in caplog.records]
    assert len(logged) == 16 and not any(cut[:8] in line for line in logged for cut in SECRETS), logged
    # a word that only starts like a secret, in the middle of a text, is not one
    assert redact(f"{WEBHOOK_SECRET[:10]}-other text", config) == f"{WEBHOOK_SECRET[:10]}-other text"


def test_a_short_or_common_secret_alters_no_unrelated_line(caplog):
    """A Redis password `worker` and a Sentinels' password `true` are taken out where they have a password's shape
    (a URL's user information, redis-py's description of a connection) and nowhere else: a line that says
    `worker` or `true` is logged as it was written."""
    settings = {"REDIS_URL": "redis://:worker@127.0.0.1:6379/0", "REDIS_SENTINELS": "127.0.0.1:26379",
                "REDIS_SENTINEL_MASTER": "longcards", "REDIS_SENTINEL_PASSWORD": "true"}
    create_app({"TESTING": True, **settings})
    caplog.set_level(logging.INFO)
    caplog.clear()
    plain = ['worker w-1 started: "true" (with_scheduler=true)', "webhook worker: true'", "workers=2 ok=true"]
    for line in plain:
        logging.getLogger("rq.worker").info("%s", line)
    logging.getLogger("redis").warning("connecting to %s", "redis://:worker@h:6379/0")
    logging.getLogger("redis").warning("pool <ConnectionPool(<Connection(host=h,port=1,password=true,db=0)>)>")
    logged = [record.getMessage() for record in caplog.records]
    assert logged[:3] == plain, logged
    assert logged[3:] == ["connecting to redis://:***@h:6379/0",
                          "pool <ConnectionPool(<Connection(host=h,port=1,password=***,db=0)>)>"], logged


def test_a_url_s_password_is_masked_without_eating_quotes_or_the_rest_of_the_line():
    """The safety net for a library's text: `scheme://user:pass@host` becomes `scheme://user:***@host`, nothing
    around it changes; an options dict keeps its quotes."""
    from service.redaction import redact

    text = ("error: 'redis://user:pw@h:6379/0' failed, retry 'https://a:b@example.com/x?y=1' at 10:00; "
            "options={'password': 'pw2', 'db': 0}")
    assert redact(text, {}) == ("error: 'redis://user:***@h:6379/0' failed, retry 'https://a:***@example.com/x?y=1' "
                                "at 10:00; options={'password': '***', 'db': 0}")
    unrelated = "connect(('redis://h:6379', 'ops@example.com')) password=hunter2 (the request's own)"
    assert redact(unrelated, {}) == unrelated


def test_redis_is_described_without_a_password_given_in_the_query():
    from service.redisconf import RedisSettings

    said = RedisSettings(url=f"redis://127.0.0.1:6379/0?password={REDIS_PASSWORD}&ssl_cert_reqs=none").describe()
    assert said == "redis://127.0.0.1:6379/0?password=***&ssl_cert_reqs=none", said


@pytest.mark.parametrize("value, why", [
    ("a3f-pw-0912", "shorter than 16 characters"),
    ("   \t        \t       ", "only whitespace"),
])
def test_a_webhook_secret_too_short_to_be_one_is_refused_without_repeating_it(value, why):
    from service.config import ConfigError, check_environment

    with pytest.raises(ConfigError) as refused:
        check_environment({"LONGCARDS_WEBHOOK_SECRET": value})
    message = str(refused.value)
    assert message.startswith(f"LONGCARDS_WEBHOOK_SECRET is not valid ({why})"), message
    assert value.strip() not in message or not value.strip(), message
    with pytest.raises(ConfigError):
        create_app({"TESTING": True, "WEBHOOK_SECRET": value})
