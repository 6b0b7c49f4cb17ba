"""People for the server tests of accounts, play now, ratings and chat: an HTTP client with its
own cookies (a browser's worth), and a game played to its end by random legal decisions.

    ann = Person(server.url); ann.signup("Ann")
    ann.post("/api/play", json={...})        # sends X-CSRF-Token, as the site's pages do

    crowd = Crowd(server.url); bob = crowd("Bob")   # people signed up, closed together
    with Person(server.url) as stranger: ...         # each holds a connection: close it
"""
from __future__ import annotations

import random
import time

import httpx

PASSWORD = "correct horse battery"


class Crowd:
    """Makes people (signed up when named) and closes them all at the end of a test."""

    def __init__(self, url: str):
        self.url = url
        self.made: list = []

    def __call__(self, name: str | None = None) -> Person:
        p = Person(self.url)
        if name:
            p.signup(name)
        self.made.append(p)
        return p

    def close(self):
        for p in self.made:
            p.close()

    def __enter__(self) -> Crowd:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Person:
    """A browser's worth of HTTP: cookies kept, the CSRF header sent with every change."""

    def __init__(self, url: str, name: str | None = None):
        self.http = httpx.Client(base_url=url, timeout=30)
        self.name = name

    def headers(self, extra=None) -> dict:
        h = {}
        csrf = self.http.cookies.get("cyclades_csrf")
        if csrf:
            h["X-CSRF-Token"] = csrf
        h.update(extra or {})
        return h

    def get(self, path, **kw):
        return self.http.get(path, **kw)

    def post(self, path, headers=None, **kw):
        return self.http.post(path, headers=self.headers(headers), **kw)

    def delete(self, path, json=None, headers=None):
        return self.http.request("DELETE", path, json=json, headers=self.headers(headers))

    def signup(self, name: str, password: str = PASSWORD, **extra) -> dict:
        r = self.post("/api/account/signup", json={"name": name, "password": password, **extra})
        assert r.status_code == 201, r.text
        self.name = name
        return r.json()

    def login(self, name: str, password: str = PASSWORD, **extra) -> httpx.Response:
        r = self.post("/api/account/login", json={"name": name, "password": password, **extra})
        if r.status_code == 200:
            self.name = name
        return r

    def me(self) -> dict:
        r = self.get("/api/account")
        assert r.status_code == 200, r.text
        return r.json()

    def close(self):
        self.http.close()

    def __enter__(self) -> Person:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def token_of(url: str) -> str:
    return url.split("token=", 1)[1]


def game_of(url: str) -> str:
    return url.split("/game/", 1)[1].split("?", 1)[0]


def play_out(url: str, tokens: list, seed: int = 1, timeout: float = 120) -> dict:
    """Play a game to its end: each human seat (its token) takes a random legal decision when
    the game waits on it; bots play by themselves. The final state."""
    rng = random.Random(seed)
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=url, timeout=30) as http:
        gid = None
        while time.monotonic() < deadline:
            moved = False
            for token, game_id in tokens:
                gid = game_id
                st = http.get(f"/api/games/{game_id}", params={"token": token}).json()
                if st["status"] == "over":
                    return st
                if st["legal_actions"]:
                    a = rng.choice(st["legal_actions"])
                    a = {k: a[k] for k in ("kind", "what", "where", "n") if k in a}
                    r = http.post(f"/api/games/{game_id}/actions",
                                  json={"token": token, "version": st["version"], "action": a})
                    assert r.status_code in (200, 409), r.text
                    moved = True
            if not moved:
                time.sleep(0.05)
    raise AssertionError(f"game {gid} did not end in {timeout} s")


def wait_for(check, timeout: float = 20, what: str = "the condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = check()
        if out:
            return out
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen in {timeout} s")
