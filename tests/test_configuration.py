"""Every setting is checked once, up front (service/config.py): a bad value stops `python -m service serve`,
gunicorn's configuration, the workers and the app at start with one message naming each bad setting and what it
expects, never a secret's value; docs/configuration.md lists the same settings with the same ranges and defaults;
the API docs' address cannot open the API (whether a path needs a key is decided by its route)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service import config
from service.app import create_app
from service.config import SETTINGS, ConfigError, check_environment
from service.http.auth import entry
from service.runtime.serve import Child
from tests.support.processes import ROOT

DOCS = ROOT / "docs" / "configuration.md"
KEY = "docs-key-0123456789abcdef"


@pytest.mark.parametrize("name, value", [
    ("LONGCARDS_SUBMIT_REPLICAS", "abc"),
    ("LONGCARDS_SUBMIT_REPLICAS", "-7"),
    ("LONGCARDS_SUBMIT_REPLICA_WAIT_MS", "0"),
    ("REDIS_SENTINELS", "[::1:18990"),
    ("REDIS_SENTINELS", "redis://127.0.0.1:18990"),
    ("REDIS_SENTINELS", "127.0.0.1:0"),
    ("LONGCARDS_DOCS_URL", "/"),
    ("LONGCARDS_DOCS_URL", "/v1"),
    ("LONGCARDS_DOCS_URL", "/ui/docs"),
    ("LONGCARDS_DOCS_URL", "/docs/rules"),
    ("LONGCARDS_DOCS_URL", "docs"),
    ("LONGCARDS_WORKERS", "-1"),
    ("LONGCARDS_STOP_GRACE", "-1"),
    ("LONGCARDS_STOP_GRACE", "nan"),
    ("LONGCARDS_TRUSTED_PROXIES", "one"),
    ("LONGCARDS_MAX_ACTIVE_JOBS", "-1"),
    ("LONGCARDS_JOB_RESULT_TTL", "0"),
    ("LONGCARDS_MAX_CONTENT_LENGTH", "2MB"),
    ("LONGCARDS_RATE_LIMIT", "lots"),
    ("LONGCARDS_WORKER_MAX_MEMORY_MB", "-5"),
    ("WEB_CONCURRENCY", "0"),
    ("GUNICORN_WORKER_CLASS", "eventlet"),
    ("GUNICORN_TIMEOUT", "30s"),
    ("GUNICORN_LOGLEVEL", "loud"),
    ("BIND", "localhost"),
    ("BIND", "127.0.0.1:99999"),
])
def test_a_bad_value_is_refused_naming_the_setting_and_what_it_expects(name, value):
    with pytest.raises(ConfigError) as raised:
        check_environment({name: value})
    message = str(raised.value)
    assert message.startswith(f"{name}={value!r} is not valid"), message
    assert f"expects {config.BY_ENV[name].expects}" in message


def test_every_bad_setting_is_named_in_the_one_message():
    with pytest.raises(ConfigError) as raised:
        check_environment({"LONGCARDS_SUBMIT_REPLICAS": "abc", "LONGCARDS_DOCS_URL": "/", "LONGCARDS_WORKERS": "x",
                           "REDIS_SENTINELS": "h:1", "BIND": "127.0.0.1:8000"})
    lines = str(raised.value).splitlines()
    assert lines[0] == "bad settings:"
    named = sorted(line.split()[0].split("=")[0] for line in lines[1:])
    assert named == ["LONGCARDS_DOCS_URL", "LONGCARDS_SUBMIT_REPLICAS", "LONGCARDS_WORKERS", "REDIS_SENTINELS"]
    assert "REDIS_SENTINEL_MASTER" in lines[-1]  # Sentinels without the name they monitor


@pytest.mark.parametrize("name, value", [
    ("REDIS_URL", "http://:planted-password-1@127.0.0.1:6379/0"),
    ("REDIS_URL", "redis://:planted-password-1@127.0.0.1:port/0"),
    ("LONGCARDS_API_KEYS", "planted-password-1"),
    ("REDIS_SENTINELS", "redis://:planted-password-1@10.0.0.1:26379"),
])
def test_a_refused_secret_is_never_repeated(name, value):
    with pytest.raises(ConfigError) as raised:
        check_environment({name: value})
    assert name in str(raised.value) and "planted-password-1" not in str(raised.value)


def test_good_values_are_read_as_their_types():
    values = check_environment({"LONGCARDS_SUBMIT_REPLICAS": "-1", "REDIS_SENTINELS": "a:1, [::1]:2",
                                "REDIS_SENTINEL_MASTER": "m", "LONGCARDS_STOP_GRACE": "2.5",
                                "LONGCARDS_DOCS_URL": "/api-docs/", "BIND": "[::]:8000",
                                "REDIS_URL": "unix:///tmp/r.sock?db=2", "LONGCARDS_RATE_LIMIT": "5/second;20/minute"})
    assert values["LONGCARDS_SUBMIT_REPLICAS"] == -1 and values["LONGCARDS_STOP_GRACE"] == 2.5
    assert values["LONGCARDS_DOCS_URL"] == "/api-docs"
    assert check_environment({}) == {}


def test_the_app_reads_the_same_table():
    """The app refuses what the environment check refuses, from the environment and from create_app's config."""
    with pytest.raises(ConfigError, match="LONGCARDS_SUBMIT_REPLICA_WAIT_MS='0' is not valid"):
        config.load(environ={"LONGCARDS_SUBMIT_REPLICA_WAIT_MS": "0"})
    with pytest.raises(ConfigError, match="LONGCARDS_SUBMIT_REPLICAS='-7' is not valid"):
        create_app({"TESTING": True, "SUBMIT_REPLICAS": -7})
    with pytest.raises(ConfigError, match="LONGCARDS_DOCS_URL='/v1' is not valid"):
        create_app({"TESTING": True, "DOCS_URL": "/v1"})
    assert config.load(environ={"LONGCARDS_SUBMIT_REPLICAS": "2"})["SUBMIT_REPLICAS"] == 2


def documented_rows() -> dict[str, list[str]]:
    """The rows of the settings table of docs/configuration.md: variable -> its other cells."""
    rows = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 4:
            rows[cells[0].strip("`")] = cells[1:]
    return rows


def test_docs_list_every_setting_with_its_range_and_default():
    rows = documented_rows()
    assert sorted(rows) == sorted(setting.env for setting in SETTINGS)
    for setting in SETTINGS:
        expects, default, _ = rows[setting.env]
        assert expects == setting.expects, setting.env
        shown = setting.shown_default if setting.shown_default is not None else str(setting.default).lower()
        assert default.strip("`") == shown, setting.env
    assert "a bad value stops the service at start" in DOCS.read_text(encoding="utf-8")


def test_every_route_is_under_a_reserved_segment_so_the_docs_cannot_cover_it():
    app = create_app({"TESTING": True})
    docs = app.config["DOCS_URL"]
    for rule in app.url_map.iter_rules():
        first = rule.rule.split("/")[1]
        assert rule.rule == "/" or first in config.RESERVED_SEGMENTS or rule.rule.startswith(docs), rule.rule


@pytest.mark.parametrize("docs_url", ["/docs", "/api-docs", "/help/api"])
def test_with_keys_only_open_routes_answer_without_one_wherever_the_docs_are(docs_url):
    app = create_app({"TESTING": True, "API_KEYS": entry("site", KEY), "AUTH_FAIL_LIMIT": "", "DOCS_URL": docs_url})
    client = app.test_client()
    for path in ("/v1/drills", "/v1/rulesets", "/v1/jobs", "/v1/rulesets/bga-taiwan", "/v1/nothing-here"):
        assert client.get(path).status_code == 401, path
    assert client.get("/v1/rulesets", headers={"X-API-Key": KEY}).status_code == 200
    for path in (docs_url + "/", "/docs/rules", "/healthz", "/openapi.json", "/problems/not_found", "/ui", "/"):
        assert client.get(path).status_code in (200, 302), path
    assert client.get(docs_url).status_code in (301, 308)  # the router's redirect to the docs page


def test_a_child_that_cannot_start_as_configured_is_not_restarted():
    """gunicorn's exit codes for a worker that cannot boot and an app that cannot load end serve; any other exit
    is a crash, started again after the back-off."""
    fatal = Child("gunicorn", lambda: subprocess.Popen(["sh", "-c", "exit 3"]), fatal=(3, 4))
    crash = Child("gunicorn", lambda: subprocess.Popen(["sh", "-c", "exit 1"]), fatal=(3, 4))
    for child in (fatal, crash):
        child.start()
        child.process.wait()
        child.check()
    assert fatal.failed == 3 and fatal.due is None and fatal.running() is None
    assert crash.failed is None and crash.due is not None


def run_serve(tmp_path: Path, **settings: str) -> tuple[subprocess.CompletedProcess, float]:
    """`python -m service serve` with `settings`; what it printed and how long it ran."""
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("LONGCARDS_", "REDIS_"))},
           "LONGCARDS_DATA_DIR": str(tmp_path / "run"), "BIND": "127.0.0.1:1", **settings}
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "service", "serve"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    return done, time.monotonic() - began


@pytest.mark.parametrize("settings", [
    {"LONGCARDS_SUBMIT_REPLICAS": "abc"},
    {"LONGCARDS_SUBMIT_REPLICA_WAIT_MS": "0"},
    {"REDIS_SENTINELS": "[::1:18990", "REDIS_SENTINEL_MASTER": "m"},
    {"LONGCARDS_DOCS_URL": "/v1"},
    {"GUNICORN_TIMEOUT": "soon"},
])
def test_serve_exits_at_once_on_a_bad_setting_with_its_message(tmp_path, settings):
    """A configuration error is not a crash to recover from: serve starts nothing and exits 2 within seconds."""
    done, seconds = run_serve(tmp_path, **settings)
    assert done.returncode == 2, done
    name = next(iter(settings))
    assert re.search(rf"^serve: not started: {name}=.* is not valid", done.stderr, re.M), done.stderr
    assert "restarting" not in done.stdout + done.stderr and seconds < 15
    assert not (tmp_path / "run").exists()  # nothing was started


@pytest.mark.parametrize("argv", [["-m", "workers", "--burst"], ["-m", "service", "check-config"]])
def test_the_workers_and_check_config_refuse_a_bad_setting_too(argv):
    env = {**os.environ, "REDIS_SENTINELS": "redis://127.0.0.1:18990", "REDIS_SENTINEL_MASTER": "m"}
    done = subprocess.run([sys.executable, *argv], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "REDIS_SENTINELS='redis://127.0.0.1:18990' is not valid" in done.stderr, done
    fine = subprocess.run([sys.executable, "-m", "service", "check-config"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={k: v for k, v in env.items() if not k.startswith("REDIS_S")})
    assert fine.returncode == 0, fine
