"""Every launch listens on this machine only unless asked otherwise.

Oracle: the kernel's own table of listening sockets (``/proc/net/tcp``), read while a real server runs. A server
started with ``scripts/serve.py`` or ``streamlit run app.py`` and no address must be bound to 127.0.0.1; with
``--server.address 0.0.0.0`` it is bound to every interface.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux's /proc/net/tcp")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _listening(port: int) -> set[str]:
    """The IPv4 addresses with a socket listening on ``port`` (state 0A in /proc/net/tcp)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        host, hexport = local.split(":")
        if state == "0A" and int(hexport, 16) == port:
            found.add(socket.inet_ntoa(bytes.fromhex(host)[::-1]))
    for line in Path("/proc/net/tcp6").read_text().splitlines()[1:] if Path("/proc/net/tcp6").exists() else []:
        local, state = line.split()[1], line.split()[3]
        host, hexport = local.split(":")
        if state == "0A" and int(hexport, 16) == port:
            found.add("::" if int(host, 16) == 0 else host)
    return found


def _bound(command: list[str], port: int, timeout: float = 90) -> set[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = _listening(port)
            if found:
                return found
            if proc.poll() is not None:
                raise AssertionError(f"the server exited with {proc.returncode}")
            time.sleep(0.2)
        raise AssertionError("the server did not listen in time")
    finally:
        os.killpg(proc.pid, 15)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)


def test_config_names_the_loopback_address():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["address"] == "127.0.0.1"


@pytest.mark.slow
@pytest.mark.parametrize("launcher", ["serve", "lab", "streamlit"])
def test_a_launch_without_an_address_listens_on_loopback_only(launcher):
    port = _free_port()
    if launcher == "serve":
        command = [sys.executable, "scripts/serve.py", "--server.port", str(port)]
    elif launcher == "lab":  # `make lab`: the proxy takes the public port (its app processes use private ones)
        command = [sys.executable, "scripts/lab.py", "--workers", "2", "--server.port", str(port)]
    else:
        command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port)]
    assert _bound(command, port) == {"127.0.0.1"}


@pytest.mark.slow
@pytest.mark.parametrize("launcher", ["streamlit", "lab"])
def test_an_explicit_address_still_serves_every_interface(launcher):
    port = _free_port()
    command = ([sys.executable, "-m", "streamlit", "run", "app.py"] if launcher == "streamlit" else
               [sys.executable, "scripts/lab.py", "--workers", "2"])
    command += ["--server.port", str(port), "--server.address", "0.0.0.0"]
    assert _bound(command, port) == {"0.0.0.0"}
