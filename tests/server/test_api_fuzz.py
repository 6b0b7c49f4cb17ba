"""Schemathesis against a real server's /openapi.json: generated requests for every
operation, valid and not, and every answer checked against the schema: no 5xx, no undocumented
status code, no body or header the schema does not allow.

Derandomized (the same cases every run) and short: a few examples per operation, about a minute.
Half of the generated game ids and tokens are swapped for a real game's and its seats' (a game
made here), so that the requests reach the games and not only the 404 of an unknown id.

Left out on purpose: schemathesis' "schema-valid request rejected" check. The schema says what
a body looks like, not the rules of Cyclades: a 422 for seat 7 of a 3-seat game, or for an
illegal action, is the right answer to a well-formed request.
"""
import os
import zlib

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from cyclades.server.testing import ServerProcess

EXAMPLES = int(os.environ.get("CYCLADES_FUZZ_EXAMPLES", "12"))


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuzz")
    # Bots wait (a fuzzed all-bot game would otherwise take the CPU); generous creation limits
    # so that the cases reach the code (429 is declared and allowed all the same).
    with ServerProcess(f"sqlite:///{d / 'games.db'}", bot_delay=0.5, log_path=str(d / "server.log"),
                       args=["--game-rate", "1000/minute", "--max-open-games", "1000"]) as srv:
        yield srv


@pytest.fixture(scope="module")
def real(fuzz_server):
    """A game with two invited friends and a bot: its id and its seats' tokens."""
    with httpx.Client(base_url=fuzz_server.url, timeout=10) as c:
        r = c.post("/api/games", json={"players": 3, "seats": ["you", "invite", "random"]})
        assert r.status_code == 201, r.text
        created = r.json()
    return {"game_id": created["game_id"], "tokens": [s["token"] for s in created["seats"]],
            "host_token": created["host_token"]}


def pick(value, options):
    """The same choice for the same generated value: half of them become a real one."""
    h = zlib.crc32(repr(value).encode("utf-8", "surrogatepass"))
    return options[h % len(options)] if h % 2 else value


def realistic(case, real):
    """Swap half of the generated game ids and tokens for real ones."""
    if case.path_parameters and "game_id" in case.path_parameters:
        case.path_parameters["game_id"] = pick(case.path_parameters["game_id"], [real["game_id"]])
    if case.query and "token" in case.query:
        case.query["token"] = pick(case.query["token"], real["tokens"])
    if isinstance(case.body, dict):
        if isinstance(case.body.get("token"), str):
            case.body["token"] = pick(case.body["token"], real["tokens"])
        if isinstance(case.body.get("host_token"), str):
            case.body["host_token"] = pick(case.body["host_token"], [real["host_token"]])
    return case


def test_every_answer_agrees_with_the_schema(fuzz_server, real):
    schema = schemathesis.openapi.from_url(fuzz_server.url + "/openapi.json")
    failures, tested = [], 0
    for result in schema.get_all_operations():
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                      phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
            def check(case):
                realistic(case, real).call_and_validate(excluded_checks=[positive_data_acceptance], timeout=20)

            tested += 1
            try:
                check()
            except Unsatisfiable:  # nothing of this operation can be made invalid
                pass
            except (Exception, BaseExceptionGroup) as e:  # the first failing case, shrunk
                failures.append(f"{operation.method.upper()} {operation.path} ({mode.value}): {e}")
    assert tested >= 20
    assert not failures, "\n\n".join(failures)
