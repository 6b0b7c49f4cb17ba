"""The `cyclades` command: play in a terminal, simulate random games, replay a record, show a board.

    cyclades play --players 3 --seed 7          # you at seat 1 against random bots
    cyclades simulate --games 200 --players 3,4,5 --json stats.json
    cyclades replay game.json --upto 120
    cyclades board --players 4 --board recommended
"""
from __future__ import annotations

import json
import random
import statistics
import sys
import time

import click
from rich.console import Console
from rich.table import Table

import cyclades
from cyclades.agents import agent_names, make_agent
from cyclades.engine.log import (Narrator, area_name, card_name, creature_name, decision_sentence, god_name,
                                 player_name)

BOARDS = ("random", "recommended")
MAX_DECISIONS = 200_000  # a guard for simulate: no real game comes near it


def _console() -> Console:
    # Made per command, so that it writes to the stream in use (CliRunner swaps them).
    return Console(highlight=False, soft_wrap=True)


@click.group()
@click.version_option(cyclades.__version__, prog_name="cyclades")
def main():
    """Cyclades (Legendary Edition) in a terminal: play, simulate, replay, show boards."""


# --- option helpers --------------------------------------------------------------------

def _agent_list(value, param_name) -> list:
    names = [x.strip() for x in str(value).split(",") if x.strip()]
    known = agent_names()
    if not names:
        raise click.BadParameter("give at least one agent name", param_hint=param_name)
    for n in names:
        if n not in known:
            raise click.BadParameter(f"unknown agent {n!r}; known agents: {', '.join(known)}",
                                     param_hint=param_name)
    return names


def _player_counts(values) -> list:
    out = []
    for v in values:
        for part in str(v).split(","):
            part = part.strip()
            if not part:
                continue
            try:
                n = int(part)
            except ValueError:
                raise click.BadParameter(f"{part!r} is not a number of players", param_hint="--players")
            if not 3 <= n <= 5:
                raise click.BadParameter(f"{n} players: the game is for 3 to 5", param_hint="--players")
            if n not in out:
                out.append(n)
    if not out:
        raise click.BadParameter("give a number of players", param_hint="--players")
    return out


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the agent at a seat in a game of seed `seed`: its own stream per seat."""
    return seed * 16 + seat


# --- play ----------------------------------------------------------------------------------

FRAME_TEXT = {
    "place": "Placement", "offer": "Offerings: make an Offering", "build": "Build",
    "place_unit": "Place a new unit", "lmove": "Land Move", "smove": "Sea Move",
    "metro": "Build a Metropolis", "prosper": "Place a Prosperity token", "maintain": "Maintenance Costs",
    "reserve": "Reserve a Creature", "peek": "The top Creature card", "bonus_fleet": "Place a Fleet",
    "place_hero": "Place your Hero",
}


@main.command()
@click.option("--players", type=click.IntRange(3, 5), default=3, show_default=True, help="Number of players.")
@click.option("--seed", type=int, default=None, help="Game seed (default: a random one, printed).")
@click.option("--seat", type=int, default=1, show_default=True, help="Your seat, 1..players.")
@click.option("--board", type=click.Choice(BOARDS), default="random", show_default=True)
@click.option("--bots", default="random", show_default=True,
              help="Agent for the other seats: one name, or a comma-separated list, one per bot.")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="Write the game record (JSON) to this file at the end.")
@click.option("--max-cycles", type=click.IntRange(min=1), default=100, show_default=True,
              help="End the game after this many cycles (R21 tie-breaks decide).")
@click.option("--full-log", is_flag=True, help="Show every event, even those that repeat another.")
def play(players, seed, seat, board, bots, save, max_cycles, full_log):
    """Play a game in the terminal: you at one seat, bots at the others."""
    if not 1 <= seat <= players:
        raise click.BadParameter(f"{seat} is not a seat of a {players}-player game (1..{players})",
                                 param_hint="--seat")
    bot_names = _agent_list(bots, "--bots")
    if save:
        _save(save, None)  # fail now, not after a whole game, if the file cannot be written
    if seed is None:
        seed = random.randrange(2 ** 31)
    con = _console()
    me = seat - 1
    game = cyclades.new_game(players=players, seed=seed, board=board, max_cycles=max_cycles)
    names = [player_name(p) + (" (you)" if p == me else "") for p in range(players)]
    bots_by_seat = {}
    for k, p in enumerate(q for q in range(players) if q != me):
        bots_by_seat[p] = make_agent(bot_names[k % len(bot_names)], seed=seat_seed(seed, p))
    narrator = Narrator(game, names, full=full_log)
    con.print(f"Cyclades, {players} players, seed {seed}, {board} board. You are {names[me]}.")
    stdin = click.get_text_stream("stdin")
    pending = []
    quit_reason = None
    while not game.is_over:
        p = game.to_move
        if p != me:
            pending.extend(_narrate(narrator, game, bots_by_seat[p].act(game, p), names))
            continue
        show_position(con, game, me, names)
        _show_log(con, pending)
        pending = []
        legal = game.legal_actions()
        choice = _ask(con, stdin, game, me, names, legal)
        if choice in ("quit", "eof"):
            quit_reason = choice
            break
        pending.extend(_narrate(narrator, game, legal[choice], names))
    _show_log(con, pending)
    if save:
        _save(save, game)
        con.print(f"Game record written to {save}.")
    if quit_reason == "quit":
        con.print(f"You leave the game in cycle {game.s.cycle}. Replay it with the seed {seed}.")
        return
    if quit_reason == "eof":
        con.print("Input ended before the game did: the game is abandoned.")
        sys.exit(1)
    show_result(con, game, names)


def _narrate(narrator, game, action, names) -> list:
    """Apply a decision; the log lines it gives (a line of its own if it emits no event)."""
    p = game.to_move
    lines = narrator.lines(game.apply(action))
    if not lines:
        silent = decision_sentence(action, p, names)
        lines = [silent] if silent else []
    return lines


def _save(path, game):
    try:
        with open(path, "a" if game is None else "w") as fh:
            if game is not None:
                json.dump(game.record(), fh)
    except OSError as e:
        raise click.ClickException(f"cannot write {path}: {e.strerror or e}")


def _ask(con, stdin, game, me, names, legal):
    """The player's choice: an index into legal, "quit" or "eof"."""
    while True:
        con.print()
        for i, a in enumerate(legal, 1):
            con.print(f"  {i:>3}. {_action_text(a, names)}", markup=False)
        con.print(f"Your choice [1-{len(legal)}, ? to show the position again, q to quit]: ", end="",
                  markup=False)
        line = stdin.readline()
        if not line:
            con.print()
            return "eof"
        text = line.strip().lower()
        if not stdin.isatty():
            con.print(text, markup=False)  # echo piped input: a transcript reads like a session
        if text in ("q", "quit", "exit"):
            return "quit"
        if text in ("?", "h", "help"):
            show_position(con, game, me, names)
            continue
        if not text:
            con.print(f"Type a number from 1 to {len(legal)}, ? or q.")
            continue
        try:
            k = int(text)
        except ValueError:
            con.print(f"'{text}' is not a number. Type a number from 1 to {len(legal)}, ? or q.",
                      markup=False)
            continue
        if not 1 <= k <= len(legal):
            con.print(f"{k} is not on the list. Type a number from 1 to {len(legal)}.")
            continue
        return k - 1


def _action_text(action, names) -> str:
    """The action's own words; a player index also gets the player's name."""
    text = str(action)
    if action.kind.endswith("player") and 0 <= action.n < len(names):
        text += f" ({names[action.n]})"
    return text


def _show_log(con, lines):
    for line in lines:
        con.print("  " + line, markup=False)


def _short(names, p) -> str:
    return names[p] if p is not None and 0 <= p < len(names) else "-"


def show_position(con, game, me, names):
    """A compact summary of what `me` may know (R24: game.view hides others' GP)."""
    v = game.view(me)
    b = game.board
    decision = v.get("decision") or {}
    what = FRAME_TEXT.get(decision.get("k"), str(decision.get("k", "")).replace("_", " "))
    if decision.get("k") == "turn":
        what = f"your turn with {god_name(decision.get('god'))}"
    elif decision.get("k") == "creature":
        what = f"the effect of {creature_name(decision.get('card'))}"
    elif decision.get("k") == "battle":
        where = b.index.get(decision.get("area"), -1)
        what = f"Battle {'on' if b.is_land[where] else 'in'} {area_name(game, where)}"
        stage = decision.get("stage", "")
        what += ", a unit to lose" if stage == "loss" else ", retreat?" if stage.startswith("retreat") else ""
    con.print()
    con.rule(f"Cycle {v['cycle']} · {v['phase'].title()} · {names[me]} to decide: {what}")
    # Gods and offerings.
    gods = []
    for gd in v["gods"]:
        bid = gd["bid"]
        text = f"{god_name(gd['god'])}: " + (f"{_short(names, bid['player'])} {bid['amount']} GP" if bid
                                              else "no offering")
        gods.append(text if gd["face_up"] else f"[dim]{god_name(gd['god'])} (face down)[/dim]")
    apollo = ", ".join(_short(names, p) for p in v["apollo"]) or "no one"
    con.print("Gods: " + " | ".join(gods) + f" | Apollo: {apollo}")
    con.print("Turn order: " + ", ".join(_short(names, p) for p in v["turn_order"]))
    # Players: public figures, and the GP of the viewer only.
    for pl in v["players"]:
        p = pl["index"]
        gp = "? GP" if pl["gp"] is None else f"{pl['gp']} GP"
        line = (f"{names[p]}: {gp}, {_count(pl['priestesses'], 'Priestess', 'Priestesses')}, "
                f"{_count(pl['philosophers'], 'Philosopher')}, "
                f"{_count(pl['metropolises'], 'Metropolis', 'Metropolises')}; in reserve "
                f"{_count(pl['troops_in_reserve'], 'Troop')}, {_count(pl['fleets_in_reserve'], 'Fleet')}")
        if pl["heroes"]:
            line += "; Heroes: " + ", ".join(card_name(h) for h in pl["heroes"])
        if pl["creatures"]:
            line += "; Creatures: " + ", ".join(card_name(c) for c in pl["creatures"])
        if pl["eliminated"]:
            line += " (eliminated)"
        con.print(line, markup=False)
    # Land areas by island, then the seas worth mentioning. Plain columns: this is
    # printed before every decision, and rich tables are slow to lay out.
    areas = v["areas"]
    rows = []
    for k, island in enumerate(b.islands):
        for j, a in enumerate(island):
            d = areas[a]
            units = _units(d["troops"], "Troop") + _units(d["mercs"], "merc")
            units += [card_name(h) for h in d["heroes"]] + [card_name(c) for c in d["creatures"]]
            sites = [card_name(x) if x else "·" for x in d["buildings"]]
            label = _label(b, a) + (" (Priestess icon)" if b.priestess[a] else "")
            rows.append((str(k + 1) if j == 0 else "", label, _short(names, d["owner"]),
                         ", ".join(units) or "-", " ".join(sites) or "-", _income(b, d, a)))
    _columns(con, ("Island", "Land area", "Owner", "Units", "Buildings", "Income"), rows)
    seas = [a for a in b.seas if areas[a]["fleets"] or areas[a]["prosperity"] or b.cornucopias[a]
            or areas[a]["creatures"]]
    if seas:
        rows = []
        for a in seas:
            d = areas[a]
            fleets = str(d["fleets"] or "-") + "".join(f", {card_name(c)}" for c in d["creatures"])
            rows.append((_label(b, a), _short(names, d["owner"]), fleets, _income(b, d, a)))
        _columns(con, ("Sea area", "Owner", "Fleets", "Income"), rows)
    others = len(b.seas) - len(seas)
    if others:
        con.print(f"[dim]{others} other sea areas are empty.[/dim]")
    # The tracks.
    creatures = []
    for c in v["creature_track"]:
        if c["card"]:
            text = f"{card_name(c['card'])} {c['cost']} GP"
            if c["reserved_by"] is not None:
                text += f" (reserved by {_short(names, c['reserved_by'])})"
            creatures.append(text)
    con.print("Creature track: " + (", ".join(creatures) or "empty"))
    con.print("Hero track: " + (", ".join(card_name(h) for h in v["hero_track"] if h) or "empty"))


def _columns(con, headers, rows):
    widths = [max(len(str(r[i])) for r in list(rows) + [headers]) for i in range(len(headers))]

    def line(r):
        return "  ".join(str(x).ljust(w) for x, w in zip(r, widths)).rstrip()
    con.print(line(headers), style="bold", markup=False)
    con.print("\n".join(line(r) for r in rows), markup=False)


def _count(n, one, many=None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def _units(n, word):
    return [_count(n, word)] if n else []


def _label(b, a) -> str:
    name, aid = b.names[a], b.ids[a]
    return name if aid == name.lower().replace(" ", "-") else f"{name} ({aid})"


def _income(b, d, a) -> str:
    base, extra = b.cornucopias[a], d["prosperity"]
    if d.get("geryon_gp"):
        extra += d["geryon_gp"]
    if not base and not extra:
        return "-"
    return f"{base}+{extra}" if extra else str(base)


def show_result(con, game, names):
    r = game.result()
    con.print()
    con.rule("The game is over" if r["over"] else "The game is not over")
    t = Table(box=None, pad_edge=False, show_edge=False)
    for col in ("Player", "Metropolises", "GP", ""):
        t.add_column(col)
    for p in range(len(r["gp"])):
        note = "winner" if p in r["winners"] else ("eliminated" if r["eliminated"][p] else "")
        t.add_row(names[p], str(r["metropolises"][p]), str(r["gp"][p]), note)
    con.print(t)
    winners = [names[p] for p in r["winners"]]
    after = f"after {_count(r['cycles'], 'cycle')}"
    how = " (the cycle limit was reached)" if r["cycle_limit"] else ""
    if not r["over"]:
        con.print(f"The record ends in cycle {r['cycles']}, phase {game.s.phase}: the game goes on.")
    elif len(winners) == 1:
        con.print(f"{winners[0]} wins {after}{how}.")
    elif winners:
        con.print(f"{' and '.join(winners)} share the victory {after}{how}.")
    else:
        con.print(f"No winner {after}{how}.")


# --- simulate --------------------------------------------------------------------------------

def play_out(players, seed, agents, max_cycles) -> dict:
    """One game between agents; its figures as a row."""
    game = cyclades.new_game(players=players, seed=seed, max_cycles=max_cycles)
    seats = [make_agent(agents[p % len(agents)], seed=seat_seed(seed, p)) for p in range(players)]
    decisions = 0
    t0 = time.perf_counter()
    error = None
    try:
        while not game.is_over:
            if decisions >= MAX_DECISIONS:
                raise RuntimeError(f"no end after {MAX_DECISIONS} decisions")
            p = game.to_move
            game.apply(seats[p].act(game, p))
            decisions += 1
    except Exception as e:  # an engine bug: recorded with its seed, the run goes on
        error = f"{type(e).__name__}: {e}"
    seconds = time.perf_counter() - t0
    r = game.result()
    row = {"seed": seed, "players": players, "decisions": decisions, "cycles": r["cycles"],
           "seconds": round(seconds, 6), "winners": r["winners"], "metropolises": r["metropolises"],
           "gp": r["gp"], "eliminated": r["eliminated"], "ending": None, "shared": False,
           "gp_tiebreak": False}
    if error:
        row["error"] = error
        return row
    alive = [p for p in range(players) if not r["eliminated"][p]]
    target = game.r.metropolises_to_win
    if r["cycle_limit"]:
        row["ending"] = "cycle_limit"
    elif any(r["metropolises"][p] >= target for p in alive):
        row["ending"] = "metropolises"
    elif any(r["eliminated"]):
        row["ending"] = "elimination"
    else:
        row["ending"] = "other"
    row["shared"] = len(r["winners"]) > 1
    top = max((r["metropolises"][p] for p in alive), default=0)
    contenders = [p for p in alive if r["metropolises"][p] == top]
    row["gp_tiebreak"] = len(contenders) > 1 and len(r["winners"]) < len(contenders)
    return row


def summarize(rows, seconds) -> dict:
    ok = [r for r in rows if "error" not in r]
    dec = [r["decisions"] for r in ok]
    cyc = [r["cycles"] for r in ok]
    n = len(rows)

    def count(key, value=True):
        return sum(1 for r in ok if r.get(key) == value)
    return {
        "games": n,
        "seconds": round(seconds, 4),
        "games_per_second": round(n / seconds, 2) if seconds else None,
        "decisions_per_second": round(sum(r["decisions"] for r in rows) / seconds, 1) if seconds else None,
        "decisions_median": statistics.median(dec) if dec else None,
        "decisions_mean": round(statistics.fmean(dec), 2) if dec else None,
        "cycles_mean": round(statistics.fmean(cyc), 2) if cyc else None,
        "cycles_median": statistics.median(cyc) if cyc else None,
        "cycles_max": max(cyc) if cyc else None,
        "ended_by_metropolises": count("ending", "metropolises"),
        "ended_by_elimination": count("ending", "elimination"),
        "ended_by_cycle_limit": count("ending", "cycle_limit"),
        "ended_otherwise": count("ending", "other"),
        "shared_wins": count("shared"),
        "ties_broken_on_gp": count("gp_tiebreak"),
        "errors": n - len(ok),
    }


@main.command()
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, help="Games per player count.")
@click.option("--players", multiple=True, default=("3",), show_default=True,
              help='Players per game; repeat the option or write "3,4,5" to run each count.')
@click.option("--seed", type=int, default=0, show_default=True, help="Game i uses seed S+i.")
@click.option("--json", "json_file", type=click.Path(dir_okay=False), default=None,
              help="Write the figures and one row per game to this file.")
@click.option("--max-cycles", type=click.IntRange(min=1), default=100, show_default=True,
              help="The cycle-limit guard: a game still going after this many cycles ends (R21).")
@click.option("--agents", default="random", show_default=True,
              help="Agent names, comma-separated, dealt to the seats in turn.")
def simulate(games, players, seed, json_file, max_cycles, agents):
    """Play many games between agents and report speed, length and how they were won."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    counts = _player_counts(players)
    agent_list = _agent_list(agents, "--agents")
    con = _console()
    err = Console(stderr=True)
    runs = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, transient=True) as progress:
        for n in counts:
            task = progress.add_task(f"{n} players", total=games)
            rows = []
            t0 = time.perf_counter()
            for i in range(games):
                rows.append(play_out(n, seed + i, agent_list, max_cycles))
                progress.advance(task)
            elapsed = time.perf_counter() - t0
            runs.append({"players": n, "summary": summarize(rows, elapsed), "games": rows})
    _print_summary(con, runs, max_cycles)
    errors = [r for run in runs for r in run["games"] if "error" in r]
    for r in errors[:10]:
        con.print(f"Error in the {r['players']}-player game of seed {r['seed']} "
                  f"after {r['decisions']} decisions: {r['error']}", markup=False)
    if json_file:
        data = {"seed": seed, "games": games, "max_cycles": max_cycles, "agents": agent_list,
                "agent_seeds": "seat k of the game of seed s uses seed s*16+k", "runs": runs}
        try:
            with open(json_file, "w") as fh:
                json.dump(data, fh, indent=1)
        except OSError as e:
            raise click.ClickException(f"cannot write {json_file}: {e.strerror or e}")
        con.print(f"Figures written to {json_file}.")
    if errors:
        sys.exit(1)


def _print_summary(con, runs, max_cycles):
    t = Table(title="Simulated games")
    t.add_column("")
    for run in runs:
        t.add_column(f"{run['players']} players", justify="right")

    def pct(k, s):
        n = s[k]
        return f"{n} ({100 * n / s['games']:.0f}%)" if s["games"] else str(n)

    def fmt(x):
        return "-" if x is None else (f"{x:g}" if isinstance(x, float) else str(x))

    lines = [
        ("Games", lambda s: str(s["games"])),
        ("Games/s", lambda s: "-" if s["games_per_second"] is None else f"{s['games_per_second']:,.1f}"),
        ("Decisions/s", lambda s: "-" if s["decisions_per_second"] is None
         else f"{s['decisions_per_second']:,.0f}"),
        ("Decisions per game, median", lambda s: fmt(s["decisions_median"])),
        ("Decisions per game, mean", lambda s: fmt(s["decisions_mean"])),
        ("Cycles per game, mean", lambda s: fmt(s["cycles_mean"])),
        ("Cycles per game, median", lambda s: fmt(s["cycles_median"])),
        ("Cycles per game, max", lambda s: fmt(s["cycles_max"])),
        ("Won by reaching 3 Metropolises", lambda s: pct("ended_by_metropolises", s)),
        ("Ended by an elimination", lambda s: pct("ended_by_elimination", s)),
        (f"Ended by the cycle limit ({max_cycles})", lambda s: pct("ended_by_cycle_limit", s)),
        ("Shared wins", lambda s: pct("shared_wins", s)),
        ("Ties broken on GP", lambda s: pct("ties_broken_on_gp", s)),
        ("Errors", lambda s: str(s["errors"])),
    ]
    for label, f in lines:
        t.add_row(label, *(f(run["summary"]) for run in runs))
    con.print(t)


# --- replay ----------------------------------------------------------------------------------

def load_record(path) -> dict:
    try:
        with open(path) as fh:
            record = json.load(fh)
    except OSError as e:
        raise click.ClickException(f"cannot read {path}: {e.strerror or e}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise click.ClickException(f"{path} is not valid JSON: {e}")
    if not isinstance(record, dict) or not isinstance(record.get("options"), dict) \
            or not isinstance(record.get("actions"), list):
        raise click.ClickException(f"{path} is not a game record: expected an object with "
                                   f"'options' and a list of 'actions' (the format of game.record())")
    return record


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--upto", type=click.IntRange(min=0), default=None, help="Stop after this many decisions.")
@click.option("--full-log", is_flag=True, help="Show every event, even those that repeat another.")
def replay(file, upto, full_log):
    """Print the log of a recorded game (the JSON of game.record()), cycle by cycle."""
    record = load_record(file)
    con = _console()
    try:
        game = cyclades.Game.from_record(record, upto=0)
    except KeyError as e:
        raise click.ClickException(f"{file}: the record's options lack {e}")
    except Exception as e:
        raise click.ClickException(f"{file}: cannot set up the recorded game: {type(e).__name__}: {e}")
    names = [player_name(p) for p in range(game.s.n)]
    narrator = Narrator(game, names, full=full_log)
    actions = record["actions"]
    stop = len(actions) if upto is None else min(upto, len(actions))
    con.print(f"Replay of {file}: {game.s.n} players, seed {record['options'].get('seed')}, "
              f"{len(actions)} decisions.")
    if game.s.phase == "setup":
        con.print("\n[bold]Setup[/bold]")
    else:  # a scenario's record starts in the middle of a cycle
        con.print(f"\n[bold]Cycle {game.s.cycle}[/bold] (from a scenario, {game.s.phase})")
    for i in range(stop):
        try:
            action = cyclades.Action.from_json(actions[i])
            p = game.to_move
            events = game.apply(action)
        except (cyclades.IllegalAction, ValueError, TypeError) as e:
            raise click.ClickException(f"{file}: decision {i + 1} cannot be replayed: {e}")
        if not events and decision_sentence(action, p, names):
            con.print("  " + decision_sentence(action, p, names), markup=False)
        for e, line in _lines_with_cycles(narrator, events):
            if e is not None:
                con.print(f"\n[bold]Cycle {e}[/bold]")
            else:
                con.print("  " + line, markup=False)
    if stop < len(actions):
        con.print(f"\nStopped after {stop} of {len(actions)} decisions "
                  f"(cycle {game.s.cycle}, {game.s.phase}).")
        return
    show_result(_console(), game, names)


def _lines_with_cycles(narrator, events):
    """Pairs (cycle number, None) for a cycle's start, else (None, sentence)."""
    start = 0
    for i, e in enumerate(events):
        if e.get("type") == "cycle":
            for line in narrator.lines(events[start:i]):
                yield None, line
            narrator.lines([e])
            yield e.get("cycle"), None
            start = i + 1
    for line in narrator.lines(events[start:]):
        yield None, line


# --- board -----------------------------------------------------------------------------------

@main.command()
@click.option("--players", type=click.IntRange(3, 5), default=3, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--board", type=click.Choice(BOARDS), default="random", show_default=True)
def board(players, seed, board):
    """List the areas of a game's board: ids for scenarios, neighbours, sites, icons."""
    game = cyclades.new_game(players=players, seed=seed, board=board)
    b = game.board
    # Piped output is not cut to 80 columns: one line per area reads better in a file.
    con = Console(highlight=False, width=None if sys.stdout.isatty() else 200)
    tiles = sorted({t for t in b.tile if t})
    con.print(f"{len(b.ids)} areas: {len(b.lands)} land, {len(b.seas)} sea, {len(b.islands)} islands"
              + (f"; tiles {', '.join(map(str, tiles))}" if tiles else "")
              + f" ({board} board, {players} players, seed {seed}).")
    t = Table(box=None, pad_edge=False, show_edge=False)
    for col in ("#", "id", "name", "kind", "island", "sites", "cornucopias", "priestess", "neighbours"):
        t.add_column(col, overflow="fold")
    for a in range(len(b.ids)):
        land = b.is_land[a]
        t.add_row(str(a), b.ids[a], b.names[a], ("land" + (" (volcano)" if b.volcano[a] else "")) if land else "sea",
                  str(b.island[a] + 1) if land else "-", str(b.sites[a]) if land else "-",
                  str(b.cornucopias[a]), ("yes" if b.priestess[a] else "") if land else "-",
                  ", ".join(b.ids[x] for x in b.adj[a]))
    con.print(t)


def _add_server_command():
    """`cyclades serve` lives with the server."""
    from .server.cli import serve
    main.add_command(serve)


_add_server_command()

if __name__ == "__main__":  # pragma: no cover
    main()
