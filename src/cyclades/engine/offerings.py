"""3- Offerings (rulebook; R9-R12).

In turn order each player offers GP to a face-up god or goes to Apollo. An
outbid player must bid again at once on another god (R10), and the chain of
kick-outs resolves fully before the next player in turn order. A bid must be
payable after the Priestess discount (R11), so no fine ever arises.

The classic 2-player game gives each player two offering markers (R23): a player may
then hold two gods (never outbidding themself), or go to Apollo twice; their Priests
discount the two offerings together, once per cycle, each god offering costing at least
1 GP (R12).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..content.gods import APOLLO
from ..content.i18n import N_
from .actions import Action, new_action
from .frames import Frame, Handler, Queue, handler, pop, push
from .teams import friends, pay, purse

if TYPE_CHECKING:
    from .context import Context


APOLLO_ACTION = Action("apollo")

# The bid actions of each god by amount (index = amount), made once: an offering's menu lists
# every amount a player can pay, and actions are immutable, so menus share them.
_BIDS: dict[str, list[Action]] = {}


def bid_actions(god: str, low: int, high: int) -> list[Action]:
    """The bids of `low` to `high` GP (inclusive) on `god`."""
    row = _BIDS.get(god)
    if row is None or len(row) <= high:
        row = _BIDS[god] = [new_action(("bid", god, "", amount)) for amount in range(max(high + 1, 32))]
    return row[low:high + 1]


def start_offerings(g: Context) -> None:
    order = [p for p in g.state.turn_order if not g.state.eliminated[p]]
    push(g, "offer", order[0], queue=tuple(order[1:]), banned_god="")


def cost_of(g: Context, p: int, amount: int) -> int:
    """What a bid of `amount` costs p: the bid less one GP per Priestess (R12)."""
    return max(g.rules.min_payment if amount else 0, amount - g.state.priestesses[p])


def offerings_cost(g: Context, p: int, amounts: list[int]) -> int:
    """What p pays for its god offerings `amounts` together (R12; R23 two of them): their sum
    less one GP per Priestess, and at least the ruleset's minimum for each."""
    if not amounts:
        return 0
    return max(g.rules.min_payment * len(amounts), sum(amounts) - g.state.priestesses[p])


def committed(g: Context, p: int, displaced: str | None = None) -> int:
    """GP a teammate's current offerings already need from the shared purse (R11, R22), less
    the offering on the god `displaced`, which an outbid takes back (R29)."""
    if not g.teams:
        return 0
    teams = g.teams
    return sum(cost_of(g, q, amount) for god, (q, amount) in g.state.bids.items()
               if q != p and teams[q] == teams[p] and god != displaced)


def own_bids(g: Context, p: int) -> list[int]:
    """The amounts of p's offerings standing on gods (R23: the other marker's, if any)."""
    return [amount for q, amount in g.state.bids.values() if q == p]


def max_affordable(g: Context, p: int, displaced: str | None = None) -> int:
    """The highest bid p can pay (R11) besides its standing offerings; team play pools the
    purse. A teammate's offering on the god `displaced` does not count: outbidding it gives it
    back at once (R29). 0 when even the smallest bid cannot be paid (R12's minimum)."""
    mine = own_bids(g, p)
    room = purse(g, p) - committed(g, p, displaced)
    if room < g.rules.min_payment * (len(mine) + 1):
        return 0
    return room + g.state.priestesses[p] - sum(mine)


def _capped(g: Context, amount: int) -> int:
    """A bid no higher than the ruleset's cap, if it has one."""
    return amount if g.rules.bid_cap is None else min(amount, g.rules.bid_cap)


class OfferFrame(Frame):
    """Phase 3: `player` makes an offering."""
    queue: Queue      # the players after `player` in turn order, who have not offered yet
    banned_god: str   # the god `player` was just outbid on: not again now (R10); "" if none


@handler("offer", OfferFrame)
class Offering(Handler):
    waits = (N_("You are making an Offering: choose a God and the GP to offer, or Apollo"),
             N_("{player} is making an Offering: choose a God and the GP to offer, or Apollo"))

    @staticmethod
    def legal(g: Context, f: OfferFrame) -> list[Action]:
        s, p = g.state, f["player"]
        top = _capped(g, max_affordable(g, p))
        out = []
        for god in s.gods[:s.faceup]:
            if god == f["banned_god"]:
                continue
            held = s.bids.get(god)
            if held and held[0] == p:
                continue  # R23: a player's two markers go to two gods
            low = held[1] + 1 if held else 1
            highest = top
            if held and friends(g, p, held[0]):
                # R29: outbidding a teammate takes its offering back from the shared purse.
                highest = _capped(g, max_affordable(g, p, displaced=god))
            out.extend(bid_actions(god, low, highest))
        out.append(APOLLO_ACTION)
        return out

    @staticmethod
    def apply(g: Context, f: OfferFrame, a: Action) -> None:
        s, p = g.state, f["player"]
        if a.kind == "apollo":
            s.apollo.append(p)
            g.emit("offering", player=p, god=APOLLO, amount=0)
            _next_bidder(g, f)
            return
        held = s.bids.get(a.what)
        s.bids[a.what] = (p, a.n)
        g.emit("offering", player=p, god=a.what, amount=a.n)
        if held:
            # The outbid player must bid IMMEDIATELY on another god (R10).
            g.emit("outbid", player=held[0], god=a.what)
            f["player"], f["banned_god"] = held[0], a.what
        else:
            _next_bidder(g, f)


def _next_bidder(g: Context, f: OfferFrame) -> None:
    if f["queue"]:
        f["player"], f["queue"], f["banned_god"] = f["queue"][0], f["queue"][1:], ""
    else:
        pop(g, f)


def pay_offerings(g: Context) -> None:
    """Each player pays their offering less their Priestess discount (R12); with two offerings
    (R23) the discount goes to the first god's offering first, as far as it can, then to the
    second's, so that the two together cost `offerings_cost`."""
    s = g.state
    discount: dict[int, int] = {}
    for god, (p, amount) in s.bids.items():
        left = discount.get(p, s.priestesses[p])
        cost = max(g.rules.min_payment, amount - left)
        discount[p] = left - (amount - cost)
        pay(g, p, cost)
        g.emit("paid", player=p, god=god, amount=cost)
