"""A real server in a subprocess, for tests and benchmarks (127.0.0.1 only).

    with ServerProcess("sqlite:///tmp/x.db") as srv:
        httpx.get(srv.url + "/api/games")
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """`python -m cyclades.server` on a free port of 127.0.0.1."""

    def __init__(self, db_url: str, port: int | None = None, bot_delay: float = 0.0,
                 log_path: str | None = None, args=(), timeout: float = 20.0):
        self.db_url = db_url
        self.args = list(args)  # more `cyclades serve` options, e.g. ["--max-body", "1000"]
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.log_path = log_path  # the server's output (stdout and stderr); None: discarded
        self.timeout = timeout    # seconds `start` waits for the server to answer
        self.proc = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float | None = None) -> ServerProcess:
        """Start the server (again after `stop`: the same port and database) and wait until
        it answers."""
        env = dict(os.environ)
        src = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cyclades.server", "--host", "127.0.0.1", "--port", str(self.port),
             "--db", self.db_url, "--bot-delay", str(self.bot_delay), *self.args],
            stdout=out, stderr=out if self.log_path else subprocess.DEVNULL, env=env)
        if self.log_path:
            out.close()
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with code {self.proc.returncode}"
                                   + (f": {self.log_tail(2000)}" if self.log_path else ""))
            try:
                with urllib.request.urlopen(self.url + "/api/games?limit=1", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("the server did not answer in time")

    def log_tail(self, chars: int = 3000) -> str:
        """The end of the server's output (its log file)."""
        try:
            return Path(self.log_path).read_text(errors="replace")[-chars:]
        except (OSError, TypeError):
            return ""

    def kill(self):
        """kill -9: no shutdown code runs."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
