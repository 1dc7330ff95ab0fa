"""Serve a lab from one machine: several app processes behind one address, each browser kept on its own process.

One Streamlit process runs every session's script on one Python interpreter, so however many cores a machine has,
a lab's sessions take turns on one of them: with 25 people moving sliders at once on a 2-core machine, a rerun
waited 1.5–2.5 s at the 95th percentile (``make bench``), and Streamlit's own one-chart app about 1.1 s. This
launcher starts ``--workers`` copies of the app (``scripts/serve.py``, each on a private port of 127.0.0.1) and
listens on the public address itself, passing every connection through to one of them byte for byte.

A session must stay on the process that holds it: its websocket, its uploads
(``/_stcore/upload_file/<session>/…``), its media and downloads (``/media/…``) and its XSRF cookie all refer to
state inside that process. So the proxy is sticky by a cookie, as load balancers are: a connection that carries
``nlp_power_worker=<i>`` goes to process ``i``; one without it (a browser's first request) goes to the process with
the fewest open sessions, and the first response on it sets the cookie. Every later request of that browser (its
websocket, its uploads) then reaches the same process. The proxy reads only the first request head of each
connection (to route it) and the first response head (to set the cookie); the rest — websocket frames, uploads,
downloads — is copied unread.

``--workers 1`` (``make run``) starts ``serve.py`` alone, with no proxy. ``--workers auto`` uses one process per
core. Workers share a cookie secret, so a browser's XSRF token is valid on every process. If a worker exits, the
lab stops (its sessions are gone) rather than serving half a lab.

Usage: ``python scripts/lab.py --workers auto [--server.address 0.0.0.0] [--server.port 8501] [streamlit args]``
(``make run WORKERS=auto``).
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVE = ROOT / "scripts" / "serve.py"
#: The cookie that keeps a browser on its process.
COOKIE = "nlp_power_worker"
#: The longest request or response head the proxy reads to route a connection (bytes).
HEAD_LIMIT = 64 * 1024
#: Bytes copied per read between a browser and its process.
CHUNK = 256 * 1024
#: Seconds a worker may take to start and answer its health check.
START_TIMEOUT = 180.0
_COOKIE_RE = re.compile(rb"(?im)^cookie:[^\r\n]*?\b" + COOKIE.encode() + rb"=(\d+)")
_STREAM_RE = re.compile(rb"^GET\s+\S*/_stcore/stream[\s?]")


def worker_count(text: str | int) -> int:
    """``--workers``: a whole number from 1 to 64, or ``auto`` (the machine's cores)."""
    if str(text).strip().lower() == "auto":
        return max(1, min(64, os.cpu_count() or 1))
    try:
        count = int(text)
    except ValueError:
        raise ValueError(f"`workers` must be a whole number from 1 to 64 or 'auto', got {text!r}.") from None
    if not 1 <= count <= 64:
        raise ValueError(f"`workers` must be a whole number from 1 to 64 or 'auto', got {count}.")
    return count


def route(head: bytes, sessions: list[int]) -> tuple[int, bool]:
    """The worker for a connection whose first request head is ``head``, and whether its cookie named it.

    ``sessions`` are the open websocket sessions per worker: a browser without the cookie goes to the least busy
    (the lowest index among equals)."""
    found = _COOKIE_RE.search(head)
    if found is not None and int(found.group(1)) < len(sessions):
        return int(found.group(1)), True
    return min(range(len(sessions)), key=lambda i: (sessions[i], i)), False


def with_cookie(head: bytes, worker: int) -> bytes:
    """A response head with the cookie that keeps the browser on ``worker`` (after the status line)."""
    status, sep, rest = head.partition(b"\r\n")
    if not sep:
        return head
    cookie = f"Set-Cookie: {COOKIE}={worker}; Path=/; HttpOnly; SameSite=Lax\r\n".encode()
    return status + sep + cookie + rest


def _take(argv: list[str], names: tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
    """The values of the options ``names`` (``--k v`` or ``--k=v``; the last one wins) and the other arguments."""
    found, rest = {}, []
    i = 0
    while i < len(argv):
        name, eq, value = argv[i].partition("=")
        if name in names:
            if not eq:
                i += 1
                value = argv[i] if i < len(argv) else ""
            found[name] = value
        else:
            rest.append(argv[i])
        i += 1
    return found, rest


def split_args(argv: list[str]) -> tuple[str, int, list[str]]:
    """The public address and port from Streamlit's ``--server.address`` / ``--server.port`` (either ``--k v`` or
    ``--k=v``), and the other arguments, which every worker gets."""
    found, rest = _take(argv, ("--server.address", "--server.port"))
    value = found.get("--server.port", "8501")
    try:
        port = int(value)
    except ValueError:
        raise ValueError(f"`server.port` must be a whole number, got {value!r}.") from None
    return found.get("--server.address", "127.0.0.1"), port, rest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_healthy(url: str, proc: subprocess.Popen, timeout: float, *, what: str = "the server") -> None:
    """Wait until Streamlit at ``url`` answers its health check; ``RuntimeError`` if ``proc`` exits first or
    ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with code {proc.returncode} while starting")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not answer within {timeout:.0f} s")
        time.sleep(0.2)


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """A worker ends when the lab does, even if the lab is killed (Linux's PR_SET_PDEATHSIG)."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        pass


@dataclass
class Lab:
    """The workers and the proxy in front of them."""

    workers: int
    address: str = "127.0.0.1"
    port: int = 8501
    args: list = field(default_factory=list)
    ports: list = field(default_factory=list)
    procs: list = field(default_factory=list)
    sessions: list = field(default_factory=list)

    def start_workers(self) -> None:
        """Start every worker (in parallel) and wait until each answers its health check."""
        secret = secrets.token_hex(32)
        # Streamlit takes the secret from its environment only (never from the command line, where `ps` shows it)
        env = dict(os.environ, STREAMLIT_BROWSER_GATHER_USAGE_STATS="false", STREAMLIT_SERVER_COOKIE_SECRET=secret)
        self.ports = [free_port() for _ in range(self.workers)]
        self.sessions = [0] * self.workers
        for port in self.ports:
            self.procs.append(subprocess.Popen(
                [sys.executable, str(SERVE), *self.args, "--server.address", "127.0.0.1", "--server.port", str(port),
                 "--server.headless", "true"],
                # their "view your app at" lines name private ports: only the lab's own address is printed
                cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None))
        deadline = time.monotonic() + START_TIMEOUT
        for proc, port in zip(self.procs, self.ports):
            wait_until_healthy(f"http://127.0.0.1:{port}", proc, max(0.0, deadline - time.monotonic()),
                               what="an app process")

    def stop_workers(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)

    async def handle(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        """One browser connection: route it by its first request head, then copy both ways unread."""
        upstream_writer = None
        counted = None
        try:
            try:
                head = await client_reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
                return
            worker, known = route(head, self.sessions)
            if _STREAM_RE.match(head):  # counted at once: sessions opening together spread over the workers
                counted = worker
                self.sessions[worker] += 1
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.ports[worker],
                                                                             limit=HEAD_LIMIT)
            upstream_writer.write(head)
            back = (self._copy(upstream_reader, client_writer) if known else
                    self._copy_setting_cookie(upstream_reader, client_writer, worker))
            await asyncio.gather(self._copy(client_reader, upstream_writer), back)
        except (ConnectionError, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            if counted is not None:
                self.sessions[counted] -= 1
            for writer in (client_writer, upstream_writer):
                if writer is not None:
                    writer.close()

    @staticmethod
    async def _copy(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Copy until the reader's end, then pass the end on (a half-close), so the other direction can finish; a
        broken connection closes the writer instead, which ends the other direction too."""
        try:
            while data := await reader.read(CHUNK):
                writer.write(data)
                await writer.drain()
            if writer.can_write_eof():
                writer.write_eof()
        except (ConnectionError, OSError):
            writer.close()

    async def _copy_setting_cookie(self, reader, writer, worker: int) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, OSError):
            writer.close()  # the process answered nothing readable: the browser sees a closed connection
            return
        writer.write(with_cookie(head, worker))
        await writer.drain()
        await self._copy(reader, writer)

    async def serve(self) -> None:
        server = await asyncio.start_server(self.handle, self.address, self.port, limit=HEAD_LIMIT,
                                            reuse_address=True)
        print(f"NLP Power Explorer: {self.workers} app processes behind one address; view the app at "
              f"http://{self.address}:{self.port}", flush=True)
        loop = asyncio.get_running_loop()
        stopped = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, stopped.set)
            except (ValueError, RuntimeError, NotImplementedError):  # not the main thread, or no signals here
                pass
        async with server:
            while not stopped.is_set():
                if any(proc.poll() is not None for proc in self.procs):
                    print("NLP Power Explorer: a worker exited; stopping the lab", file=sys.stderr, flush=True)
                    break
                try:
                    await asyncio.wait_for(stopped.wait(), timeout=1.0)
                except asyncio.TimeoutError:
                    pass


def main(argv: list[str]) -> int:
    found, rest = _take(argv, ("--workers",))
    try:
        count = worker_count(found.get("--workers", "1"))
        address, port, args = split_args(rest)
    except ValueError as err:
        print(f"NLP Power Explorer: {err}", file=sys.stderr)
        return 2
    if count == 1:  # one process: the app itself on the public address, nothing in between
        os.execv(sys.executable, [sys.executable, str(SERVE), *rest])
    lab = Lab(count, address, port, args)
    try:
        lab.start_workers()
        asyncio.run(lab.serve())
    except RuntimeError as err:
        print(f"NLP Power Explorer: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C while the workers start
        return 130
    finally:
        lab.stop_workers()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
