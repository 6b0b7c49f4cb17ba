"""Tokens out of the logs: uvicorn's access log (and its WebSocket lines) show `token=...`
as `token=[hidden]` (host_token too, and a name written `%74oken`: the server decodes names).

    redact_logs()       # security.install, the housekeeping's start and `cyclades serve` call it

Below security.py and housekeeping.py, which both call it; it imports no other server module.
"""
from __future__ import annotations

import logging
import re
from urllib.parse import unquote_plus

REDACTED = "[hidden]"
LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "cyclades.server")

# A query parameter: its name as sent (percent-encoded or not) and its value.
_PARAM = re.compile(r"((?:^|[?&;\s\"'])([^=&;?\s\"']*)=)([^&;\s\"']*)")


def _is_token(name: str) -> bool:
    """`token`, `host_token`... as the server reads the name: percent-decoded (`%74oken` is
    `token` to the server, so it is to the log too), in any case."""
    return unquote_plus(name).lower().endswith("token")


def redact(text: str) -> str:
    """`...?token=SECRET&x=1` -> `...?token=[hidden]&x=1` (host_token, `%74oken` too)."""
    return _PARAM.sub(lambda m: m.group(1) + REDACTED if _is_token(m.group(2)) else m.group(0), text)


class RedactTokens(logging.Filter):
    """On uvicorn's loggers: the query strings of the access log (and of its WebSocket lines)
    lose their tokens."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            if isinstance(record.args, tuple) and record.args:
                record.args = tuple(redact(a) if isinstance(a, str) and "=" in a else a
                                    for a in record.args)
            elif isinstance(record.args, dict):
                record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
            if isinstance(record.msg, str) and "=" in record.msg:
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
