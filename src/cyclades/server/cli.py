"""`cyclades serve`: run the game server.

The port is bound first, then the URL is printed, then the server starts (and answers at
once: games load when asked for, bot-driven ones resume in the background); a port that is
taken is said plainly, before anything else happens. `--workers N` runs N processes on the
port (server/workers.py; several processes share the database: server/sync.py).
Every option can also be set by an environment variable (`cyclades serve --help`).
"""
import sys

import click

from ..click_types import FiniteRange


def _rate(ctx, param, value: str) -> str:
    """A rate option's value ("30/minute;300/hour", or "none"), checked (click's callback)."""
    if (value or "").strip().lower() in ("", "none", "0", "off"):
        return "none"
    try:
        from limits import parse_many
        items = parse_many(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a rate like 30/minute or 30/minute;300/hour") from None
    if any(item.amount < 1 for item in items):
        raise click.BadParameter(f"{value!r}: a rate of 0 lets nothing through (\"none\": no limit)")
    return value


def _origins(ctx, param, values: tuple) -> tuple:
    """--allowed-origin: "*", or a site's origin as a browser sends it (scheme://host[:port]);
    anything else would match no page, silently."""
    for value in values:
        if value != "*" and not _site_address(value, path=False):
            raise click.BadParameter(f"{value!r} is not a site's origin like https://games.example.org "
                                     f"(http or https, a host, a port if any, nothing after; \"*\": any)")
    return values


def _public_url(ctx, param, value):
    """--public-url: an http(s) address, the links in e-mails and push messages start with it."""
    if value is not None and not _site_address(value, path=True):
        raise click.BadParameter(f"{value!r} is not an address people open, like https://games.example.org")
    return value


def _hosts(ctx, param, values: tuple) -> tuple:
    if any(not value.strip() for value in values):
        raise click.BadParameter("a host name, such as games.example.org or *.example.org, not an empty one")
    return values


def _mailbox(ctx, param, value: str) -> str:
    """--smtp-from: an address mail can come from (and Web Push's contact, mailto:)."""
    from email.utils import parseaddr
    _, address = parseaddr(value)
    local, _, domain = address.partition("@")
    if not local or not domain or any(c.isspace() for c in address):
        raise click.BadParameter(f"{value!r} is not an e-mail address like cyclades@games.example.org")
    return value


def _site_address(value: str, path: bool) -> bool:
    """Whether `value` is an http(s) address with a host (and, unless `path`, nothing after it)."""
    from urllib.parse import urlsplit
    try:
        parts = urlsplit(value.strip())
        parts.port  # noqa: B018  (raises ValueError for a port that is not one)
    except ValueError:
        return False
    rest_ok = path or (parts.path in ("", "/") and not parts.query and not parts.fragment)
    return parts.scheme in ("http", "https") and bool(parts.hostname) and not parts.username and rest_ok


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="port to listen on (0: any free port)")
@click.option("--db", "db_url", default=None, envvar="CYCLADES_DB",
              help="SQLAlchemy URL of the database, e.g. sqlite:///cyclades.db or "
                   "postgresql+psycopg://user:pw@host/db (default: SQLite in the user data directory)")
@click.option("--bot-delay", default=0.3, show_default=True, type=FiniteRange(min=0),
              help="seconds a bot waits before each decision, so that people can follow")
@click.option("--log-level", default="warning", show_default=True, envvar="CYCLADES_LOG_LEVEL",
              type=click.Choice(["critical", "error", "warning", "info", "debug"]),
              help="info shows every request (tokens hidden)")
# Limits (server/security.py, server/housekeeping.py; docs/api.md, "Limits").
@click.option("--max-body", default=64 * 1024, show_default=True, type=click.IntRange(min=0),
              envvar="CYCLADES_MAX_BODY", help="bytes a request body may have (larger: 413)")
@click.option("--max-upload", default=4_000_000, show_default=True, type=click.IntRange(min=0),
              envvar="CYCLADES_MAX_UPLOAD", help="bytes of a game record uploaded to /api/replays")
@click.option("--max-ws-message", default=64 * 1024, show_default=True, type=click.IntRange(min=0),
              envvar="CYCLADES_MAX_WS_MESSAGE", help="bytes of one WebSocket message")
@click.option("--allowed-origin", "allowed_origins", multiple=True, envvar="CYCLADES_ALLOWED_ORIGINS",
              callback=_origins,
              help="a site whose pages may open WebSockets here, e.g. https://games.example.org "
                   "(repeat for more; \"*\": any); this server's own host always may")
@click.option("--game-rate", default="30/minute;300/hour", show_default=True, envvar="CYCLADES_GAME_RATE",
              callback=_rate,
              help='games one address may create ("none": no limit)')
@click.option("--max-open-games", default=50, show_default=True, type=click.IntRange(min=0),
              envvar="CYCLADES_MAX_OPEN_GAMES", help="unfinished games one address may have (0: no limit)")
@click.option("--expire-hours", default=72.0, show_default=True, type=FiniteRange(min=0),
              envvar="CYCLADES_EXPIRE_HOURS",
              help="an unfinished game with no decision for so long is removed (0: never)")
@click.option("--idle-minutes", default=30.0, show_default=True, type=FiniteRange(min=0),
              envvar="CYCLADES_IDLE_MINUTES",
              help="an unfinished game nobody uses leaves memory after so long (reloaded when asked for)")
@click.option("--finished-idle-minutes", default=5.0, show_default=True, type=FiniteRange(min=0),
              envvar="CYCLADES_FINISHED_IDLE_MINUTES", help="the same for a finished game")
@click.option("--join-rate", default="10/minute;60/hour", show_default=True, envvar="CYCLADES_JOIN_RATE",
              callback=_rate,
              help='open seats one address may take from the lobby ("none": no limit)')
@click.option("--upload-rate", default="10/minute;60/hour", show_default=True, envvar="CYCLADES_UPLOAD_RATE",
              callback=_rate,
              help='records one address may upload to be replayed ("none": no limit)')
@click.option("--replay-cache-mb", default=256.0, show_default=True, type=FiniteRange(min=0.1),
              envvar="CYCLADES_REPLAY_CACHE_MB", help="memory the replays kept in memory may take")
@click.option("--ws-rate", default="20/second;600/minute", show_default=True, envvar="CYCLADES_WS_RATE",
              callback=_rate,
              help="messages one WebSocket client may send")
@click.option("--max-ws-per-address", default=16, show_default=True, type=click.IntRange(min=0),
              envvar="CYCLADES_MAX_WS_PER_ADDRESS", help="WebSockets open from one address (0: no limit)")
@click.option("--max-spectators", default=100, show_default=True, type=click.IntRange(min=0),
              envvar="CYCLADES_MAX_SPECTATORS", help="spectators' WebSockets on one game (0: no limit)")
@click.option("--header-timeout", default=10.0, show_default=True, type=FiniteRange(min=0.1),
              envvar="CYCLADES_HEADER_TIMEOUT", help="seconds a request's headers may take to arrive")
@click.option("--body-timeout", default=30.0, show_default=True, type=FiniteRange(min=0.1),
              envvar="CYCLADES_BODY_TIMEOUT", help="seconds a request's body may take to arrive")
@click.option("--max-connections-per-address", default=64, show_default=True, type=click.IntRange(min=0),
              envvar="CYCLADES_MAX_CONNECTIONS_PER_ADDRESS",
              help="connections open from one address, trusted proxies apart (0: no limit)")
@click.option("--max-connections", default=0, show_default=True, type=click.IntRange(min=0),
              envvar="CYCLADES_MAX_CONNECTIONS",
              help="connections open in all (0: the open-file limit less what the server needs)")
@click.option("--allowed-host", "allowed_hosts", multiple=True, envvar="CYCLADES_ALLOWED_HOSTS",
              callback=_hosts,
              help="a name this server answers to in the Host header, e.g. games.example.org or "
                   "*.example.org (repeat for more; \"*\": any); IP addresses and localhost always")
@click.option("--sweep-seconds", default=60.0, type=FiniteRange(min=0.05), hidden=True,
              envvar="CYCLADES_SWEEP_SECONDS", help="how often the housekeeping runs")
# Several processes (docs/deploy.md, server/sync.py).
@click.option("--workers", default=1, show_default=True, type=click.IntRange(min=1),
              envvar="CYCLADES_WORKERS",
              help="server processes sharing this port (PostgreSQL, or SQLite in WAL mode on a "
                   "local disk); more processes may also run on other ports and hosts")
@click.option("--forwarded-allow-ips", default=None, envvar="CYCLADES_FORWARDED_ALLOW_IPS",
              help="addresses of the reverse proxies whose X-Forwarded-For / X-Forwarded-Proto "
                   "are trusted (comma-separated; \"*\": any; default 127.0.0.1)")
# Bots (server/bots.py, docs/api.md "Bots").
@click.option("--bot-workers", default=None, type=click.IntRange(min=0), envvar="CYCLADES_BOT_WORKERS",
              help="processes that compute the bots' decisions, per server process, shared fairly "
                   "by the games (people's first); default: the cores but one (divided among "
                   "--workers), at least 1; 0: in the server process")
@click.option("--bot-seconds", default=10.0, show_default=True, type=FiniteRange(min=0),
              envvar="CYCLADES_BOT_SECONDS",
              help="budget of one bot decision: an mcts bot plays the best it found by then (0: none)")
@click.option("--peer-ttl", default=None, type=FiniteRange(min=0.5), hidden=True,
              envvar="CYCLADES_PEER_TTL",
              help="seconds after which a silent server process is taken for dead")
# Accounts, logins and chat (server/people.py, docs/api.md "Accounts"; docs/deploy.md "HTTPS").
@click.option("--secure-cookies", default="auto", show_default=True, envvar="CYCLADES_SECURE_COOKIES",
              type=click.Choice(["auto", "always", "never"]),
              help="mark the login cookies Secure (sent over HTTPS only): auto when the request came "
                   "over HTTPS (behind a proxy: its X-Forwarded-Proto, see --forwarded-allow-ips)")
@click.option("--session-days", default=30.0, show_default=True, type=FiniteRange(min=0.001),
              envvar="CYCLADES_SESSION_DAYS", help="a login lasts so long after it was last used")
@click.option("--login-rate", default="20/minute;200/hour", show_default=True, envvar="CYCLADES_LOGIN_RATE",
              callback=_rate, help="login attempts one address may make")
@click.option("--login-failures", default="5/5 minutes;30/day", show_default=True,
              envvar="CYCLADES_LOGIN_FAILURES", callback=_rate,
              help="failed logins one name may have (the same whether the name exists or not)")
@click.option("--signup-rate", default="5/hour;20/day", show_default=True, envvar="CYCLADES_SIGNUP_RATE",
              callback=_rate, help="accounts one address may create")
@click.option("--chat-rate", default="5/10 seconds;30/minute", show_default=True, envvar="CYCLADES_CHAT_RATE",
              callback=_rate, help="chat messages one person may send at one table")
@click.option("--chat-length", default=300, show_default=True, type=click.IntRange(min=1, max=4000),
              envvar="CYCLADES_CHAT_LENGTH", help="characters of one chat message")
@click.option("--table-sweep-seconds", default=1.0, type=FiniteRange(min=0.05), hidden=True,
              envvar="CYCLADES_TABLE_SWEEP_SECONDS", help="how often play-now tables' bot waits are looked at")
@click.option("--play-now-max-cycles", default=None, type=click.IntRange(min=1), hidden=True,
              envvar="CYCLADES_PLAY_NOW_MAX_CYCLES", help="a cycle limit for play-now games (tests)")
# Notifications: e-mail and Web Push (server/notify.py, docs/deploy.md "Notifications").
@click.option("--smtp-host", default=None, envvar="CYCLADES_SMTP_HOST",
              help="the SMTP server that sends the e-mails (your turn, a game ended); none: no e-mail")
@click.option("--smtp-port", default=587, show_default=True, type=click.IntRange(1, 65535),
              envvar="CYCLADES_SMTP_PORT", help="its port (465 with --smtp-security ssl)")
@click.option("--smtp-security", default="starttls", show_default=True, envvar="CYCLADES_SMTP_SECURITY",
              type=click.Choice(["starttls", "ssl", "none"]), help="how the connection to it is encrypted")
@click.option("--smtp-user", default=None, envvar="CYCLADES_SMTP_USER", help="the login at the SMTP server")
@click.option("--smtp-password", default=None, envvar="CYCLADES_SMTP_PASSWORD",
              help="its password (better in the environment than on the command line)")
@click.option("--smtp-from", default="cyclades@localhost", show_default=True, envvar="CYCLADES_SMTP_FROM",
              callback=_mailbox,
              help="the sender of the e-mails (also the contact of the Web Push messages)")
@click.option("--public-url", default=None, envvar="CYCLADES_PUBLIC_URL", callback=_public_url,
              help="the address people open this server at, for the links in e-mails and push "
                   "messages, e.g. https://games.example.org (default: the one printed at start)")
@click.option("--digest-hour", default=7, show_default=True, type=click.IntRange(0, 23),
              envvar="CYCLADES_DIGEST_HOUR", help="the hour (UTC) of the daily digest e-mail")
@click.option("--notify-sweep-seconds", default=5.0, type=FiniteRange(min=0.05), hidden=True,
              envvar="CYCLADES_NOTIFY_SWEEP_SECONDS", help="how often the messages to send are looked at")
def serve(host, port, db_url, bot_delay, log_level, max_body, max_upload, max_ws_message,
          allowed_origins, game_rate, max_open_games, expire_hours, idle_minutes,
          finished_idle_minutes, sweep_seconds, workers=1, forwarded_allow_ips=None, peer_ttl=None,
          bot_workers=None, bot_seconds=10.0, join_rate="10/minute;60/hour",
          upload_rate="10/minute;60/hour", replay_cache_mb=256.0, ws_rate="20/second;600/minute",
          max_ws_per_address=16, max_spectators=100, header_timeout=10.0, body_timeout=30.0,
          max_connections_per_address=64, max_connections=0, allowed_hosts=(), **people):
    """Run the game server; open the printed URL in a browser."""
    sock = _listen(host, port)  # before anything else: a taken port is said at once
    _bot_settings(workers, bot_workers, bot_seconds, peer_ttl)
    if not people.get("public_url"):
        people["public_url"] = _shown_url(host, sock).rstrip("/")

    import uvicorn

    from .app import create_app
    from .connections import GuardedH11, configure
    from .logs import redact_logs
    from .security import ServerLimits
    from .store import database_problem, default_db_url

    limits = ServerLimits(max_body=max_body, max_upload=max_upload, max_ws_message=max_ws_message,
                          allowed_origins=tuple(allowed_origins), game_rate=game_rate,
                          max_open_games=max_open_games, expire_hours=expire_hours,
                          idle_minutes=idle_minutes, finished_idle_minutes=finished_idle_minutes,
                          sweep_seconds=sweep_seconds, join_rate=join_rate, upload_rate=upload_rate,
                          replay_cache_mb=replay_cache_mb, ws_rate=ws_rate,
                          max_ws_per_address=max_ws_per_address, max_spectators=max_spectators,
                          header_timeout=header_timeout, body_timeout=body_timeout,
                          max_connections_per_address=max_connections_per_address,
                          max_connections=max_connections, allowed_hosts=tuple(allowed_hosts),
                          extra={"people": people})
    configure(limits, forwarded_allow_ips)  # server/connections.py
    db_url = db_url or default_db_url()
    why = database_problem(db_url)
    if why:
        _fail(f"--db: {why}")
    if workers > 1:
        from .workers import prepare
        app = prepare(db_url, bot_delay, limits, fail=_fail)  # an import string for the workers
    else:
        app = create_app(db_url, bot_delay=bot_delay, limits=limits)
    click.echo(f"Cyclades server: open {_shown_url(host, sock)}  (database: {_hide_password(db_url)})")
    if host in ("0.0.0.0", "::", "") and not allowed_hosts:
        click.echo("It answers to IP addresses and localhost; give each name it is reached by "
                   "with --allowed-host (DNS rebinding: docs/deploy.md)")
    # Messages over uvicorn's own limit close the connection (1009); ours (max_ws_message)
    # are answered with an error and the connection goes on.
    extra = {"forwarded_allow_ips": forwarded_allow_ips} if forwarded_allow_ips else {}
    if workers > 1:
        extra.update(workers=workers, factory=True)
    # uvicorn's h11 protocol with the connection caps and the header timeout
    # (server/connections.py); its own keep-alive timeout closes idle connections.
    config = uvicorn.Config(app, host=host, port=sock.getsockname()[1], log_level=log_level,
                            ws_max_size=max(1 << 20, 4 * max_ws_message), http=GuardedH11,
                            timeout_keep_alive=5, **extra)
    redact_logs()  # uvicorn has set up its loggers: its access log loses the tokens
    _run(config, sock, workers)


def _bot_settings(workers, bot_workers, bot_seconds, peer_ttl):
    """Read by server/bots.py (and server/sync.py) in this process and in the --workers
    processes: the environment."""
    import os

    from .bots import ENV_SECONDS, ENV_WORKERS, default_workers
    os.environ[ENV_WORKERS] = str(default_workers(workers) if bot_workers is None else bot_workers)
    os.environ[ENV_SECONDS] = str(bot_seconds)
    if peer_ttl is not None:
        os.environ["CYCLADES_PEER_TTL"] = str(peer_ttl)


def _shown_url(host: str, sock) -> str:
    """The URL to open in a browser (an address that listens on all of them is shown as
    127.0.0.1)."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{sock.getsockname()[1]}/"


def _run(config, sock, workers: int):
    """Serve on the bound socket until stopped; exit code 3 if the server did not start."""
    import uvicorn
    if workers > 1:
        click.echo(f"{workers} server processes share the port")
        from uvicorn.supervisors import Multiprocess
        try:
            Multiprocess(config, sockets=[sock]).run()  # restarts a worker that dies
        finally:
            sock.close()
        return
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    if not server.started:
        sys.exit(3)


def _listen(host: str, port: int):
    """A socket bound to host:port and listening; a clear message and exit code 1 if not."""
    import errno
    import socket

    def fail(message):
        click.echo(f"cyclades serve: {message}", err=True)
        sys.exit(1)

    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        fail(f"cannot listen on {host!r}: not an address of this machine ({e}); see --host")
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            fail(f"port {port} is already in use on {host}: another program (another Cyclades "
                 f"server?) listens there.\nPick another port with --port, e.g. "
                 f"`cyclades serve --port {port + 1 if port < 65535 else 8080}` (--port 0 takes any free one).")
        if e.errno == errno.EACCES:
            fail(f"not allowed to listen on port {port} of {host} (ports below 1024 need "
                 f"privileges); pick another with --port, e.g. --port 8000.")
        if e.errno == errno.EADDRNOTAVAIL:
            fail(f"cannot listen on {host}: it is not an address of this machine; see --host.")
        fail(f"cannot listen on {host}:{port}: {e.strerror or e}")
    sock.set_inheritable(True)
    return sock


def _fail(message):
    click.echo(f"cyclades serve: {message}", err=True)
    sys.exit(2)


def _hide_password(url: str) -> str:
    try:
        from sqlalchemy.engine import make_url
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url


if __name__ == "__main__":
    serve()
