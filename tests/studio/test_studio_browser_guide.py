"""The guide beside the board in Chromium: the cost card and the terrains' legend drawn from the
scenario, the bots' moves lit on the board one after the other, the dice, and a
discard chosen card by card on the page and confirmed once."""

from __future__ import annotations

import re

from tests.studio.pages import MAX_MOVES, SEAT, force_discard, one_move, renders, shot, start_game


def _move(page) -> None:
    before = renders(page)
    one_move(page)
    page.wait_for_function(f"() => Number(document.body.getAttribute('data-renders')) > {before} || "
                           "!document.getElementById('choice').hidden")
    if page.locator("#choice").is_visible():
        page.locator("#choice-buttons button[data-action]").first.click()
        page.wait_for_function(f"() => Number(document.body.getAttribute('data-renders')) > {before}")


def test_the_guide_beside_the_board(studio, page):
    start_game(page, studio, "shipped:base", seed=4)
    costs = page.locator("#costs").inner_text()
    assert re.search(r"road\s+brick\s+lumber", costs) and re.search(r"city\s+2 grain\s+3 ore", costs), costs
    assert "hills: brick" in page.locator("#terrains").inner_text()
    # the bots' set-up moves since the person's last: listed one by one, their sites lit a moment
    lit = False
    for _ in range(MAX_MOVES):
        if page.locator("#recent p.recent-line").count():
            page.wait_for_selector("#board .site.recent")
            lit = True
            break
        _move(page)
    assert lit
    page.wait_for_function("() => document.body.getAttribute('data-paced') === "
                           "document.body.getAttribute('data-renders')")
    for _ in range(MAX_MOVES):
        if page.locator("#dice").is_visible():
            break
        _move(page)
    gid = re.search(r"game=([^&]+)", page.url).group(1)
    match = studio.app.state.studio.matches.get(gid)
    total = page.locator("#dice .die.total").get_attribute("data-total")
    assert total == str(match.state.last_roll)
    assert "rolled by P" in page.locator("#dice").inner_text()


def test_a_discard_is_chosen_on_the_page_and_confirmed_once(studio, page):
    start_game(page, studio, "shipped:base", seed=4)
    for _ in range(MAX_MOVES):
        if page.locator("#dice").is_visible():
            break
        _move(page)
    gid = re.search(r"game=([^&]+)", page.url).group(1)
    match = studio.app.state.studio.matches.get(gid)
    with match.lock:
        force_discard(match)
        need = sum(match.state.hands[SEAT]) // 2
        logged = len(match.entries)
    page.reload()
    page.wait_for_selector("body[data-renders]")
    picker = page.locator("fieldset.by-card")
    assert f"choose {need} cards" in picker.locator("legend").inner_text()
    confirm = picker.locator("button[data-action-kind='confirm']")
    assert confirm.is_disabled()
    for more in picker.locator("button.more").all():
        for _ in range(need):
            if confirm.is_enabled():
                break
            more.click()
    assert confirm.inner_text() == f"Discard these {need} of {need}"
    shot(page, "play-discard")
    before = renders(page)
    confirm.click()
    page.wait_for_function(f"() => Number(document.body.getAttribute('data-renders')) > {before}")
    discarded = [e for e in match.entries[logged:] if e["player"] == SEAT and e["kind"] == "discard"]
    assert len(discarded) == need
    assert page.locator("fieldset.by-card").count() == 0
