"""What is on the board at one state, as plain data, for pictures, replays and playthroughs.

The engine's State documents its calls (scores, turns, serialize ...) but not its data
layout, and that layout is being reshaped. Everything here reads the serialized state
(`state.serialize()`) in one place, so a change of field names touches this module only.
The fields read: `corner_owner`/`corner_piece`, `path_owner`/`path_piece` (owner and
piece index per intersection and path, -1 for none), `neutral_at` (the site of each
neutral piece or -1: slot k for the first piece of kind k, then the further pieces of
kinds of several, `game.neutral_kind` naming each slot's kind), `stage`, `hands`, `bank`, and when present `vp_tokens`
([player, intersection, count]: special victory points under a building),
`island_tags` ([player, tag, island], e.g. home islands), `cards` and `played` (per
player, per card: held and played), `award_holder` (per award, a seat or -1),
`tokens_held` (per player, per token), `token_stock` (per map site, per token),
`damaged` (the paths whose piece is damaged), `face_down` (hex ids lying face down) and
`hex_changes` ([hex, terrain, number]: hexes changed since the deal).

A snapshot is taken for a viewer (`rules.words`: a seat, `SPECTATOR` for no seat,
`EVERYONE` for an author or a game of bots): a seat reads its own hand, cards and
points in full; of the others, and a spectator of everyone, the hand and cards are
counts only (`hand_counts`, `card_counts`; the rows empty) and the points public
ones (hidden victory point cards left out), as `State.observation` shows them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from catandsl.board import CLASS_CODE
from catandsl.rules.words import EVERYONE


@dataclass(frozen=True)
class Placed:
    """One piece on the board: `owner` is the seat (-1 for a neutral piece) and `at` the
    index of its site in the board's table for `site` (intersection, path or hex).

    Marks (not pieces) use the same shape: a special victory point token is
    `Placed("vp_token", "token", intersection, player, count)`, an island tag
    `Placed(tag, "island", island number, player)`."""

    piece: str
    site: str
    at: int
    owner: int
    count: int = 1
    afloat: bool = False  # a path piece that may stand between two sea hexes (a ship)
    travels: bool = False  # a travelling piece (a wagon), standing beside what is on its path
    damaged: bool = False  # a damaged path piece (`damage_piece`): drawn crossed out


@dataclass(frozen=True)
class Snapshot:
    """What a picture of a state shows: pieces, scores, hands, the bank and whose turn."""

    pieces: tuple[Placed, ...]
    scores: tuple[int, ...]
    turns: int
    stage: str
    current_player: int
    hands: tuple[tuple[int, ...], ...]
    bank: tuple[int, ...]
    marks: tuple[Placed, ...] = ()  # vp tokens and island tags, see Placed
    cards: tuple[tuple[int, ...], ...] = ()  # [player][card] held
    played: tuple[tuple[int, ...], ...] = ()  # [player][card] played so far
    award_holder: tuple[int, ...] = ()  # [award] seat or -1
    tokens_held: tuple[tuple[int, ...], ...] = ()  # [player][token]
    token_stock: tuple[tuple[int, ...], ...] = ()  # [site][token] still on the map's sites
    face_down: tuple[int, ...] = ()  # hexes lying face down
    changed: tuple[int, ...] = ()  # hexes whose terrain or number changed since the deal
    hand_counts: tuple[int, ...] = ()  # [player] resource cards held
    card_counts: tuple[int, ...] = ()  # [player] development cards held

    def tokens(self, owner: int | None = None) -> int:
        """Special victory points shown, for one seat or all."""
        return sum(m.count for m in self.marks
                   if m.site == "token" and (owner is None or m.owner == owner))

    def count(self, piece: str, owner: int | None = None) -> int:
        return sum(1 for p in self.pieces if p.piece == piece and (owner is None or p.owner == owner))


def state_data(state) -> dict:
    return json.loads(state.serialize())


def reads(viewer: int | None, seat: int) -> bool:
    """Whether `viewer` reads `seat`'s secrets (its hand, cards, hidden points)."""
    return viewer is EVERYONE or viewer == seat


def seen_scores(state, viewer: int | None = EVERYONE) -> tuple[int, ...]:
    """Each seat's points as `viewer` reads them: the hidden ones only of seats it reads."""
    n = state.game.num_players
    return tuple(state.points(p) if reads(viewer, p) else state.public_points(p) for p in range(n))


def snapshot(game, state, data: dict | None = None, viewer: int | None = EVERYONE) -> Snapshot:
    """What is on the board, and what each seat holds as `viewer` reads it."""
    data = data if data is not None else state_data(state)
    kinds = [(p.name, p.site) for p in game.pieces]
    sea, path_cls = CLASS_CODE["sea"], game.board.path_cls
    afloat = {p.index for p in game.pieces
              if p.site == "path" and any(path_cls[k] == sea for k in p.allowed)}
    placed: list[Placed] = []
    damaged = set(data.get("damaged", ()))
    for owners, pieces, site in ((data["path_owner"], data["path_piece"], "path"),
                                 (data["corner_owner"], data["corner_piece"], "intersection")):
        for at, (owner, pi) in enumerate(zip(owners, pieces)):
            if owner >= 0 and pi >= 0:
                placed.append(Placed(kinds[pi][0], site, at, owner,
                                     afloat=site == "path" and pi in afloat,
                                     damaged=site == "path" and at in damaged))
    slot_kind = getattr(game, "neutral_kind", range(len(kinds)))  # slot -> piece kind
    for u, at in enumerate(data.get("neutral_at", ())):
        if at is not None and at >= 0:
            pi = slot_kind[u]
            placed.append(Placed(kinds[pi][0], kinds[pi][1], at, -1))
    for owner, pi, at, *_ in data.get("travellers", ()):
        placed.append(Placed(kinds[pi][0], "path", int(at), int(owner), travels=True))
    marks = [Placed("vp_token", "token", int(c), int(p), int(n))
             for p, c, n in data.get("vp_tokens", ()) if n]
    marks += [Placed(str(tag), "island", int(i), int(p))
              for p, tag, i in data.get("island_tags", ())]
    hands, cards = _rows(data.get("hands", ())), _rows(data.get("cards", ()))
    return Snapshot(
        pieces=tuple(placed),
        scores=seen_scores(state, viewer) if viewer is not EVERYONE else tuple(state.scores()),
        turns=state.turns,
        stage=str(data.get("stage", "")),
        current_player=state.current_player(),
        hands=tuple(row if reads(viewer, p) else () for p, row in enumerate(hands)),
        bank=tuple(data.get("bank", ())),
        marks=tuple(sorted(marks, key=lambda m: (m.site, m.at, m.owner, m.piece))),
        cards=tuple(row if reads(viewer, p) else () for p, row in enumerate(cards)),
        played=_rows(data.get("played", ())),
        award_holder=tuple(int(h) for h in data.get("award_holder", ())),
        tokens_held=_rows(data.get("tokens_held", ())),
        token_stock=_rows(data.get("token_stock", ())),
        face_down=tuple(int(h) for h in data.get("face_down", ())),
        changed=tuple(sorted(int(e[0]) for e in data.get("hex_changes", ()))),
        hand_counts=tuple(sum(row) for row in hands),
        card_counts=tuple(sum(row) for row in cards),
    )


def _rows(rows) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(x) for x in row) for row in rows)
