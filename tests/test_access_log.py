"""gunicorn's access log (deploy/gunicorn.conf.py): each line names the answer's X-Request-ID, and shows the request
as the client sent it but for a key put in the query. A real gunicorn on a loopback port, requests, and the log
lines read back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.ports import free_port
from tests.support.processes import ROOT, wait_for


def get(url: str, headers: dict[str, str] | None = None) -> str:
    """GET; the answer's X-Request-ID (an error answer's too)."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as response:
            return response.headers["X-Request-ID"]
    except urllib.error.HTTPError as error:
        return error.headers["X-Request-ID"]


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """gunicorn with deploy/gunicorn.conf.py on a free port of 127.0.0.1, its access log in a file: (its base URL,
    the log); stopped afterwards."""
    port, log = free_port(), tmp_path_factory.mktemp("access") / "access.log"
    env = {**os.environ, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1", "GUNICORN_ACCESSLOG": str(log),
           "LONGCARDS_METRICS": "false"}
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py",
                               "service.app:create_app()"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"

    def answering() -> bool:
        if server.poll() is not None:
            pytest.fail("gunicorn did not start")
        try:
            return bool(get(base + "/healthz"))
        except OSError:
            return False

    try:
        wait_for(answering, 60, "gunicorn to answer", 0.2)
        yield base, log
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def logged(log: Path, *parts: str) -> str:
    """The access log line holding every one of `parts` (waited for: a line is written once its answer is sent)."""
    def line() -> str | None:
        return next((text for text in log.read_text(encoding="utf-8").splitlines()
                     if all(part in text for part in parts)), None)

    return wait_for(line, 20, f"an access log line with {parts}", 0.1)


@pytest.mark.slow  # over 2 s on 2 cores
def test_access_log_names_the_request_id(gunicorn):
    """The client's id and, without one, the id the API made both reach the access log line of the request."""
    base, log = gunicorn
    assert get(base + "/v1/rulesets", {"X-Request-ID": "site-7:req-1"}) == "site-7:req-1"
    made = get(base + "/v1/rulesets/bga-taiwan")
    assert logged(log, "GET /v1/rulesets HTTP", "rid=site-7:req-1 ")
    assert logged(log, "GET /v1/rulesets/bga-taiwan HTTP", f"rid={made} ")


@pytest.mark.slow  # over 2 s on 2 cores
def test_a_key_in_the_query_is_masked_and_the_rest_of_the_request_is_not(gunicorn):
    """A key put in the query (`api_key`, `token`) is not logged; any other parameter, `password` included, is the
    request's own and is logged as sent, quotes and all."""
    base, log = gunicorn
    rid = get(base + "/v1/rulesets?password=%27visible-content-4711%27&api_key=planted-key-4711-abcdef&lang=en")
    line = logged(log, f"rid={rid} ")
    assert "planted-key-4711" not in line, line
    assert '"GET /v1/rulesets?password=%27visible-content-4711%27&api_key=***&lang=en HTTP/1.1"' in line, line
    rid = get(base + "/v1/jobs?X-Api-Key=planted-key-4711-abcdef&token=planted-token-4711", {"X-API-Key": "x"})
    line = logged(log, f"rid={rid} ")
    assert '"GET /v1/jobs?X-Api-Key=***&token=*** HTTP/1.1"' in line, line


def test_the_warning_for_a_malformed_request_line_masks_a_key_in_its_query():
    """gunicorn's warning quotes a request line it could not parse: a key in its query is masked there too, the
    rest of the line (its closing quote included) kept."""
    from types import SimpleNamespace

    from gunicorn.config import Config
    from gunicorn.http.errors import InvalidRequestLine

    from service.runtime.gunicorn_errors import ProblemAnswers

    warned: list[str] = []
    log = SimpleNamespace(warning=lambda message, *args: warned.append(message % args))
    sock = SimpleNamespace(gettimeout=lambda: None, setblocking=lambda flag: None, sendall=lambda data: None)
    line = "GET /v1/rulesets?api_key=planted-key-4711&lang=en HTTP/1.1 trailing"
    ProblemAnswers.handle_error(SimpleNamespace(log=log, cfg=Config()), None, sock, ("127.0.0.1", 1),
                                InvalidRequestLine(line))
    [said] = warned
    assert "planted-key-4711" not in said and "'GET /v1/rulesets?api_key=***&lang=en HTTP/1.1 trailing'" in said, said
