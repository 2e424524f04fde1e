"""What every state of every game must be, checked from outside the engine: live (over,
a chance node with its outcomes, or the seat to act has a legal action) and saved and
loaded back equal (the same text, the same decision, the same views, the same game from
there on). The random-game tests check it after every action, and bench/soak.py over
thousands of games; with it, the invariants those games check (resources and tokens
conserved, pieces within limits and on the board as counted, points adding up)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable

from catandsl.engine import CHANCE, TERMINAL
from catandsl.rules.placement import pieces_on_board
from catandsl.rules.sites import SiteLookups
from tests.engine.helpers import check_resources


def check_live(s) -> None:
    """Play can go on from `s`: the game is over, or chance acts with outcomes whose
    probabilities add up to 1, or a seat acts and has a legal action."""
    p = s.current_player()
    if s.is_terminal():
        assert p == TERMINAL and s.legal_actions() == [], "a game over with someone to act"
        return
    if s.is_chance_node():
        outcomes = s.chance_outcomes()
        assert p == CHANCE and outcomes, "a chance node without outcomes"
        assert abs(sum(pr for _, pr in outcomes) - 1) < 1e-9, "chance probabilities do not add up to 1"
        assert s.legal_actions() == [a for a, _ in outcomes]
        return
    assert 0 <= p < s.game.num_players, f"{p} is to act: not a seat"
    assert s.legal_actions(p), f"player {p} is to act and has no legal action: a dead state"


def round_trip(s, text: str | None = None, seen: int | None = None, copies: bool = True):
    """`s` saved and loaded back is `s`: the same text (`text`, its serialization, if the
    caller has it), the same decision (who acts, the legal actions, the chance
    outcomes), the same points for every seat and the same observation for every seat
    (only seat `seen`'s if given: the rest of an observation is the text's, and a
    game's checks take the seats in turn); with `copies`, a clone and `to_json()` too.
    Returns the state read back, so the caller can play on both and compare
    (`play_checked`)."""
    g = s.game
    text = s.serialize() if text is None else text
    back = g.deserialize_state(text)
    assert back.serialize() == text, "the state read back serializes differently"
    if copies:
        assert s.clone().serialize() == text, "a clone serializes differently"
        assert s.to_json() == json.loads(text), "to_json() is not what serialize() writes"
    assert back.is_terminal() == s.is_terminal() and back.is_chance_node() == s.is_chance_node()
    assert back.current_player() == s.current_player()
    assert back.legal_actions() == s.legal_actions()
    assert back.chance_outcomes() == s.chance_outcomes()
    assert back.scores() == s.scores()
    assert [back.public_points(p) for p in range(g.num_players)] == [s.public_points(p) for p in range(g.num_players)]
    for p in range(g.num_players) if seen is None else (seen,):
        assert back.observation(p) == s.observation(p), f"seat {p} sees another game after loading"
    return back


COPIES = 8  # actions between the checks of clone() and to_json() in a checked game


def play_checked(game, seats, check=None):
    """Play one game to its end: chance samples, `seats[p].choose(state)` decides.
    Before every action the state is live and round-trips (the seats' observations
    compared in turn; a clone and `to_json()` every COPIES-th action and at the end),
    and the state read back plays the action to the same next state; `check(state)` (the
    caller's own invariants) runs after every action. Returns the final state and its
    length."""
    s = game.new_initial_state()
    text = s.serialize()
    n = 0
    while True:
        check_live(s)
        back = round_trip(s, text, n % game.num_players, n % COPIES == 0 or s.is_terminal())
        if s.is_terminal():
            return s, n
        assert n < game.max_game_length(), "the game ran past its bound"
        a = s.sample_chance() if s.is_chance_node() else seats[s.current_player()].choose(s)
        s.apply_action(a)
        back.apply_action(a)
        n += 1
        text = s.serialize()
        assert back.serialize() == text, f"the state read back played {s.action_to_string(a)} differently"
        if check is not None:
            check(s)


def play_bots(game, seed: int, bots: str, watch: Callable | None = None):
    """Greedy or random bots (`bots`, seeded from `seed`) play one game to its end, the
    cheap invariants checked after every action and the board at the end;
    `watch(state, action)` runs after each action. Returns the final state and how many
    actions of each kind were played."""
    from catandsl.players import GreedyPlayer

    greedy = [GreedyPlayer(100 * seed + p) for p in range(game.num_players)]
    rng = random.Random(seed)
    s = game.new_initial_state()
    kinds: Counter[str] = Counter()
    while not s.is_terminal():
        if s.is_chance_node():
            a = s.sample_chance()
        elif bots == "greedy":
            a = greedy[s.current_player()].choose(s)
        else:
            a = rng.choice(s.legal_actions())
        act = game.actions[a]
        kinds[act.KIND] += 1
        s.apply_action(a)
        check_cheap(s)
        if watch is not None:
            watch(s, act)
    check_board(s)
    return s, kinds


def variant(sc, k: int) -> tuple[int, dict[str, str]]:
    """Game k's player count and options: the most players and the defaults first, then
    fewer players and each option's next items in turn."""
    span = sc.players_max - sc.players_min + 1
    options = {o.name: o.items[(k + j) % len(o.items)].name for j, o in enumerate(sc.options)} if k else {}
    return sc.players_max - k % span, options


# ---- invariants checked after every action of random games ------------------------------------


def check_invariants(s) -> None:
    """The base game's invariants: resources conserved, pieces within limits and on the
    board as counted, the distance rule, every road touching its owner's network, the
    points as the pieces, cards and awards add up, and someone can act."""
    g = s.game
    n = g.num_players
    check_resources(s)
    # pieces within limits, and the board agrees with the counts
    assert pieces_on_board(s) == s.placed
    for p in range(n):
        for P in g.pieces:
            assert 0 <= s.placed[p][P.index] <= P.limit - s.pieces_lost[p][P.index]
    # no two buildings adjacent (distance rule)
    b = g.board
    for c, owner in enumerate(s.corner_owner):
        if owner >= 0:
            assert all(s.corner_owner[m] == -1 for m in b.corner_neighbours[c])
    # every road touches its owner's network (a building or another road)
    for x, owner in enumerate(s.path_owner):
        if owner >= 0:
            assert any(s.corner_owner[c] == owner
                       or any(y != x and s.path_owner[y] == owner for y in b.corner_paths[c])
                       for c in b.path_ends[x])
    # VP = pieces + cards + awards
    for p in range(n):
        vp = sum(s.placed[p][P.index] * P.points for P in g.pieces)
        vp += sum(s.cards[p][c.index] * c.points for c in g.cards)
        vp += sum(aw.points for k, aw in enumerate(g.awards) if s.award_holder[k] == p)
        assert vp == s.points(p)
    check_live(s)  # someone can act unless the game is over


def check_cheap(s) -> None:
    """What every action keeps, cheap to check: resources and tokens conserved, pieces
    within limits, the points as pieces, cards, awards, tokens and projects add up, and
    someone can act."""
    g = s.game
    n = g.num_players
    check_resources(s)
    # pieces within limits
    for p in range(n):
        for P in g.pieces:
            assert 0 <= s.placed[p][P.index] <= P.limit - s.pieces_lost[p][P.index], (p, P.name)
    # VP = buildings + cards + awards + special VP tokens
    tokens = [0] * n
    for p, _c, k in s.vp_tokens:
        assert k > 0
        tokens[p] += k
    # tokens conserved (sites + general supply + players = the declared supply), and
    # worth `points P per Q` to their holders
    supplies = [t.supply for t in g.ruleset.tokens.values()]
    for t, total in enumerate(supplies):
        on_sites = sum(stock[t] for stock in s.token_stock)
        held = sum(h[t] for h in s.tokens_held)
        assert on_sites + s.token_supply[t] + held == total
        assert min([s.token_supply[t]] + [h[t] for h in s.tokens_held]
                   + [stock[t] for stock in s.token_stock]) >= 0
    for p in range(n):
        vp = sum(s.placed[p][P.index] * P.points for P in g.pieces)
        vp += sum(s.cards[p][c.index] * c.points for c in g.cards)
        vp += sum(aw.points for k, aw in enumerate(g.awards) if s.award_holder[k] == p)
        if supplies:
            token_points = g.lookups(SiteLookups).token_points
            vp += sum(held // per * pts for held, (pts, per) in zip(s.tokens_held[p], token_points))
        # the stages built of the projects the player owns
        for project, level, owner in zip(g.ruleset.projects.values(), s.project_level, s.project_owner):
            if owner == p:
                vp += sum(stage.points for stage in project.stages[:level])
        # counters worth points (`points -1`: counted off)
        vp += sum(s.counters[p][k] * c.points for k, c in enumerate(g.ruleset.counters.values()))
        assert vp + tokens[p] == s.points(p)
    check_live(s)  # someone can act unless the game is over


def check_board(s) -> set[tuple[int, int]]:
    """The board checks; returns the path pieces not joined to their owner's network."""
    g = s.game
    b = g.board
    # the board agrees with the counts (a ship lifted for a move is off the board)
    assert pieces_on_board(s) == s.placed
    # special VP tokens lie under a building of their owner
    for p, c, _ in s.vp_tokens:
        assert s.corner_owner[c] == p
    # no two buildings adjacent (distance rule) among the kinds that keep it, and those
    # that stand where such a kind stood (a city on a settlement): a piece of a kind that
    # keeps none (a knight without `distance`) may stand next to anything, as building
    # it may
    keeping = {P.index for P in g.pieces if P.distance >= 2}
    while grown := {P.index for P in g.pieces if P.upgrades_from & keeping} - keeping:
        keeping |= grown
    keeps = [s.corner_owner[c] >= 0 and s.corner_piece[c] in keeping for c in range(len(s.corner_owner))]
    for c, kept in enumerate(keeps):
        if kept:
            assert not any(keeps[m] for m in b.corner_neighbours[c])
    return orphans(s)


def orphans(s) -> set[tuple[int, int]]:
    """(player, path) of every path piece not joined to one of its owner's buildings
    through own path pieces, kinds joining as their `connects` say (a road meets a ship
    only at an own building; an opponent's building between two pieces is passed over,
    as in the base game a road cut by one still counts)."""
    g = s.game
    b = g.board
    out = set()
    for p in range(g.num_players):
        mine = [x for x, o in enumerate(s.path_owner) if o == p]
        if not mine:
            continue
        reached = set()
        todo = []
        for x in mine:
            P = g.pieces[s.path_piece[x]]
            if any(s.corner_owner[c] == p and s.corner_piece[c] in P.connects
                   for c in b.path_ends[x]):
                reached.add(x)
                todo.append(x)
        while todo:
            x = todo.pop()
            P = g.pieces[s.path_piece[x]]
            for c in b.path_ends[x]:
                for y in b.corner_paths[c]:
                    if y in reached or s.path_owner[y] != p:
                        continue
                    if s.path_piece[y] in P.connects or s.corner_owner[c] == p:
                        reached.add(y)
                        todo.append(y)
        out.update((p, x) for x in mine if x not in reached)
    return out


def check_traders_barbarians(s) -> None:
    """`check_cheap`, and no two barbarians on one path."""
    check_cheap(s)  # resources, tokens (gold and commodities) conserved, limits, points
    g = s.game
    from catandsl.rules import neutral

    barbarians = neutral.sites_of(s, g.piece_index["barbarian"])
    on_board = [k for k in barbarians if k >= 0]
    assert len(on_board) == len(set(on_board))  # at most one a path
