"""Development cards and awards: which cards may be played, buying and drawing, the card
primitives, and the measures awards read (army, longest route, points)."""

from __future__ import annotations

from catandsl.engine.interpreter import Answers
from catandsl.engine.sites import token_points


class CardsMixin:
    """Cards (A.9), Longest Road and Largest Army (A.10, A.11), victory points."""

    __slots__ = ()

    def _playable_cards(self, p: int, before_roll: bool) -> list[int]:
        g = self.game
        out = []
        cards = self.cards[p]
        for c in g.cards:
            if not c.playable or not cards[c.index]:
                continue
            d = g.decks[c.deck]
            if before_roll and not d.playable_before_roll:
                continue
            if self.played_turn[c.deck] >= d.play_per_turn:
                continue
            if cards[c.index] - (self.new_cards[c.index] if d.not_turn_bought else 0) > 0:
                out.append(c.index)
        return out

    def take_from_bank(self, player: int, r: int, count: int) -> None:
        k = min(count, self.bank[r])
        self.bank[r] -= k
        self.hands[player][r] += k

    def monopoly(self, player: int, r: int) -> None:
        for p in range(self.game.num_players):
            if p != player:
                self.hands[player][r] += self.hands[p][r]
                self.hands[p][r] = 0

    def army(self, p: int) -> int:
        return sum(n * c.army for n, c in zip(self.played[p], self.game.cards))

    def longest_route(self, p: int, pieces: tuple[int, ...]) -> int:
        """The longest trail over p's path pieces of the listed kinds (A.10, B.3): it may
        end at an opponent's building but not pass it, and it passes from one kind to a
        kind that does not connect to it (road <-> ship) only at an own building."""
        key = (p, pieces)
        if key in self._routes:
            return self._routes[key]
        g = self.game
        b = g.board
        path_piece = self.path_piece
        mine = [k for k, o in enumerate(self.path_owner) if o == p and path_piece[k] in pieces]
        best = 0
        if mine:
            own = set(mine)
            ends, cpaths, owner = b.path_ends, b.corner_paths, self.corner_owner
            joins = {(x, y) for x in pieces for y in pieces
                     if x == y or (x in g.pieces[y].connects and y in g.pieces[x].connects)}
            used: set[int] = set()

            def walk(c: int, length: int, kind: int) -> None:
                nonlocal best
                if length > best:
                    best = length
                if owner[c] != -1 and owner[c] != p and length > 0:
                    return  # an opponent's building: the route may end here, not pass
                home = owner[c] == p
                for x in cpaths[c]:
                    if x in own and x not in used:
                        kx = path_piece[x]
                        if length > 0 and not home and (kind, kx) not in joins:
                            continue  # road <-> ship only through an own building
                        used.add(x)
                        a, z = ends[x]
                        walk(z if a == c else a, length + 1, kx)
                        used.discard(x)

            starts = sorted({c for x in mine for c in ends[x]})
            for c in starts:
                walk(c, 0, -1)
        self._routes[key] = best
        return best

    def points(self, p: int) -> int:
        g = self.game
        pts = 0
        for P, n in zip(g.pieces, self.placed[p]):
            if n and P.points:
                pts += n * P.points
        for c, n in zip(g.cards, self.cards[p]):
            if n and c.points:
                pts += n * c.points
        for k, holder in enumerate(self.award_holder):
            if holder == p:
                pts += g.awards[k].points
        for q, _, n in self.vp_tokens:  # special victory points (B.8), see islands.py
            if q == p:
                pts += n
        if self.tokens_held:  # tokens worth points (`points P per Q`), see sites.py
            pts += token_points(self, p)
        return pts

    def _update_awards(self) -> None:
        """A.10/A.11: the holder keeps the award while (tied for) largest; otherwise a
        unique largest at or over the minimum takes it; else it is set aside."""
        g = self.game
        changed, self._changed = self._changed, set()
        if self.stage == "setup":
            return
        for k, aw in enumerate(g.awards):
            if not g.award_reads[k] & changed:
                continue  # nothing this measure reads has changed
            vals = [g.interp.evaluate(aw.measure, {"player": p}, self, Answers([]), aw.source)
                    for p in range(g.num_players)]
            best = max(vals)
            holder = self.award_holder[k]
            if holder >= 0 and vals[holder] == best and best >= aw.min:
                continue
            tops = [p for p, v in enumerate(vals) if v == best]
            self.award_holder[k] = tops[0] if best >= aw.min and len(tops) == 1 else -1

    def scores(self) -> list[int]:
        return [self.points(p) for p in range(self.game.num_players)]

    def public_points(self, p: int) -> int:
        g = self.game
        hidden = sum(n * c.points for n, c in zip(self.cards[p], g.cards) if c.hidden)
        return self.points(p) - hidden

    def _apply_buy(self, p: int, act) -> None:
        d = self.game.deck_index[act.deck]
        self._pay(p, self.game.deck_cost[d])
        self.built = True
        self.frames.append(["draw", p, d])

    def _apply_draw(self, act) -> None:
        _, owner, _ = self.frames.pop()
        c = self.game.card_index[act.card]
        self.deck[c] -= 1
        self.cards[owner][c] += 1
        self.new_cards[c] += 1
        self.chance_count += 1
        self._emit("card_bought", {"player": owner, "card": act.card})

    def _apply_play(self, p: int, act) -> None:
        g = self.game
        c = g.card_index[act.card]
        self.cards[p][c] -= 1
        self.played[p][c] += 1
        self.played_turn[g.cards[c].deck] += 1
        self._emit("card_played", {"player": p, "card": act.card})
