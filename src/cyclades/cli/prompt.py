"""The human's decision in a terminal game: the numbered choices laid out in columns, the
question, and its other keys: p (the whole position), h (a hint), u (undo), ? (the keys),
q (leave)."""
from __future__ import annotations

from cyclades.content.i18n import _
from cyclades.engine.log import area_name, at_area, god_name
from cyclades.engine.wording import action_text, waiting_text

from .position import show_position


def keys_text() -> str:
    return _("Type the number of a choice. Other keys: p shows the whole position, h a hint, u takes back your "
             "last decision, ? this help, q leaves the game (it is saved).")


def ask(con, stdin, game, me, names, legal, who=None):
    """The player's choice: an index into legal, "undo", "quit" or "eof". `who` names the
    deciding faction when the human runs more than one (the 2-player game)."""
    con.print(waiting_text(game, names, you=me) + ":", style="bold", markup=False)
    show_choices(con, game, legal, names)
    whose = _("Your choice for {name}").format(name=who) if who else _("Your choice")
    while True:
        con.print(f"{whose} [1-{len(legal)}, p, h, u, ?, q]: ", end="", markup=False)
        line = stdin.readline()
        if not line:
            con.print()
            return "eof"
        text = line.strip().lower()
        if not stdin.isatty():
            con.print(text, markup=False)  # echo piped input: a transcript reads like a session
        answer = _answer(con, game, me, names, legal, text)
        if answer is not None:
            return answer


def _answer(con, game, me, names, legal, text):
    """What a typed line means: a choice (its index), "undo" or "quit"; None once the other keys
    are answered, or what was wrong with the line said."""
    if text in ("q", "quit", "exit"):
        return "quit"
    if text in ("u", "undo"):
        return "undo"
    if text in ("p", "position"):
        show_position(con, game, me, names)
        show_choices(con, game, legal, names)
    elif text in ("?", "help"):
        con.print(keys_text(), markup=False)
    elif text in ("h", "hint"):
        con.print(hint_text(game, me, legal, names), markup=False)
    elif not text:
        con.print(_("Type a number from 1 to {n}, or p, h, u, ?, q.").format(n=len(legal)))
    else:
        try:
            k = int(text)
        except ValueError:
            con.print(_("'{text}' is not a number. Type a number from 1 to {n}, or p, h, u, ?, q.")
                      .format(text=text, n=len(legal)), markup=False)
            return None
        if 1 <= k <= len(legal):
            return k - 1
        con.print(_("{k} is not on the list. Type a number from 1 to {n}.").format(k=k, n=len(legal)))
    return None


def hint_text(game, me, legal, names) -> str:
    """`h`: the expert level's choice among the numbered ones, and why (agents/advice.py). A
    failure of the advice is a bug, and is let through like any other."""
    from cyclades.agents.advice import hint  # the search, imported when first asked for
    h = hint(game, me)  # a search: it may take a few seconds
    text = _("Hint: {k}. {action}").format(k=legal.index(h.action) + 1, action=action_text(h.action, game, names))
    return text + (f" ({h.reason})" if h.reason else "")


def show_choices(con, game, legal, names):
    """The numbered choices in columns; a run of three or more with the same head ("Place a
    Fleet in") under it, so that 37 areas fit in a few lines."""
    width = (con.width or 80) - 4
    i = 0
    loose = []  # choices that stand alone, laid out together
    while i < len(legal):
        head = _choice_parts(legal[i], game)[0]
        j = i + 1
        while head is not None and j < len(legal) and _choice_parts(legal[j], game)[0] == head:
            j += 1
        if head is None or j - i < 3:
            loose += [f"{k + 1:>3}. {_choice_text(legal[k], game, names)}" for k in range(i, j)]
            i = j
            continue
        _grid(con, loose, width)
        loose = []
        items = [_choice_parts(legal[k], game)[1] for k in range(i, j)]
        words = {item.split(" ", 1)[0] for item in items}
        if len(words) == 1 and words <= {"on", "in"}:  # "Place a Control token on:" Naxos, Paros...
            head += " " + words.pop()
            items = [item.split(" ", 1)[1] for item in items]
        con.print(f"  {head}:", markup=False)
        _grid(con, [f"{k + 1:>3}. {item}" for k, item in zip(range(i, j), items)], width)
        i = j
    _grid(con, loose, width)


def _choice_parts(action, game):
    """(head, item) for laying many similar choices out in columns: ("Offer to Hera", "3 GP"),
    ("Place a Fleet", "in the Gulf of Panope"); head None for a choice that stands alone."""
    text = action_text(action, game)
    if action.kind == "bid":
        return (_("Offer to {god}").format(god=god_name(action.what)) + god_summary(game, action.what),
                _("{n} GP").format(n=action.n))
    if action.where and action.where in game.board.index:
        for tail in (at_area(game, action.where), area_name(game, action.where)):
            if text.endswith(" " + tail):
                return text[: -len(tail) - 1], tail
    if action.kind == "take":
        return "Take", text[len("Take "):]
    return None, text


def _choice_text(action, game, names) -> str:
    """The action in words, its areas by their names; a player index also gets the player's name."""
    text = action_text(action, game, names)
    if action.kind == "apollo":
        text += god_summary(game, "apollo")
    if action.kind == "target_player" and not 0 <= action.n < len(names):
        text = str(action)
    return text


def _grid(con, cells, width):
    """Cells in as many columns as fit in `width`, filled row by row."""
    if not cells:
        return
    cell = max(len(c) for c in cells) + 2
    per_line = max(1, width // cell)
    for r in range(0, len(cells), per_line):
        con.print("  " + "".join(c.ljust(cell) for c in cells[r:r + per_line]).rstrip(), markup=False)


_GOD_SUMMARIES = {}  # ruleset name -> {god: what it gives}


def god_summary(game, god) -> str:
    """ " (war: Troops, Fortresses and Land Moves)": what a God gives, for the Offerings."""
    from cyclades.content.descriptions import content
    key = game.rules.name
    if key not in _GOD_SUMMARIES:
        try:
            gods = content(key)["gods"]
        except Exception:  # the words are a help: never a reason to stop
            gods = []
        _GOD_SUMMARIES[key] = {g["id"]: g["summary"].rstrip(".") for g in gods}
    text = _GOD_SUMMARIES[key].get(god)
    return f" ({text[:1].lower() + text[1:]})" if text else ""
