"""Cards that change hands between players by a rule: one taken at random (`steal`),
one given (`give_resource`, with `choose_from_hand`; `give_one`, a card or a token), and
one passed by everyone to the next player at once (`pass_left`; `pass_left_with`, a
card or a token)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from catandsl.rules.base import Action, CardByCard, Prompt, seats_ok
from catandsl.rules.choices import ChoiceIds, ChooseResource, ChooseToken
from catandsl.rules.neutral import Stealing
from catandsl.rules.play import Game, State
from catandsl.rules.registry import FLOW, HANDS, TOKENS, choice, effect


@effect("player: player, among: list<player>", writes=(HANDS, FLOW))
def steal(s: State, player: int, among: list[int]) -> None:
    """The player picks one of the listed players who holds a resource card and takes
    one of their cards at random (a chance node); with nobody to rob, nothing happens."""
    victims = sorted({v for v in among if v != player and sum(s.hands[v]) > 0})
    if victims:
        s.push(Stealing(player, victims, -1))


@choice("player: player", returns="resource", answer=ChooseResource)
def choose_from_hand(s: State, player: int) -> list[str]:
    """The player picks one resource they hold a card of (a card to give away); with an
    empty hand there is nothing to pick: the choice lapses with the rest of its block."""
    return [r for r, n in zip(s.game.resources, s.hands[player]) if n > 0]


@effect("giver: player, receiver: player, resource: resource, count: int 0..100", writes=HANDS)
def give_resource(s: State, giver: int, receiver: int, resource: str, count: int) -> None:
    """The giver hands the receiver up to `count` cards of the resource (as many as they
    hold)."""
    r = s.game.res_index[resource]
    n = min(count, s.hands[giver][r])
    s.hands[giver][r] -= n
    s.hands[receiver][r] += n


@effect("", writes=(HANDS, FLOW))
def pass_left(s: State) -> None:
    """Every player holding a resource card passes one card of their choice to the next
    player in turn order (their left-hand neighbour), all at once: each picks in seat
    order from the active player, and the cards change hands when the last has picked."""
    _pass_left(s, [])


@effect("tokens: list<token>", writes=(HANDS, TOKENS, FLOW))
def pass_left_with(s: State, tokens: list[str]) -> None:
    """As `pass_left`, but a player may pass one of these tokens (gold) in place of a
    card: every player holding a resource card or such a token passes one of them."""
    _pass_left(s, [s.game.token_index[x] for x in tokens])


def _pass_left(s: State, tokens: list[int]) -> None:
    n = s.game.num_players
    order = [(s.turn_player + k) % n for k in range(n)]
    owed = [[p, 1] for p in order if _holds_any(s, p, tokens)]
    if owed:
        s.push(PassingLeft(owed, [], sorted(set(tokens))))


def _holds_any(s: State, p: int, tokens: list[int]) -> bool:
    return sum(s.hands[p]) > 0 or any(s.tokens_held[p][x] > 0 for x in tokens)


def _offered(s: State, p: int, tokens: list[int], picked: list[int]) -> list[int]:
    """The ids of the cards and tokens p may give: ChooseResource for each resource held,
    ChooseToken for each of `tokens` held, less what p has picked already (an index of
    the game's resources, or of its tokens past them)."""
    g = s.game
    ids = g.lookups(ChoiceIds)
    out = [ids.resource[r] for r, n in enumerate(s.hands[p]) if n - picked.count(r) > 0]
    R = len(g.resources)
    out += [ids.token[x] for x in tokens if s.tokens_held[p][x] - picked.count(R + x) > 0]
    return sorted(out)


def _picked(s: State, act: Action) -> int:
    """The index a card or token picked stands for: a resource's, or a token's past them."""
    g = s.game
    if isinstance(act, ChooseToken):
        return len(g.resources) + g.token_index[act.token]
    assert isinstance(act, ChooseResource)
    return g.res_index[act.resource]


def _hand_over(s: State, giver: int, receiver: int, k: int) -> None:
    """One card (k a resource's index) or token (k past the resources) changes hands."""
    R = len(s.game.resources)
    rows, x = (s.hands, k) if k < R else (s.tokens_held, k - R)
    rows[giver][x] -= 1
    rows[receiver][x] += 1


@dataclass
class PassingLeft(CardByCard):
    """Players pick the card they pass to the next seat, one after another: `owed` is
    [[player, 1 or 0], ...]; `picks` is [[player, index], ...] (a resource's index, or a
    token's past the resources), given only when everyone has picked (so nobody passes
    on a card just received); `tokens`: the tokens that may be passed in place of a card."""

    KIND: ClassVar[str] = "pass_left"
    picks: list[list[int]] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)

    def check(self, game: Game) -> str:
        things = len(game.resources) + len(game.token_names)
        if not all(len(e) == 2 and seats_ok(game, e[0]) and 0 <= e[1] < things for e in self.picks):
            return "picks must be [[player, resource or token], ...]"
        if not all(isinstance(x, int) and 0 <= x < len(game.token_names) for x in self.tokens):
            return "tokens must be token indices"
        return super().check(game)

    def legal(self, s: State) -> list[int]:
        p = self.actor(s)
        return _offered(s, p, self.tokens, [r for q, r in self.picks if q == p])

    def apply(self, s: State, act: Action) -> None:
        entry = next(e for e in self.owed if e[1] > 0)
        self.picks.append([entry[0], _picked(s, act)])
        entry[1] -= 1
        self.step(s)

    def step(self, s: State) -> bool:
        if not self.done(s):
            return False
        n = s.game.num_players
        for p, k in self.picks:  # all at once
            _hand_over(s, p, (p + 1) % n, k)
        s.pending.pop()
        return True


@effect("giver: player, receiver: player, tokens: list<token>", writes=(HANDS, TOKENS, FLOW))
def give_one(s: State, giver: int, receiver: int, tokens: list[str]) -> None:
    """The giver hands the receiver one resource card of their choice, or one of these
    tokens (gold) in its place; with none of them, nothing happens."""
    kinds = sorted({s.game.token_index[x] for x in tokens})
    if giver != receiver and _holds_any(s, giver, kinds):
        s.push(Giving(giver, receiver, kinds))


@dataclass
class Giving(Prompt):
    """`giver` picks the card, or one of `tokens`, that goes to `receiver`."""

    KIND: ClassVar[str] = "give_one"
    giver: int
    receiver: int
    tokens: list[int]

    def check(self, game: Game) -> str:
        if not (seats_ok(game, self.giver, self.receiver)
                and all(isinstance(x, int) and 0 <= x < len(game.token_names) for x in self.tokens)):
            return "not two players and token indices"
        return super().check(game)

    def step(self, s: State) -> bool:
        if self.legal(s):
            return False
        s.pending.pop()  # (nothing left to give)
        return True

    def actor(self, s: State) -> int:
        return self.giver

    def legal(self, s: State) -> list[int]:
        return _offered(s, self.giver, self.tokens, [])

    def apply(self, s: State, act: Action) -> None:
        s.pending.pop()
        _hand_over(s, self.giver, self.receiver, _picked(s, act))
