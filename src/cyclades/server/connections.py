"""Connections before they are requests: what the ASGI app cannot see, guarded where uvicorn
reads them (`cyclades serve` runs uvicorn with `GuardedH11` as its HTTP protocol).

- **Per address**: at most `max_connections_per_address` connections open from one client
  address (WebSockets included), except from the trusted proxies of `--forwarded-allow-ips`
  (behind nginx every client comes from the proxy: nginx's `limit_conn` guards it, see
  docs/deploy.md). A connection beyond is answered 503 and closed at once.
- **In all**: at most `max_connections`, by default the process's open-file limit (raised to
  its hard limit at start) less `RESERVE` for the database, the bot workers and files, so that
  a flood of connections never leaves the server unable to open a socket or a file ("Too many
  open files"). A connection beyond is answered 503 and closed at once.
- **Slow headers**: a request's headers must arrive within `header_timeout` seconds of its first
  byte (of the connection, for its first request); a connection that trickles them is answered
  408 and closed. uvicorn's `timeout_keep_alive` closes connections idle between requests; a
  request's body has `body_timeout` seconds (security.Guard).

The settings come from the environment (`CYCLADES_CONNECTIONS`, JSON), which `cyclades serve`
sets: the `--workers` processes read them too. Every figure is per server process.
"""
from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import os
from functools import cache

from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("cyclades.server")

ENV = "CYCLADES_CONNECTIONS"
RESERVE = 128          # file descriptors kept for the database, the bot workers, files, logs


def open_file_limit() -> int:
    """The process's limit of open files, raised to its hard limit first (uvicorn does not)."""
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if hard != resource.RLIM_INFINITY and soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        return soft if soft != resource.RLIM_INFINITY else 1 << 20
    except (ImportError, ValueError, OSError):  # pragma: no cover - not on Linux
        return 1024


def configure(limits, forwarded_allow_ips: str | None) -> dict:
    """The settings of this server's connections, put in the environment (for the workers
    too); what `GuardedH11` will enforce."""
    most = limits.max_connections or max(64, open_file_limit() - RESERVE)
    settings = {"per_address": limits.max_connections_per_address, "total": most,
                "header_timeout": limits.header_timeout,
                "trusted": (forwarded_allow_ips or os.environ.get("FORWARDED_ALLOW_IPS") or "127.0.0.1")}
    os.environ[ENV] = json.dumps(settings)
    return settings


class _Settings:
    def __init__(self):
        d = json.loads(os.environ.get(ENV) or "{}")
        self.per_address = int(d.get("per_address", 64))
        self.total = int(d.get("total", 0)) or max(64, open_file_limit() - RESERVE)
        self.header_timeout = float(d.get("header_timeout", 10.0))
        trusted = [x.strip() for x in str(d.get("trusted", "127.0.0.1")).split(",") if x.strip()]
        self.any_trusted = "*" in trusted
        self.trusted_nets = []
        for x in trusted:
            with contextlib.suppress(ValueError):  # a Unix socket path or a name: no addresses to match
                self.trusted_nets.append(ipaddress.ip_network(x, strict=False))

    def trusted(self, address: str | None) -> bool:
        if self.any_trusted:
            return True
        try:
            ip = ipaddress.ip_address(address or "")
        except ValueError:
            return False
        return any(ip in net for net in self.trusted_nets)


@cache
def settings() -> _Settings:
    """The one _Settings of the process, read from the environment when first asked."""
    return _Settings()


def _answer(status: int, reason: str, detail: str) -> bytes:
    body = json.dumps({"detail": detail}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\nretry-after: 10\r\n\r\n").encode() + body


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol, with the caps and the header timeout above."""

    _header_timer = None

    def connection_made(self, transport):  # type: ignore[override]
        super().connection_made(transport)
        why = self._refusal()
        if why:
            log.warning("connection from %s refused: %s", self.client[0] if self.client else "?", why)
            transport.write(_answer(503, "Service Unavailable", why))
            transport.close()
            return
        self._arm()

    def _refusal(self) -> str | None:
        """Why this new connection is one too many (None: it is welcome)."""
        cfg = settings()
        open_now = self.connections  # uvicorn's set of this process's connections (ours included)
        if len(open_now) > cfg.total:
            return "the server has as many connections as it can take; try again in a moment"
        address = self.client[0] if self.client else None
        if not cfg.per_address or len(open_now) <= cfg.per_address or cfg.trusted(address):
            return None
        mine = sum(1 for p in open_now if (getattr(p, "client", None) or (None,))[0] == address)
        if mine > cfg.per_address:
            return f"too many connections from your address (at most {cfg.per_address})"
        return None

    # --- the header timeout ---

    def _arm(self):
        if self._header_timer is None and not self.transport.is_closing():
            self._header_timer = self.loop.call_later(settings().header_timeout, self._too_slow)

    def _disarm(self):
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self):
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.write(_answer(408, "Request Timeout", "the request's headers did not arrive "
                                                                 f"within {settings().header_timeout:g} s"))
            self.transport.close()

    def _between_requests(self) -> bool:
        return self.cycle is None or self.cycle.response_complete

    def data_received(self, data: bytes) -> None:
        if self._between_requests():
            self._arm()  # the first byte of a request: its headers have header_timeout s
        super().data_received(data)
        if not self._between_requests():
            self._disarm()  # its headers arrived

    def handle_websocket_upgrade(self, event) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        self._disarm()  # idle now: uvicorn's keep-alive timeout applies
        super().on_response_complete()

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)
