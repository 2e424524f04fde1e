"""How the studio's tests drive a page as a person would (one move at a time, reading
only the page), and how they bring a game to a discard; shared by the browser tests."""

from __future__ import annotations

import re

from tests.studio.helpers import ARTIFACTS, Running

MAX_MOVES = 3000  # the scripted player's moves: far more than a game of the duel takes


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


# ---- a whole game, played through the page ------------------------------------------------------

# The scripted player's order of preference among the groups of buttons (by the engine's
# action kind): answer prompts first, never offer or trade, end the turn last.
PREFERENCE = ["discard", "steal", "take", "choose_resource", "choose_player", "accept", "roll_dice", "play_card",
              "end_turn"]


def renders(page) -> int:
    return int(page.get_attribute("body", "data-renders") or 0)


def one_move(page) -> str:
    """Make one move as a person would, reading only the page; what was clicked."""
    choice = page.locator("#choice:not([hidden]) #choice-buttons button[data-action]")
    if choice.count():
        choice.first.click()
        return "choice"
    for kind in ("intersection", "path", "hex"):
        targets = page.locator(f"#board .site-{kind}.target")
        if targets.count():
            # force: a path along a hex's west or east side is a vertical line, whose box
            # is 0 wide, which Playwright takes for invisible; the click lands on its stroke
            targets.first.click(force=True)
            return f"site {kind}"
    picker = page.locator("fieldset.by-card")
    if picker.count():  # cards chosen together (a discard): as many as asked, then confirmed once
        confirm = picker.locator("button[data-action-kind='confirm']")
        need = int(re.search(r"choose (\d+) card", picker.locator("legend").inner_text()).group(1))
        for more in picker.locator("button.more").all():
            for _ in range(need):
                if confirm.is_enabled():
                    break
                more.click()
        confirm.click()
        return "cards"
    for kind in PREFERENCE:
        if kind == "accept":  # the answer group: decline an offer
            button = page.locator("fieldset[data-kind='accept'] button", has_text="decline")
        else:
            button = page.locator(f"fieldset[data-kind='{kind}'] button[data-action]")
        if button.count():
            button.first.click()
            return kind
    groups = page.locator("#actions fieldset")
    assert groups.count(), "the page offers nothing to do, yet the game is not over"
    first = groups.first
    if first.locator("button[data-action]").count():
        first.locator("button[data-action]").first.click()
    else:
        first.locator("button.do").click()
    return "first"


def play_through(page, limit: int = MAX_MOVES, shot_at: int = 15) -> list[str]:
    """Moves until the game is over; a screenshot of the game after `shot_at` of them."""
    moves = []
    for n in range(limit):
        if page.get_attribute("body", "data-over") == "1":
            return moves
        if n == shot_at:
            shot(page, "play")
        before = renders(page)
        moves.append(one_move(page))
        page.wait_for_function(f"() => Number(document.body.getAttribute('data-renders')) > {before} || "
                               "!document.getElementById('error').hidden || "
                               "!document.getElementById('choice').hidden")
        error = page.locator("#error")
        assert error.is_hidden(), f"the engine refused a move the page offered: {error.inner_text()}"
    raise AssertionError(f"no winner after {limit} moves")


def start_game(page, studio, ref: str, seed: int = 3):
    page.goto(studio.url + "/play?ref=" + ref)
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("body[data-renders]")



# ---- a person owing a discard, for the tests of the discard picker ---------------------------

SEAT = 0  # the person's seat in the studio's games


def force_discard(match, cards: int = 9):
    """Give the person `cards` cards, play on (the person ends the turn) till the dice
    roll in the person's turn, and roll a 7: the person owes a discard."""
    g, s = match.game, match.state
    for k in range(cards):
        r = k % len(g.resources)
        s.bank[r] -= 1
        s.hands[SEAT][r] += 1
    s.forget_derived()
    for _ in range(2000):
        if s.is_chance_node():
            outcomes = [a for a, _ in s.chance_outcomes()]
            seven = [a for a in outcomes if g.actions[a].KIND == "roll" and g.actions[a].total == 7]
            if seven and s.turn_player == SEAT:
                match._apply(seven[0], -1)
                match.settle()
                return
            match._apply(s.sample_chance(), -1)
        elif s.current_player() == SEAT:
            legal = s.legal_actions()
            match._apply(next((a for a in legal if g.actions[a].KIND == "end_turn"), legal[0]), SEAT)
        else:
            who = s.current_player()
            match._apply(match.players[who].choose(s), who)
    raise AssertionError("the person's roll never came")


# ---- hosted games: the studio on a port a restart binds again, and the waits on its rooms --------


class Served(Running):
    """The studio on a loopback port, which a restart binds again (so open pages
    reconnect to the new server by themselves); bots move at once."""

    def __init__(self, folder, port: int = 0):
        from catandsl.studio import app as studio_app

        real = studio_app.listen
        studio_app.listen = lambda host, _: real(host, port)  # Running asks for any free port
        try:
            super().__init__(folder)
        finally:
            studio_app.listen = real
        self.port = self.sock.getsockname()[1]
        self.live = self.app.state.live
        self.live.hub.pause = 0


def settled(served, made) -> tuple:
    """The room on the server once its bots are done: (room, version)."""
    import threading

    room, _ = served.live.rooms.find(made)
    for _ in range(10_000):  # the bots move in the server's thread: a bound, not a time
        with room.lock:
            if not room.bots_to_move():
                return room, room.version
        threading.Event().wait(0.01)
    raise AssertionError("the bots never stopped")


def caught_up(page, version: int) -> None:
    """Wait till the page shows the view of `version` (or a later one) and sends nothing."""
    page.wait_for_function(f"() => Number(document.body.getAttribute('data-version')) >= {version} && "
                           "!document.body.hasAttribute('data-busy')")


def owe_a_discard(room, seat: int, cards: int = 9) -> None:
    """A hosted game on the server: the person in `seat` gets `cards` cards, everyone
    plays on (the person ends the turn) till the dice roll in the person's turn, and a
    7 comes: a discard owed."""
    g, s = room.game, room.state
    with room.lock:
        for k in range(cards):
            r = k % len(g.resources)
            s.bank[r] -= 1
            s.hands[seat][r] += 1
        s.forget_derived()
        for _ in range(3000):
            if s.is_chance_node():
                sevens = [a for a, _ in s.chance_outcomes()
                          if g.actions[a].KIND == "roll" and g.actions[a].total == 7]
                if sevens and s.turn_player == seat and s.turns > 1:
                    room._apply(sevens[0], -1)
                    return
                room._apply(s.sample_chance(), -1)
            elif s.current_player() == seat:
                legal = s.legal_actions()
                room._apply(next((a for a in legal if g.actions[a].KIND == "end_turn"), legal[0]), seat)
            else:
                room._apply(room._choice(s.current_player()), s.current_player())
    raise AssertionError("the person's roll never came")
