"""The Observer's numbers as numpy arrays, for learners: each seat's tensor kept in a
preallocated float32 buffer and rewritten where the state changed (engine/observer.py's
`Tensor`), and legal-action masks as int8 arrays.

    arrays = ArrayObserver(Observer(game))
    arrays.tensor(state, seat)        # float32 (size,): a new array each call
    arrays.tensor(state, seat, out)   # written into `out` (a row of a batch, say)
    arrays.mask(state)                # int8 (actions,): 1 where the player to act may act, read-only
    arrays.mask(state, out)           # written into `out`

The arrays equal `np.asarray(observer.tensor(state, seat), np.float32)` and
`np.asarray(observer.legal_mask(state), np.int8)` (the tests compare them). One
ArrayObserver serves every game of its layout (a new game each episode): the board's
part of the buffers is rewritten when the state's game changes.

A game's decisions offer the same sets of legal actions again and again (the roll, the
end of a turn, a card added to a draft), so each ArrayObserver keeps the masks it made,
by the tuple of legal ids (`state.legal_now()`), and hands out the kept arrays themselves,
read-only (`writeable` False: numpy refuses a write), so a mask costs a lookup, not a
fill nor a copy. Equal masks may be one array: copy a mask (`mask.copy()`) to change it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from catandsl.engine.observer import Observer, Tensor

MAX_MASKS = 4096  # masks kept per observer (a few hundred bytes each); then it starts again


class ArrayObserver:
    """An Observer's tensors and masks as numpy arrays, one kept buffer per seat."""

    def __init__(self, observer: Observer):
        self.observer = observer
        self.layout = observer.layout
        self.size = observer.size
        self.num_actions = observer.game.num_distinct_actions()
        self._tensors: dict[int, Tensor] = {}
        self._masks: dict[tuple[int, ...], np.ndarray] = {}
        self.no_mask = _read_only(np.zeros(self.num_actions, np.int8))  # no action: a chance node, the end

    def tracker(self, player: int) -> Tensor:
        t = self._tensors.get(player)
        if t is None:
            t = self._tensors[player] = self.observer.tracker(player, np.zeros(self.size, np.float32))
        return t

    def tensor(self, state: Any, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """`player`'s tensor: a new array, or written into `out`."""
        t = self._tensors.get(player)
        buf = (t if t is not None else self.tracker(player)).update(state)
        if out is None:
            return buf.copy()
        out[:] = buf
        return out

    def mask(self, state: Any, out: np.ndarray | None = None) -> np.ndarray:
        """The legal-action mask (`legal_mask`): a kept read-only array (shared by equal
        masks, unchanged by later steps), or written into `out`."""
        if state.is_terminal() or state.is_chance_node():
            made = self.no_mask
        else:
            legal = state.legal_now()
            kept = self._masks.get(legal)
            if kept is None:
                if len(self._masks) >= MAX_MASKS:
                    self._masks.clear()
                # (set byte by byte in a bytearray, then read by numpy from an immutable
                # copy: read-only by itself, a fraction of an index array's cost)
                made_bytes = bytearray(self.num_actions)
                for a in legal:
                    made_bytes[a] = 1
                kept = self._masks[legal] = np.frombuffer(bytes(made_bytes), np.int8)
            made = kept
        if out is None:
            return made
        out[:] = made
        return out


def _read_only(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def legal_mask(state: Any, num_actions: int, out: np.ndarray | None = None) -> np.ndarray:
    """1 for each action id the player to act may take now (all 0 at a chance node or the
    end), int8: a new array, or written into `out`."""
    if out is None:
        out = np.zeros(num_actions, np.int8)
    else:
        out[:] = 0
    if not state.is_terminal() and not state.is_chance_node():
        legal = state.legal_now()
        out[np.fromiter(legal, np.intp, len(legal))] = 1
    return out
