"""External bot processes of the arena (docs/bots.md): one process per bot command and seat, started when that seat
first needs it and kept for the whole run, spoken to in single-line JSON objects on its standard input and output.

A bot that breaks the protocol (a line that is not a JSON object, a wrong id, no answer in time, an exit) stops the
run with a `BotError`; the bot is killed at once and every other bot is closed at the end of the run. Bots start in
a session of their own, so a Ctrl-C at the terminal reaches the arena, which closes them; on Linux each also dies
with the process that started it (`PR_SET_PDEATHSIG`), so even a killed arena leaves no bot behind.
"""

from __future__ import annotations

import atexit
import json
import multiprocessing
import multiprocessing.util
import os
import select
import shlex
import signal
import subprocess
import time
from typing import Any

from ..runtime.lifetime import exec_hook

#: The protocol version every `hello` carries; a change a bot could notice bumps it (docs/bots.md).
PROTOCOL = 1
#: Seconds a bot has for one decision, unless `--bot-timeout` says otherwise.
DEFAULT_TIMEOUT = 5.0
#: Seconds a bot has to exit after the end of the run before it is killed.
GRACE = 1.0
_LINE_LIMIT = 1 << 20


class BotError(RuntimeError):
    """A bot broke the protocol or could not be run: the run stops (exit status 2) with this message."""


class BotProcess:
    """One running bot: send it messages, ask it for an answer within a time limit, close it."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.buffer = b""
        self.asked = 0  # requests sent: the next id
        try:
            self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            start_new_session=True, preexec_fn=exec_hook(signal.SIGKILL))
        except (OSError, ValueError) as error:
            raise BotError(f"cannot be started: {error}") from None

    def send(self, message: dict[str, Any]) -> None:
        """Write one message as one line; BotError when the bot has gone."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, ConnectionResetError, ValueError):
            raise BotError(self.gone()) from None

    def ask(self, message: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send a request with the next id and read its answer: a JSON object with that id, within `timeout`."""
        self.asked += 1
        self.send({**message, "id": self.asked})
        line = self.line(time.monotonic() + timeout, timeout)
        try:
            answer = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            answer = None
        if not isinstance(answer, dict):
            raise BotError(f"sent a line that is not a JSON object: {_clip(line)}")
        if answer.get("id") != self.asked or isinstance(answer.get("id"), bool):
            raise BotError(f"answered id {answer.get('id')!r}, expected {self.asked}: {_clip(line)}")
        return answer

    def line(self, deadline: float, timeout: float) -> bytes:
        """The next line of the bot's output, read by `deadline`."""
        assert self.process.stdout is not None
        out = self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotError(f"gave no answer within {timeout:g} s (--bot-timeout)")
            ready, _, _ = select.select([out], [], [], left)
            if ready:
                chunk = os.read(out, 65536)
                if not chunk:
                    raise BotError(self.gone())
                self.buffer += chunk
                if len(self.buffer) > _LINE_LIMIT:
                    raise BotError(f"sent a line longer than {_LINE_LIMIT} bytes")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def gone(self) -> str:
        """What to say of a bot that closed its output or input: it exited, with its status."""
        try:
            status = self.process.wait(GRACE)
        except subprocess.TimeoutExpired:
            return "closed its output without exiting"
        return f"exited with status {status} before answering"

    def close(self, farewell: dict[str, Any] | None) -> None:
        """Say `farewell` (if it still listens), close its input and give it a moment to exit; then kill it."""
        if farewell is not None and self.process.poll() is None:
            try:
                self.send(farewell)
            except BotError:
                pass
        try:
            assert self.process.stdin is not None
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(GRACE if farewell is not None else 0)
        except subprocess.TimeoutExpired:
            pass
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        assert self.process.stdout is not None
        self.process.stdout.close()


def _clip(line: bytes) -> str:
    """A line as it may be quoted in an error: decoded, at most 200 characters."""
    decoded = line.decode("utf-8", "replace")
    return repr(decoded if len(decoded) <= 200 else decoded[:200] + "...")


#: This process's running bots by (command, seat, hello): one per bot and seat for the whole run.
_running: dict[tuple[str, int, str], BotProcess] = {}
_hooked = False


def bot_for(command: str, seat: int, hello: dict[str, Any]) -> BotProcess:
    """The running bot of `command` at `seat` under this hello; started (and greeted) when it is not yet."""
    key = (command, seat, json.dumps(hello, sort_keys=True))
    if key not in _running:
        _hook_cleanup()
        bot = BotProcess(command)
        _running[key] = bot
        bot.send(hello)
    return _running[key]


def drop(bot: BotProcess) -> None:
    """Kill a bot that broke the protocol and forget it."""
    for key, running in list(_running.items()):
        if running is bot:
            del _running[key]
    bot.close(None)


def close_all() -> None:
    """End the run for every bot of this process: an `end` message, then each is closed."""
    while _running:
        _, bot = _running.popitem()
        bot.close({"type": "end"})


def _hook_cleanup() -> None:
    """Close the bots when this process exits: at exit of the arena's own process, and in a worker of `--jobs` by
    a multiprocessing finaliser, which its pool runs as the worker ends once the deals are done (`close`/`join`,
    `duplicate.play_deals`), so the worker's bots get `end` too. A worker terminated on an error skips every exit
    handler: its bots then die with it (`PR_SET_PDEATHSIG`) or see their input close."""
    global _hooked
    if not _hooked:
        _hooked = True
        atexit.register(close_all)
        if multiprocessing.parent_process() is not None:
            multiprocessing.util.Finalize(None, close_all, exitpriority=100)
