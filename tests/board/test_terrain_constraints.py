"""Board constraints by terrain: `numbers ... keep [6, 8] off [gold]` keeps numbers off a
terrain, `pool ... max_clump N` keeps a shuffled terrain from clumping."""

from __future__ import annotations

from collections import Counter

import pytest

import catandsl
from catandsl.board import geometry as geo
from catandsl.board import instantiate
from catandsl.ir import configure

MAP = """
scenario golden "Golden" {{
  uses base
  terrain gold {{ produces choice }}
  map {{
    rows at (0, -2) \"\"\"
          ?   ?   ?
        ?   ?   ?   ?
      ?   ?   ?   ?   ?
        ?   ?   ?   ?
          ?   ?   ?
    \"\"\"
    legend {{ ? land }}
    pool land shuffled [forest x4, pasture x4, fields x4, hills x2, mountains x2, gold x2, desert]{clump}
    numbers shuffled [2, 3 x2, 4 x2, 5 x2, 6 x2, 8 x2, 9 x2, 10 x2, 11 x2, 12]{keep}
  }}
}}
"""


def ruleset(clump: str = "", keep: str = ""):
    scenario = catandsl.compile(catandsl.parse(MAP.format(clump=clump, keep=keep), "golden.catan"))
    return configure(scenario, 4, {})


def test_numbers_kept_off_a_terrain_on_every_deal():
    rs = ruleset(keep=" keep [6, 8, 2, 12] off [gold]")
    plain = ruleset()
    hit_without = 0
    for seed in range(1, 41):
        b = instantiate(rs, seed)
        gold = [h for h in range(len(b.hexes)) if b.terrain(h) == "gold"]
        assert len(gold) == 2 and not {b.hex_number[h] for h in gold} & {6, 8, 2, 12}
        p = instantiate(plain, seed)
        hit_without += any(p.hex_number[h] in (6, 8, 2, 12) for h in range(len(p.hexes))
                           if p.terrain(h) == "gold")
    assert hit_without > 5  # without the constraint the same seeds do put them there


def largest_clump(b, terrains) -> int:
    """The most land hexes of one terrain joined edge to edge on board `b`, counted from
    the board as dealt (groups merged pair by pair), not by the dealer's own measure."""
    group = {h: h for h in b.hexes}

    def root(h):
        while group[h] != h:
            h = group[h]
        return h

    for k, h in enumerate(b.hexes):
        kind = b.terrain(k)
        for n in geo.neighbours(h):
            if n in group and not terrains[kind].water and b.terrain(b.hex_index[n]) == kind:
                group[root(n)] = root(h)
    sizes = Counter(root(h) for k, h in enumerate(b.hexes) if not terrains[b.terrain(k)].water)
    return max(sizes.values())


def test_a_pool_kept_from_clumping_on_every_deal():
    rs = ruleset(clump=" max_clump 2")
    plain = ruleset()
    clumped_without = 0
    for seed in range(1, 41):
        for r, bound in ((rs, 2), (plain, None)):
            b = instantiate(r, seed)
            largest = largest_clump(b, r.terrains)
            if bound is not None:
                assert largest <= bound
            else:
                clumped_without += largest >= 3
    assert clumped_without > 5


def test_an_impossible_constraint_is_a_located_error():
    # no number may lie on forest, which holds 4 of the producing hexes
    with pytest.raises(catandsl.CatanError) as e:
        ruleset(keep=" keep [2, 3, 4, 5, 6, 8, 9, 10, 11, 12] off [forest]")
    [d] = e.value.diagnostics
    assert d.code == "E0410" and "off forest" in d.message and (d.span.line, d.span.column) == (15, 5)


@pytest.mark.parametrize("text, words", [
    (" keep [6, 8] off gold", "keep [6, 8] off [gold]"),
    (" keep [6, 8] from [gold]", "keep [6, 8] off [gold]"),
    (" keep [6, 8] off [gould]", "gould"),
])
def test_bad_keep_lines_are_diagnostics(text, words):
    with pytest.raises(catandsl.CatanError) as e:
        ruleset(keep=text)
    assert any(words in d.message + " " + (d.help or "") for d in e.value.diagnostics)


def test_bad_max_clump_is_a_diagnostic():
    with pytest.raises(catandsl.CatanError) as e:
        ruleset(clump=" max_clump 0")
    assert any("max_clump" in d.message for d in e.value.diagnostics)
