"""A Redis that answers but refuses writes (full at `maxmemory` under `noeviction`, a read-only replica, a failed
save with `stop-writes-on-bgsave-error`), caused for real on a private redis-server (tests/support/redis.py
`refusing_writes`): every job endpoint answers 503 `jobs_unavailable` with Retry-After, never a 500, reads still
answer, no half-made job counts against its caller, /readyz is not ready; and a job a worker took from its queue
as Redis refused writes is not stranded: the worker holds it and runs it once Redis takes writes again, or puts it
back at the front of its queue when it is stopped meanwhile; killed outright meanwhile, another worker puts the job
back once Redis takes writes (service/jobs/waiting.py) and runs it. Redis unreachable: test_faults.py."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from redis.exceptions import ExecAbortError, OutOfMemoryError, ReadOnlyError, ResponseError
from rq.job import JobStatus
from rq.registry import StartedJobRegistry

from service.jobs.errors import refused
from service.jobs.queues import QUEUE_SEARCHES, fetch, queue
from service.jobs.submit import Caller, active_jobs
from service.jobs.waiting import WAITING
from tests.support.jobs import batch, job_app, run_worker, search_body
from tests.support.processes import alive, kill_tree, registered, wait_for, worker_process
from tests.support.redis import REFUSALS, refusing_writes

#: The caller of the test client's requests (no API key, from the test client's address).
CALLER = Caller.of(None, "127.0.0.1")


def unavailable(response) -> bool:
    """A 503 `jobs_unavailable` problem with a Retry-After."""
    body = response.get_json() or {}
    return (response.status_code, body.get("code"), response.mimetype) == (
        503, "jobs_unavailable", "application/problem+json") and response.headers["Retry-After"].isdigit()


@pytest.mark.parametrize("cause", REFUSALS)
def test_every_job_endpoint_answers_503_while_redis_refuses_writes(redis_server, cause):
    """Submissions and cancels answer 503 `jobs_unavailable` with Retry-After and make nothing (the caller's active
    jobs are the one made before); reads answer as before; /readyz is 503 while /healthz is 200. Once Redis takes
    writes again the same app submits and cancels, with no restart."""
    server, connection = redis_server
    with job_app(server.url) as app:
        client = app.test_client()
        before = client.post("/v1/searches", json=search_body())
        assert before.status_code == 202
        location, keys = before.headers["Location"], sorted(connection.keys("rq:job:*"))
        with refusing_writes(connection, cause):
            refused_answers = {
                "search": client.post("/v1/searches", json=search_body(seed=4)),
                "replay": client.post("/v1/replays", json={"logs": batch(1)}),
                "cancel": client.delete(location),
            }
            for name, answer in refused_answers.items():
                assert unavailable(answer), (name, answer.status_code, answer.get_json())
            assert client.get(location).get_json()["status"] == "queued"
            listed = client.get("/v1/jobs")
            assert listed.status_code == 200 and [job["id"] for job in listed.get_json()["jobs"]] == [
                before.get_json()["id"]]
            ready = client.get("/readyz")
            assert ready.status_code == 503 and ready.get_json()["code"] == "not_ready"
            assert ready.get_json()["detail"] == "Redis refuses writes (full, unable to save, or read-only)"
            assert ready.headers["Retry-After"].isdigit()
            assert client.get("/healthz").status_code == 200
        assert sorted(connection.keys("rq:job:*")) == keys  # no half-made job
        assert [job_id.decode() for job_id in active_jobs(connection, CALLER.active)[0]] == [before.get_json()["id"]]
        assert client.get("/readyz").get_json()["detail"] == "no worker is alive"  # Redis itself is ready
        assert client.post("/v1/searches", json=search_body(seed=4)).status_code == 202
        assert client.delete(location).status_code == 200


@pytest.mark.parametrize(("error", "code"), [
    (OutOfMemoryError("command not allowed when used memory > 'maxmemory'."), "OOM"),
    (ReadOnlyError("You can't write against a read only replica."), "READONLY"),
    (ExecAbortError("Transaction discarded because of previous errors."), "EXECABORT"),
    (ResponseError("MISCONF Redis is configured to save RDB snapshots, but it is currently not able to persist on "
                   "disk."), "MISCONF"),
    (ResponseError("Error running script (call to f_0024a9): @user_script:24: @user_script: 24: -OOM command not "
                   "allowed when used memory > 'maxmemory'."), "OOM"),
    (ResponseError("Command # 1 (SET a 1) of pipeline caused error: MISCONF Redis is configured to save RDB "
                   "snapshots"), "MISCONF"),
    (ResponseError("LOADING Redis is loading the dataset in memory"), "LOADING"),
    (ResponseError("WRONGTYPE Operation against a key holding the wrong kind of value"), None),
    (ResponseError("ERR unknown command 'READONLY-ISH'"), None),
])
def test_refusals_are_told_from_other_error_answers(error, code):
    """Redis's refusals as redis-py raises them (its own classes, a script's wrapped error, a pipeline's, a code it
    does not know), EXECABORT included; any other error answer is no refusal (a bug: 500)."""
    assert refused(error) == code


def arrive_as_redis_fills(connection, job_id: str) -> None:
    """The job arrives on its queue as Redis refuses writes, as when the submission that fills Redis wakes a worker
    blocked on the queue: a script that has written may go on writing in a full Redis, so the push is taken, and
    with it the job's stamp among the waiting jobs, as every push writes it (service/jobs/waiting.py)."""
    connection.eval("redis.call('DEL', KEYS[2]) redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1]) "
                    "return redis.call('LPUSH', KEYS[1], ARGV[1])", 3, queue(QUEUE_SEARCHES, connection).key,
                    "longcards-test:nothing", WAITING, job_id, time.time())


def blocked_on_queues(connection) -> bool:
    """A client (the worker) waits in BLPOP on the queues."""
    return any(client["cmd"] == "blpop" and "b" in client["flags"] for client in connection.client_list())


@contextmanager
def held(server, connection, client, log, monkeypatch) -> Iterator[tuple[str, subprocess.Popen]]:
    """A `python -m workers` holding a search submitted through the API: it took the job from its queue just as
    Redis was full (OOM) and cannot claim it. Yields the job's id and the worker's process while Redis is full (the
    worker waits on its queues 10 s at a time, so it waits there when the job arrives)."""
    monkeypatch.setenv("LONGCARDS_WORKER_POLL", "10")
    submitted = client.post("/v1/searches", json=search_body())
    assert submitted.status_code == 202
    job_id = submitted.get_json()["id"]
    # Not queued yet: it arrives once Redis is full. Taken out of the waiting jobs too, or a worker slow to start (a
    # loaded machine) would find it queued in no queue and put it back before Redis is full.
    connection.lrem(queue(QUEUE_SEARCHES, connection).key, 1, job_id)
    connection.zrem(WAITING, job_id)
    with worker_process(server.url, log) as process:
        wait_for(lambda: registered(connection, 1) and blocked_on_queues(connection), 60, "the worker to wait")
        with refusing_writes(connection, "OOM"):
            arrive_as_redis_fills(connection, job_id)
            wait_for(lambda: queue(QUEUE_SEARCHES, connection).count == 0, 10, "the worker to take the job")
            yield job_id, process


@pytest.mark.slow
def test_a_job_a_worker_took_as_redis_filled_up_runs_once_redis_takes_writes_again(redis_server, tmp_path,
                                                                                    monkeypatch):
    """A real worker takes a job from its queue just as Redis is full (OOM): it cannot claim it, and holds it rather
    than end with it in its hands. Redis stays full 8 s (the job queued, in no queue); once it has room again the
    same worker runs the job to its end, and the caller's active jobs are back to none."""
    server, connection = redis_server
    log = tmp_path / "worker.log"
    with job_app(server.url) as app:
        client = app.test_client()
        with held(server, connection, client, log, monkeypatch) as (job_id, process):
            time.sleep(8)
            alive(process, log)
            assert client.get(f"/v1/jobs/{job_id}").get_json()["status"] == "queued"
            assert not connection.zcard(StartedJobRegistry(QUEUE_SEARCHES, connection=connection).key)
            connection.config_set("maxmemory", 0)  # room again
            wait_for(lambda: alive(process, log) or fetch(job_id, connection).get_status() == JobStatus.FINISHED,
                     120, "the held job to finish", every=0.2)
            alive(process, log)
        assert client.get(f"/v1/jobs/{job_id}").get_json()["status"] == "finished"
        assert active_jobs(connection, CALLER.active)[0] == []
        assert f"claimed job {job_id} after" in log.read_text(), log.read_text()[-3000:]


@pytest.mark.slow
def test_a_worker_stopped_while_it_holds_a_job_puts_it_back_at_the_front_of_its_queue(redis_server, tmp_path,
                                                                                       monkeypatch):
    """The worker holding a job it could not claim (Redis full) is stopped (SIGTERM): it puts the job back at the
    front of its queue and exits 0; once Redis has room, another worker runs it to its end."""
    server, connection = redis_server
    log = tmp_path / "worker.log"
    with job_app(server.url) as app:
        client = app.test_client()
        with held(server, connection, client, log, monkeypatch) as (job_id, process):
            wait_for(lambda: "refuses writes (OOM)" in log.read_text(), 30, "the worker to wait for Redis")
            process.terminate()
            assert process.wait(timeout=60) == 0, log.read_text()[-3000:]
            assert queue(QUEUE_SEARCHES, connection).job_ids == [job_id]
        assert run_worker(connection)
        assert client.get(f"/v1/jobs/{job_id}").get_json()["status"] == "finished"


@pytest.mark.slow
def test_a_job_held_by_a_worker_killed_as_redis_refused_writes_is_run_by_another(redis_server, tmp_path,
                                                                                  monkeypatch):
    """The worker holding a job it could not claim (Redis full) is SIGKILLed (an OOM kill, a node lost): the job is
    `queued` and in no queue. Once Redis has room again, a new worker finds it at its first clean-up (the job has
    been waiting longer than heartbeat + grace by then, or at a later one), puts it back at the front of its queue,
    says so, and runs it to its end; the caller's active jobs are back to none."""
    server, connection = redis_server
    log, other = tmp_path / "worker.log", tmp_path / "other.log"
    with job_app(server.url) as app:
        client = app.test_client()
        with held(server, connection, client, log, monkeypatch) as (job_id, process):
            wait_for(lambda: "refuses writes (OOM)" in log.read_text(), 30, "the worker to wait for Redis")
            kill_tree(process)
        assert client.get(f"/v1/jobs/{job_id}").get_json()["status"] == "queued"
        assert queue(QUEUE_SEARCHES, connection).count == 0
        with worker_process(server.url, other) as second:
            wait_for(lambda: alive(second, other) or fetch(job_id, connection).get_status() == JobStatus.FINISHED,
                     120, "the lost job to finish", every=0.2)
        assert f"job {job_id} was queued but in no queue" in other.read_text(), other.read_text()[-3000:]
        assert client.get(f"/v1/jobs/{job_id}").get_json()["status"] == "finished"
        assert active_jobs(connection, CALLER.active)[0] == []
