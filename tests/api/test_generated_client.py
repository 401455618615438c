"""The Python client openapi-python-client generates from openapi.yaml works against a live server."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from werkzeug.serving import make_server

from service.api.examples import CREATE_REPLAY, CREATE_SEARCH, CREATE_SHARE, EVALUATE_HU, RANK_DISCARDS
from service.app import create_app
from service.http.auth import entry
from tests.support.jobs import run_worker

ROOT = Path(__file__).resolve().parents[2]
KEY = "generated-client-secret-0123456789"


@pytest.fixture(scope="module")
def longcards_client(tmp_path_factory) -> Iterator[SimpleNamespace]:
    """Generate the client into a temporary folder (as docs/api.md says, no network) and import it."""
    out = tmp_path_factory.mktemp("client") / "longcards-client"
    # The generator formats its output with ruff, installed beside this interpreter.
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(ROOT / "openapi.yaml"),
         "--output-path", str(out), "--config", str(ROOT / "openapi-client.yaml")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warning" not in (done.stdout + done.stderr).lower(), done.stdout + done.stderr  # nothing was dropped
    sys.path.insert(0, str(out))
    try:
        modules = ("longcards_client", "longcards_client.api.hands", "longcards_client.api.discards",
                   "longcards_client.api.jobs", "longcards_client.api.searches", "longcards_client.models")
        loaded = [importlib.import_module(name) for name in modules]
        yield SimpleNamespace(**{name.rsplit(".", 1)[-1]: module for name, module in zip(modules, loaded)})
    finally:
        sys.path.remove(str(out))
        for name in [n for n in sys.modules if n == "longcards_client" or n.startswith("longcards_client.")]:
            del sys.modules[name]


@pytest.fixture
def base_url(redis_db, redis_url) -> Iterator[str]:
    """The app, API keys on, served over HTTP on a free loopback port for the length of a test."""
    app = create_app({"TESTING": True, "API_KEYS": entry("client", KEY), "REDIS_URL": redis_url})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


@pytest.mark.slow  # over 2 s on 2 cores
def test_evaluate_hu_as_in_the_api_doc(longcards_client, base_url):
    """The usage example of docs/api.md: a typed answer, hu with 6 points and its three melds."""
    from longcards_client import AuthenticatedClient
    from longcards_client.api.hands import evaluate_hu
    from longcards_client.models import HandRequest

    client = AuthenticatedClient(base_url=base_url, token=KEY)
    answer = evaluate_hu.sync(client=client, body=HandRequest.from_dict(EVALUATE_HU))
    assert answer.hu is True and answer.points == 6
    assert answer.exposed_points == 1 and answer.concealed_points == 5
    assert sorted(m.kind.value for m in answer.melds) == ["command", "triple", "triple"]
    assert answer.reasons == [] and answer.ruleset == "bga-taiwan"


@pytest.mark.slow  # over 2 s on 2 cores
def test_rank_discards(longcards_client, base_url):
    """The dealer's opening discard, ranked: typed options with waits and the best cards."""
    from longcards_client import AuthenticatedClient
    from longcards_client.api.discards import rank_discards
    from longcards_client.models import DiscardsRequest, DiscardsResponse

    client = AuthenticatedClient(base_url=base_url, token=KEY)
    answer = rank_discards.sync(client=client, body=DiscardsRequest.from_dict(RANK_DISCARDS))
    assert isinstance(answer, DiscardsResponse)
    assert answer.distance >= 1 and answer.unseen_total > 0
    assert [d.rank for d in answer.discards] == sorted(d.rank for d in answer.discards)
    assert [b.value for b in answer.best] == [d.card.value for d in answer.discards if d.rank == 1]


@pytest.mark.slow  # over 2 s on 2 cores
def test_invalid_request_is_a_typed_problem(longcards_client, base_url):
    """A 422 parses into the Problem model with its code and the field at fault."""
    from longcards_client import AuthenticatedClient
    from longcards_client.api.hands import evaluate_hu
    from longcards_client.models import HandRequest, Problem

    client = AuthenticatedClient(base_url=base_url, token=KEY)
    answer = evaluate_hu.sync(client=client, body=HandRequest.from_dict({**EVALUATE_HU, "hand": ["rG", "rG"] * 3}))
    assert isinstance(answer, Problem) and answer.code == "impossible_card_count" and answer.status == 422


@pytest.mark.slow  # over 2 s on 2 cores
def test_replay_job(longcards_client, base_url, redis_db):
    """POST /v1/replays through the client, a burst worker runs it, GET /v1/jobs/{id} shows it finished."""
    from longcards_client import AuthenticatedClient
    from longcards_client.api.jobs import create_replay, get_job
    from longcards_client.models import Job, JobStatus, ReplayRequest, ReplayResult

    client = AuthenticatedClient(base_url=base_url, token=KEY)
    created = create_replay.sync_detailed(client=client, body=ReplayRequest.from_dict(CREATE_REPLAY))
    assert created.status_code == 202 and isinstance(created.parsed, Job)
    assert created.parsed.status == JobStatus.QUEUED
    assert created.headers["Location"] == created.parsed.links.self_ == f"/v1/jobs/{created.parsed.id}"
    assert run_worker(redis_db)
    job = get_job.sync(job_id=created.parsed.id, client=client)
    assert job.status == JobStatus.FINISHED and job.error is None
    assert job.progress.logs_done == job.progress.logs_total == 1
    assert isinstance(job.result, ReplayResult)
    analysed = job.result.logs[0]
    assert analysed.valid is True and analysed.outcome.points == 11
    assert job.result.summary.players["Chi"].wins == 1  # seat 2's hu


@pytest.mark.slow  # over 2 s on 2 cores
def test_search_job_is_a_typed_result(longcards_client, base_url, redis_db):
    """POST /v1/searches through the client; the finished job's result parses into the SearchResult model."""
    from longcards_client import AuthenticatedClient
    from longcards_client.api.jobs import get_job
    from longcards_client.api.searches import create_search
    from longcards_client.models import FourColorCard, JobStatus, SearchRequest, SearchResult

    client = AuthenticatedClient(base_url=base_url, token=KEY)
    created = create_search.sync(client=client, body=SearchRequest.from_dict(CREATE_SEARCH))
    assert run_worker(redis_db)
    job = get_job.sync(job_id=created.id, client=client)
    assert job.status == JobStatus.FINISHED and isinstance(job.result, SearchResult)
    assert isinstance(job.result.best, FourColorCard) and job.result.best == job.result.candidates[0].card
    first = job.result.candidates[0].win_probability
    assert job.result.deals >= 1 and first.low <= first.mean <= first.high


@pytest.mark.slow  # over 2 s on 2 cores
def test_unknown_job_is_a_typed_problem(longcards_client, base_url):
    """A 404 (and a 401 without a key) parses into the Problem model, not None: every error answer has its body."""
    from longcards_client import AuthenticatedClient, Client
    from longcards_client.api.jobs import cancel_job, get_job
    from longcards_client.models import Problem

    client = AuthenticatedClient(base_url=base_url, token=KEY)
    for operation in (get_job, cancel_job):
        answer = operation.sync(job_id="no-such-job", client=client)
        assert isinstance(answer, Problem) and answer.code == "job_not_found" and answer.status == 404
    anonymous = get_job.sync(job_id="no-such-job", client=Client(base_url=base_url))
    assert isinstance(anonymous, Problem) and anonymous.code == "missing_api_key" and anonymous.status == 401


@pytest.mark.slow  # over 2 s on 2 cores
def test_a_stored_game_through_the_client(longcards_client, base_url):
    """POST /v1/shares with the key; GET /v1/shares/{id} and a round of it without one (open: a Client, no token),
    typed as the Share and AuditResponse models; DELETE with the key, then a typed 410 problem."""
    from longcards_client import AuthenticatedClient, Client
    from longcards_client.api.shares import create_share, delete_share, get_share, get_share_round
    from longcards_client.models import AuditResponse, Problem, Share, ShareRequest, ShareSummary

    client, anonymous = AuthenticatedClient(base_url=base_url, token=KEY), Client(base_url=base_url)
    created = create_share.sync_detailed(client=client, body=ShareRequest.from_dict(CREATE_SHARE))
    assert created.status_code == 201 and isinstance(created.parsed, ShareSummary)
    assert created.headers["Location"] == f"/v1/shares/{created.parsed.id}"
    share = get_share.sync(share_id=created.parsed.id, client=anonymous)
    assert isinstance(share, Share) and share.title == CREATE_SHARE["title"] and share.analysis is None
    assert [log.to_dict()["hands"] for log in share.logs] == [log["hands"] for log in CREATE_SHARE["logs"]]
    round_ = get_share_round.sync(share_id=created.parsed.id, n=0, client=anonymous)
    assert isinstance(round_, AuditResponse) and round_.valid is True and len(round_.tables) == round_.events
    assert delete_share.sync_detailed(share_id=created.parsed.id, client=client).status_code == 204
    gone = get_share.sync(share_id=created.parsed.id, client=anonymous)
    assert isinstance(gone, Problem) and gone.code == "share_deleted" and gone.status == 410
