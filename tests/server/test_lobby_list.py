"""The public list of games (GET /api/games): the games one can join or watch, newest first,
never a tutorial lesson nor an abandoned game, with a filter by mode; on SQLite and PostgreSQL
(conftest.db_url)."""
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
sa = pytest.importorskip("sqlalchemy")


@pytest.fixture(scope="module")
def client(db_url):
    from fastapi.testclient import TestClient

    from cyclades.server.app import create_app
    with TestClient(create_app(db_url, bot_delay=0)) as c:
        yield c


def create(client, **body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()["game_id"]


def listed(client, **params):
    r = client.get("/api/games", params=params)
    assert r.status_code == 200, r.text
    return [g["game_id"] for g in r.json()["games"]]


def test_the_list_shows_what_one_can_join_or_watch(client):
    manager = client.app.state.manager
    lesson = client.post("/api/tutorial", json={"lesson": "offerings"}).json()["game_id"]
    open_seat = create(client, players=3, seats=["invite", "open", "casual"])
    classic = create(client, players=3, ruleset="classic", seats=["invite", "casual", "casual"])
    teams = create(client, players=4, teams=True, seats=["invite", "casual", "casual", "casual"])
    plain = create(client, players=3, maelstrom=False, seats=["invite", "casual", "casual"])
    abandoned = create(client, players=3, seats=["invite", "casual", "casual"])
    old_open = create(client, players=3, seats=["invite", "open", "casual"])
    from cyclades.server.store import games
    with manager.store.engine.begin() as c:  # nothing happened in these two for two days
        c.execute(games.update().where(games.c.game_id.in_([abandoned, old_open]))
                  .values(updated=time.time() - 2 * 86400))
    everything = listed(client)
    assert lesson not in everything and abandoned not in everything
    mine = [plain, teams, classic, open_seat]
    assert [g for g in everything if g in mine + [old_open]] == [old_open] + mine  # newest first
    classics = set(listed(client, mode="classic"))
    assert classic in classics and not {open_seat, teams, plain} & classics
    assert {open_seat, teams} <= set(listed(client, mode="maelstrom")) and plain not in listed(client, mode="maelstrom")
    assert {open_seat, teams, plain} <= set(listed(client, mode="legendary"))
    assert teams in listed(client, mode="teams") and open_seat not in listed(client, mode="teams")
    assert client.get("/api/games", params={"mode": "chess"}).status_code == 422
    row = next(g for g in client.get("/api/games").json()["games"] if g["game_id"] == old_open)
    assert row["free_seats"] == 1 and row["modes"] == ["legendary", "maelstrom"]
    # The lesson is still a game: its link works.
    assert client.get(f"/api/games/{lesson}").status_code == 200
