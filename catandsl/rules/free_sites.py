"""Pieces a rule places for free on sites it chooses: `build_free_on(player, pieces,
count, sites)` is `build_free` kept to the listed sites (the paths ahead of a wagon, the
corners of a hex a rule picked), each placement still under the piece's own rules (its
`where`, `placed where`, connections, the distance rule)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from catandsl.rules.base import LOCATION_CODE, EngineError, Location
from catandsl.rules.placement import FreeBuild, targets
from catandsl.rules.play import Game, State
from catandsl.rules.registry import BOARD, FLOW, PLAYER_PIECES, effect


def _on_sites(s: State, player: int, kinds: list[int], sites: list[Location]) -> list[int]:
    """The action ids of placing one of the kinds on one of the sites, for free."""
    g = s.game
    out: list[int] = []
    for pi in kinds:
        code = LOCATION_CODE[g.pieces[pi].site]
        wanted = {k for c, k in sites if c == code}
        if wanted:
            out += [a for a in targets(s, player, pi, "free") if g.actions[a].at in wanted]
    return out


def _nowhere_on(s: State, player: int, pieces: list[str], count: int, sites: list[Location]) -> str:
    """Why `build_free_on` can place nothing now ("" when it can place one)."""
    g = s.game
    kinds = [g.piece_index[p] for p in pieces if p in g.piece_index]
    if count <= 0 or len(kinds) < len(pieces) or any(g.pieces[k].neutral for k in kinds) or \
            _on_sites(s, player, kinds, sites):
        return ""
    return f"no {' or '.join(pieces)} can be placed on those sites"


@effect("player: player, pieces: list<piece>, count: int 0..100, sites: list<site>", writes=(BOARD, FLOW),
        refuses=_nowhere_on, pieces=PLAYER_PIECES)
def build_free_on(s: State, player: int, pieces: list[str], count: int, sites: list[Location]) -> None:
    """As `build_free`, but only on the listed sites: the player places `count` pieces of
    these kinds at no cost on sites of the list where the piece may stand (as many as
    there are places for). A card played or an action taken whose rule says so is
    refused when none can be placed."""
    kinds = [s.game.piece_index[p] for p in pieces]
    if any(s.game.pieces[k].neutral for k in kinds):
        raise EngineError("build_free_on() places a player's pieces, not " +
                          ", ".join(p for p, k in zip(pieces, kinds) if s.game.pieces[k].neutral))
    if count > 0 and sites:
        listed = sorted({(str(c), int(k)) for c, k in sites})
        s.push(FreeBuildOn(player, kinds, count, [c for c, _ in listed], [k for _, k in listed]))


@dataclass
class FreeBuildOn(FreeBuild):
    """`player` places up to `count` more pieces of the kinds `pieces` for free on the
    sites `codes[j]`, `ids[j]` (a site's code, "h", "i" or "p", and its id); the rest
    lapses when none can be placed."""

    KIND: ClassVar[str] = "free_build_on"
    codes: list[str]
    ids: list[int]

    def check(self, game: Game) -> str:
        if len(self.codes) != len(self.ids) or not all(c in ("h", "i", "p") for c in self.codes):
            return "codes and ids must pair a site code with each id"
        return super().check(game)

    def legal(self, s: State) -> list[int]:
        return _on_sites(s, self.player, self.pieces, [[c, k] for c, k in zip(self.codes, self.ids)])
