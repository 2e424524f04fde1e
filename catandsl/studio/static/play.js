// The play view: a person's seat against bots. Everything offered comes from the
// engine's legal actions: buttons grouped by kind, highlighted sites on the board.
"use strict";
(function () {
  var S = Studio, view = null, busy = false, renders = 0;

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

  // ---- the match -------------------------------------------------------------------------
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
  function choose(title, ids) { S.chooseBox(title, ids, byId, act); }
  function group(g) { return S.actionGroup(g, act); }
  var showTrade = S.showTrade;
  function show(v) {
    view = v;
    S.$("match").hidden = false;
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
    v.offers.groups.forEach(function (g) { actions.appendChild(S.pickable(v, g) ? S.cardPicker(v, g, act) : group(g)); });
    if (!v.offers.groups.length) actions.appendChild(S.el("p", v.over ? "the game is over" : "waiting", "note"));
    S.playersTable(document.querySelector("#players-table tbody"), v.players);
    S.$("bank").textContent = "bank: " + S.counts(v.bank) + "; " + v.victory + " points win";
    var log = S.$("log");
    log.textContent = v.log.join("\n");
    log.scrollTop = log.scrollHeight;
    S.$("save").href = "/api/games/" + encodeURIComponent(v.id) + "/save";
    S.showDice(v);
    S.showCard(v, v.id);
    renders += 1;
    S.pace(v, String(renders), false);
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
