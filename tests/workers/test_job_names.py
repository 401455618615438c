"""The service enqueues jobs by name: each name is a worker's function, and the names, queues and specs are the ones
Redis already holds (a job queued by an older API still runs)."""

from __future__ import annotations

from rq.utils import import_attribute

from service.jobs.queues import CALLBACKS, QUEUES, SPECS, JobSpec, job_name, spec
from workers.replays import analyse_replays
from workers.searches import deep_search
from workers.webhooks import deliver_webhook, notify_failure, notify_success
from workers.worker import JOB_CALLBACKS, JOB_FUNCTIONS


def test_job_names_are_the_stored_ones():
    """Function paths RQ stored for jobs and callbacks before: renaming one strands the jobs already queued."""
    assert set(SPECS) == {"workers.replays.analyse_replays", "workers.searches.deep_search",
                          "workers.webhooks.deliver_webhook"}
    assert set(CALLBACKS) == {"workers.webhooks.notify_success", "workers.webhooks.notify_failure"}
    assert QUEUES == ("replays", "searches", "webhooks")


def test_every_name_is_a_worker_function():
    """RQ imports each name in the worker: it resolves to the function of that name."""
    for name in (*SPECS, *CALLBACKS):
        func = import_attribute(name)
        assert callable(func) and job_name(func) == name, name
    assert [job_name(f) for f in (analyse_replays, deep_search, deliver_webhook)] == list(SPECS)
    assert [job_name(f) for f in (notify_success, notify_failure)] == list(CALLBACKS)


def test_specs_are_unchanged():
    """Queues, time limits and retries of each job, by function or by name alike."""
    assert spec(analyse_replays) == JobSpec("replays", timeout=3600)
    assert spec(deep_search) == JobSpec("searches", timeout=300)
    assert spec("workers.webhooks.deliver_webhook") == JobSpec("webhooks", timeout=30, retries=5,
                                                                intervals=(2, 10, 60, 300, 1800))
    assert all(s.result_ttl == 24 * 3600 for s in SPECS.values())  # kept a day after they end, whatever the end


def test_the_worker_runs_exactly_these_names():
    """The worker's allow-list is the service's list of jobs and callbacks."""
    assert JOB_FUNCTIONS == set(SPECS) and JOB_CALLBACKS == set(CALLBACKS)
