"""A real server in a subprocess, and a PostgreSQL server of one's own, for tests and benchmarks
(127.0.0.1 only).

    with ServerProcess("sqlite:///tmp/x.db") as srv:
        httpx.get(srv.url + "/api/games")

    with PrivatePostgres() as pg:              # initdb + pg_ctl in a temporary directory
        srv = ServerProcess(pg.url).start()
        pg.stop(); time.sleep(10); pg.start()  # a database outage (never the shared cluster)
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def at_once(*calls) -> list:
    """Run the calls at the same moment (threads behind a barrier); their results in order."""
    go = threading.Barrier(len(calls))
    out = [None] * len(calls)

    def run(i):
        go.wait()
        out[i] = calls[i]()
    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


class ServerProcess:
    """`python -m cyclades.server` on a free port of 127.0.0.1."""

    def __init__(self, db_url: str, port: int | None = None, bot_delay: float = 0.0,
                 log_path: str | None = None, args=(), timeout: float = 20.0,
                 env: dict | None = None, open_files: int | None = None):
        self.db_url = db_url
        self.args = list(args)  # more `cyclades serve` options, e.g. ["--max-body", "1000"]
        self.env = dict(env or {})      # more environment, e.g. {"CYCLADES_BOT_SWEEP_SECONDS": "1"}
        self.open_files = open_files    # the process's open-file limit (soft and hard), if given
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
        env = {**os.environ, **self.env}
        src = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        limit = self.open_files

        def open_file_limit():
            import resource
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
        with open(self.log_path, "ab") if self.log_path else contextlib.nullcontext(subprocess.DEVNULL) as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "cyclades.server", "--host", "127.0.0.1", "--port", str(self.port),
                 "--db", self.db_url, "--bot-delay", str(self.bot_delay), *self.args],
                stdout=out, stderr=out, env=env,
                # the tests start their servers from one thread: nothing else runs during the fork
                preexec_fn=open_file_limit if limit else None)  # noqa: PLW1509
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with code {self.proc.returncode}"
                                   + (f": {self.log_tail(2000)}" if self.log_path else ""))
            try:
                with urllib.request.urlopen(self.url + "/api/games?limit=1", timeout=5) as r:
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


# --- a PostgreSQL server of one's own ------------------------------------------------------------

def postgres_bin() -> Path | None:
    """The directory of PostgreSQL's server programs (Debian: /usr/lib/postgresql/<version>/bin,
    the newest), or None."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda p: [int(x) if x.isdigit() else 0 for x in p.parts[-3].split(".")])
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


class PrivatePostgres:
    """A PostgreSQL server that only its owner uses: `initdb` in a temporary directory, `pg_ctl`
    on a free port of 127.0.0.1, trust authentication. Stop it and start it again at will
    (`stop` is an immediate shutdown, as a crash would be; what was committed stays): a
    database outage for a test or a benchmark. Run as root, it runs as the `postgres` user
    (PostgreSQL refuses root)."""

    def __init__(self, directory: str | None = None, port: int | None = None, fsync: bool = False):
        self.bin = postgres_bin()
        if self.bin is None:
            raise RuntimeError("PostgreSQL's server programs (initdb, pg_ctl) are not installed")
        self.port = port or free_port()
        self.own_dir = directory is None
        self.dir = Path(directory or tempfile.mkdtemp(prefix="cyclades-pg-"))
        self.data = self.dir / "data"
        self.fsync = fsync    # off by default: a killed server loses nothing, only a power cut would
        self.user = None
        if os.geteuid() == 0:
            import pwd
            self.user = pwd.getpwnam("postgres")

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://cyclades@127.0.0.1:{self.port}/cyclades"

    def _run(self, *args, check=True, timeout=60):
        user = self.user

        def as_user():
            if user is not None:
                os.setgid(user.pw_gid)
                os.setuid(user.pw_uid)
        return subprocess.run([str(a) for a in args], preexec_fn=as_user, check=check, timeout=timeout,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=self.dir)

    def start(self) -> PrivatePostgres:
        """Start it (made first, with its database `cyclades`, the first time)."""
        first = not self.data.exists()
        if first:
            if self.user is not None:
                os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)
            self._run(self.bin / "initdb", "-D", self.data, "-A", "trust", "-U", "cyclades", "-N")
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} "
                   f"-c fsync={'on' if self.fsync else 'off'} -c max_connections=200")
        self._run(self.bin / "pg_ctl", "-D", self.data, "-o", options, "-l", self.dir / "postgres.log",
                  "-w", "-t", "60", "start")
        if first:
            self._run(self.bin / "createdb", "-h", "127.0.0.1", "-p", self.port, "-U", "cyclades", "cyclades")
        return self

    def stop(self, mode: str = "immediate"):
        """Stop it now (`immediate`: as a crash, no checkpoint; `fast`: cleanly)."""
        if (self.data / "postmaster.pid").exists():
            self._run(self.bin / "pg_ctl", "-D", self.data, "-m", mode, "-w", "-t", "60", "stop", check=False)

    def close(self):
        self.stop("fast")
        if self.own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()
