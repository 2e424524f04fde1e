"""The studio in a real browser (Playwright driving Debian's Chromium): the list, the
author view (player count, hover ids, reload on an edit, a broken file), a whole game
played through the page's own controls by a scripted player that reads the page, and a
replay stepped to its end. Screenshots of each view go to tests/studio/artifacts/.

Waits are bounded by the page's own signals (a render counter, a loads counter); the
timeouts only catch a hang."""

from __future__ import annotations

import json
import re

import pytest

from tests.studio.pages import MAX_MOVES, one_move, play_through, renders, shot, start_game


def test_the_list_shows_the_folder_and_the_shipped_scenarios(studio, page):
    page.goto(studio.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    rows = page.locator("#files tr.scenario")
    assert rows.count() == 4  # broken, growing, island, maps/duel; notes.txt is no scenario
    island = page.locator("#files tr[data-ref='dir:island.catan']")
    assert island.locator(".title").inner_text() == "Seven-Hex Island"
    assert island.locator(".players").inner_text() == "2-3"
    assert "trade_build: combined*, separate" in island.locator(".options").inner_text()
    assert "error" in page.locator("#files tr[data-ref='dir:broken.catan']").inner_text()
    assert page.locator("#files tr[data-ref='dir:maps/duel.catan'] .players").inner_text() == "2"
    assert page.locator("#shipped tr[data-ref='shipped:base'] .title").inner_text() == "Catan"
    shot(page, "list")
    page.locator("#files tr[data-ref='dir:island.catan'] a").first.click()
    page.wait_for_url(re.compile(r"/author\?ref=dir%3Aisland\.catan"))
    page.wait_for_selector("#board svg")


def _loads(page) -> int:
    return int(page.get_attribute("body", "data-loads") or 0)


def _wait_loads(page, after: int) -> None:
    page.wait_for_function(f"() => Number(document.body.getAttribute('data-loads') || 0) > {after}")


def test_the_author_view_follows_the_player_count_and_shows_ids(studio, page):
    page.goto(studio.url + "/author?ref=dir:growing.catan")
    page.wait_for_selector("#board svg")
    assert page.locator("#players").input_value() == "3"
    assert page.locator("#board .site-hex").count() == 10
    three = page.locator("#board svg").inner_html()
    loads = _loads(page)
    page.select_option("#players", "2")
    _wait_loads(page, loads)
    assert page.locator("#board .site-hex").count() == 7
    assert page.locator("#board svg").inner_html() != three
    # hovering a hex, an intersection and a path shows the ids the language uses
    page.locator(".site-hex[data-id='(0, 0)']").hover()
    assert page.locator("#hover").inner_text() == "hex (0, 0)"
    page.locator(".site-intersection[data-id='(0, 0, N)']").hover()
    assert page.locator("#hover").inner_text() == "intersection (0, 0, N)"
    page.locator(".site-path[data-id='(0, 0, NE)']").hover()
    assert page.locator("#hover").inner_text() == "path (0, 0, NE)"
    shot(page, "author-players")


def test_an_edit_on_disk_shows_its_diagnostic_and_the_fix_brings_the_board_back(studio, page):
    path = studio.folder / "island.catan"
    good = path.read_text(encoding="utf-8")
    page.goto(studio.url + "/author?ref=dir:island.catan")
    page.wait_for_selector("#board svg")
    page.locator(".site-intersection[data-id='(1, -1, S)']").hover()  # the one its warning names
    shot(page, "author")
    try:
        loads = _loads(page)
        path.write_text(good.replace("victory 6", "victori 6"), encoding="utf-8")
        _wait_loads(page, loads)
        page.wait_for_selector("#diagnostics li.sev-error")
        first = page.locator("#diagnostics li.sev-error").first
        assert "victori" in first.inner_text()
        assert page.locator("#board svg").count() == 0
        assert page.get_attribute("#board", "data-state") == "diagnostics"
        assert "victori" in page.locator("#board .board-diagnostics").inner_text()
        assert page.locator("#diagnostics .excerpt .here").first.inner_text().strip().endswith("victori 6")
        shot(page, "author-broken")
        loads = _loads(page)
        path.write_text(good, encoding="utf-8")
        _wait_loads(page, loads)
        page.wait_for_selector("#board svg")
        assert page.locator("#diagnostics li.sev-error").count() == 0
    finally:
        path.write_text(good, encoding="utf-8")


def test_a_whole_game_against_bots_through_the_page(studio, page, tmp_path):
    start_game(page, studio, "dir:maps/duel.catan")
    assert "your move" in page.locator("#status").inner_text()
    # set-up: the offered intersections glow, and a click elsewhere gets the engine's reason
    assert page.locator("#board .site-intersection.target").count() > 0
    assert page.locator("#board .site-path.target").count() == 0
    before = renders(page)
    page.locator("#board .site-hex[data-id='(0, -2)']").click()  # water: nothing is ever done there
    page.wait_for_selector("#error:not([hidden])")
    assert page.locator("#error").inner_text() == "site/nothing: nothing can ever be done at hex (0, -2)"
    page.locator("#board .site-hex[data-id='(0, 0)']").click()  # the robber may stand there, not now
    page.wait_for_function("() => document.getElementById('error').textContent.indexOf('action/') === 0")
    assert "robber" in page.locator("#error").inner_text()
    assert renders(page) == before
    shot(page, "play-setup")
    moves = play_through(page)
    # the dice roll by themselves when nothing may come before them (no card to play)
    assert moves.count("end_turn") > 3 and moves.count("site intersection") >= 2
    status = page.locator("#status").inner_text()
    assert re.search(r"game over: P[12] won \(victory\)", status), status
    winner = int(re.search(r"P([12]) won", status).group(1)) - 1
    points = page.locator(f"#players-table tr[data-seat='{winner}'] .points").inner_text()
    assert int(points) >= 5
    shot(page, "play-over")
    # the game saved as the page offers it is JSON with the serialized state
    with page.expect_download() as download:
        page.click("#save")
    saved = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert saved["format"] == "catandsl-studio-game" and saved["scenario"] == "dir:maps/duel.catan"
    # and its replay, stepped to the end, names the same winner
    page.click("#replay-link")
    page.wait_for_url(re.compile(r"/replay\?replay="))
    page.wait_for_selector("body[data-steps]")
    assert page.get_attribute("body", "data-step") == "0"
    steps = int(page.get_attribute("body", "data-steps"))
    assert steps == len(saved["actions"])
    for k in range(1, 4):
        page.click("#next")
        page.wait_for_selector(f"body[data-step='{k}']")
    page.click("#prev")
    page.wait_for_selector("body[data-step='2']")
    page.click("#last")
    page.wait_for_selector(f"body[data-step='{steps}']")
    assert re.search(rf"winner: P{winner + 1} \(victory\)", page.locator("#result").inner_text())
    shot(page, "replay")


def _click(page, selector: str) -> None:
    """Click a button and wait for the page to render the answer."""
    before = renders(page)
    page.locator(selector).first.click()
    page.wait_for_function(f"() => Number(document.body.getAttribute('data-renders')) > {before}")


def test_a_trade_composed_card_by_card_on_the_page(studio, page):
    """Against the random bot (it accepts, declines or counters at random): the person
    plays on until an offer is possible, opens one, gives a card and asks one by the
    buttons, proposes it; the box shows the draft, then the offer with the bot's answer,
    till the person trades or withdraws. A declined offer lapses: the person offers
    again, other cards."""
    page.goto(studio.url + "/play?ref=dir:maps/duel.catan")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#seed", "3")
    page.select_option("#bots", "random")
    page.click("#start")
    page.wait_for_selector("body[data-renders]")
    answered = None
    for _ in range(MAX_MOVES):
        if page.get_attribute("body", "data-over") == "1":
            break
        if not page.locator("fieldset[data-kind='new_offer'] button").count():
            before = renders(page)
            one_move(page)
            page.wait_for_function(f"() => Number(document.body.getAttribute('data-renders')) > {before}")
            continue
        _click(page, "fieldset[data-kind='new_offer'] button")
        assert page.locator("#trade").inner_text().startswith("your draft: you give nothing, you get nothing")
        _click(page, "fieldset[data-kind='offer_add:give'] button")
        if not page.locator("fieldset[data-kind='offer_add:get'] button").count():
            _click(page, "fieldset[data-kind='propose'] button[data-action-kind='withdraw']")  # nothing to ask for it
            _click(page, "fieldset[data-kind='end_turn'] button")
            continue
        _click(page, "fieldset[data-kind='offer_add:get'] button")
        draft = page.locator("#trade").inner_text()
        assert re.match(r"your draft: you give 1 \w+, you get 1 \w+, to everyone", draft), draft
        if not page.locator("fieldset[data-kind='propose'] button[data-action-kind='propose']").count():
            # declined this turn already: not to be made again till the next
            _click(page, "fieldset[data-kind='propose'] button[data-action-kind='withdraw']")
            _click(page, "fieldset[data-kind='end_turn'] button")
            continue
        _click(page, "fieldset[data-kind='propose'] button[data-action-kind='propose']")
        answers = re.findall(r"P1: offers 1 \w+ for 1 \w+ to everyone\nP2: (\w+)", page.locator("#log").inner_text())
        assert answers
        if answers[-1] != "declines":
            answered = answers[-1]
            break
        assert page.locator("#trade").is_hidden()  # declined by the only other player: lapsed
    assert answered in ("accepts", "counters"), "the bot declined every offer"
    box = page.locator("#trade").inner_text()
    assert re.match(r"P1 offers 1 \w+ for 1 \w+ to everyone\n+P2 (accepts|counters: .+)", box), box
    shot(page, "play-trade")
    _click(page, "fieldset[data-kind='trade_with'] button, fieldset[data-kind='propose'] button")
    assert page.locator("#trade").is_hidden()


def test_a_saved_game_resumes_and_a_tampered_one_is_refused(studio, page, tmp_path):
    start_game(page, studio, "dir:island.catan", seed=5)
    for _ in range(4):  # a few set-up moves
        before = renders(page)
        one_move(page)
        page.wait_for_function(f"() => Number(document.body.getAttribute('data-renders')) > {before}")
    with page.expect_download() as download:
        page.click("#save")
    saved = json.loads(open(download.value.path(), encoding="utf-8").read())
    good = tmp_path / "good.json"
    good.write_text(json.dumps(saved), encoding="utf-8")
    state = json.loads(saved["state"])
    state["hands"][0][0] += 5  # cards from nowhere
    saved["state"] = json.dumps(state)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(saved), encoding="utf-8")

    page.goto(studio.url + "/play")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#resume-file", str(bad))
    page.click("#resume")
    page.wait_for_selector("#setup-error:not([hidden])")
    assert page.locator("#setup-error").inner_text().startswith("state/")
    page.set_input_files("#resume-file", str(good))
    page.click("#resume")
    page.wait_for_selector("body[data-renders]")
    assert len(page.locator("#log").inner_text().splitlines()) >= 4


def test_a_play_log_replays_to_its_winner(studio, page, tmp_path):
    import subprocess
    import sys

    log = tmp_path / "game.log"
    subprocess.run([sys.executable, "-m", "catandsl", "play", str(studio.folder / "island.catan"), "--players", "2",
                    "--seed", "4", "--bots", "greedy", "--log", str(log)], check=True, capture_output=True)
    last = log.read_text(encoding="utf-8").splitlines()[-1]
    page.goto(studio.url + "/replay")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#file", str(log))
    page.select_option("#ref", "dir:island.catan")
    page.fill("#seed", "4")
    page.click("#open-button")
    page.wait_for_selector("body[data-steps]")
    steps = int(page.get_attribute("body", "data-steps"))
    page.fill("#jump", "3")
    page.click("#jump-button")
    page.wait_for_function("() => document.getElementById('step').textContent.indexOf('turn 3') >= 0")
    page.click("#autoplay")
    page.wait_for_function("() => Number(document.body.getAttribute('data-step')) > 0")
    page.click("#last")
    page.wait_for_selector(f"body[data-step='{steps}']")
    assert page.locator("#result").inner_text() == last  # the log's own last line


@pytest.mark.parametrize("junk", ["not a game", "{\"format\": 7}"])
def test_a_replay_of_junk_says_why(studio, page, tmp_path, junk):
    f = tmp_path / "junk.txt"
    f.write_text(junk, encoding="utf-8")
    page.goto(studio.url + "/replay")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#file", str(f))
    page.click("#open-button")
    page.wait_for_selector("#open-error:not([hidden])")
    assert re.match(r"(log|save)/\w+: ", page.locator("#open-error").inner_text())
