"""Every setting is checked once, up front (service/config.py): a bad value stops `python -m service serve`,
gunicorn's configuration, the workers and the app at start with one message naming each bad setting and what it
expects, never a secret's value; docs/configuration.md lists the same settings with the same ranges and defaults;
the API docs' address cannot open the API (whether a path needs a key is decided by its route)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import psutil
import pytest

from service import config
from service.app import create_app
from service.config import SETTINGS, ConfigError, check_environment
from service.http.auth import entry
from service.runtime.serve import Child
from tests.support.ports import free_port
from tests.support.processes import ROOT, wait_for

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


# -- a value is checked for what the service does with it -------------------------------------------------------------

def refusal(environ: dict[str, str], role: str = "serve") -> str:
    """The message check_environment refuses `environ` with."""
    with pytest.raises(ConfigError) as raised:
        check_environment(environ, role=role)
    return str(raised.value)


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda setting: setting.env)
def test_an_empty_value_is_the_same_as_unset_for_every_setting(setting):
    assert check_environment({setting.env: ""}) == {}
    if setting.key:
        assert config.load(environ={setting.env: ""})[setting.key] == config.DEFAULTS[setting.key]


def test_empty_metrics_and_failure_limit_keep_their_defaults_and_off_turns_a_limit_off():
    loaded = config.load(environ={"LONGCARDS_METRICS": "", "LONGCARDS_AUTH_FAIL_LIMIT": ""})
    assert loaded["METRICS"] is True and loaded["AUTH_FAIL_LIMIT"] == "20/minute"
    assert config.load(environ={"LONGCARDS_AUTH_FAIL_LIMIT": "off"})["AUTH_FAIL_LIMIT"] == ""
    with mock.patch.dict(os.environ, {"LONGCARDS_METRICS": ""}):
        assert create_app({"TESTING": True}).test_client().get("/metrics").status_code == 200


@pytest.mark.parametrize("name, value", [
    ("LONGCARDS_RATE_LIMIT", "0/minute"),
    ("LONGCARDS_AUTH_FAIL_LIMIT", "0/second"),
    ("LONGCARDS_AUTH_FAIL_LIMIT", "5/second;0 per minute"),
])
def test_a_limit_of_no_request_at_all_is_refused(name, value):
    assert f"{name}={value!r} is not valid (" in refusal({name: value})
    with pytest.raises(ConfigError, match=f"{name}="):
        create_app({"TESTING": True, name.removeprefix("LONGCARDS_"): value})


@pytest.mark.parametrize("url", [
    "redis://127.0.0.1:6379/16", "redis://127.0.0.1:6379/-1", "redis://127.0.0.1:6379/99999999999",
    "redis://127.0.0.1:6379/abc", "redis://127.0.0.1:6379/1/2", "redis://127.0.0.1:6379/0?db=16",
    "rediss://:planted-password-1@127.0.0.1:6379/16", "unix:///tmp/r.sock?db=16", "unix:///tmp/r.sock?db=-1",
    "unix:///tmp/r.sock?db=abc",
])
def test_a_redis_database_outside_0_to_15_is_refused(url):
    message = refusal({"REDIS_URL": url})
    assert message.startswith("REDIS_URL is not valid (the database is a number from 0 to 15"), message
    assert "planted-password-1" not in message
    with pytest.raises(ConfigError, match="REDIS_URL is not valid"):
        create_app({"TESTING": True, "REDIS_URL": url})


@pytest.mark.parametrize("url", ["redis://h:6379/0", "redis://h:6379/15", "redis://h", "redis://h/",
                                 "unix:///tmp/r.sock?db=15", "unix:///tmp/r.sock", "redis://h/3?db=4"])
def test_a_redis_database_from_0_to_15_is_taken(url):
    assert check_environment({"REDIS_URL": url}) == {"REDIS_URL": url}


def test_bind_port_0_is_refused():
    assert "BIND='127.0.0.1:0' is not valid (" in refusal({"BIND": "127.0.0.1:0"})
    assert "BIND='[::]:0' is not valid" in refusal({"BIND": "[::]:0"})


@pytest.mark.parametrize("origin", [
    "https://a.example:99999", "https://a.example:0", "https://a.example:", "https://a.example:44x",
    "https://a.example?x", "https://a.example#x", "https://a.example/app", "https://*.example", "a.example",
    "https://a b.example", "https://a.example:443", "http://a.example:80",
])
def test_an_origin_a_browser_never_sends_is_refused(origin):
    message = refusal({"LONGCARDS_CORS_ORIGINS": f"https://ok.example,{origin}"})
    assert message.startswith("LONGCARDS_CORS_ORIGINS="), message
    with pytest.raises(ConfigError, match="LONGCARDS_CORS_ORIGINS"):
        create_app({"TESTING": True, "CORS_ORIGINS": origin})


def test_an_origin_with_a_user_and_password_is_refused_without_repeating_them():
    message = refusal({"LONGCARDS_CORS_ORIGINS": "https://user:planted-password-1@a.example"})
    assert message.startswith("LONGCARDS_CORS_ORIGINS is not valid") and "planted-password-1" not in message


def test_origins_a_browser_sends_are_taken():
    allowed = "https://a.example, http://localhost:8080,http://127.0.0.1:5173,https://b.example/,http://[::1]:8080"
    assert check_environment({"LONGCARDS_CORS_ORIGINS": allowed})
    client = create_app({"TESTING": True, "CORS_ORIGINS": allowed}).test_client()
    for origin in ("https://b.example", "http://[::1]:8080", "http://localhost:8080"):
        answer = client.get("/v1/rulesets", headers={"Origin": origin})
        assert answer.headers.get("Access-Control-Allow-Origin") in (origin, "*"), origin
    assert "Access-Control-Allow-Origin" not in client.get("/v1/rulesets", headers={"Origin": "http://[::2]:8080"}).headers


def test_paths_are_checked_for_what_the_service_does_with_them(tmp_path):
    afile = tmp_path / "a-file"
    afile.write_text("")
    for name, value, why in [
        ("GUNICORN_ACCESSLOG", "/nonexistent/dir/a.log", "/nonexistent/dir is not a directory"),
        ("GUNICORN_ACCESSLOG", str(afile / "a.log"), "is not a directory"),
        ("GUNICORN_ACCESSLOG", str(tmp_path), "it is a directory"),
        ("PROMETHEUS_MULTIPROC_DIR", "/nonexistent/x", "no such directory"),
        ("PROMETHEUS_MULTIPROC_DIR", str(afile), "not a directory"),
        ("PROMETHEUS_MULTIPROC_DIR", ".", "the working directory"),
        ("LONGCARDS_DATA_DIR", "/proc/1/nope", "cannot create files in /proc/1"),
        ("LONGCARDS_DATA_DIR", str(afile / "run"), "is not a directory"),
    ]:
        message = refusal({name: value})
        assert message.startswith(f"{name}={value!r} is not valid (") and why in message, message
    fine = {"GUNICORN_ACCESSLOG": str(tmp_path / "new" / ".." / "a.log"), "PROMETHEUS_MULTIPROC_DIR": str(tmp_path),
            "LONGCARDS_DATA_DIR": str(tmp_path / "run" / "deeper")}
    assert check_environment(fine) == fine
    assert check_environment({"GUNICORN_ACCESSLOG": "-"}) == {"GUNICORN_ACCESSLOG": "-"}
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a-file"]  # the check created nothing


def test_a_path_is_checked_only_by_the_processes_that_use_it():
    assert check_environment({"LONGCARDS_DATA_DIR": "/proc/1/nope", "GUNICORN_ACCESSLOG": "/nonexistent/a.log",
                              "PROMETHEUS_MULTIPROC_DIR": "/nonexistent/x"}, role="worker")
    assert "LONGCARDS_DATA_DIR" not in refusal({"LONGCARDS_DATA_DIR": "/proc/1/nope",
                                                "PROMETHEUS_MULTIPROC_DIR": "/nonexistent/x"}, role="api")


@pytest.mark.parametrize("name, value", [
    ("GUNICORN_ACCESSLOG", "/nonexistent/dir/a.log"),
    ("PROMETHEUS_MULTIPROC_DIR", "/nonexistent/x"),
    ("LONGCARDS_DATA_DIR", "/proc/1/nope"),
    ("BIND", "127.0.0.1:0"),
    ("LONGCARDS_RATE_LIMIT", "0/minute"),
])
def test_serve_refuses_a_value_it_could_not_run_with_before_starting_anything(tmp_path, name, value):
    done, seconds = run_serve(tmp_path, **{name: value})
    assert done.returncode == 2, done
    assert re.search(rf"^serve: not started: {name}='.*' is not valid \(", done.stderr, re.M), done.stderr
    assert "Traceback" not in done.stderr and "restarting" not in done.stdout + done.stderr and seconds < 15
    assert not (tmp_path / "run").exists()


def test_gunicorn_refusing_its_configuration_ends_with_a_code_serve_does_not_restart(tmp_path):
    """What serve starts as gunicorn exits at once, with the message, on a setting that went bad after serve's own
    check (the access log's directory removed): with a code serve stops on, never one it restarts it for."""
    env = {**os.environ, "GUNICORN_ACCESSLOG": str(tmp_path / "gone" / "access.log"), "BIND": "127.0.0.1:1"}
    done = subprocess.run([str(Path(sys.executable).with_name("gunicorn")), "--config", "deploy/gunicorn.conf.py",
                           "service.app:create_app()"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert "GUNICORN_ACCESSLOG=" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert done.returncode in serve_gunicorn().fatal, done


def serve_gunicorn() -> Child:
    """The gunicorn child of serve (no Redis, no worker)."""
    from service.runtime.serve import children_of

    with tempfile.TemporaryDirectory() as run_dir:
        return children_of({"REDIS_URL": "redis://127.0.0.1:1/0", "PROMETHEUS_MULTIPROC_DIR": run_dir}, 0,
                           Path(run_dir))[-1]


@contextlib.contextmanager
def serve_until_ready(tmp_path: Path, cwd: Path, **settings: str) -> Iterator[subprocess.Popen]:
    """`python -m service serve` (gunicorn alone, one process, no Redis behind it) in `cwd` until it reports ready;
    stopped with SIGTERM afterwards."""
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("LONGCARDS_", "REDIS_", "PROMETHEUS_"))},
           "LONGCARDS_DATA_DIR": str(tmp_path / "run"), "BIND": f"127.0.0.1:{free_port()}", "WEB_CONCURRENCY": "1",
           "LONGCARDS_WORKERS": "0", "REDIS_URL": f"unix://{tmp_path / 'no-redis.sock'}", **settings}
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "service", "serve"], cwd=cwd, env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: "serve: ready" in log.read_text() or process.poll() is not None, 120, "serve's ready line")
        assert process.poll() is None, log.read_text()
        yield process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=60)


METRIC_FILE = "counter_4242.db"  # named as prometheus_client names a process's counters


@pytest.mark.slow
def test_serve_never_deletes_a_file_it_did_not_create(tmp_path):
    """With PROMETHEUS_MULTIPROC_DIR empty (unset) serve keeps its metrics in a directory of its own and leaves the
    working directory alone; in a configured directory it removes only prometheus_client's files of an earlier run."""
    cwd, metrics = tmp_path / "cwd", tmp_path / "metrics"
    for folder in (cwd, metrics):
        folder.mkdir()
        for name in ("notes.db", METRIC_FILE):
            (folder / name).write_text("not serve's")
    with serve_until_ready(tmp_path, cwd, PROMETHEUS_MULTIPROC_DIR=""):
        pass
    assert sorted(path.name for path in cwd.iterdir()) == [METRIC_FILE, "notes.db"]
    with serve_until_ready(tmp_path, cwd, PROMETHEUS_MULTIPROC_DIR=str(metrics)):
        assert (metrics / "notes.db").read_text() == "not serve's" and not (metrics / METRIC_FILE).exists()
    assert sorted(path.name for path in cwd.iterdir()) == [METRIC_FILE, "notes.db"]


@pytest.mark.slow
def test_serve_stops_when_its_metrics_directory_is_removed_while_it_runs(tmp_path):
    """A gunicorn worker started after the directory went away cannot record a request: gunicorn stops on it, and
    serve with it, saying so, instead of serving requests that die unanswered."""
    metrics = tmp_path / "metrics"
    metrics.mkdir()
    with serve_until_ready(tmp_path, tmp_path, PROMETHEUS_MULTIPROC_DIR=str(metrics)) as process:
        shutil.rmtree(metrics)
        for child in psutil.Process(process.pid).children(recursive=True):
            if "gunicorn" in " ".join(child.cmdline()) and child.parent().pid != process.pid:
                child.kill()  # a gunicorn worker: its master starts another
        assert process.wait(timeout=60) == 1
    said = (tmp_path / "serve.log").read_text()
    assert "PROMETHEUS_MULTIPROC_DIR" in said and "serve: gunicorn exited with" in said, said
    assert "restarting" not in said, said
