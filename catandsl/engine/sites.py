"""Tokens and map sites (markets): counters that are not resource cards, sites on
intersections with a stock of tokens and a number, trade partnerships established by
reaching a site, closed routes, and the primitives rules use (`give_tokens`,
`take_from_site`, `produce_sites`, `tokens`, `trading_sites`, `sites_with_stock`).

Static tables (`site_info`, on the Game): `token_names`/`token_index`; `sites`, one
`SiteInfo` per `SitePlacement` of the map in its order; `site_at` (intersection ->
site index); `no_build_corners` and `closing_corners` (intersections of sites whose kind
has `no building` / `closes routes`).

State data (see state.py; all left out of `serialize()` while empty, so scenarios
without tokens serialize as before):

- `token_stock`: per site, per token, the tokens it still holds;
- `token_supply`: per token, the general supply (beside the board);
- `tokens_held`: per player, per token;
- `partners`: [site, player] pairs in the order trade began.

Tokens are conserved: sites + supply + players = `Token.supply` for each token. Tokens
never count as resource cards: they live outside `hands`, so discards, trades, Monopoly
and hand sizes never see them.
"""

from __future__ import annotations

from catandsl.engine.errors import EngineError


class SiteInfo:
    __slots__ = ("index", "kind", "corner", "number", "stock", "closes", "no_building")


def site_info(game) -> None:
    rs, b = game.ruleset, game.board
    game.token_names = tuple(rs.tokens)
    game.token_index = {t: k for k, t in enumerate(game.token_names)}
    game.token_points = tuple((t.points, max(t.per, 1)) for t in rs.tokens.values())
    game.sites = []
    placements = rs.map.sites if rs.map is not None else ()
    for k, sp in enumerate(placements):
        kind = rs.sites.get(sp.site)
        if kind is None:
            raise EngineError(f"unknown site kind {sp.site!r}", sp.source)
        if kind.on != "intersection":
            raise EngineError(f"sites on {kind.on!r} are not supported", kind.source)
        key = (sp.q, sp.r, sp.corner)
        if key not in b.intersection_index:
            raise EngineError(f"no intersection {key} for a {sp.site}", sp.source)
        info = SiteInfo()
        info.index, info.kind, info.corner = k, sp.site, b.intersection_index[key]
        info.number = sp.number if sp.number is not None else 0
        stock = [0] * len(game.token_names)
        for a in kind.stock:
            stock[game.token_index[a.name]] += a.count
        info.stock = tuple(stock)
        info.closes, info.no_building = kind.closes_routes, kind.no_building
        game.sites.append(info)
    game.site_at = {s.corner: s.index for s in game.sites}
    game.no_build_corners = frozenset(s.corner for s in game.sites if s.no_building)
    game.closing_corners = frozenset(s.corner for s in game.sites if s.closes)
    reserve = []
    for ti, t in enumerate(rs.tokens.values()):
        on_sites = sum(s.stock[ti] for s in game.sites)
        reserve.append(t.reserve if t.reserve is not None else max(t.supply - on_sites, 0))
    game.token_reserve = tuple(reserve)
    game.token_total = tuple(t.supply for t in rs.tokens.values())


def initial_data(game, state) -> None:
    """The start: each site's stock, the general supply, no tokens held, no partners."""
    if game.token_names:
        state.token_stock = [list(s.stock) for s in game.sites]
        state.token_supply = list(game.token_reserve)
        state.tokens_held = [[0] * len(game.token_names) for _ in range(game.num_players)]
    else:
        state.token_stock, state.token_supply, state.tokens_held = [], [], []
    state.partners = []


def token_points(state, player: int) -> int:
    if not state.tokens_held:
        return 0
    return sum(n // per * pts for n, (pts, per) in
               zip(state.tokens_held[player], state.game.token_points) if pts)


def _site_of(game, at) -> int:
    kind, k = at
    if kind != "i" or k not in game.site_at:
        raise EngineError("there is no site at this intersection")
    return game.site_at[k]


def _give(state, player: int, site_k: int, t: int, count: int) -> int:
    """Up to `count` tokens of kind t to the player: from the site's stock first (when
    site_k >= 0), the rest from the general supply. Returns how many were given."""
    given = 0
    if site_k >= 0:
        row = state.token_stock[site_k]
        n = min(count, row[t])
        row[t] -= n
        given += n
    n = min(count - given, state.token_supply[t])
    state.token_supply[t] -= n
    given += n
    state.tokens_held[player][t] += given
    return given


# ---- effects ------------------------------------------------------------------------------


def e_give_tokens(game, state, player, token, count):
    _give(state, int(player), -1, game.token_index[token], max(int(count), 0))


def e_take_from_site(game, state, player, at, token, count):
    """The site's stock first, then the general supply; an empty site gives nothing."""
    k = _site_of(game, at)
    t = game.token_index[token]
    if state.token_stock[k][t] <= 0:
        return
    _give(state, int(player), k, t, max(int(count), 0))


def e_produce_sites(game, state, kind, roll):
    """Each site of the kind with this number gives each of its partners 1 token of
    each kind in its stock: the active player first (if a partner), then the others in
    the order trade began; a short stock is topped up from the general supply, while it
    lasts; a site already empty gives nothing."""
    for s in game.sites:
        if s.kind != kind or s.number != roll:
            continue
        partners = [p for k, p in state.partners if k == s.index]
        if state.turn_player in partners:
            partners.remove(state.turn_player)
            partners.insert(0, state.turn_player)
        for t, start in enumerate(s.stock):
            if not start or state.token_stock[s.index][t] <= 0:
                continue  # never stocked with this token, or already empty
            for p in partners:
                _give(state, p, s.index, t, 1)


# ---- queries ------------------------------------------------------------------------------


def q_tokens(game, state, player, token):
    if not state.tokens_held:
        return 0
    return state.tokens_held[player][game.token_index[token]]


def q_trading_sites(game, state, player, kind):
    return sum(1 for k, p in state.partners if p == player and game.sites[k].kind == kind)


def q_sites_with_stock(game, state, kind):
    return sum(1 for s in game.sites if s.kind == kind and any(state.token_stock[s.index]))


QUERIES = {
    "tokens": q_tokens,
    "trading_sites": q_trading_sites,
    "sites_with_stock": q_sites_with_stock,
}

EFFECTS = {
    "give_tokens": e_give_tokens,
    "take_from_site": e_take_from_site,
    "produce_sites": e_produce_sites,
}


class SitesMixin:
    """Trade partnerships: found when a path piece is placed."""

    __slots__ = ()

    def trades_with(self, player: int, corner: int) -> bool:
        k = self.game.site_at.get(corner, -1)
        return k >= 0 and [k, player] in self.partners

    def _route_reaches_building(self, p: int, start: int) -> bool:
        """Whether the path piece at `start` is joined, through own path pieces (never
        across an opponent's building), to one of the player's buildings."""
        b = self.game.board
        seen, stack = {start}, [start]
        while stack:
            x = stack.pop()
            for c in b.path_ends[x]:
                o = self.corner_owner[c]
                if o == p:
                    return True
                if o != -1:
                    continue
                for y in b.corner_paths[c]:
                    if y not in seen and self.path_owner[y] == p:
                        seen.add(y)
                        stack.append(y)
        return False

    def _check_sites(self, p: int, path: int) -> None:
        """After player p placed a path piece: each site at one of its ends that p does
        not trade with yet, and that p's route now joins to an own building, becomes p's
        partner (`site_reached`)."""
        g = self.game
        if not g.sites:
            return
        reached = []
        for c in g.board.path_ends[path]:
            k = g.site_at.get(c, -1)
            if k >= 0 and [k, p] not in self.partners:
                reached.append((k, c))
        if not reached or not self._route_reaches_building(p, path):
            return
        for k, c in reached:
            self.partners.append([k, p])
        for k, c in reversed(reached):  # frames: the first site's hooks run first
            self._emit("site_reached", {"player": p, "site": g.sites[k].kind,
                                        "at": ["i", c]})
