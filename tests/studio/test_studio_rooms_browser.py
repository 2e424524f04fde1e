"""A hosted game in real browsers (Playwright driving Debian's Chromium): the host's
form, two people in two browser contexts joining through their seats' links with a bot
in the third seat, a spectator, a page closed and opened again mid-game, the server
restarted mid-game (the pages reconnect by themselves), and the game played to its
winner. At every move both people's pages show the same game, and neither page's
DOM holds the other's hand.

Waits are bounded by the pages' own signals (their view's version, read from the
server in this very process); the timeouts only catch a hang. (Named to run after the
tests that start event loops of their own: the session's Playwright runs one.)"""

from __future__ import annotations

import pytest

from tests.studio.helpers import ARTIFACTS, make_folder
from tests.studio.pages import Served, caught_up, one_move, settled

MAX_MOVES = 3000  # the people's moves: far more than a game of the seven-hex island takes
RECONNECT_AT, RESTART_AT = 12, 30  # after so many of the people's moves


@pytest.fixture
def served(tmp_path):
    running = Served(make_folder(tmp_path / "served"))
    yield running
    running.stop()


def _version(page) -> int:
    return int(page.get_attribute("body", "data-version") or -1)


def _one_move(page) -> str:
    """One move as a person would make it, reading the page alone (cards chosen
    together in the picker, as on the play page)."""
    return one_move(page)


def _hand_text(room, seat: int) -> str:
    """A seat's hand as the page writes it (S.counts): '2 brick, 1 grain'."""
    return ", ".join(f"{n} {r}" for r, n in zip(room.game.resources, room.state.hands[seat]) if n)


def _check_secrets(pages, room) -> None:
    """Each person's page shows their own hand and no one else's; the spectator's none."""
    for seat, page in pages.items():
        table = page.locator("#players-table")
        for other in range(room.game.num_players):
            details = table.locator(f"tr[data-seat='{other}'] .detail")
            hand = _hand_text(room, other)
            if other == seat and hand:
                assert hand in details.first.inner_text()
            elif other != seat:
                assert details.count() == 0, (seat, other)
                if hand:
                    row = table.locator(f"tr[data-seat='{other}']").inner_text()
                    assert hand not in row, (seat, other, hand)


def test_two_people_a_bot_and_a_spectator_play_a_hosted_game_to_its_winner(served, browser):
    host_ctx, a_ctx, b_ctx, w_ctx = (browser.new_context(viewport={"width": 1360, "height": 940})
                                     for _ in range(4))
    errors: list[str] = []
    try:
        for ctx in (host_ctx, a_ctx, b_ctx, w_ctx):
            ctx.set_default_timeout(30_000)  # catches a hang, never a slow machine
        host = host_ctx.new_page()
        host.on("pageerror", lambda e: errors.append(str(e)))
        host.goto(served.url + "/room?ref=dir:island.catan")
        # the first listing compiles every shipped scenario: a longer bound, still only a hang's
        host.wait_for_selector("body[data-ready='1']", timeout=120_000)
        host.select_option("#players", "3")
        host.fill("#seed", "6")
        host.select_option("#seat-fields select[data-seat='0']", "human")
        host.select_option("#seat-fields select[data-seat='1']", "human")
        host.select_option("#seat-fields select[data-seat='2']", "greedy")
        host.click("#host")
        host.wait_for_url("**/room?t=*")
        host.wait_for_selector("body[data-role='host']")
        links = [host.locator(f"#links-table tr[data-seat='{p}'] a.seat-link").get_attribute("href")
                 for p in range(3)]
        watch = host.locator("#watch-link").get_attribute("href")
        assert len(set(links)) == 3 and all(link.startswith("/room?t=") for link in links)
        host_token = host.url.split("t=", 1)[1]

        def open_page(ctx, link):
            pg = ctx.new_page()
            pg.on("pageerror", lambda e: errors.append(str(e)))
            pg.goto(served.url + link)
            pg.wait_for_selector("body[data-connected='1'][data-version]")
            return pg

        pages = {0: open_page(a_ctx, links[0]), 1: open_page(b_ctx, links[1])}
        spectator = open_page(w_ctx, watch)
        assert spectator.get_attribute("body", "data-role") == "spectator"
        assert "P1: here" in spectator.locator("#seats-line").inner_text()

        moves: list[str] = []
        reconnected = restarted = False
        for n in range(MAX_MOVES):
            room, version = settled(served, host_token)
            everyone = [*pages.values(), spectator]
            for pg in everyone:
                caught_up(pg, version)
            # both people's pages show the same game: the same version, the same pieces
            pieces = {pg.locator("#board .piece").count() for pg in everyone}
            assert len(pieces) == 1 and len({_version(pg) for pg in everyone}) == 1
            if n % 5 == 0 or room.state.is_terminal():
                _check_secrets({**pages, -1: spectator}, room)
                assert spectator.locator("#actions fieldset").count() == 0
            if room.state.is_terminal():
                break
            if n == RECONNECT_AT and not reconnected:  # a person drops and comes back with their link
                pages[1].close()
                pages[1] = open_page(b_ctx, links[1])
                assert _version(pages[1]) >= version
                reconnected = True
                continue
            if n == RESTART_AT and not restarted:  # the server restarts; the pages reconnect by themselves
                port = served.port
                served.stop()
                served = Served(served.folder, port)
                restarted = True
                for pg in everyone:
                    pg.wait_for_selector("body[data-connected='1']")
                continue
            seat = room.state.current_player()
            page = pages[seat]
            assert page.get_attribute("body", "data-your-move") == "1"
            other = pages[1 - seat]
            assert other.get_attribute("body", "data-your-move") == "0"
            if n == 20:
                page.screenshot(path=str(ARTIFACTS / "room-seat.png"), full_page=True)
                spectator.screenshot(path=str(ARTIFACTS / "room-spectator.png"), full_page=True)
            before = _version(page)
            moves.append(_one_move(page))
            page.wait_for_function(f"() => Number(document.body.getAttribute('data-version')) > {before} || "
                                   "!document.getElementById('choice').hidden || "
                                   "!document.getElementById('error').hidden")
            error = page.locator("#error")
            assert error.is_hidden(), f"the engine refused a move the page offered: {error.inner_text()}"
        else:
            raise AssertionError(f"no winner after {MAX_MOVES} moves")
        assert reconnected and restarted
        assert moves.count("site intersection") >= 4 and "end_turn" in moves
        status = pages[0].locator("#status").inner_text()
        assert "game over" in status and "won" in status, status
        assert spectator.locator("#status").inner_text().split(" - ")[0] == status.split(" - ")[0]
        pages[0].screenshot(path=str(ARTIFACTS / "room-over.png"), full_page=True)
        # the finished game replays from any link
        pages[1].click("#replay-link")
        pages[1].wait_for_selector("body[data-steps]")
        assert int(pages[1].get_attribute("body", "data-steps")) == len(room.actions)
    finally:
        for ctx in (host_ctx, a_ctx, b_ctx, w_ctx):
            ctx.close()
        served.stop()
    assert not errors, f"a page's JavaScript failed: {errors}"
