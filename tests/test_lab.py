"""The lab launcher (``scripts/lab.py``): several app processes behind one address, each browser on its own.

Oracles: the bytes themselves. Two stand-in app processes (asyncio servers that answer with their own index, or
echo what they receive) sit behind the proxy; every request must reach the process its cookie names, a browser
without the cookie must be given one naming the process that answered it, new sessions must spread over the
processes, and a megabyte sent either way must arrive unchanged. A slow test starts the real lab (two app
processes) and runs Streamlit sessions through it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import importlib.util
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("lab", ROOT / "scripts" / "lab.py")
lab = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("lab", lab)  # dataclasses look their module up
_spec.loader.exec_module(lab)


def _run(coroutine):
    """``asyncio.run`` in a thread of its own: in the full suite the browser tests' event loop runs in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


# --- routing --------------------------------------------------------------------------------------------------
def test_route_follows_the_cookie_else_the_least_busy_process():
    head = b"GET /_stcore/stream HTTP/1.1\r\nHost: x\r\nCookie: a=1; nlp_power_worker=1; b=2\r\n\r\n"
    assert lab.route(head, [0, 5]) == (1, True)
    assert lab.route(head.replace(b"worker=1", b"worker=7"), [3, 2]) == (1, False)  # no such process: least busy
    assert lab.route(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", [2, 1, 1]) == (1, False)  # the lowest among equals
    assert lab.route(b"GET / HTTP/1.1\r\ncookie: nlp_power_worker=0\r\n\r\n", [9, 0]) == (0, True)  # any case
    assert lab.route(b"GET / HTTP/1.1\r\nCookie: xnlp_power_worker=1\r\n\r\n", [0, 0]) == (0, False)


def test_with_cookie_adds_the_header_after_the_status_line():
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n"
    out = lab.with_cookie(head, 1)
    assert out == (b"HTTP/1.1 200 OK\r\nSet-Cookie: nlp_power_worker=1; Path=/; HttpOnly; SameSite=Lax\r\n"
                   b"Content-Length: 2\r\n\r\n")
    assert lab.with_cookie(b"garbage", 0) == b"garbage"


def test_arguments():
    assert lab.worker_count("auto") == max(1, min(64, os.cpu_count() or 1))
    assert lab.worker_count("3") == 3
    for bad in ("0", "65", "two", ""):
        with pytest.raises(ValueError, match="`workers` must be a whole number from 1 to 64"):
            lab.worker_count(bad)
    assert lab.split_args(["--server.port", "9000", "--server.address=0.0.0.0", "--theme.base", "dark"]) == (
        "0.0.0.0", 9000, ["--theme.base", "dark"])
    assert lab.split_args([]) == ("127.0.0.1", 8501, [])
    with pytest.raises(ValueError, match="`server.port`"):
        lab.split_args(["--server.port=abc"])


def test_a_bad_worker_count_is_a_message_not_a_traceback(capsys):
    assert lab.main(["--workers", "many"]) == 2
    assert "`workers` must be a whole number from 1 to 64 or 'auto', got 'many'." in capsys.readouterr().err


# --- the proxy, with two stand-in app processes -------------------------------------------------------------------
async def _stand_in(index: int, received: dict):
    """An app process that answers HTTP with its index and, after a websocket-style upgrade, echoes every byte."""

    async def handle(reader, writer):
        head = await reader.readuntil(b"\r\n\r\n")
        if b"Upgrade: websocket" in head:
            writer.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        else:
            length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), 0)
            body = await reader.readexactly(length) if length else b""
            received.setdefault(index, []).append(hashlib.sha256(body).hexdigest())
            text = f"worker {index}".encode()
            writer.write(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(text), text))
        await writer.drain()
        writer.close()

    return await asyncio.start_server(handle, "127.0.0.1", 0)


async def _request(port: int, head: bytes, body: bytes = b"") -> tuple[bytes, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(head + body)
    await writer.drain()
    data = await reader.read()
    writer.close()
    response_head, _, response_body = data.partition(b"\r\n\r\n")
    return response_head, response_body


def _with_lab(test):
    """Run ``test(lab, port, received)`` with a proxy in front of two stand-in app processes."""

    async def main():
        received: dict = {}
        backends = [await _stand_in(i, received) for i in range(2)]
        proxy = lab.Lab(2, ports=[b.sockets[0].getsockname()[1] for b in backends], sessions=[0, 0])
        server = await asyncio.start_server(proxy.handle, "127.0.0.1", 0, limit=lab.HEAD_LIMIT)
        try:
            await asyncio.wait_for(test(proxy, server.sockets[0].getsockname()[1], received), 60)
        finally:
            server.close()
            for b in backends:
                b.close()

    _run(main())


def test_a_browser_without_the_cookie_is_given_one_naming_the_process_that_answered():
    async def test(proxy, port, received):
        head, body = await _request(port, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert body == b"worker 0"
        assert b"\r\nSet-Cookie: nlp_power_worker=0; Path=/; HttpOnly; SameSite=Lax\r\n" in head + b"\r\n"
        head, body = await _request(port, b"GET /static/x.js HTTP/1.1\r\nCookie: nlp_power_worker=1\r\n\r\n")
        assert body == b"worker 1" and b"Set-Cookie" not in head  # the cookie decides, and is not set again

    _with_lab(test)


def test_an_upload_reaches_the_process_its_cookie_names_unchanged():
    payload = os.urandom(3 * 1024 * 1024 + 17)

    async def test(proxy, port, received):
        head = (b"PUT /_stcore/upload_file/session/file HTTP/1.1\r\nCookie: nlp_power_worker=1\r\n"
                b"Content-Length: %d\r\n\r\n" % len(payload))
        _, body = await _request(port, head, payload)
        assert body == b"worker 1"
        assert received == {1: [hashlib.sha256(payload).hexdigest()]}

    _with_lab(test)


def test_sessions_spread_over_the_processes_and_their_bytes_pass_unchanged():
    upgrade = b"GET /_stcore/stream HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"

    async def test(proxy, port, received):
        streams = []
        for _ in range(4):  # four sessions open together
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(upgrade)
            await writer.drain()
            assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
            streams.append((reader, writer))
        assert proxy.sessions == [2, 2]
        frame = os.urandom(1024 * 1024)
        reader, writer = streams[0]
        writer.write(frame)
        await writer.drain()
        assert await reader.readexactly(len(frame)) == frame
        for _, writer in streams:
            writer.close()
            await writer.wait_closed()
        for _ in range(100):  # the proxy notices the closed sessions
            if proxy.sessions == [0, 0]:
                break
            await asyncio.sleep(0.05)
        assert proxy.sessions == [0, 0]

    _with_lab(test)


def test_a_browser_that_vanishes_mid_session_is_no_longer_counted():
    upgrade = b"GET /_stcore/stream HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"

    async def test(proxy, port, received):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(upgrade + os.urandom(100_000))
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")
        assert proxy.sessions == [1, 0]
        writer.transport.abort()  # a reset, not a goodbye
        for _ in range(100):
            if proxy.sessions == [0, 0]:
                break
            await asyncio.sleep(0.05)
        assert proxy.sessions == [0, 0]
        _, body = await _request(port, b"GET / HTTP/1.1\r\n\r\n")  # and the proxy serves on
        assert body == b"worker 0"

    _with_lab(test)


def test_a_connection_that_never_sends_a_whole_head_is_closed():
    async def test(proxy, port, received):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\n" + b"X-Long: " + b"a" * (lab.HEAD_LIMIT + 10))
        await writer.drain()
        assert await reader.read() == b""  # closed without reaching a process
        assert received == {}
        # and the proxy still serves the next browser
        _, body = await _request(port, b"GET / HTTP/1.1\r\n\r\n")
        assert body == b"worker 0"

    _with_lab(test)


def test_waiting_for_a_process_says_why_it_gave_up():
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    nobody = f"http://127.0.0.1:{lab.free_port()}"
    with pytest.raises(RuntimeError, match="an app process exited with code 0 while starting"):
        lab.wait_until_healthy(nobody, gone, 30, what="an app process")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        with pytest.raises(RuntimeError, match="the lab did not answer within 1 s"):
            lab.wait_until_healthy(nobody, sleeper, 1, what="the lab")
    finally:
        sleeper.kill()
        sleeper.wait()


def test_the_lab_stops_when_an_app_process_exits():
    """Half a lab is not served: once a process has exited, :meth:`Lab.serve` returns (and main stops the rest)."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    proxy = lab.Lab(1, "127.0.0.1", lab.free_port(), ports=[lab.free_port()], procs=[gone], sessions=[0])
    _run(asyncio.wait_for(proxy.serve(), 30))  # returns instead of serving on


# --- the real lab -------------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_the_lab_serves_streamlit_sessions_from_two_processes_and_stops_them():
    from benchmarks import sessions_bench as sb

    port = lab.free_port()
    proc = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "lab.py"), "--workers", "2", "--server.port",
                             str(port), "--server.fileWatcherType", "none"], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        lab.wait_until_healthy(f"http://127.0.0.1:{port}", proc, 300, what="the lab")
        workers = [int(c) for t in os.listdir(f"/proc/{proc.pid}/task")
                   for c in open(f"/proc/{proc.pid}/task/{t}/children").read().split()]
        assert len(workers) == 2

        async def two_sessions():
            return await asyncio.gather(*[sb.use_page(port, "accuracy", None, slot=i, moves=1, think=(0.0, 0.0))
                                          for i in range(2)])

        results = sb._run(two_sessions())
        assert [r.error for r in results] == ["", ""]
        assert all(len(r.moves) == 1 for r in results)
        # the page and the homepage's HTML are served through the proxy, with the cookie
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/accuracy", timeout=30) as resp:
            assert resp.status == 200 and "nlp_power_worker=" in (resp.headers.get("Set-Cookie") or "")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    for pid in workers:
        for _ in range(100):
            if not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z":
                break
            time.sleep(0.1)
        else:
            raise AssertionError(f"app process {pid} still runs after the lab stopped")
