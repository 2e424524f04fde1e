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
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from catandsl.board import CLASS_CODE


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

    def tokens(self, owner: int | None = None) -> int:
        """Special victory points shown, for one seat or all."""
        return sum(m.count for m in self.marks
                   if m.site == "token" and (owner is None or m.owner == owner))

    def count(self, piece: str, owner: int | None = None) -> int:
        return sum(1 for p in self.pieces if p.piece == piece and (owner is None or p.owner == owner))


def state_data(state) -> dict:
    return json.loads(state.serialize())


def snapshot(game, state, data: dict | None = None) -> Snapshot:
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
    return Snapshot(
        pieces=tuple(placed),
        scores=tuple(state.scores()),
        turns=state.turns,
        stage=str(data.get("stage", "")),
        current_player=state.current_player(),
        hands=_rows(data.get("hands", ())),
        bank=tuple(data.get("bank", ())),
        marks=tuple(sorted(marks, key=lambda m: (m.site, m.at, m.owner, m.piece))),
        cards=_rows(data.get("cards", ())),
        played=_rows(data.get("played", ())),
        award_holder=tuple(int(h) for h in data.get("award_holder", ())),
        tokens_held=_rows(data.get("tokens_held", ())),
        token_stock=_rows(data.get("token_stock", ())),
        face_down=tuple(int(h) for h in data.get("face_down", ())),
        changed=tuple(sorted(int(e[0]) for e in data.get("hex_changes", ()))),
    )


def _rows(rows) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(x) for x in row) for row in rows)
