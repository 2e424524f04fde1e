"""`check` deals a shuffled map many times (compiler/validate.py CHECK_DEALS): a map that
breaks on some deals is an error naming how often and the first seed, never a failure in
the middle of `play`; a deal `check` did not try is a located error in `play`."""

from __future__ import annotations

import subprocess
import sys

import catandsl
from catandsl.compiler.validate import CHECK_DEALS

# the island's hex comes from a pool that holds one sea tile: some deals put sea there
RISKY = """
scenario risky "Risky" {
  uses base
  map {
    rows at (0, -1) \"\"\"
        ?   ?
      ?   ?   ?
        ?   ?
    \"\"\"
    legend { ? any }
    pool any shuffled [forest, pasture, fields, hills, mountains, sea, desert]
    numbers shuffled [5, 6, 8, 9, 10]
    island home at (0, 0)
  }
}
"""


def _check(tmp_path, text):
    path = tmp_path / "map.catan"
    path.write_text(text, encoding="utf-8")
    return path, catandsl.check(catandsl.parse(text, str(path)))


def test_a_map_that_breaks_on_some_deals_is_an_error_with_a_seed(tmp_path):
    from catandsl.board import instantiate
    from catandsl.ir import configure

    _, diags = _check(tmp_path, RISKY)
    [d] = [d for d in diags if d.code == "E0411"]
    assert (d.span.line, d.span.column) == (13, 5)
    assert f"of the {CHECK_DEALS} deals of this map checked, the first with seed" in d.message
    # the seed named puts sea under the island's hex, and no seed before it does
    seed = int(d.message.rsplit(" ", 1)[1])
    safe = catandsl.compile(catandsl.parse(RISKY.replace("    island home at (0, 0)\n", ""), "safe"))
    rs = configure(safe, 3, {})

    def sea_at_home(s: int) -> bool:
        board = instantiate(rs, s)
        return board.terrain(board.hex_id(0, 0)) == "sea"

    assert sea_at_home(seed) and not any(sea_at_home(s) for s in range(1, seed))


FIXED = """
scenario fixed "Fixed" {
  uses base
  map {
    rows \"\"\"
      f8  h5  m4
        p6  f9
    \"\"\"
    legend { f forest; h hills; m mountains; p pasture }
  }
}
"""


def test_a_fixed_map_is_dealt_twice_only(tmp_path, monkeypatch):
    inst = sys.modules["catandsl.board.instantiate"]
    seeds: list[int] = []
    real = inst.deal
    monkeypatch.setattr(inst, "deal", lambda rs, seed: seeds.append(seed) or real(rs, seed))
    _, diags = _check(tmp_path, FIXED)
    assert not [d for d in diags if d.is_error]
    assert sorted(set(seeds)) == [1, 2]  # the first deal, and one more that shows it is the same
    seeds.clear()
    _check(tmp_path, RISKY)
    assert len(set(seeds)) == CHECK_DEALS  # a shuffled map: every deal of the sample


def test_play_reports_a_deal_check_did_not_try_at_the_maps_line(tmp_path):
    from catandsl.board import instantiate
    from catandsl.ir import configure

    path = tmp_path / "risky.catan"
    path.write_text(RISKY, encoding="utf-8")
    # a seed past the sample `check` deals that still breaks the map
    safe = configure(catandsl.compile(catandsl.parse(RISKY.replace("    island home at (0, 0)\n", ""),
                                                     "safe")), 3, {})
    seed = next(s for s in range(CHECK_DEALS + 1, 10_000)
                if (b := instantiate(safe, s)).terrain(b.hex_id(0, 0)) == "sea")
    # check as if it dealt only the first deal, which holds: play then meets the broken one
    script = ("import sys; import catandsl.compiler.validate as v; v.CHECK_DEALS = 1; "
              "from catandsl.cli import main; sys.exit(main())")
    p = subprocess.run([sys.executable, "-c", script, "play", str(path), "--seed", str(seed)],
                       capture_output=True, text=True)
    assert "Traceback" not in p.stderr and "internal error" not in p.stderr
    assert p.returncode == 1
    assert "risky.catan:13:5: error[E0411]: island home is named by hex (0,0)" in p.stderr
    assert f"(with seed {seed})" in p.stderr
