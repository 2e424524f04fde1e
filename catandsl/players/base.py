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
from catandsl.rules.words import EVERYONE, SPECTATOR, describe_event, entry_text, intersection_words, seat_words


class Player(Protocol):
    """A bot: picks one of a state's legal actions."""

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
    return seat_words(game, seat)


CHANCE_LABELS = {"start_player": "start", "roll": "dice", "roll_faces": "dice", "stolen": "steal", "draw": "card",
                 "rule_roll": "dice", "draw_harbor": "harbor", "draw_token": "draw"}

# Kinds whose text already says how the hands changed (to the seats that may read it): no
# hand notes for them.
_SAYS_ITS_HANDS = frozenset(("bank_trade", "trade_with", "discard", "stolen", "lost", "take_from_hand"))
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
    game.check_action_id(action_id)
    before = _Seen.of(state)
    turn_player = getattr(state, "turn_player", -1)
    asked = state.top()  # the decision or chance node this action answers
    between = who >= 0 and getattr(asked, "KIND", "") == "between_turns"
    act = game.actions[action_id]
    seat = who if who >= 0 else _chance_seat(act, asked, turn_player)

    def said(viewer: int | None) -> str:
        """Worded before it is applied (the words read the prompt and the state it
        answers); a decision's line names the decider in its label, not its text."""
        return describe_event(game, act, seat, viewer, state=state, asked=asked, subject=who < 0)

    text = said(EVERYONE)
    veiled = said(SPECTATOR)
    readers = [p for p in range(game.num_players) if said(p) == text] if veiled != text else None
    state.apply_action(action_id)
    entry = describe(game, action_id, who, before, _Seen.of(state), turn_player, asked, seat=seat, text=text)
    if between:  # another player's phase between two turns
        entry["text"] += " between turns"
    if readers is not None:
        entry["veiled"] = veiled
        entry["readers"] = readers
    return entry


def _chance_seat(act, asked, turn_player: int) -> int:
    """The seat a chance outcome concerns: the player who begins, the thief of a
    robbery, the player drawing or losing a card (the prompt names them), else the
    turn's player."""
    kind = act.KIND
    if kind == "start_player":
        return act.player
    named = getattr(asked, "thief" if kind == "stolen" else "player", -1) if kind in ("stolen", "draw", "lost") else -1
    return named if isinstance(named, int) and named >= 0 else turn_player


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
             asked=None, *, seat: int | None = None, text: str | None = None) -> dict:
    """The log entry of one applied action (see the module's doc). `asked`: the prompt
    the action answered (`state.top()` before it), which names the thief of a robbery
    and the player drawing a card: an action runs the rest of its rule too (production
    after a steal), so the hands alone may not say who it was. `seat` and `text`: the
    seat it concerns and its sentence, worded before it was applied (`logged_apply`);
    without them the sentence is worded from the action and `asked` alone."""
    act = game.actions[action_id]
    kind = act.KIND
    if seat is None:
        seat = who if who >= 0 else _chance_seat(act, asked, turn_player)
    if text is None:
        text = describe_event(game, act, seat, asked=asked, subject=who < 0)
    label = CHANCE_LABELS.get(kind, "chance") if who < 0 else seat_name(who)
    if kind == "stolen" and seat >= 0:
        notes = _hand_notes(game, _robbed(game, before, act.resource, seat, _victim(before, after, asked)), after)
    else:
        notes = [] if kind in _SAYS_ITS_HANDS else _hand_notes(game, before, after,
                                                                payer=who if kind in _PAYS else -1)
    notes += _other_notes(game, before, after)
    return {"player": who, "action": action_id, "kind": kind, "who": label, "seat": seat,
            "text": text, "notes": notes}


def entry_as_read(entry: dict, viewer: int | None) -> dict:
    """The entry as `viewer` reads it (a seat, SPECTATOR, or EVERYONE): an entry with a
    secret (the card drawn, the card stolen) shows the others its `veiled` sentence."""
    text = entry_text(entry, viewer)
    return entry if text == entry["text"] else {**entry, "text": text}


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
        notes.append(f"{seat_name(p)} earns {n} special victory point{'s' if n != 1 else ''} "
                     f"at {intersection_words(game, corner)}")
    for k, (old, new) in enumerate(zip(before.holders, after.holders)):
        if old != new:
            title = game.awards[k].title
            notes.append(f"{seat_label(game, new)} takes {title}" if new >= 0 else f"{title} is set aside")
    return notes


