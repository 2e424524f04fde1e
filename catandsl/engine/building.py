"""Building and placement: where a piece may stand, paying for it, placing it."""

from __future__ import annotations

from catandsl.engine.interpreter import site


class BuildingMixin:
    """Placement rules read from the pieces' tables (site, distance, connects, upgrades)."""

    __slots__ = ()

    def _targets(self, p: int, pi: int, mode: str, step=None) -> list[int]:
        """Action ids of every site where player p may place piece pi now."""
        g = self.game
        P = g.pieces[pi]
        if self.placed[p][pi] >= P.limit:
            return []
        ids = g.build_id[pi]
        can = self.can_place
        return [ids[k] for k in self._candidates(p, P, mode) if can(p, pi, k, mode, step)]

    def _candidates(self, p: int, P, mode: str):
        """Sites worth testing: outside the set-up, a piece that must connect to (or
        upgrade) the player's own pieces can only stand next to (or on) them, so only
        the neighbourhood of the player's network is scanned, not the whole board."""
        if mode != "normal" or not (P.connects or P.upgrades >= 0) or P.site == "hex":
            return P.allowed
        b = self.game.board
        if P.site == "intersection" and P.upgrades >= 0:
            near = [k for k, o in enumerate(self.corner_owner) if o == p]
        else:
            corners = {c for x, o in enumerate(self.path_owner) if o == p for c in b.path_ends[x]}
            corners.update(k for k, o in enumerate(self.corner_owner) if o == p)
            if P.site == "intersection":
                near = corners
            else:
                near = {x for c in corners for x in b.corner_paths[c]}
        allowed = P.allowed_set
        return sorted(k for k in near if k in allowed)

    def can_place(self, p: int, pi: int, k: int, mode: str = "normal", step=None) -> bool:
        g = self.game
        b = g.board
        P = g.pieces[pi]
        if P.blockers and self.blocked_at(
            b.corner_hexes[k] if P.site == "intersection" else
            b.path_hexes[k] if P.site == "path" else (k,), P.blockers
        ):
            return False  # B.5: a neutral piece that `blocks` this piece stands beside
        if P.site == "intersection":
            if P.upgrades >= 0:
                return self.corner_owner[k] == p and self.corner_piece[k] == P.upgrades
            if self.corner_owner[k] != -1:
                return False
            if P.distance > 1:
                owner = self.corner_owner
                for m in g.within[P.distance][k]:
                    if owner[m] != -1:
                        return False
            if mode != "setup" and P.connects:
                for x in b.corner_paths[k]:
                    if self.path_owner[x] == p and self.path_piece[x] in P.connects:
                        break
                else:
                    return False
            if step is not None and step.touching_last and self.last_path >= 0:
                if k not in b.path_ends[self.last_path]:
                    return False
        elif P.site == "path":
            if self.path_owner[k] != -1:
                return False
            if mode == "setup" and step is not None and step.touching_last:
                if self.last_corner not in b.path_ends[k]:
                    return False
            elif P.connects:
                if not self._path_connects(p, k, P.connects):
                    return False
        else:
            return False
        if step is not None and step.where is not None:
            if not g.interp.static_condition(step.where, {"at": site(P.site, k)}, step.source):
                return False
        return True

    def _path_connects(self, p, k, connects) -> bool:
        """A path piece touches, at one of its ends, an own building it connects to, or
        an own path piece it connects to across an intersection without an opponent's
        building (so a road and a ship meet only at an own building)."""
        b = self.game.board
        for c in b.path_ends[k]:
            o = self.corner_owner[c]
            if o == p and self.corner_piece[c] in connects:
                return True
            if o != -1 and o != p:
                continue  # an opponent's building blocks the way through
            for x in b.corner_paths[c]:
                if x != k and self.path_owner[x] == p and self.path_piece[x] in connects:
                    return True
        return False

    def _pay(self, p: int, cost) -> None:
        hand, bank = self.hands[p], self.bank
        for r, n in enumerate(cost):
            if n:
                hand[r] -= n
                bank[r] += n

    def _build(self, p: int, pi: int, k: int) -> None:
        g = self.game
        P = g.pieces[pi]
        top = self.frames[-1] if self.frames else None
        if top is not None and top[0] == "free":
            top[3] -= 1
            if top[3] <= 0:
                self.frames.pop()
        elif self.stage == "setup":
            self.setup_pos += 1
        else:
            self._pay(p, P.cost)
            self.built = True  # A.5: with trade_build separate, trading is over
        self.placed[p][pi] += 1
        if P.site == "intersection":
            if P.upgrades >= 0:
                self.placed[p][P.upgrades] -= 1
            self.corner_owner[k] = p
            self.corner_piece[k] = pi
            self.last_corner = k
            self._routes.clear()  # a building may break someone's route
        else:
            self.path_owner[k] = p
            self.path_piece[k] = pi
            self.last_path = k
            if P.movement is not None:
                self._note_fresh(k)  # B.4: not moved in the turn it is built
            for key in [key for key in self._routes if key[0] == p]:
                del self._routes[key]
        self._emit("built", {"player": p, "piece": P.name, "at": site(P.site, k)})
        if P.site == "path":
            self._check_sites(p, k)  # sites.py: a route that reaches a site (runs first)

    def push_free(self, player: int, pieces: list[int], count: int) -> None:
        if count > 0:
            self.frames.append(["free", player, list(pieces), count])
