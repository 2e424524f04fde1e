// The play view: a person's seat against bots. Everything offered comes from the
// engine's legal actions: buttons grouped by kind, highlighted sites on the board.
"use strict";
(function () {
  var S = Studio, view = null, busy = false, renders = 0;
  var BUTTONS_AT_MOST = 12;  // a longer group is a list to choose from
  var PACE = 600, LIT = 1500;  // ms between the moves shown since the person's last; how long a site stays lit
  var timers = [], cardOf = null;

  // ---- the set-up form ---------------------------------------------------------------
  var scenarios = {};
  function fillSetup(s) {
    S.playerChoices(S.$("players"), s.players.min, s.players.max, s.players.max);
    S.optionFields(S.$("option-fields"), s.options, null, null);
    fillSeats();
  }
  function fillSeats() {
    var n = parseInt(S.$("players").value, 10), seat = S.$("seat");
    seat.textContent = "";
    for (var p = 0; p < n; p++) {
      var o = S.el("option", "P" + (p + 1));
      o.value = String(p);
      seat.appendChild(o);
    }
  }
  function setup() {
    S.$("setup").hidden = false;
    S.scenarios(function (data, done) {  // asked again while some files are still being checked
      var sel = S.$("ref"), wanted = S.param("ref");
      data.files.concat(data.shipped).forEach(function (s) {
        if (!s.ok || s.library || scenarios[s.ref]) return;
        scenarios[s.ref] = s;
        var o = S.el("option", s.title + " (" + s.label + ")");
        o.value = s.ref;
        if (s.ref === wanted) o.selected = true;
        sel.appendChild(o);
      });
      if (!done) return;
      if (wanted && !scenarios[wanted]) {
        S.showError(S.$("setup-error"), { code: "scenario/unavailable", message: wanted + " cannot be played: open it in the author view" });
      }
      if (sel.value) fillSetup(scenarios[sel.value]);
      document.body.setAttribute("data-ready", "1");
    }, function (err) { S.showError(S.$("setup-error"), err); });
    S.$("ref").addEventListener("change", function () { fillSetup(scenarios[S.$("ref").value]); });
    S.$("players").addEventListener("change", fillSeats);
    S.$("new-game").addEventListener("submit", function (e) {
      e.preventDefault();
      var body = { ref: S.$("ref").value, players: parseInt(S.$("players").value, 10),
                   options: S.chosenOptions(S.$("option-fields")), seed: parseInt(S.$("seed").value || "1", 10),
                   seat: parseInt(S.$("seat").value, 10), bots: S.$("bots").value };
      S.call("POST", "/api/games", body).then(open, function (err) { S.showError(S.$("setup-error"), err); });
    });
    S.$("resume-form").addEventListener("submit", function (e) {
      e.preventDefault();
      var f = S.$("resume-file").files[0];
      if (!f) { S.showError(S.$("setup-error"), { code: "save/missing", message: "choose a saved game first" }); return; }
      f.text().then(function (text) {
        var data;
        try { data = JSON.parse(text); } catch (err) {
          S.showError(S.$("setup-error"), { code: "save/format", message: "that file is not JSON: not a saved game" });
          return;
        }
        S.call("POST", "/api/games/resume", data).then(open, function (err) { S.showError(S.$("setup-error"), err); });
      });
    });
  }
  function open(v) {
    history.replaceState(null, "", "/play?game=" + encodeURIComponent(v.id));
    S.$("setup").hidden = true;
    show(v);
  }

  // ---- the table -------------------------------------------------------------------------
  function act(body) {
    if (busy || !view) return;
    busy = true;
    document.body.setAttribute("data-busy", "1");
    S.call("POST", "/api/games/" + encodeURIComponent(view.id) + "/act", body).then(function (v) {
      busy = false;
      document.body.removeAttribute("data-busy");
      show(v);
    }, function (err) {
      busy = false;
      document.body.removeAttribute("data-busy");
      if (err.code === "site/choose") { choose(err.message, err.actions); return; }
      S.showError(S.$("error"), err);
    });
  }
  function byId(id) {
    var found = null;
    view.offers.groups.forEach(function (g) { g.actions.forEach(function (a) { if (a.id === id) found = a; }); });
    return found;
  }
  function choose(title, ids) {
    var box = S.$("choice"), buttons = S.$("choice-buttons");
    S.$("choice-title").textContent = title;
    buttons.textContent = "";
    ids.forEach(function (id) {
      var a = byId(id), b = S.el("button", a ? a.label : String(id));
      b.type = "button";
      b.setAttribute("data-action", id);
      if (a && a.action && a.action.kind) b.setAttribute("data-action-kind", a.action.kind);
      b.addEventListener("click", function () { box.hidden = true; act({ action: id }); });
      buttons.appendChild(b);
    });
    var cancel = S.el("button", "cancel");
    cancel.type = "button";
    cancel.className = "cancel";
    cancel.addEventListener("click", function () { box.hidden = true; });
    buttons.appendChild(cancel);
    box.hidden = false;
  }
  function group(g) {
    var fs = S.el("fieldset");
    fs.setAttribute("data-kind", g.kind);
    fs.appendChild(S.el("legend", g.title));
    if (g.rates) {  // the seat's rate per resource: the bank's, or a harbor's
      fs.appendChild(S.el("p", "your rates: " + Object.keys(g.rates).map(function (r) {
        return r + " " + g.rates[r] + ":1"; }).join(", "), "note rates"));
    }
    var onBoard = g.actions.every(function (a) { return a.site; });
    if (onBoard) fs.appendChild(S.el("p", "click a highlighted site on the board, or:", "note"));
    if (g.actions.length > BUTTONS_AT_MOST || (onBoard && g.actions.length > 1)) {
      var sel = S.el("select");
      g.actions.forEach(function (a) { var o = S.el("option", a.label); o.value = String(a.id); sel.appendChild(o); });
      var go = S.el("button", "do it");
      go.type = "button";
      go.className = "do";
      go.addEventListener("click", function () { act({ action: parseInt(sel.value, 10) }); });
      fs.appendChild(sel);
      fs.appendChild(go);
    } else {
      g.actions.forEach(function (a) {
        var b = S.el("button", a.label);
        b.type = "button";
        b.setAttribute("data-action", a.id);
        if (a.action && a.action.kind) b.setAttribute("data-action-kind", a.action.kind);
        b.addEventListener("click", function () { act({ action: a.id }); });
        fs.appendChild(b);
      });
    }
    return fs;
  }
  // the domestic trade as the person's seat sees it: the offer on the table, its answers
  // and counter-offers, and the person's own draft (no one else's)
  function seatName(v, p) { return p >= 0 && v.players[p] ? v.players[p].name : "everyone"; }
  function terms(t) { return (S.counts(t.give) || "nothing") + " for " + (S.counts(t.get) || "nothing"); }
  function showTrade(v) {
    var box = S.$("trade"), t = v.trade || {};
    box.textContent = "";
    box.hidden = !t.offer && !t.draft;
    if (t.offer) {
      var o = t.offer;
      box.appendChild(S.el("p", seatName(v, o.proposer) + " offers " + terms(o) + " to " + seatName(v, o.to)));
      var answers = [];
      o.accepted.forEach(function (p) { answers.push(seatName(v, p) + " accepts"); });
      o.declined.forEach(function (p) { answers.push(seatName(v, p) + " declines"); });
      o.counters.forEach(function (c) { answers.push(seatName(v, c.player) + " counters: " + terms(c)); });
      if (o.asked.length) answers.push("waiting for " + o.asked.map(function (p) { return seatName(v, p); }).join(", "));
      answers.forEach(function (a) { box.appendChild(S.el("p", a, "note")); });
    }
    if (t.draft) {
      var d = t.draft, what = d.counter ? "your counter-offer: " : "your draft: ";
      box.appendChild(S.el("p", what + "you give " + (S.counts(d.give) || "nothing") + ", you get " +
                           (S.counts(d.get) || "nothing") + ", to " + seatName(v, d.to)));
    }
  }
  // ---- the guide beside the board: dice, the moves since the person's last, costs, terrains ----------
  function chip(v, res, n) {
    var c = S.el("span", "", "res");
    var sw = S.el("span", "", "swatch");
    sw.style.background = (v.resource_colours || {})[res] || "#ccc";
    c.appendChild(sw);
    c.appendChild(document.createTextNode((n > 1 ? n + " " : "") + res));
    return c;
  }
  function showCard(v) {
    if (cardOf === v.id) return;  // the scenario's declarations: drawn once per game
    cardOf = v.id;
    var body = document.querySelector("#costs tbody"), list = S.$("terrains");
    body.textContent = "";
    list.textContent = "";
    (v.costs || []).forEach(function (c) {
      var tr = S.el("tr"), td = S.el("td");
      tr.appendChild(S.el("td", c.name));
      Object.keys(c.cost).forEach(function (r) {
        td.appendChild(chip(v, r, c.cost[r]));
        td.appendChild(document.createTextNode(" "));
      });
      tr.appendChild(td);
      body.appendChild(tr);
    });
    (v.terrains || []).forEach(function (t) {
      var li = S.el("li"), sw = S.el("span", "", "swatch");
      sw.style.background = t.colour;
      li.appendChild(sw);
      li.appendChild(document.createTextNode(t.name + (t.produces ? ": " + t.produces : "")));
      list.appendChild(li);
    });
  }
  var FACES = ["", "\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];
  function showDice(v) {
    var box = S.$("dice");
    box.textContent = "";
    box.hidden = !v.dice;
    if (!v.dice) return;
    box.appendChild(S.el("span", "last roll:", "note"));
    v.dice.faces.forEach(function (f) {
      var d = S.el("span", FACES[f.face] || String(f.face), "die");
      d.title = f.die + " " + f.face;
      box.appendChild(d);
    });
    var total = S.el("span", String(v.dice.total), "die total");
    total.setAttribute("data-total", v.dice.total);
    box.appendChild(total);
    if (v.dice.by >= 0 && v.players[v.dice.by]) box.appendChild(S.el("span", "rolled by " + v.players[v.dice.by].name, "note"));
  }
  function light(site, colour) {
    var el = S.$("board").querySelector(".site[data-kind='" + site.kind + "'][data-at='" + site.at + "']");
    if (!el) return;
    el.style.setProperty("--seat", colour);
    el.classList.add("recent");
    timers.push(setTimeout(function () { el.classList.remove("recent"); }, LIT));
  }
  // the moves since the person's last, one after the other, each site lit a moment
  function pace(v) {
    timers.forEach(clearTimeout);
    timers = [];
    var box = S.$("recent"), items = v.recent || [], stamp = String(renders);
    box.textContent = "";
    box.hidden = !items.length;
    if (!items.length) { document.body.setAttribute("data-paced", stamp); return; }
    box.appendChild(S.el("p", "since your last move:", "note"));
    items.forEach(function (r, i) {
      timers.push(setTimeout(function () {
        var colour = r.seat >= 0 && v.players[r.seat] ? v.players[r.seat].colour : "#888";
        var line = S.el("p", r.line, "recent-line");
        line.style.borderLeft = "4px solid " + colour;
        box.appendChild(line);
        if (r.site) light(r.site, colour);
        if (i === items.length - 1) document.body.setAttribute("data-paced", stamp);
      }, i * PACE));
    });
  }
  // cards given or taken one per action (a discard): chosen together, confirmed once
  function cardPicker(v, g) {
    var need = v.by_card.count, you = v.players[v.seat] || {}, hand = you.hand || {};
    var fs = S.el("fieldset", "", "by-card");
    fs.setAttribute("data-kind", g.kind);
    fs.appendChild(S.el("legend", g.title + ": choose " + need + " card" + (need === 1 ? "" : "s")));
    var chosen = {}, confirm = S.el("button", "");
    confirm.type = "button";
    confirm.setAttribute("data-action-kind", "confirm");
    function total() { return Object.keys(chosen).reduce(function (a, k) { return a + chosen[k]; }, 0); }
    function refresh() {
      var n = total();
      confirm.textContent = g.title + " these " + n + " of " + need;
      confirm.disabled = n !== need;
    }
    g.actions.forEach(function (a) {
      var res = a.action.resource, most = g.kind === "discard" ? (hand[res] || 0) : need;
      chosen[a.id] = 0;
      var pick = S.el("span", "", "pick"), count = S.el("span", "0", "count");
      pick.setAttribute("data-resource", res);
      var less = S.el("button", "\u2212"), more = S.el("button", "+");
      less.type = more.type = "button";
      less.className = "less";
      more.className = "more";
      less.addEventListener("click", function () { if (chosen[a.id] > 0) chosen[a.id] -= 1; count.textContent = chosen[a.id]; refresh(); });
      more.addEventListener("click", function () {
        if (chosen[a.id] < most && total() < need) chosen[a.id] += 1;
        count.textContent = chosen[a.id];
        refresh();
      });
      pick.appendChild(chip(v, res, 1));
      pick.appendChild(less);
      pick.appendChild(count);
      pick.appendChild(more);
      fs.appendChild(pick);
    });
    confirm.addEventListener("click", function () {
      var ids = [];
      Object.keys(chosen).forEach(function (id) { for (var k = 0; k < chosen[id]; k++) ids.push(parseInt(id, 10)); });
      if (ids.length === need) act({ actions: ids });
    });
    fs.appendChild(S.el("br"));
    fs.appendChild(confirm);
    refresh();
    return fs;
  }
  function pickable(v, g) {
    return v.by_card && g.actions.length && g.actions.every(function (a) { return a.action && a.action.resource; });
  }

  function show(v) {
    view = v;
    S.$("table").hidden = false;
    S.$("choice").hidden = true;
    S.showError(S.$("error"), v.stopped);
    S.$("title").textContent = v.title;
    document.title = v.title + " - catandsl studio";
    S.$("status").textContent = v.status;
    var notice = S.$("notice");
    notice.hidden = !v.notice;
    notice.textContent = v.notice || "";
    S.$("board").innerHTML = v.svg;
    var actions = S.$("actions");
    actions.textContent = "";
    showTrade(v);
    v.offers.groups.forEach(function (g) { actions.appendChild(pickable(v, g) ? cardPicker(v, g) : group(g)); });
    if (!v.offers.groups.length) actions.appendChild(S.el("p", v.over ? "the game is over" : "waiting", "note"));
    S.playersTable(document.querySelector("#players-table tbody"), v.players);
    S.$("bank").textContent = "bank: " + S.counts(v.bank) + "; " + v.victory + " points win";
    var log = S.$("log");
    log.textContent = v.log.join("\n");
    log.scrollTop = log.scrollHeight;
    S.$("save").href = "/api/games/" + encodeURIComponent(v.id) + "/save";
    showDice(v);
    showCard(v);
    renders += 1;
    pace(v);
    document.body.setAttribute("data-renders", String(renders));
    document.body.setAttribute("data-over", v.over ? "1" : "0");
    if (v.bots_moving) {  // a request plays a bounded number of the bots' moves: ask for the rest
      setTimeout(function () {
        S.call("GET", "/api/games/" + encodeURIComponent(v.id)).then(show, function (err) { S.showError(S.$("error"), err); });
      }, 200);
    }
  }
  S.$("board").addEventListener("click", function (ev) {
    var t = ev.target.closest ? ev.target.closest(".site") : null;
    if (!t || !view) return;
    var kind = t.getAttribute("data-kind"), at = parseInt(t.getAttribute("data-at"), 10);
    var ids = view.offers.sites[kind + ":" + at] || [];
    S.showError(S.$("error"), null);
    if (ids.length === 1) act({ action: ids[0] });
    else if (ids.length > 1) choose("choose one", ids);
    else act({ site: { kind: kind, at: at } });  // the engine says why not
  });
  S.$("replay-link").addEventListener("click", function (e) {
    e.preventDefault();
    if (!view) return;
    S.call("POST", "/api/replays", { game: view.id }).then(function (r) {
      location.href = "/replay?replay=" + encodeURIComponent(r.id);
    }, function (err) { S.showError(S.$("error"), err); });
  });

  var game = S.param("game");
  if (game) {
    S.call("GET", "/api/games/" + encodeURIComponent(game)).then(show, function (err) {
      setup();
      S.showError(S.$("setup-error"), err);
    });
  } else {
    setup();
  }
})();
