"""The game server: `cyclades serve` (see docs/api.md).

    from cyclades.server import create_app
"""


def create_app(db_url=None, bot_delay=0.3):
    from .app import create_app as _create
    return _create(db_url, bot_delay=bot_delay)


__all__ = ["create_app"]
