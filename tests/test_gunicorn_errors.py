"""What gunicorn answers itself, before the app reads a request (service/runtime/gunicorn_errors.py), is a problem like
the app's: a real gunicorn with deploy/gunicorn.conf.py, one per worker class, gets malformed requests as raw bytes
and answers each with its status, `application/problem+json` with a stable code, the security headers of a normal
answer, an X-Request-ID that is also in its log, and `Connection: close`, never a byte of the request. The statuses
are gunicorn's own, exception by exception, and deploy/gunicorn.conf.py picks the worker of each class."""

from __future__ import annotations

import json
import os
import re
import runpy
import signal
import socket
import ssl
import subprocess
import sys
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path
from types import SimpleNamespace

import pytest
from gunicorn import util
from gunicorn.config import Config
from gunicorn.http import errors as http_errors
from gunicorn.workers.base import Worker
from gunicorn.workers.ggevent import GeventWorker
from gunicorn.workers.gthread import ThreadWorker
from gunicorn.workers.sync import SyncWorker

from service.config import CONFIG_EXIT
from service.http import requestid, security_headers
from service.http.problems import PROBLEMS
from service.runtime import gunicorn_errors
from tests.support.ports import free_port
from tests.support.processes import ROOT, wait_for

STARTUP = 60  # seconds: gunicorn builds the evaluation tables before it listens
SECURITY = [name.lower() for name in (*security_headers.HEADERS, "Content-Security-Policy")]

# name -> (the raw request, status, code). Each one gunicorn refuses before the app is called.
CASES = {
    "control_byte_in_a_header_value": (b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Note: a\x01b\r\n\r\n",
                                       400, "malformed_request"),
    "content_length_twice": (b"POST /v1/hu HTTP/1.1\r\nHost: t\r\nX-Request-ID: client-7\r\nContent-Length: 2\r\n"
                             b"Content-Length: 3\r\n\r\n{}", 400, "malformed_request"),
    "request_line_of_10_kb": (b"GET /v1/" + b"q" * 10240 + b" HTTP/1.1\r\nHost: t\r\n\r\n",
                              414, "request_line_too_long"),
    "header_field_of_10_kb": (b"GET /healthz HTTP/1.1\r\nHost: t\r\nX-Note: " + b"q" * 10240 + b"\r\n\r\n",
                              431, "header_fields_too_large"),
    "120_header_fields": (b"GET /healthz HTTP/1.1\r\nHost: t\r\n" + b"".join(b"X-N%d: q\r\n" % i for i in range(120))
                          + b"\r\n", 431, "header_fields_too_large"),
    "expect_other_than_100_continue": (b"GET /healthz HTTP/1.1\r\nHost: t\r\nExpect: qqq\r\n\r\n",
                                       417, "expectation_failed"),
    "unknown_transfer_coding": (b"POST /v1/hu HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: qqq, chunked\r\n\r\n",
                                501, "unsupported_transfer_coding"),
}


def exchange(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes, bytes]:
    """Send `raw` on a new connection and read until the server closes it: status, headers (lower-cased names),
    the whole answer and its body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(raw)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, answer, body


@pytest.fixture(scope="module", params=["gevent", "gthread"])
def server(request, tmp_path_factory) -> Iterator[SimpleNamespace]:
    """gunicorn with the project's config and one worker of the class on a free loopback port, its log, and the
    headers of its GET /healthz; no Redis (these requests need none)."""
    port, folder = free_port(), tmp_path_factory.mktemp(request.param)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REDIS_", "GUNICORN_", "LONGCARDS_"))}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    env.update(BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="1", GUNICORN_WORKER_CLASS=request.param,
               LONGCARDS_METRICS="false", REDIS_URL=f"unix://{folder / 'no-redis.sock'}")
    log = folder / "gunicorn.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py",
                                    "service.app:create_app()"], cwd=ROOT, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        def healthz() -> dict[str, str] | None:
            assert process.poll() is None, log.read_text()[-3000:]
            try:
                status, headers, _, _ = exchange(port, b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            except (OSError, IndexError, ValueError):
                return None
            return headers if status == 200 else None

        normal = wait_for(healthz, STARTUP, "gunicorn's /healthz", 0.2)
        yield SimpleNamespace(port=port, log=log, normal=normal)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_gunicorn_answers_a_malformed_request_as_a_problem(server, case):
    raw, status, code = CASES[case]
    got, headers, answer, body = exchange(server.port, raw)
    assert got == status, answer[:500]
    assert headers["content-type"] == "application/problem+json" and headers["connection"] == "close"
    assert int(headers["content-length"]) == len(body)
    problem = json.loads(body)
    assert problem["code"] == code and problem["status"] == status and problem["type"] == f"/problems/{code}"
    assert problem["title"] == HTTPStatus(status).phrase and PROBLEMS[code].status == status
    assert {name: headers.get(name) for name in SECURITY} == {name: server.normal[name] for name in SECURITY}
    rid = headers["x-request-id"]
    assert problem["request_id"] == rid and requestid.SANE.fullmatch(rid)
    if b"X-Request-ID: client-7" in raw:  # the headers were read: the client's id, as the envelope keeps it
        assert rid == "client-7"
    # Nothing of the request comes back: no control byte, none of its filler.
    assert re.fullmatch(rb"[\x20-\x7e\r\n]*", answer) and b"qqq" not in answer and b"X-N" not in answer
    wait_for(lambda: f"rid={rid}" in server.log.read_text(), 5, "the answer's id in gunicorn's log")


def gunicorn_status(exc: BaseException) -> int:
    """The status of the page gunicorn's own handle_error writes for `exc`."""
    written = bytearray()
    sock = SimpleNamespace(gettimeout=lambda: None, setblocking=lambda flag: None, sendall=written.extend)
    quiet = SimpleNamespace(warning=lambda *a, **k: None, exception=lambda *a, **k: None)
    Worker.handle_error(SimpleNamespace(log=quiet, cfg=Config()), None, sock, ("127.0.0.1", 1), exc)
    return int(bytes(written).split()[1])


ERRORS = [c for c in vars(http_errors).values() if isinstance(c, type) and issubclass(c, Exception)] + [ssl.SSLError]


@pytest.mark.parametrize("kind", ERRORS, ids=lambda kind: kind.__name__)
def test_each_exception_gets_the_status_gunicorn_gives_it(kind):
    """gunicorn's mapping of its exceptions kept, with a code of the problems table for each status; only its 403s
    (a PROXY header from an untrusted address, a TLS error) are left to its own page."""
    exc = kind("qqq")
    found = gunicorn_errors.classify(exc, Config())
    if found is None:
        assert kind in (http_errors.ForbiddenProxyRequest, ssl.SSLError) and gunicorn_status(exc) == 403
        return
    status, code, detail = found
    assert status == gunicorn_status(exc) and PROBLEMS[code].status == status and "qqq" not in detail


@pytest.mark.parametrize(("named", "threads", "expected"), [
    ("gevent", "1", gunicorn_errors.ProblemGeventWorker),
    ("gthread", "4", gunicorn_errors.ProblemThreadWorker),
    ("sync", "1", gunicorn_errors.ProblemSyncWorker),
    ("sync", "4", gunicorn_errors.ProblemThreadWorker),  # gunicorn runs sync with threads as gthread
    ("gevent_pywsgi", "1", None),  # any other class stops gunicorn at start, naming the setting
])
def test_the_config_picks_the_problem_worker_of_the_class(monkeypatch, capsys, named, threads, expected):
    monkeypatch.setenv("GUNICORN_WORKER_CLASS", named)
    monkeypatch.setenv("GUNICORN_THREADS", threads)
    if expected is None:
        with pytest.raises(SystemExit) as stopped:
            runpy.run_path(str(Path(ROOT) / "deploy" / "gunicorn.conf.py"))
        assert stopped.value.code == CONFIG_EXIT  # serve does not start it again
        assert f"GUNICORN_WORKER_CLASS='{named}' is not valid" in capsys.readouterr().err
        return
    chosen = runpy.run_path(str(Path(ROOT) / "deploy" / "gunicorn.conf.py"))["worker_class"]
    loaded = util.load_class(chosen)
    assert loaded is expected and issubclass(loaded, (GeventWorker, ThreadWorker, SyncWorker))
    config = Config()
    config.set("worker_class", chosen)
    config.set("threads", int(threads))
    assert config.worker_class is expected  # gunicorn's own reading of the setting keeps it


@pytest.mark.slow
@pytest.mark.parametrize("chunks", [b"zz\r\n{}\r\n0\r\n\r\n", b"2\r\n{}XX0\r\n\r\n"], ids=["bad_size", "no_terminator"])
def test_a_malformed_chunked_body_is_a_400_problem_of_the_app(server, chunks):
    """gunicorn reads a chunked body only as the app reads it: the app answers, 400 `malformed_request` (was 500)."""
    raw = (b"POST /v1/hu HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
           + chunks)
    got, headers, answer, body = exchange(server.port, raw)
    assert got == 400, answer[:500]
    assert headers["content-type"] == "application/problem+json"
    problem = json.loads(body)
    assert problem["code"] == "malformed_request" and problem["request_id"] == headers["x-request-id"]
    assert {name: headers.get(name) for name in SECURITY} == {name: server.normal[name] for name in SECURITY}
    assert "Traceback" not in server.log.read_text()
