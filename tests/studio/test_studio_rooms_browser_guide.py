"""A hosted game's page in Chromium: the cost card, the terrains, the dice, the bots'
moves lit on the board of a person's page as they come, and a discard chosen card by
card in the picker and confirmed once (one message, every card applied together).

Waits are bounded by the pages' own signals; the timeouts only catch a hang. (Named to
sort after the modules that run event loops of their own.)"""

from __future__ import annotations

import re

import pytest

from tests.studio.helpers import ARTIFACTS, make_folder
from tests.studio.pages import Served, caught_up, owe_a_discard, settled

SEAT = 0  # the person's seat; the others are greedy bots


@pytest.fixture
def served(tmp_path):
    running = Served(make_folder(tmp_path / "served"))
    yield running
    running.stop()


def _host(served, browser, seed: int = 4):
    """A game of the base scenario for three: a person in seat 0, two greedy bots; the
    person's page, its room and its host token."""
    import json
    import urllib.request

    body = {"ref": "shipped:base", "players": 3, "seed": seed, "seats": ["human", "greedy", "greedy"]}
    req = urllib.request.Request(served.url + "/api/rooms", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=120) as r:
        made = json.loads(r.read())
    ctx = browser.new_context(viewport={"width": 1360, "height": 940})
    ctx.set_default_timeout(30_000)  # catches a hang, never a slow machine
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(served.url + "/room?t=" + made["seats"][SEAT]["token"])
    page.wait_for_selector("body[data-connected='1'][data-version]")
    room, version = settled(served, made["host"])
    caught_up(page, version)
    return page, room, made, errors


def test_the_bots_moves_are_lit_on_a_persons_page_beside_the_cost_card_and_terrains(served, browser):
    page, room, made, errors = _host(served, browser)
    costs = page.locator("#costs").inner_text()
    assert re.search(r"road\s+brick\s+lumber", costs) and re.search(r"city\s+2 grain\s+3 ore", costs), costs
    assert "hills: brick" in page.locator("#terrains").inner_text()
    # the bots place first (P2 starts in this game): their moves listed and lit as the page opens
    page.locator("#recent p.recent-line").first.wait_for()
    page.locator("#board .site.recent").first.wait_for()
    page.wait_for_function("() => document.body.getAttribute('data-paced') === "
                           "document.body.getAttribute('data-renders')")
    page.locator("#board .site.recent").first.wait_for(state="detached")  # lit a moment, then not
    # the person's two settlements and roads (the set-up's turn comes back to P1 at once),
    # then the bots' second ones: those alone are lit, as they come
    for _ in range(4):
        before = int(page.get_attribute("body", "data-version"))
        page.locator("#board .site-intersection.target, #board .site-path.target").first.click(force=True)
        page.wait_for_function(f"() => Number(document.body.getAttribute('data-version')) > {before}")
    room, version = settled(served, made["host"])
    caught_up(page, version)
    lines = page.locator("#recent p.recent-line")
    lines.first.wait_for()
    lit = page.locator("#board .site.recent").first
    lit.wait_for()
    with room.lock:
        last_own = max(k for k, e in enumerate(room.entries) if e["player"] == SEAT)
        theirs = {room.game.action_site(room.game.actions[e["action"]]) for e in room.entries[last_own + 1:]
                  if e["player"] not in (SEAT, -1)}
    assert len(theirs - {None}) >= 4  # P3's and P2's second settlements and roads at least
    assert (lit.get_attribute("data-kind"), int(lit.get_attribute("data-at"))) in theirs
    assert "P3" in lines.first.inner_text()  # the first bot's move after the person's, in its words
    page.wait_for_function("() => document.body.getAttribute('data-paced') === "
                           "document.body.getAttribute('data-renders')")
    assert page.locator("#recent p.recent-line").count() >= 2
    page.screenshot(path=str(ARTIFACTS / "room-lit.png"), full_page=True)
    assert not errors, errors


def test_a_discard_is_chosen_in_the_picker_and_confirmed_once(served, browser):
    page, room, made, errors = _host(served, browser, seed=5)
    owe_a_discard(room, SEAT)
    page.reload()  # the page's view of the game as it now stands
    page.wait_for_selector("body[data-connected='1'][data-version]")
    room, version = settled(served, made["host"])  # (bots owing a discard discard first)
    caught_up(page, version)
    with room.lock:
        need = sum(room.state.hands[SEAT]) // 2
        logged = len(room.entries)
    picker = page.locator("fieldset.by-card")
    assert f"choose {need} cards" in picker.locator("legend").inner_text()
    assert page.locator("#dice .die.total").get_attribute("data-total") == "7"
    confirm = picker.locator("button[data-action-kind='confirm']")
    assert confirm.is_disabled()
    for more in picker.locator("button.more").all():
        for _ in range(need):
            if confirm.is_enabled():
                break
            more.click()
    assert confirm.inner_text() == f"Discard these {need} of {need}"
    page.screenshot(path=str(ARTIFACTS / "room-discard.png"), full_page=True)
    before = int(page.get_attribute("body", "data-version"))
    confirm.click()
    page.wait_for_function(f"() => Number(document.body.getAttribute('data-version')) >= {before + need}")
    with room.lock:
        after = room.entries[logged:]
    # the cards went together: the person's discards one after the other, nothing between
    assert [e["kind"] for e in after[:need]] == ["discard"] * need
    assert all(e["player"] == SEAT for e in after[:need])
    assert not any(e["kind"] == "discard" and e["player"] == SEAT for e in after[need:])
    assert page.locator("fieldset.by-card").count() == 0
    assert not errors, errors
