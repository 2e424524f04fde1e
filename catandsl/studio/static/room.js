// A hosted game: the host's form, then one page per link (a seat, the spectators, the
// host). The page follows the game over a WebSocket: every view it shows is the one the
// server built for its link; a move goes out on the socket, and the answer is the next
// view (to every page) or an error (to this page alone). A dropped socket reconnects.
"use strict";
(function () {
  var S = Studio, token = S.param("t"), view = null, shown = -1, renders = 0, socket = null, retry = 0;
  var PLAYERS = [["human", "a person"], ["greedy", "bot: greedy"], ["random", "bot: random"],
                 ["mcts:50", "bot: search, quick"], ["mcts:200", "bot: search"]];

  // ---- the host's form ----------------------------------------------------------------
  var scenarios = {};
  function playerSelect(value) {
    var sel = S.el("select");
    PLAYERS.forEach(function (p) {
      var o = S.el("option", p[1]);
      o.value = p[0];
      if (p[0] === value) o.selected = true;
      sel.appendChild(o);
    });
    return sel;
  }
  function fillSeats() {
    var n = parseInt(S.$("players").value, 10), box = S.$("seat-fields");
    box.textContent = "";
    for (var p = 0; p < n; p++) {
      var label = S.el("label", "P" + (p + 1) + " ");
      var sel = playerSelect(p < 2 ? "human" : "greedy");
      sel.setAttribute("data-seat", p);
      label.appendChild(sel);
      box.appendChild(label);
    }
  }
  function fillSetup(s) {
    S.playerChoices(S.$("players"), s.players.min, s.players.max, s.players.max);
    S.optionFields(S.$("option-fields"), s.options, null, null);
    fillSeats();
  }
  function setup() {
    S.$("setup").hidden = false;
    S.scenarios(function (data, done) {
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
      if (sel.value) fillSetup(scenarios[sel.value]);
      document.body.setAttribute("data-ready", "1");
    }, function (err) { S.showError(S.$("setup-error"), err); });
    S.$("ref").addEventListener("change", function () { fillSetup(scenarios[S.$("ref").value]); });
    S.$("players").addEventListener("change", fillSeats);
    S.$("host-form").addEventListener("submit", function (e) {
      e.preventDefault();
      var seats = [];
      S.$("seat-fields").querySelectorAll("select").forEach(function (s) { seats.push(s.value); });
      var body = { ref: S.$("ref").value, players: parseInt(S.$("players").value, 10),
                   options: S.chosenOptions(S.$("option-fields")), seed: parseInt(S.$("seed").value || "1", 10),
                   seats: seats };
      S.call("POST", "/api/rooms", body).then(function (made) {
        location.href = "/room?t=" + encodeURIComponent(made.host);
      }, function (err) { S.showError(S.$("setup-error"), err); });
    });
  }

  // ---- following the game -------------------------------------------------------------
  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/api/rooms/" + encodeURIComponent(token) + "/live");
    document.body.setAttribute("data-connected", "0");
    socket.onopen = function () {
      retry = 0;
      shown = -1;  // a restarted server counts versions afresh: its first view is the game as it stands
      document.body.setAttribute("data-connected", "1");
      S.$("connection").textContent = "";
    };
    socket.onmessage = function (ev) {
      var msg = JSON.parse(ev.data);
      if (msg.type === "view") show(msg.view);
      else if (msg.type === "error") failed(msg.error);
    };
    socket.onclose = function (ev) {
      document.body.setAttribute("data-connected", "0");
      if (ev.code === 4404 || ev.code === 1008) return;  // no such game, or refused: trying again will not help
      S.$("connection").textContent = "connection lost: reconnecting";
      retry = Math.min(retry + 1, 10);
      setTimeout(connect, 150 * retry);
    };
  }
  function send(msg) {
    if (!socket || socket.readyState !== 1) {
      failed({ code: "studio/offline", message: "not connected: wait for the page to reconnect" });
      return;
    }
    document.body.setAttribute("data-busy", "1");
    socket.send(JSON.stringify(msg));
  }
  function act(body) { body.type = "act"; send(body); }
  function failed(err) {
    document.body.removeAttribute("data-busy");
    if (err.code === "site/choose") { choose(err.message, err.actions); return; }
    S.showError(S.$("error"), err);
    document.body.setAttribute("data-errors", String(Number(document.body.getAttribute("data-errors") || 0) + 1));
  }
  function byId(id) {
    var found = null;
    view.offers.groups.forEach(function (g) { g.actions.forEach(function (a) { if (a.id === id) found = a; }); });
    return found;
  }
  function choose(title, ids) { S.chooseBox(title, ids, byId, act); }
  function group(g) { return S.actionGroup(g, act); }
  var showTrade = S.showTrade;
  function showLinks(v) {
    var box = S.$("links");
    box.hidden = !v.links;
    if (!v.links) return;
    var tbody = document.querySelector("#links-table tbody");
    tbody.textContent = "";
    v.links.seats.forEach(function (s) {
      var tr = S.el("tr");
      tr.setAttribute("data-seat", s.seat);
      tr.appendChild(S.el("td", v.players[s.seat].name));
      var td = S.el("td"), a = S.el("a", "seat link");
      a.href = "/room?t=" + encodeURIComponent(s.token);
      a.className = "seat-link";
      td.appendChild(a);
      tr.appendChild(td);
      var sel = playerSelect(s.player), go = S.el("button", "hand over");
      go.type = "button";
      go.addEventListener("click", function () {
        S.call("POST", "/api/rooms/" + encodeURIComponent(token) + "/seats", { seat: s.seat, player: sel.value })
          .then(function () {}, failed);
      });
      td = S.el("td");
      td.appendChild(sel);
      td.appendChild(go);
      tr.appendChild(td);
      tbody.appendChild(tr);
    });
    var w = S.$("watch-link");
    w.href = "/room?t=" + encodeURIComponent(v.links.watch);
    w.textContent = "follow the game";
  }
  function show(v) {
    if (v.version < shown) return;  // an older view overtaken by a newer one
    view = v;
    shown = v.version;
    document.body.removeAttribute("data-busy");
    S.$("match").hidden = false;
    S.$("choice").hidden = true;
    S.showError(S.$("error"), null);
    S.$("title").textContent = v.title;
    document.title = v.title + " - catandsl studio";
    var role = v.role === "seat" ? "you play " + v.players[v.seat].name : v.role === "host" ? "host (spectator's view)" : "spectator";
    S.$("status").textContent = v.status + " - " + role;
    S.$("board").innerHTML = v.svg;
    showLinks(v);
    showTrade(v);
    var actions = S.$("actions");
    actions.textContent = "";
    v.offers.groups.forEach(function (g) { actions.appendChild(S.pickable(v, g) ? S.cardPicker(v, g, act) : group(g)); });
    if (!v.offers.groups.length) actions.appendChild(S.el("p", v.over ? "the game is over" : v.role === "seat" ? "waiting" : "following", "note"));
    S.playersTable(document.querySelector("#players-table tbody"), v.players);
    S.$("seats-line").textContent = v.seats.map(function (s) {
      return v.players[s.seat].name + ": " + (s.player === "human" ? (s.online ? "here" : "away") : "bot " + s.player);
    }).join("; ");
    S.$("bank").textContent = "bank: " + S.counts(v.bank) + "; " + v.deck + " cards in the deck; " + v.victory + " points win";
    var log = S.$("log");
    log.textContent = v.log.join("\n");
    log.scrollTop = log.scrollHeight;
    S.$("replay-link").hidden = !v.over;
    S.showDice(v);
    S.showCard(v, v.room);
    S.relight();  // the sites still lit on the board drawn anew
    renders += 1;
    S.pace(v, String(renders), true);  // every move reaches the page: only the new ones are lit
    var b = document.body;
    b.setAttribute("data-renders", String(renders));
    b.setAttribute("data-version", String(v.version));
    b.setAttribute("data-role", v.role);
    b.setAttribute("data-your-move", v.your_move ? "1" : "0");
    b.setAttribute("data-over", v.over ? "1" : "0");
  }
  S.$("board").addEventListener("click", function (ev) {
    var t = ev.target.closest ? ev.target.closest(".site") : null;
    if (!t || !view || !view.your_move) return;
    var kind = t.getAttribute("data-kind"), at = parseInt(t.getAttribute("data-at"), 10);
    var ids = view.offers.sites[kind + ":" + at] || [];
    S.showError(S.$("error"), null);
    if (ids.length === 1) act({ action: ids[0] });
    else if (ids.length > 1) choose(kind + " " + t.getAttribute("data-id") + ": choose", ids);
    else act({ site: { kind: kind, at: at } });
  });
  S.$("replay-link").addEventListener("click", function (e) {
    e.preventDefault();
    S.call("POST", "/api/rooms/" + encodeURIComponent(token) + "/replay").then(function (r) {
      location.href = "/replay?replay=" + encodeURIComponent(r.id);
    }, failed);
  });

  if (token) connect();
  else setup();
})();
