"""Stored games ("shares"): the logs of a game (1-50 rounds), a title, and the analysis of a finished replay job if
the caller has one, kept under an unguessable id, so that whoever holds the link can read them back (the API, the
replay viewer, the embed view) and only the caller who stored them can delete them.

No Flask here, as in service/jobs/: the API passes in the app's Redis client and settings and who asks, and maps the
refusals below to problems (service/api/shares/). A share is one Redis hash, `longcards:share:{id}`: the document
as compressed JSON (`body`), `created_at`, `expires_at`, `owner`, `size`, `rounds` and `title`, expiring after
SHARE_RETENTION_DAYS (never when 0). Each owner's ids are indexed by time (`longcards:shares:{owner}`) for the quota
(MAX_SHARES) and the listing, and pruned of the shares that have expired. A deleted share leaves a tombstone, so its
link answers "deleted" rather than "never existed" for as long as the share would have lived. Writes are confirmed
by a replica as a job submission is (service/jobs/replication.py): a stored game survives the loss of the primary.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from redis import Redis
from rq.job import Job, JobStatus

from .jobs.errors import JobNotFound, NotReplicated
from .jobs.pages import read as read_result
from .jobs.queues import SERIALIZER
from .jobs.replication import confirm, replicas_wanted
from .jobs.submit import load as load_job
from .jobs.submit import reused_key

#: A share's id: `secrets.token_urlsafe(18)`, 144 random bits. Anything else names no share (and reaches no Redis).
ID = re.compile(r"[A-Za-z0-9_-]{24}")
ID_BYTES = 18
PREFIX = "longcards:share:"
DELETED_PREFIX = "longcards:share-deleted:"
INDEX_PREFIX = "longcards:shares:"
#: Which game a store request made (service/jobs/submit.py `idempotency`), kept a day.
IDEMPOTENCY_PREFIX = "longcards:share-idem:"
DAY = 86400
#: How long a deleted share answers "deleted" when it had no end of its own (SHARE_RETENTION_DAYS 0).
TOMBSTONE_SECONDS = 30 * DAY
IDEMPOTENCY_SECONDS = DAY
#: The listing shows at most this many of an owner's shares, the newest.
LIST_LIMIT = 1000
#: The hash fields a listing reads (not the body).
SUMMARY_FIELDS = ["created_at", "expires_at", "title", "rounds", "size"]


class ShareError(Exception):
    """A share request that cannot be carried out."""


class ShareIdError(ShareError):
    """A refusal about the share `share_id`."""

    def __init__(self, share_id: str) -> None:
        super().__init__(share_id)
        self.share_id = share_id


class ShareNotFound(ShareIdError):
    """No share with this id: it never existed, or its retention has passed."""


class ShareDeleted(ShareIdError):
    """Its owner deleted the share."""


class ShareNotYours(ShareIdError):
    """Another owner stored the share: this one may not delete it."""


class ShareTooLarge(ShareError):
    """The document to store is `size` bytes as JSON, over `limit` (SHARE_MAX_BYTES)."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(size, limit)
        self.size, self.limit = size, limit


class TooManyShares(ShareError):
    """The owner keeps `kept` shares already, and at most `limit` (MAX_SHARES)."""

    def __init__(self, kept: int, limit: int) -> None:
        super().__init__(kept, limit)
        self.kept, self.limit = kept, limit


class JobNotShareable(ShareError):
    """The job named to store with the logs is no finished replay of these logs of this caller's: `why` is `missing`
    (another caller's, expired, or no job at all), `kind` (a search), `unfinished` (RQ's `status` of it) or
    `other_logs` (it analysed other rounds)."""

    def __init__(self, job_id: str, why: str, status: JobStatus | None = None) -> None:
        super().__init__(job_id, why)
        self.job_id, self.why, self.status = job_id, why, status


class ShareNotReplicated(ShareError):
    """No replica acknowledged a store or a deletion in time (service/jobs/replication.py `NotReplicated`, whose
    numbers it keeps): it may have been done all the same."""

    def __init__(self, refused: NotReplicated) -> None:
        super().__init__(refused.wanted, refused.acknowledged)
        self.wanted, self.acknowledged, self.timeout_ms = refused.wanted, refused.acknowledged, refused.timeout_ms
        self.retry_after = refused.retry_after


@dataclass(frozen=True)
class Summary:
    """What a share's listing shows: no logs, no analysis."""

    id: str
    created_at: str
    expires_at: str | None
    title: str | None
    rounds: int
    size: int


@dataclass(frozen=True)
class Stored(Summary):
    """A share as read: its summary, its owner, the document (`logs`, `title`, `analysis`, the analysis's texts
    language-neutral as a job result stores them), the document's JSON bytes and their strong tag."""

    owner: str
    document: dict[str, Any]
    body: bytes
    etag: str


def share_key(share_id: str) -> str:
    """The hash of a share."""
    return PREFIX + share_id


def index_key(owner: str) -> str:
    """The sorted set of an owner's share ids, by the time they were stored."""
    return INDEX_PREFIX + owner


def encode(document: Mapping[str, Any]) -> bytes:
    """A document as the JSON bytes stored (compact, UTF-8, keys in the order given: the answers' field order)."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


#: The store, in one step of Redis: the share the idempotency key names, when it was made from the same request and
#: still lives ('same ID'; 'reused' when made from another body); else, with a limit, the owner's index pruned of
#: expired shares and counted (the number kept is answered when it is at the limit); else the share written with
#: its expiry and indexed, the index living as long as its longest-lived share (forever once it holds one without an
#: end), the idempotency key naming it for a day. Answers -1 once stored.
#: KEYS: the share, the owner's index, the idempotency key. ARGV: id, limit (0: none), the share prefix, the score
#: (µs), the TTL (s, 0: none), the request's digest ('': no idempotency key), the idempotency key's TTL (s), then the
#: hash's fields and values.
STORE = """
local entry = ARGV[6] ~= '' and redis.call('GET', KEYS[3])
if entry then
  local id, made = string.match(entry, '^(%S+) (%S+)$')
  if made ~= ARGV[6] then return 'reused' end
  if redis.call('EXISTS', ARGV[3] .. id) == 1 then return 'same ' .. id end
end
local limit = tonumber(ARGV[2])
if limit > 0 then
  local kept = 0
  for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
    if redis.call('EXISTS', ARGV[3] .. id) == 1 then kept = kept + 1 else redis.call('ZREM', KEYS[2], id) end
  end
  if kept >= limit then return kept end
end
local ttl = tonumber(ARGV[5])
redis.call('HSET', KEYS[1], unpack(ARGV, 8))
if ARGV[6] ~= '' then redis.call('SET', KEYS[3], ARGV[1] .. ' ' .. ARGV[6], 'EX', tonumber(ARGV[7])) end
if ttl > 0 then redis.call('EXPIRE', KEYS[1], ttl) end
local before = redis.call('TTL', KEYS[2])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
if ttl == 0 then
  redis.call('PERSIST', KEYS[2])
elseif before == -2 or (before >= 0 and before < ttl) then
  redis.call('EXPIRE', KEYS[2], ttl)
end
return -1
"""


def store(connection: Redis, settings: Mapping[str, Any], owner: str, logs: list[dict[str, Any]],
          title: str | None = None, analysis: dict[str, Any] | None = None, *,
          idempotency: tuple[str, str] | None = None) -> Stored:
    """Store a game for `owner` (`key:NAME`, else `addr:IP`): ShareTooLarge over SHARE_MAX_BYTES, TooManyShares at
    MAX_SHARES; returned once the replicas SUBMIT_REPLICAS asks for have it (ShareNotReplicated: it may be stored).
    `idempotency` (the Idempotency-Key's Redis key and the request's digest, service/jobs/submit.py `idempotency`):
    the same request sent again answers the game it stored while that lives (a DomainError `idempotency_key_reused`
    for the key with another body), so a client may repeat a store that got no answer, or a 503, without keeping two
    games. Without one every store is a new game (storing the same rounds twice makes two links, deleted apart)."""
    document = {"logs": logs, "title": title, "analysis": analysis}
    body = encode(document)
    largest = int(settings["SHARE_MAX_BYTES"])
    if len(body) > largest:
        raise ShareTooLarge(len(body), largest)
    days, limit = int(settings["SHARE_RETENTION_DAYS"]), int(settings.get("MAX_SHARES") or 0)
    created = datetime.now(UTC).replace(microsecond=0)
    expires = (created + timedelta(days=days)).isoformat() if days else None
    share_id = secrets.token_urlsafe(ID_BYTES)
    fields: dict[str, Any] = {"body": zlib.compress(body), "owner": owner, "created_at": created.isoformat(),
                              "expires_at": expires or "", "size": len(body), "rounds": len(logs)}
    if title is not None:
        fields["title"] = title
    key, digest = idempotency or (f"{IDEMPOTENCY_PREFIX}{owner}:none", "")
    outcome = connection.register_script(STORE)(keys=[share_key(share_id), index_key(owner), key], args=[
        share_id, limit, PREFIX, time.time_ns() // 1000, days * DAY, digest, IDEMPOTENCY_SECONDS,
        *(word for pair in fields.items() for word in pair)])
    if isinstance(outcome, bytes):
        if outcome == b"reused":
            raise reused_key()
        replicated(connection, settings)  # the first answer may have been a 503: the replicas are waited for again
        return read(connection, outcome.decode().removeprefix("same "))
    if int(outcome) >= 0:
        raise TooManyShares(int(outcome), limit)
    replicated(connection, settings)
    return Stored(share_id, created.isoformat(), expires, title, len(logs), len(body), owner, document, body,
                  etag(body))


def replicated(connection: Redis, settings: Mapping[str, Any]) -> None:
    """Wait for the replicas SUBMIT_REPLICAS asks for to have every write so far (ShareNotReplicated)."""
    try:
        confirm(connection, replicas_wanted(settings), int(settings["SUBMIT_REPLICA_WAIT_MS"]))
    except NotReplicated as refused:
        raise ShareNotReplicated(refused) from refused


def etag(body: bytes) -> str:
    """A strong tag of a document's bytes."""
    return hashlib.sha256(body).hexdigest()[:32]


def summary_of(share_id: str, created_at: bytes, expires_at: bytes, title: bytes | None, rounds: bytes,
               size: bytes) -> Summary:
    """A share's summary from its hash's SUMMARY_FIELDS, as Redis answers them."""
    return Summary(share_id, created_at.decode(), expires_at.decode() or None,
                   title.decode() if title is not None else None, int(rounds), int(size))


def _found(connection: Redis, share_id: str, read: str, *args: Any) -> Any:
    """`read` (a hash command) of the share with this id, and its answer: ShareNotFound (an id no share can have is
    refused before Redis is asked), or ShareDeleted while its tombstone lasts."""
    if not ID.fullmatch(share_id):
        raise ShareNotFound(share_id)
    with connection.pipeline(transaction=False) as pipe:
        getattr(pipe, read)(share_key(share_id), *args)
        pipe.exists(DELETED_PREFIX + share_id)
        found, deleted = pipe.execute()
    if not found or (isinstance(found, list) and found[0] is None):
        raise (ShareDeleted if deleted else ShareNotFound)(share_id)
    return found


def summary(connection: Redis, share_id: str) -> Summary:
    """The summary of the share with this id, its logs left in Redis (a page's status, an oEmbed title):
    ShareNotFound, ShareDeleted as `read`."""
    return summary_of(share_id, *_found(connection, share_id, "hmget", SUMMARY_FIELDS))


def read(connection: Redis, share_id: str) -> Stored:
    """The share with this id: ShareNotFound (an id no share can have is refused before Redis is asked), or
    ShareDeleted while its tombstone lasts."""
    found = _found(connection, share_id, "hgetall")
    body = zlib.decompress(found[b"body"])
    head = summary_of(share_id, *(found.get(name.encode()) for name in SUMMARY_FIELDS))
    return Stored(**vars(head), owner=found[b"owner"].decode(), document=json.loads(body), body=body, etag=etag(body))


#: The deletion, in one step of Redis: 'missing' or 'deleted' (a tombstone) when the share is gone, 'not_yours' for
#: another owner's; else the share removed from Redis and from its owner's index, its tombstone living as long as the
#: share had left (ARGV[3] ms when it had no end), and 'done'.
#: KEYS: the share, its tombstone, the owner's index. ARGV: the owner asking, the id, the tombstone's life (ms).
DELETE = """
local owner = redis.call('HGET', KEYS[1], 'owner')
if not owner then
  if redis.call('EXISTS', KEYS[2]) == 1 then return 'deleted' end
  return 'missing'
end
if owner ~= ARGV[1] then return 'not_yours' end
local left = redis.call('PTTL', KEYS[1])
if left <= 0 then left = tonumber(ARGV[3]) end
redis.call('DEL', KEYS[1])
redis.call('SET', KEYS[2], '1', 'PX', left)
redis.call('ZREM', KEYS[3], ARGV[2])
return 'done'
"""
DELETE_REFUSALS = {b"missing": ShareNotFound, b"deleted": ShareDeleted, b"not_yours": ShareNotYours}


def delete(connection: Redis, settings: Mapping[str, Any], share_id: str, owner: str) -> None:
    """Delete `owner`'s share (ShareNotFound, ShareDeleted, ShareNotYours), confirmed by the replicas as a store is:
    a share deleted must not come back with a promoted replica."""
    if not ID.fullmatch(share_id):
        raise ShareNotFound(share_id)
    outcome = cast("bytes", connection.register_script(DELETE)(
        keys=[share_key(share_id), DELETED_PREFIX + share_id, index_key(owner)],
        args=[owner, share_id, TOMBSTONE_SECONDS * 1000]))
    if outcome in DELETE_REFUSALS:
        raise DELETE_REFUSALS[outcome](share_id)
    replicated(connection, settings)


def listing(connection: Redis, owner: str) -> list[Summary]:
    """The owner's shares, newest first (the LIST_LIMIT newest); those that expired are dropped from its index."""
    index = index_key(owner)
    ids = [share_id.decode() for share_id in cast("list[bytes]", connection.zrevrange(index, 0, LIST_LIMIT - 1))]
    with connection.pipeline(transaction=False) as pipe:
        for share_id in ids:
            pipe.hmget(share_key(share_id), SUMMARY_FIELDS)
        rows = pipe.execute()
    shares, gone = [], []
    for share_id, row in zip(ids, rows):
        if row[0] is None:
            gone.append(share_id)
            continue
        shares.append(summary_of(share_id, *row))
    if gone:
        connection.zrem(index, *gone)
    return shares


def analysis(connection: Redis, job_id: str, job_owner: str, logs: list[dict[str, Any]]) -> dict[str, Any]:
    """The result of a finished replay job of `job_owner` (the jobs' owner: the key's name, else `public`) over these
    very `logs`, as the job stores it (its texts language-neutral); JobNotShareable for any other job: an analysis
    stored beside other rounds would annotate moves that were never made."""
    try:
        job = load_job(connection, job_id, job_owner)
    except JobNotFound:
        raise JobNotShareable(job_id, "missing") from None
    if job.meta.get("kind") != "replay":
        raise JobNotShareable(job_id, "kind")
    status = job.get_status(refresh=False)
    if status != JobStatus.FINISHED:
        raise JobNotShareable(job_id, "unfinished", status)
    analysed = Job.fetch(job_id, connection=connection, serializer=SERIALIZER).args  # the request, read once here
    if not analysed or analysed[0] != logs:
        raise JobNotShareable(job_id, "other_logs")
    return cast("dict[str, Any]", read_result(connection, job))
