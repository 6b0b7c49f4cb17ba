"""`cyclades serve`: run the game server."""
import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8000, show_default=True, type=int, help="port to listen on")
@click.option("--db", "db_url", default=None,
              help="SQLAlchemy URL of the database, e.g. sqlite:///cyclades.db or "
                   "postgresql+psycopg://user:pw@host/db (default: SQLite in the user data directory)")
@click.option("--bot-delay", default=0.3, show_default=True, type=float,
              help="seconds a bot waits before each decision, so that people can follow")
@click.option("--log-level", default="warning", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]))
def serve(host, port, db_url, bot_delay, log_level):
    """Run the game server; open the printed URL in a browser."""
    import uvicorn

    from .app import create_app
    from .store import default_db_url

    db_url = db_url or default_db_url()
    app = create_app(db_url, bot_delay=bot_delay)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    click.echo(f"Cyclades server: open http://{shown}:{port}/  (database: {_hide_password(db_url)})",
               err=False)
    uvicorn.run(app, host=host, port=port, log_level=log_level)


def _hide_password(url: str) -> str:
    try:
        from sqlalchemy.engine import make_url
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url


if __name__ == "__main__":
    serve()
