"""Tokens and map sites (markets): counters that are not resource cards, sites on
intersections with a stock of tokens and a number, trade partnerships begun by
reaching a site, closed routes, and the primitives rules use (`give_tokens`,
`pay_tokens`, `return_tokens`, `take_from_site`, `produce_sites`, `tokens`,
`trading_sites`, `sites_with_stock`).

State data: `token_stock` (per site, per token, what it still holds), `token_supply`
(per token, the general supply beside the board), `tokens_held` (per player, per
token) and `partners` (`Partner(site, player)`, in the order trade began). Tokens are
conserved: sites + supply + players = the token's `supply`. They never count as
resource cards: discards, bank trades, Monopoly and hand sizes never see them; a
domestic trade moves them only when it names them (`trade domestic { tokens coin 4 }`),
and a scenario action may cost them (`cost 2 coin`, back to the supply).
"""

from __future__ import annotations

from dataclasses import dataclass

from catandsl.rules.base import EngineError, Location
from catandsl.rules.play import Game, Partner, State
from catandsl.rules.registry import BOARD, TOKENS, effect, query


@dataclass(frozen=True)
class SiteInfo:
    """A site declared on the map: the intersection it stands on, its number and its tokens."""

    index: int
    kind: str
    corner: int  # the intersection it stands on
    number: int  # its number token, 0 for none
    stock: tuple[int, ...]  # per token, what it starts with
    closes: bool  # `closes routes`
    no_building: bool


@dataclass(frozen=True)
class SiteLookups:
    """The tokens and the map's sites, as the engine reads them."""

    token_names: tuple[str, ...]
    token_index: dict[str, int]
    token_points: tuple[tuple[int, int], ...]  # per token: (points, per)
    token_reserve: tuple[int, ...]  # per token: the general supply at the start
    sites: tuple[SiteInfo, ...]  # in the map's order
    site_at: dict[int, int]  # intersection -> site index
    no_build_corners: frozenset[int]
    closing_corners: frozenset[int]

    @classmethod
    def build(cls, game: Game) -> SiteLookups:
        rs, b = game.ruleset, game.board
        names = tuple(rs.tokens)
        index = {t: k for k, t in enumerate(names)}
        sites = []
        for k, sp in enumerate(rs.map.sites if rs.map is not None else ()):
            kind = rs.sites.get(sp.site)
            if kind is None:
                raise EngineError(f"unknown site kind {sp.site!r}", sp.source)
            if kind.on != "intersection":
                raise EngineError(f"sites on {kind.on!r} are not supported", kind.source)
            key = (sp.q, sp.r, sp.corner)
            if key not in b.intersection_index:
                raise EngineError(f"no intersection {key} for a {sp.site}", sp.source)
            stock = [0] * len(names)
            for a in kind.stock:
                stock[index[a.name]] += a.count
            sites.append(SiteInfo(k, sp.site, b.intersection_index[key], sp.number or 0, tuple(stock),
                                  kind.closes_routes, kind.no_building))
        reserve = []
        for ti, t in enumerate(rs.tokens.values()):
            on_sites = sum(s.stock[ti] for s in sites)
            reserve.append(t.reserve if t.reserve is not None else max(t.supply - on_sites, 0))
        return cls(names, index, tuple((t.points, max(t.per, 1)) for t in rs.tokens.values()),
                   tuple(reserve), tuple(sites), {s.corner: s.index for s in sites},
                   frozenset(s.corner for s in sites if s.no_building),
                   frozenset(s.corner for s in sites if s.closes))


def token_points(s: State, player: int) -> int:
    """Victory points from tokens held (`points P per Q`)."""
    per_token = s.game.lookups(SiteLookups).token_points
    return sum(n // per * pts for n, (pts, per) in zip(s.tokens_held[player], per_token) if pts)


def site_index(game: Game, at: Location) -> int:
    code, k = at
    site_at = game.lookups(SiteLookups).site_at
    if code != "i" or k not in site_at:
        raise EngineError("there is no site at this intersection")
    return site_at[k]


def _give(s: State, player: int, site_k: int, t: int, count: int) -> int:
    """Up to `count` tokens of kind t to the player: from the site's stock first (when
    site_k >= 0), the rest from the general supply. Returns how many were given."""
    given = 0
    if site_k >= 0:
        row = s.token_stock[site_k]
        n = min(count, row[t])
        row[t] -= n
        given += n
    n = min(count - given, s.token_supply[t])
    s.token_supply[t] -= n
    given += n
    s.tokens_held[player][t] += given
    return given


# ---- effects ------------------------------------------------------------------------------


@effect("player: player, token: token, count: int 0..1000", writes=TOKENS)
def give_tokens(s: State, player: int, token: str, count: int) -> None:
    """The player takes up to `count` tokens from that token's general supply."""
    _give(s, player, -1, s.game.lookups(SiteLookups).token_index[token], count)


@effect("payer: player, payee: player, token: token, count: int 0..1000", writes=TOKENS)
def pay_tokens(s: State, payer: int, payee: int, token: str, count: int) -> None:
    """The payer gives the payee `count` tokens (a toll); a payer holding fewer gives
    all they hold, one holding none gives nothing (a rule that must refuse the short
    payer checks `tokens(payer, TOKEN) >= N` first)."""
    t = s.game.lookups(SiteLookups).token_index[token]
    n = min(count, s.tokens_held[payer][t])
    if payer == payee or n <= 0:
        return
    s.tokens_held[payer][t] -= n
    s.tokens_held[payee][t] += n


@effect("player: player, token: token, count: int 0..1000", writes=TOKENS)
def return_tokens(s: State, player: int, token: str, count: int) -> None:
    """The player puts `count` tokens back in the token's general supply (a payment to
    the bank); a player holding fewer returns all they hold."""
    t = s.game.lookups(SiteLookups).token_index[token]
    n = min(count, s.tokens_held[player][t])
    s.tokens_held[player][t] -= n
    s.token_supply[t] += n


@effect("player: player, at: intersection, token: token, count: int 0..1000", writes=TOKENS)
def take_from_site(s: State, player: int, at: Location, token: str, count: int) -> None:
    """The player takes `count` tokens from the stock of the site at `at`; a short stock
    is made up from the general supply, an empty one gives nothing."""
    k = site_index(s.game, at)
    t = s.game.lookups(SiteLookups).token_index[token]
    if s.token_stock[k][t] <= 0:
        return
    _give(s, player, k, t, count)


@effect("site: site_kind, roll: int", writes=TOKENS)
def produce_sites(s: State, site: str, roll: int) -> None:
    """Every site of this kind with the number `roll` gives each player trading with it
    1 token of its stock; a short stock is made up from the general supply (the active
    player first, then in the order trade began); an empty one gives nothing."""
    for info in s.game.lookups(SiteLookups).sites:
        if info.kind != site or info.number != roll:
            continue
        partners = [p for k, p in s.partners if k == info.index]
        if s.turn_player in partners:
            partners.remove(s.turn_player)
            partners.insert(0, s.turn_player)
        for t, start in enumerate(info.stock):
            if not start or s.token_stock[info.index][t] <= 0:
                continue  # never stocked with this token, or already empty
            for p in partners:
                _give(s, p, info.index, t, 1)


# ---- queries ------------------------------------------------------------------------------


@query("player: player, token: token", returns="int", reads=TOKENS)
def tokens(s: State, player: int, token: str) -> int:
    """Tokens the player holds."""
    return s.tokens_held[player][s.game.lookups(SiteLookups).token_index[token]]


@query("player: player, site: site_kind", returns="int", reads=(BOARD, TOKENS))
def trading_sites(s: State, player: int, site: str) -> int:
    """How many sites of this kind the player trades with (has reached)."""
    sites = s.game.lookups(SiteLookups).sites
    return sum(1 for k, p in s.partners if p == player and sites[k].kind == site)


@query("site: site_kind", returns="int", reads=TOKENS)
def sites_with_stock(s: State, site: str) -> int:
    """How many sites of this kind still hold tokens."""
    return sum(1 for info in s.game.lookups(SiteLookups).sites
               if info.kind == site and any(s.token_stock[info.index]))


# ---- partnerships -------------------------------------------------------------------------


def trades_with(s: State, player: int, corner: int) -> bool:
    k = s.game.lookups(SiteLookups).site_at.get(corner, -1)
    return k >= 0 and Partner(k, player) in s.partners


def _route_reaches_building(s: State, p: int, start: int) -> bool:
    """Whether the path piece at `start` is joined, through own path pieces (never
    across an opponent's building), to one of the player's buildings."""
    b = s.game.board
    seen, stack = {start}, [start]
    while stack:
        x = stack.pop()
        for c in b.path_ends[x]:
            o = s.corner_owner[c]
            if o == p:
                return True
            if o != -1:
                continue
            for y in b.corner_paths[c]:
                if y not in seen and s.path_owner[y] == p:
                    seen.add(y)
                    stack.append(y)
    return False


def check_reached(s: State, p: int, path: int) -> None:
    """After player p placed a path piece: each site at one of its ends that p does not
    trade with yet, and that p's route now joins to an own building, becomes p's partner
    (event `site_reached`)."""
    t = s.game.lookups(SiteLookups)
    if not t.sites:
        return
    reached = []
    for c in s.game.board.path_ends[path]:
        k = t.site_at.get(c, -1)
        if k >= 0 and Partner(k, p) not in s.partners:
            reached.append((k, c))
    if not reached or not _route_reaches_building(s, p, path):
        return
    for k, _ in reached:
        s.partners.append(Partner(k, p))
    for k, c in reversed(reached):  # pending is a stack: the first site's hooks run first
        s.emit("site_reached", {"player": p, "site": t.sites[k].kind, "at": ["i", c]})
