"""Tokens out of the logs: uvicorn's access log (and its WebSocket lines) show `token=...`
as `token=[hidden]` (host_token too).

    redact_logs()       # security.install, the housekeeping's start and `cyclades serve` call it

Below security.py and housekeeping.py, which both call it; it imports no other server module.
"""
from __future__ import annotations

import logging
import re

REDACTED = "[hidden]"
LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "cyclades.server")

_TOKEN = re.compile(r"((?:^|[?&;\s\"'])[A-Za-z_]*token=)[^&\s\"';]*", re.I)


def redact(text: str) -> str:
    """`...?token=SECRET&x=1` -> `...?token=[hidden]&x=1` (host_token too)."""
    return _TOKEN.sub(lambda m: m.group(1) + REDACTED, text)


class RedactTokens(logging.Filter):
    """On uvicorn's loggers: the query strings of the access log (and of its WebSocket lines)
    lose their tokens."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            if isinstance(record.args, tuple) and record.args:
                record.args = tuple(redact(a) if isinstance(a, str) and "token=" in a.lower() else a
                                    for a in record.args)
            elif isinstance(record.args, dict):
                record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
            if isinstance(record.msg, str) and "token=" in record.msg.lower():
                record.msg = redact(record.msg)
        except Exception:  # never lose a log line over this
            pass
        return True


def redact_logs():
    """Put the filter on the loggers that print URLs (idempotent; uvicorn's logging setup
    keeps filters)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
