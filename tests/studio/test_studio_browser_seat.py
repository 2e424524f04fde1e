"""A seat's page in a real browser holds no other seat's secrets: after some moves of
the base game, a bot is dealt a victory point card, and the page as the browser has it
(its DOM, the board's legend, the players' table, the log) shows that bot's public
points, its hand and cards as counts, and the cards the bots drew as "a card"."""

from __future__ import annotations

import re

from catandsl.players.base import entry_line
from tests.studio.pages import one_move, renders, shot, start_game

MOVES = 40  # the person's moves before the check: the bots draw and rob in them


def _deal_point_card(match, seat: int) -> str:
    s, g = match.state, match.game
    c = next(k for k, card in enumerate(g.cards) if card.hidden and card.points)
    s.deck[c] -= 1
    s.cards[seat][c] += 1
    s.forget_derived()
    return g.cards[c].name


def test_a_seats_page_shows_only_what_the_seat_may_see(studio, page):
    start_game(page, studio, "shipped:base", seed=7)
    for _ in range(MOVES):
        if page.get_attribute("body", "data-over") == "1":
            break
        before = renders(page)
        one_move(page)
        page.wait_for_function(f"() => Number(document.body.getAttribute('data-renders')) > {before} || "
                               "!document.getElementById('choice').hidden")
        if page.locator("#choice").is_visible():
            page.locator("#choice-buttons button[data-action]").first.click()
            page.wait_for_function(f"() => Number(document.body.getAttribute('data-renders')) > {before}")
    gid = re.search(r"game=([^&]+)", page.url).group(1)
    match = studio.app.state.studio.matches.get(gid)
    with match.lock:
        card = _deal_point_card(match, 1)
    page.reload()
    page.wait_for_selector("body[data-renders]")
    s = match.state
    dom = page.content()
    text = page.locator("body").inner_text()
    assert s.points(1) == s.public_points(1) + 1
    legend = page.locator("#board .legend-entry[data-player='1']")
    assert legend.get_attribute("data-vp") == str(s.public_points(1))
    assert f"P2: {s.points(1)} VP" not in dom
    for p in range(1, s.game.num_players):
        row = page.locator(f"#players-table tr[data-seat='{p}']")
        assert row.locator(".points").inner_text() == str(s.public_points(p))
        assert row.locator(".detail").count() == 0, "another seat's hand or cards are spelled out"
        assert row.locator("td").nth(2).inner_text() == str(sum(s.hands[p]))
    if not s.cards[0][s.game.cards.index(next(c for c in s.game.cards if c.name == card))]:
        assert card not in dom
    secret = [entry_line(e) for e in match.entries if e.get("readers") is not None and 0 not in e["readers"]]
    assert secret, "the bots drew and robbed nothing in the moves played: play more"
    log = page.locator("#log").inner_text()
    shown_lines = [line for line in secret if line in log]
    assert not shown_lines, shown_lines
    assert "a card" in text or "a development card" in text or "a resource" in text
    page.wait_for_function("() => document.body.getAttribute('data-paced') === "
                           "document.body.getAttribute('data-renders')")
    shot(page, "play-seat")
