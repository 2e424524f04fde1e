"""A domestic trade between two people of a hosted game, in two Chromium pages: the
person whose turn it is composes an offer card by card and proposes it; the other
person counters it from their own page (a draft of their own, proposed back); the
first person's page shows the counter-offer, then takes it.
The screenshot of the countered trade is the one docs/ and the README show.

Waits are bounded by the pages' own signals; the timeouts only catch a hang."""

from __future__ import annotations

import re

import pytest

from tests.studio.helpers import ARTIFACTS, make_folder
from tests.studio.pages import Served, caught_up, one_move, settled

MAX_MOVES = 600  # the people's moves before an offer both can make: far fewer in practice


@pytest.fixture
def served(tmp_path):
    running = Served(make_folder(tmp_path / "served"))
    yield running
    running.stop()


def _open(browser, url):
    ctx = browser.new_context(viewport={"width": 1360, "height": 940})
    ctx.set_default_timeout(30_000)  # catches a hang, never a slow machine
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("body[data-connected='1'][data-version]")
    return page, errors


def _click(page, selector: str) -> None:
    """A click that the server answers with a new view (bounded by the page's version)."""
    before = int(page.get_attribute("body", "data-version"))
    page.locator(selector).first.click()
    page.wait_for_function(f"() => Number(document.body.getAttribute('data-version')) > {before} || "
                           "!document.getElementById('error').hidden")
    assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()


def _catch_up(served, made, pages) -> object:
    room, version = settled(served, made["host"])
    for pg in pages:
        caught_up(pg, version)
    return room


def test_a_trade_between_two_people_is_countered_and_taken(served, browser):
    import json
    import urllib.request

    body = {"ref": "dir:island.catan", "players": 3, "seed": 6, "seats": ["human", "human", "greedy"]}
    req = urllib.request.Request(served.url + "/api/rooms", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=120) as r:
        made = json.loads(r.read())
    (a, a_errors), (b, b_errors) = (_open(browser, served.url + "/room?t=" + made["seats"][p]["token"])
                                    for p in (0, 1))
    pages = {0: a, 1: b}
    for _ in range(MAX_MOVES):
        room = _catch_up(served, made, pages.values())
        with room.lock:
            s = room.state
            assert not s.is_terminal(), "the game ended before the people could trade"
            me = s.current_player()
            other = 1 - me
            # an offer the other person can answer with a card of their own to ask back
            ready = (s.stage == "turn" and not s.pending and me in pages and sum(s.hands[me]) >= 1
                     and sum(s.hands[other]) >= 2)
        page = pages[me]
        if ready and page.locator("fieldset[data-kind='new_offer'] button").count():
            break
        before = int(page.get_attribute("body", "data-version"))
        one_move(page)
        page.wait_for_function(f"() => Number(document.body.getAttribute('data-version')) > {before}")
    else:
        raise AssertionError("no turn with an offer both people could make")
    offerer, answerer = pages[me], pages[other]
    _click(offerer, "fieldset[data-kind='new_offer'] button")
    _click(offerer, "fieldset[data-kind='offer_add:give'] button")
    _click(offerer, "fieldset[data-kind='offer_add:get'] button")
    _click(offerer, f"fieldset[data-kind='offer_to'] button:has-text('P{other + 1}')")  # to the other person
    _click(offerer, "fieldset[data-kind='propose'] button[data-action-kind='propose']")
    room = _catch_up(served, made, pages.values())
    # the other person's page: the offer, and the answers to it, a counter among them
    offer = answerer.locator("#trade").inner_text()
    assert re.match(rf"P{me + 1} offers 1 \w+ for 1 \w+ to ", offer), offer
    _click(answerer, "fieldset[data-kind='accept'] button[data-action-kind='counter']")
    draft = answerer.locator("#trade").inner_text()
    assert "your counter-offer:" in draft, draft
    # the counter: what the offer gave, for another card than the one it asked
    asked = re.match(r"P\d offers 1 \w+ for 1 (\w+)", offer).group(1)
    _click(answerer, f"fieldset[data-kind='offer_add:give'] button:not(:has-text('{asked}'))")
    _click(answerer, "fieldset[data-kind='propose'] button[data-action-kind='propose']")
    room = _catch_up(served, made, pages.values())
    box = offerer.locator("#trade").inner_text()
    assert re.search(rf"P{other + 1} counters: 1 \w+ for 1 \w+", box) and f"counters: 1 {asked}" not in box, box
    offerer.screenshot(path=str(ARTIFACTS / "room-counter.png"), full_page=True)
    with room.lock:
        hands = [list(h) for h in room.state.hands]
    took = offerer.locator("fieldset[data-kind='trade_with'] button", has_text=f"P{other + 1}")
    assert took.count(), offerer.locator("#actions").inner_text()
    _click(offerer, f"fieldset[data-kind='trade_with'] button:has-text('P{other + 1}')")
    room = _catch_up(served, made, pages.values())
    with room.lock:
        assert room.state.hands[me] != hands[me] and room.state.hands[other] != hands[other]
        assert sum(room.state.hands[me]) + sum(room.state.hands[other]) == sum(hands[me]) + sum(hands[other])
    assert not a_errors and not b_errors, (a_errors, b_errors)
