"""Production and the robber: dice income with the bank-shortage rule, resources of
choice (gold), discards, moving a neutral piece (robber, pirate), choosing a victim and
the stolen card, and what neutral pieces block.

A neutral piece's `movable_by` (a condition on the mover, `player`) leaves it out of
`move_piece`'s choices for a player for whom it is false; with no piece left, the move
lapses. A piece whose `takes` names tokens robs a resource card or a token: after
`Steal(victim)`, when the victim holds more than one kind of what it takes, the mover
picks with `Take(what)` (frame ["take", mover, victim, options]); a resource card is
then drawn by chance as usual, a token is simply moved. The steal frame carries the
piece index as a fourth item only for such pieces.

Frames added here: ["gold", [[player, count], ...]]: players choosing `count` resources
from the bank, one ChooseResource action each (B.6); the choice lapses when the bank is
empty.

Blocking (for placement code): `blocked_hexes(what)` gives the hexes where a neutral
piece stands whose `blocks` names `what` (a piece name, or "production");
`blocked_paths(what)` the paths on those hexes' edges; `blocks_path(what, path)` whether
one path is among them. A pirate (`blocks ship`) makes `blocks_path("ship", k)` true
for the six edges of its hex."""

from __future__ import annotations

from catandsl.engine.interpreter import Answers, site


class RobberMixin:
    """Production (A.6) and the 7 (A.7); the robber is any neutral piece that blocks or steals."""

    __slots__ = ()

    def produce(self, roll: int) -> None:
        g = self.game
        b = g.board
        n = g.num_players
        owed = [[0] * n for _ in g.resources]
        blocked = [self.neutral_at[pi] for pi in g.blocking]
        chosen = [0] * n  # B.6: resources of the owner's choice (gold)
        choice = g.hex_choice
        for h in b.number_hexes[roll] if 0 <= roll < len(b.number_hexes) else ():
            r = g.hex_resource[h]
            if h in blocked:
                continue
            if choice[h]:
                for c in b.hex_corners[h]:
                    o = self.corner_owner[c]
                    if o >= 0:
                        chosen[o] += g.pieces[self.corner_piece[c]].produces
                continue
            if r < 0:
                continue
            row = owed[r]
            for c in b.hex_corners[h]:
                o = self.corner_owner[c]
                if o >= 0:
                    row[o] += g.pieces[self.corner_piece[c]].produces
        for r, row in enumerate(owed):
            total = sum(row)
            if not total:
                continue
            if total <= self.bank[r]:
                for p, k in enumerate(row):
                    self.hands[p][r] += k
                self.bank[r] -= total
            else:
                owed_to = [p for p, k in enumerate(row) if k]
                if len(owed_to) == 1:  # A.6: a single player owed takes what is left
                    self.hands[owed_to[0]][r] += self.bank[r]
                    self.bank[r] = 0
        self.push_choices(chosen)

    def push_choices(self, counts: list[int]) -> None:
        """Each player picks counts[player] resources from the bank, in seat order from
        the player whose turn it is."""
        n = self.game.num_players
        entries = []
        for k in range(n):
            p = (self.turn_player + k) % n
            if counts[p] > 0:
                entries.append([p, counts[p]])
        if entries:
            self.frames.append(["gold", entries])

    def collect_choice(self, player: int, at, count: int) -> None:
        """`count` resources of the player's choice for each hex around `at` whose
        terrain produces a resource of choice."""
        g = self.game
        kind, k = at
        if kind == "h":
            hexes = (k,)
        elif kind == "i":
            hexes = g.board.corner_hexes[k]
        else:
            hexes = g.board.path_hexes[k]
        total = int(count) * sum(1 for h in hexes if g.hex_choice[h])
        if total > 0:
            counts = [0] * g.num_players
            counts[player] = total
            self.push_choices(counts)

    def _apply_choice(self, act) -> None:
        top = self.frames[-1]
        r = self.game.res_index[act.resource]
        for entry in top[1]:
            if entry[1] > 0:
                self.bank[r] -= 1
                self.hands[entry[0]][r] += 1
                entry[1] -= 1
                break
        if all(k == 0 for _, k in top[1]) or not any(self.bank):
            self.frames.pop()

    # ---- what neutral pieces block -------------------------------------------------------

    def blocked_at(self, hexes, pieces) -> bool:
        """Whether one of these neutral pieces stands on one of these hexes: the one test
        behind `blocks` (placing) and `blocked_by` (moving away)."""
        at = self.neutral_at
        return any(at[n] >= 0 and at[n] in hexes for n in pieces)

    def blockers_of(self, what: str) -> tuple[int, ...]:
        return tuple(pi for pi in self.game.neutral if what in self.game.pieces[pi].blocks)

    def blocked_hexes(self, what: str) -> list[int]:
        return sorted({self.neutral_at[pi] for pi in self.blockers_of(what) if self.neutral_at[pi] >= 0})

    def blocked_paths(self, what: str) -> set[int]:
        paths = self.game.board.hex_paths
        return {x for h in self.blocked_hexes(what) for x in paths[h]}

    def blocks_path(self, what: str, path: int) -> bool:
        return self.blocked_at(self.game.board.path_hexes[path], self.blockers_of(what))

    def discard_half(self, over: int) -> None:
        n = self.game.num_players
        entries = []
        for k in range(n):
            p = (self.turn_player + k) % n
            total = sum(self.hands[p])
            if total > over:
                entries.append([p, total // 2])
        if entries:
            self.frames.append(["discard", entries])

    def push_move(self, player: int, pieces: list[int]) -> None:
        self.frames.append(["move", player, list(pieces)])

    def may_move(self, player: int, pi: int) -> bool:
        """A piece's `movable_by` condition, with `player` the mover (none: anyone)."""
        P = self.game.pieces[pi]
        if P.movable_by is None:
            return True
        return bool(self.game.interp.evaluate(P.movable_by, {"player": player}, self,
                                              Answers([]), P.source))

    def _take_options(self, pi: int, victim: int) -> list[str]:
        """What a robbery with piece pi may take from the victim now: "resource" (a
        card, when the piece takes resources and the victim holds one) and the token
        kinds it `takes` that the victim holds."""
        g = self.game
        takes = g.pieces[pi].takes
        out = []
        if (not takes or "resource" in takes) and sum(self.hands[victim]):
            out.append("resource")
        held = self.tokens_held[victim] if self.tokens_held else ()
        for w in takes:
            t = g.token_index.get(w, -1)
            if t >= 0 and held[t] > 0:
                out.append(w)
        return out

    def _takes_tokens(self, pi: int) -> bool:
        return any(w in self.game.token_index for w in self.game.pieces[pi].takes)

    def _victims(self, thief: int, pi: int, h: int) -> list[int]:
        g = self.game
        steals = g.pieces[pi].steals_from
        out = set()
        if h < 0:
            return []
        if self._takes_tokens(pi):
            def has(o):
                return bool(self._take_options(pi, o))
        else:
            def has(o):
                return sum(self.hands[o]) > 0
        for x in g.board.hex_paths[h]:  # pieces on paths (ships on a sea hex's edges)
            o = self.path_owner[x]
            if o >= 0 and o != thief and self.path_piece[x] in steals and has(o):
                out.add(o)
        for c in g.board.hex_corners[h]:
            o = self.corner_owner[c]
            if o >= 0 and o != thief and self.corner_piece[c] in steals and has(o):
                out.add(o)
        return sorted(out)

    def _apply_move(self, act) -> None:
        g = self.game
        top = self.frames.pop()
        pi = g.piece_index[act.piece]
        src = self.neutral_at[pi]
        self.neutral_at[pi] = act.at
        victims = self._victims(top[1], pi, act.at)
        if victims:
            # a piece that may take tokens remembers itself: the mover then says what
            self.frames.append(["steal", top[1], victims] + ([pi] if self._takes_tokens(pi) else []))
        self._emit("moved", {"player": top[1], "piece": act.piece, "from": site("hex", src),
                             "at": site("hex", act.at)})

    def _apply_steal(self, act) -> None:
        top = self.frames.pop()
        if len(top) > 3:  # the piece `takes` tokens too
            options = self._take_options(top[3], act.player)
            if len(options) > 1:
                self.frames.append(["take", top[1], act.player, options])
                return
            self._rob(top[1], act.player, options[0])
            return
        self.frames.append(["rob", top[1], act.player])

    def _rob(self, thief: int, victim: int, what: str) -> None:
        """A resource card (by chance, a "rob" frame) or one token of the named kind."""
        if what == "resource":
            self.frames.append(["rob", thief, victim])
            return
        t = self.game.token_index[what]
        self.tokens_held[victim][t] -= 1
        self.tokens_held[thief][t] += 1

    def _apply_take(self, act) -> None:
        _, thief, victim, _ = self.frames.pop()
        self._rob(thief, victim, act.what)

    def _apply_stolen(self, act) -> None:
        _, thief, victim = self.frames.pop()
        r = self.game.res_index[act.resource]
        self.hands[victim][r] -= 1
        self.hands[thief][r] += 1
        self.chance_count += 1

    def _apply_discard(self, act) -> None:
        top = self.frames[-1]
        r = self.game.res_index[act.resource]
        for entry in top[1]:
            if entry[1] > 0:
                self.hands[entry[0]][r] -= 1
                self.bank[r] += 1
                entry[1] -= 1
                break
        if all(n == 0 for _, n in top[1]):
            self.frames.pop()
