"""The player interface, the game runner and its readable log.

The log is a god's-eye view for a person watching bots play: every action, decisions
and chance outcomes alike, with everything it brought about. Seats are named P1..Pn in
its text (the engine and JSON number them from 0). An entry is a dict:

- `player`: who decided (a seat from 0), or -1 for a chance outcome (the engine's
  `current_player()` at a chance node);
- `action`: the action id; `kind`: its kind (`build`, `roll`, `stolen`, ...);
- `who`: the line's label: `P3` for a decision, and for a chance outcome what it is:
  `start` (who begins), `dice` (a roll), `steal` (the card a robbery takes), `card` (a
  card drawn from a deck), `chance` (anything else);
- `seat`: the seat the entry is about (the decider, the thief, the player drawing a
  card, the player who begins, the roller) or -1;
- `text`: the readable sentence (`builds road at (-2,1) NE`, `steals brick from P1`,
  `trades 4 brick for 1 ore with the bank`); `state.action_to_string(action)` is the
  engine's own short form;
- `notes`: what the action brought about beyond itself: who got what on a roll (or from
  a card, a monopoly, a set-up placement), special victory points earned, an award
  changing hands.

`log_lines(entries)` renders the entries as the text `catandsl play` prints.
"""

from __future__ import annotations

from typing import Protocol

from catandsl.rules.base import EngineError


class Player(Protocol):
    def choose(self, state) -> int:
        """One of `state.legal_actions()`."""
        ...


class NoLegalAction(EngineError):
    """A bot was asked to choose where the seat to move has no legal action: a state no
    game reaches (one tampered with). Raised instead of choosing from nothing."""

    def __init__(self) -> None:
        super().__init__("no legal action for the player to move: no game reaches this state")


def seat_name(player: int) -> str:
    """P1..Pn for seats 0..n-1 (the name every text output uses)."""
    return f"P{player + 1}"


def seat_label(game, seat: int) -> str:
    """A player's name, or "neutral K" for the K-th neutral seat (`neutral_seats`)."""
    n = game.num_players
    return seat_name(seat) if seat < n else f"neutral {seat - n + 1}"


CHANCE_LABELS = {"start_player": "start", "roll": "dice", "roll_faces": "dice", "stolen": "steal", "draw": "card",
                 "rule_roll": "dice", "draw_harbor": "harbor", "draw_token": "draw"}

# Kinds whose text already says how the hands changed: no hand notes for them.
_SAYS_ITS_HANDS = frozenset(("bank_trade", "trade_with", "discard", "stolen"))
# Kinds that spend the decider's cards as their cost: the decider's losses are that cost.
_PAYS = frozenset(("build", "buy_card"))


def play_game(game, players, seed: int | None = None, log: bool = True):
    """Play one game to its end (every game ends within `game.max_game_length()`
    actions, the engine sees to that): chance nodes are sampled by `state.sample_chance()`
    (an RNG derived from the game's seed); each decision goes to `players[current]`.
    Returns (final state, log entries: see the module's doc; empty when `log` is
    False)."""
    state = game.new_initial_state()
    entries: list[dict] = []
    while not state.is_terminal():
        if state.is_chance_node():
            who = -1
            a = state.sample_chance()
        else:
            who = state.current_player()
            a = players[who].choose(state)
        if not log:
            state.apply_action(a)
            continue
        entries.append(logged_apply(game, state, a, who))
    return state, entries


def logged_apply(game, state, action_id: int, who: int) -> dict:
    """Apply one action to `state` (IllegalAction, state unchanged, if it is not legal)
    and return its log entry, as `play_game` records it; `who` is the decider, -1 for a
    chance outcome."""
    before = _Seen.of(state)
    turn_player = getattr(state, "turn_player", -1)
    asked = state.top()  # the decision or chance node this action answers
    between = who >= 0 and getattr(asked, "KIND", "") == "between_turns"
    state.apply_action(action_id)
    entry = describe(game, action_id, who, before, _Seen.of(state), turn_player, asked)
    if between:  # another player's phase between two turns
        entry["text"] += " between turns"
    return entry


class _Seen:
    """What the log compares before and after an action: hands, cards held, tokens
    held, special victory point tokens laid, award holders."""

    __slots__ = ("hands", "cards", "tokens", "vp_tokens", "holders")

    def __init__(self, hands, cards, tokens, vp_tokens, holders):
        self.hands: list[list[int]] = hands
        self.cards: list[list[int]] = cards
        self.tokens: list[list[int]] = tokens
        self.vp_tokens: list = vp_tokens
        self.holders: list[int] = holders

    @classmethod
    def of(cls, state) -> _Seen:
        def rows(name: str) -> list[list[int]]:
            return [list(row) for row in getattr(state, name, ())]

        return cls(rows("hands"), rows("cards"), rows("tokens_held"), list(getattr(state, "vp_tokens", ())),
                   list(getattr(state, "award_holder", ())))


def describe(game, action_id: int, who: int, before: _Seen, after: _Seen, turn_player: int = -1,
             asked=None) -> dict:
    """The log entry of one applied action (see the module's doc). `asked`: the prompt
    the action answered (`state.top()` before it), which names the thief of a robbery
    and the player drawing a card: an action runs the rest of its rule too (production
    after a steal), so the hands alone may not say who it was."""
    act = game.actions[action_id]
    kind = getattr(act, "KIND", "action")
    seat = who
    label = CHANCE_LABELS.get(kind, "chance") if who < 0 else seat_name(who)
    if who < 0:
        text, seat = _chance_text(game, act, kind, before, after, turn_player, action_id, asked)
    else:
        text = _decision_text(game, act, kind, who, before, after, action_id, asked)
    if kind == "stolen" and seat >= 0:
        notes = _hand_notes(game, _robbed(game, before, act.resource, seat, _victim(before, after, asked)), after)
    else:
        notes = [] if kind in _SAYS_ITS_HANDS else _hand_notes(game, before, after,
                                                                payer=who if kind in _PAYS else -1)
    notes += _other_notes(game, before, after)
    return {"player": who, "action": action_id, "kind": kind, "who": label, "seat": seat,
            "text": text, "notes": notes}


def log_lines(entries, indent: str = "      ") -> list[str]:
    """The entries as text: `LABEL: TEXT`, each note on its own indented line."""
    lines = []
    for e in entries:
        lines.append(entry_line(e))
        lines.extend(indent + note for note in e.get("notes", ()))
    return lines


def entry_line(entry: dict) -> str:
    """One entry's line, `P3: builds road at (-2,1) NE` or `dice: 8`."""
    label = entry.get("who")
    if label is None:  # an entry made by hand, with the old fields only
        label = "chance" if entry["player"] < 0 else seat_name(entry["player"])
    return f"{label}: {entry['text']}"


# ---- sentences ---------------------------------------------------------------------------


def _chance_text(game, act, kind: str, before: _Seen, after: _Seen, turn_player: int,
                 action_id: int, asked=None) -> tuple[str, int]:
    if kind == "start_player":
        return f"{seat_name(act.player)} goes first", act.player
    if kind == "roll":
        roller = f"{seat_name(turn_player)} rolls " if turn_player >= 0 else ""
        return f"{roller}{act.total}", turn_player
    if kind == "roll_faces":  # named dice: the total, then each die
        roller = f"{seat_name(turn_player)} rolls " if turn_player >= 0 else ""
        faces = ", ".join(f"{name} {face}" for name, face in zip(game.dice_names, act.faces))
        return f"{roller}{sum(act.faces)} ({faces})", turn_player
    if kind == "stolen":
        thief = getattr(asked, "thief", -1)
        if thief < 0:  # no prompt given: the first seat whose hand grew
            gains, _ = _deltas(before.hands, after.hands)
            thief = next((p for p, g in gains.items() if g), turn_player)
        victim = _victim(before, after, asked)
        source = f" from {seat_name(victim)}" if victim >= 0 else ""
        return f"{seat_name(thief)} steals {act.resource}{source}", thief
    if kind == "rule_roll":
        return f"a rule rolls {act.total}", turn_player
    if kind == "draw":
        drawer = getattr(asked, "player", -1)
        if drawer < 0:  # no prompt given: the first seat whose cards grew
            gains, _ = _deltas(before.cards, after.cards)
            drawer = next((p for p, g in gains.items() if g), turn_player)
        return f"{seat_name(drawer)} draws a {act.deck} card: {act.card}", drawer
    return game.action_to_string(action_id), turn_player


def _decision_text(game, act, kind: str, who: int, before: _Seen, after: _Seen, action_id: int,
                   asked=None) -> str:
    if kind == "build":
        return f"builds {act.piece} at {_site(game, act.piece, act.at)}"
    if kind == "build_for":
        return f"builds {act.piece} for {seat_label(game, act.seat)} at {_site(game, act.piece, act.at)}"
    if kind == "move":
        src = getattr(act, "src", -1)  # one of several pieces: the site it leaves
        lifts = f" from {_site(game, act.piece, src)}" if src >= 0 else ""
        return f"moves {act.piece}{lifts} to {_site(game, act.piece, act.at)}"
    if kind == "travel":
        return f"moves {act.piece} from {game.site_name('path', act.at)} to {game.site_name('path', act.to)}"
    if kind == "pick_up":
        return f"picks up {act.piece} at {_site(game, act.piece, act.at)}"
    if kind == "put_down":
        return f"puts {act.piece} down at {_site(game, act.piece, act.at)}"
    if kind == "end_turn":
        return "ends the turn"
    if kind == "pass":
        return "passes"
    if kind == "roll_dice":
        return "rolls the dice"
    if kind == "steal":
        return f"robs {seat_name(act.player)}"
    if kind == "take":
        return "takes a resource card" if act.what == "resource" else f"takes a {act.what} token"
    if kind == "choose_player":
        return f"chooses {seat_name(act.player)}"
    if kind == "choose_resource":
        return f"chooses {act.resource}"
    if kind == "discard":
        lost = _losses_of(game, before.hands, after.hands, who)
        return f"discards {lost or '1 ' + act.resource}"
    if kind == "bank_trade":
        gave = before.hands[who][game.res_index[act.give]] - after.hands[who][game.res_index[act.give]]
        got = after.hands[who][game.res_index[act.get]] - before.hands[who][game.res_index[act.get]]
        return f"trades {gave} {act.give} for {got} {act.get} with the bank"
    if kind == "trade_with":
        gave = _losses_of(game, before.hands, after.hands, who)
        got = _gains_of(game, before.hands, after.hands, who)
        return f"trades {gave or 'nothing'} for {got or 'nothing'} with {seat_name(act.player)}"
    if kind == "new_offer":
        return "opens an offer"
    if kind in ("offer_add", "offer_remove"):
        return f"{'adds' if kind == 'offer_add' else 'takes'} 1 {act.item} " \
               f"{'to' if kind == 'offer_add' else 'off'} {act.side}"
    if kind == "offer_to":
        return f"offers it to {seat_name(act.player)} alone"
    if kind == "offer_to_all":
        return "offers it to everyone"
    if kind in ("propose", "withdraw"):
        return _offer_words(game, asked, kind, who)
    if kind == "accept":
        return "accepts the offer"
    if kind == "decline":
        return "declines the offer"
    if kind == "counter":
        return "counters the offer"
    if kind == "buy_card":
        return f"buys a {act.deck} card"
    if kind == "play_card":
        return f"plays {act.card}"
    if kind == "take_action":
        return f"takes the action {act.action}"
    if kind == "build_stage":
        return f"builds a stage of {act.project}"
    return game.action_to_string(action_id)


def _offer_words(game, asked, kind: str, who: int) -> str:
    """What `who`'s `propose` or `withdraw` did to `asked`, the prompt it answered (as the
    action left it), with the terms: `offers 2 brick for 1 ore to everyone`, `counters
    with 1 ore for 1 wool`, `drops the offer`, `withdraws the offer`."""
    from catandsl.rules.trade import Composing, Offering, TradeTables

    items = game.table(TradeTables).items
    n = len(items)

    def said(give: list[int], get: list[int]) -> str:
        def side(counts: list[int]) -> str:
            return ", ".join(f"{c} {x}" for x, c in zip(items, counts) if c)
        return f"{side(give)} for {side(get)}"

    if isinstance(asked, Composing):
        if kind == "withdraw":
            return "drops the offer"
        return f"offers {said(asked.give, asked.get)} to " + (seat_name(asked.to) if asked.to >= 0 else "everyone")
    if isinstance(asked, Offering) and who != asked.proposer:  # a counter-offer, proposed or dropped
        if kind == "withdraw":
            return "drops the counter-offer: declines"
        terms = asked.draft  # (the prompt as it stood before: the draft being proposed)
        return f"counters with {said(terms[:n], terms[n:])}"
    return "withdraws the offer" if kind == "withdraw" else kind


def _site(game, piece: str, at: int) -> str:
    index = getattr(game, "piece_index", {})
    if piece in index:
        return game.site_name(game.pieces[index[piece]].site, at)
    return str(at)


# ---- what changed ----------------------------------------------------------------------


def _victim(before: _Seen, after: _Seen, asked) -> int:
    """The robbed seat: the robbery's prompt names it, else the first seat whose hand shrank."""
    victim = getattr(asked, "victim", -1)
    if victim < 0:
        _, losses = _deltas(before.hands, after.hands)
        victim = next((p for p, lost in losses.items() if lost), -1)
    return victim


def _robbed(game, before: _Seen, resource: str, thief: int, victim: int) -> _Seen:
    """`before` with the stolen card already moved, so the notes show only what the rest
    of the rule brought about."""
    hands = [list(row) for row in before.hands]
    if victim >= 0:
        r = game.res_index[resource]
        hands[victim][r] -= 1
        hands[thief][r] += 1
    return _Seen(hands, before.cards, before.tokens, before.vp_tokens, before.holders)


Changes = dict[int, dict[int, int]]  # seat -> column -> how much


def _deltas(before: list[list[int]], after: list[list[int]]) -> tuple[Changes, Changes]:
    """Per seat, per column: what went up (gains) and what went down (losses)."""
    gains: Changes = {}
    losses: Changes = {}
    for p, (old, new) in enumerate(zip(before, after)):
        for k, (a, b) in enumerate(zip(old, new)):
            if b > a:
                gains.setdefault(p, {})[k] = b - a
            elif b < a:
                losses.setdefault(p, {})[k] = a - b
    return gains, losses


def _amounts(names, counts: dict[int, int]) -> str:
    return ", ".join(f"{n} {names[k]}" for k, n in sorted(counts.items()))


def _gains_of(game, before, after, p: int) -> str:
    gains, _ = _deltas(before, after)
    return _amounts(game.resources, gains.get(p, {}))


def _losses_of(game, before, after, p: int) -> str:
    _, losses = _deltas(before, after)
    return _amounts(game.resources, losses.get(p, {}))


def _hand_notes(game, before: _Seen, after: _Seen, payer: int = -1) -> list[str]:
    """Who got and who lost what (resource cards and tokens), seat by seat; a payer's
    losses (the cost of what they built or bought) are left out."""
    out: list[str] = []
    hand_gains, hand_losses = _deltas(before.hands, after.hands)
    token_gains, token_losses = _deltas(before.tokens, after.tokens)
    tokens = getattr(game, "token_names", ())
    for p in range(game.num_players):
        got = ", ".join(x for x in (_amounts(game.resources, hand_gains.get(p, {})),
                                    _amounts(tokens, token_gains.get(p, {}))) if x)
        lost = ", ".join(x for x in (_amounts(game.resources, hand_losses.get(p, {})),
                                     _amounts(tokens, token_losses.get(p, {}))) if x)
        if got:
            out.append(f"{seat_name(p)} gets {got}")
        if lost and p != payer:
            out.append(f"{seat_name(p)} loses {lost}")
    return out


def _other_notes(game, before: _Seen, after: _Seen) -> list[str]:
    """Special victory points laid under a building, an award taken or set aside."""
    notes = []
    for p, corner, n in after.vp_tokens[len(before.vp_tokens):]:
        q, r, c = game.board.intersections[corner]
        notes.append(f"{seat_name(p)} earns {n} special victory point{'s' if n != 1 else ''} "
                     f"at ({q},{r}) {c}")
    for k, (old, new) in enumerate(zip(before.holders, after.holders)):
        if old != new:
            title = game.awards[k].title
            notes.append(f"{seat_label(game, new)} takes {title}" if new >= 0 else f"{title} is set aside")
    return notes


