// catandsl studio: what every view shares. No build step: plain browser JavaScript.
"use strict";
var Studio = (function () {
  function $(id) { return document.getElementById(id); }
  // a JSON call; resolves with the answer, rejects with the typed error {code, message}
  function call(method, url, body) {
    var init = { method: method, headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(url, init).then(function (r) {
      return r.text().then(function (text) {
        var data;
        try { data = JSON.parse(text); } catch (e) {
          throw { code: "studio/reply", message: "the server answered " + r.status + " without JSON" };
        }
        if (!r.ok || data.error) throw data.error || { code: "studio/reply", message: "HTTP " + r.status };
        return data;
      });
    }, function () { throw { code: "studio/offline", message: "the studio server cannot be reached" }; });
  }
  function showError(el, err) {
    if (!err) { el.hidden = true; el.textContent = ""; return; }
    el.hidden = false;
    el.textContent = (err.code ? err.code + ": " : "") + (err.message || String(err));
    el.setAttribute("data-code", err.code || "");
  }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  // hovering a site shows its id (the language's coordinates) in the #hover line
  function hoverIds(board, line) {
    board.addEventListener("mouseover", function (ev) {
      var t = ev.target.closest ? ev.target.closest(".site") : null;
      if (t) line.textContent = t.getAttribute("data-kind") + " " + t.getAttribute("data-id");
    });
  }
  function counts(obj) {
    var parts = [];
    Object.keys(obj || {}).forEach(function (k) { if (obj[k]) parts.push(obj[k] + " " + k); });
    return parts.join(", ");
  }
  function playersTable(tbody, players) {
    tbody.textContent = "";
    players.forEach(function (p) {
      var tr = el("tr");
      tr.setAttribute("data-seat", p.seat);
      var name = el("td");
      var sw = el("span", "", "swatch");
      sw.style.background = p.colour;
      name.appendChild(sw);
      name.appendChild(document.createTextNode(p.name + (p.you ? " (you)" : p.bot ? " (" + p.bot + ")" : "")));
      tr.appendChild(name);
      tr.appendChild(el("td", String(p.points), "points"));
      var hand = p.hand ? counts(p.hand) : "";
      var handCount = p.hand_count !== undefined ? p.hand_count :
        Object.keys(p.hand || {}).reduce(function (a, k) { return a + p.hand[k]; }, 0);
      var td = el("td", String(handCount));
      if (hand) td.appendChild(el("span", " " + hand, "detail"));
      tr.appendChild(td);
      var cards = p.cards ? counts(p.cards) : "";
      var cardCount = p.card_count !== undefined ? p.card_count :
        Object.keys(p.cards || {}).reduce(function (a, k) { return a + p.cards[k]; }, 0);
      td = el("td", String(cardCount));
      if (cards) td.appendChild(el("span", " " + cards, "detail"));
      tr.appendChild(td);
      tr.appendChild(el("td", counts(p.played) || "-"));
      tr.appendChild(el("td", (p.awards || []).join(", ") || "-"));
      tbody.appendChild(tr);
    });
  }
  // option selects for a scenario's options; onchange is called on a change
  function optionFields(span, options, chosen, onchange) {
    span.textContent = "";
    (options || []).forEach(function (o) {
      var label = el("label", (o.title || o.name) + " ");
      var sel = el("select");
      sel.name = "option"; sel.setAttribute("data-option", o.name);
      o.items.forEach(function (i) {
        var opt = el("option", i.title || i.name);
        opt.value = i.name;
        if ((chosen && chosen[o.name] ? chosen[o.name] : o.default) === i.name) opt.selected = true;
        sel.appendChild(opt);
      });
      if (onchange) sel.addEventListener("change", onchange);
      label.appendChild(sel);
      span.appendChild(label);
    });
  }
  function chosenOptions(span) {
    var out = {};
    span.querySelectorAll("select[data-option]").forEach(function (s) { out[s.getAttribute("data-option")] = s.value; });
    return out;
  }
  function playerChoices(select, lo, hi, chosen) {
    select.textContent = "";
    for (var n = lo; n <= hi; n++) {
      var o = el("option", String(n));
      o.value = String(n);
      if (n === chosen) o.selected = true;
      select.appendChild(o);
    }
  }
  function param(name) { return new URLSearchParams(location.search).get(name); }
  // the scenario list: `onData(data, done)` with each answer; a listing compiles a few
  // files at a time, so while some are `pending` it is asked for again
  function scenarios(onData, onError) {
    call("GET", "/api/scenarios").then(function (data) {
      var pending = data.files.concat(data.shipped).some(function (s) { return s.pending; });
      onData(data, !pending);
      if (pending) setTimeout(function () { scenarios(onData, onError); }, 300);
    }, onError);
  }
  // ---- what a play page and a hosted game's page share: the person's choices ----------------
  var BUTTONS_AT_MOST = 12;  // a longer group is a list to choose from
  // the box that asks which of several actions a click on the board meant; `byId(id)` the
  // offered action, `act(body)` sends the choice
  function chooseBox(title, ids, byId, act) {
    var box = $("choice"), buttons = $("choice-buttons");
    $("choice-title").textContent = title;
    buttons.textContent = "";
    ids.forEach(function (id) {
      var a = byId(id), b = el("button", a ? a.label : String(id));
      b.type = "button";
      b.setAttribute("data-action", id);
      if (a && a.action && a.action.kind) b.setAttribute("data-action-kind", a.action.kind);
      b.addEventListener("click", function () { box.hidden = true; act({ action: id }); });
      buttons.appendChild(b);
    });
    var cancel = el("button", "cancel");
    cancel.type = "button";
    cancel.className = "cancel";
    cancel.addEventListener("click", function () { box.hidden = true; });
    buttons.appendChild(cancel);
    box.hidden = false;
  }
  // one group of offered actions (one kind): buttons, or a list when there are many or
  // they stand on the board; a trade group shows the seat's rates
  function actionGroup(g, act) {
    var fs = el("fieldset");
    fs.setAttribute("data-kind", g.kind);
    fs.appendChild(el("legend", g.title));
    if (g.rates) {  // the seat's rate per resource: the bank's, or a harbor's
      fs.appendChild(el("p", "your rates: " + Object.keys(g.rates).map(function (r) {
        return r + " " + g.rates[r] + ":1"; }).join(", "), "note rates"));
    }
    var onBoard = g.actions.every(function (a) { return a.site; });
    if (onBoard) fs.appendChild(el("p", "click a highlighted site on the board, or:", "note"));
    if (g.actions.length > BUTTONS_AT_MOST || (onBoard && g.actions.length > 1)) {
      var sel = el("select");
      g.actions.forEach(function (a) { var o = el("option", a.label); o.value = String(a.id); sel.appendChild(o); });
      var go = el("button", "do it");
      go.type = "button";
      go.className = "do";
      go.addEventListener("click", function () { act({ action: parseInt(sel.value, 10) }); });
      fs.appendChild(sel);
      fs.appendChild(go);
    } else {
      g.actions.forEach(function (a) {
        var b = el("button", a.label);
        b.type = "button";
        b.setAttribute("data-action", a.id);
        if (a.action && a.action.kind) b.setAttribute("data-action-kind", a.action.kind);
        b.addEventListener("click", function () { act({ action: a.id }); });
        fs.appendChild(b);
      });
    }
    return fs;
  }
  // the domestic trade as the seat sees it: the offer on the table, its answers and
  // counter-offers, and the seat's own draft (no one else's)
  function seatName(v, p) { return p >= 0 && v.players[p] ? v.players[p].name : "everyone"; }
  function terms(t) { return (counts(t.give) || "nothing") + " for " + (counts(t.get) || "nothing"); }
  function showTrade(v) {
    var box = $("trade"), t = v.trade || {};
    box.textContent = "";
    box.hidden = !t.offer && !t.draft;
    if (t.offer) {
      var o = t.offer;
      box.appendChild(el("p", seatName(v, o.proposer) + " offers " + terms(o) + " to " + seatName(v, o.to)));
      var answers = [];
      o.accepted.forEach(function (p) { answers.push(seatName(v, p) + " accepts"); });
      o.declined.forEach(function (p) { answers.push(seatName(v, p) + " declines"); });
      o.counters.forEach(function (c) { answers.push(seatName(v, c.player) + " counters: " + terms(c)); });
      if (o.asked && o.asked.length) answers.push("waiting for " + o.asked.map(function (p) { return seatName(v, p); }).join(", "));
      answers.forEach(function (a) { box.appendChild(el("p", a, "note")); });
    }
    if (t.draft) {
      var d = t.draft, what = d.counter ? "your counter-offer: " : "your draft: ";
      box.appendChild(el("p", what + "you give " + (counts(d.give) || "nothing") + ", you get " +
                         (counts(d.get) || "nothing") + (d.to !== undefined ? ", to " + seatName(v, d.to) : "")));
    }
  }

  // ---- the guide beside the board: dice, the moves since the person's last, costs, terrains ----------
  var PACE = 600, LIT = 1500;  // ms between the moves shown since the person's last; how long a site stays lit
  function chip(v, res, n) {
    var c = el("span", "", "res");
    var sw = el("span", "", "swatch");
    sw.style.background = (v.resource_colours || {})[res] || "#ccc";
    c.appendChild(sw);
    c.appendChild(document.createTextNode((n > 1 ? n + " " : "") + res));
    return c;
  }
  var cardOf = null;
  // the cost card and the terrains: the scenario's declarations, drawn once per game (`key`),
  // and again when a cost that depends on a value changes
  function showCard(v, key) {
    var drawn = key + "|" + JSON.stringify(v.costs || []);
    if (cardOf === drawn) return;
    cardOf = drawn;
    var body = document.querySelector("#costs tbody"), list = $("terrains");
    body.textContent = "";
    list.textContent = "";
    (v.costs || []).forEach(function (c) {
      var tr = el("tr"), td = el("td");
      tr.appendChild(el("td", c.varies ? c.name + " (now)" : c.name));
      Object.keys(c.cost).forEach(function (r) {
        td.appendChild(chip(v, r, c.cost[r]));
        td.appendChild(document.createTextNode(" "));
      });
      tr.appendChild(td);
      body.appendChild(tr);
    });
    (v.terrains || []).forEach(function (t) {
      var li = el("li"), sw = el("span", "", "swatch");
      sw.style.background = t.colour;
      li.appendChild(sw);
      li.appendChild(document.createTextNode(t.name + (t.produces ? ": " + t.produces : "")));
      list.appendChild(li);
    });
  }
  var FACES = ["", "\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];
  function showDice(v) {
    var box = $("dice");
    box.textContent = "";
    box.hidden = !v.dice;
    if (!v.dice) return;
    box.appendChild(el("span", "last roll:", "note"));
    v.dice.faces.forEach(function (f) {
      var d = el("span", FACES[f.face] || String(f.face), "die");
      d.title = f.die + " " + f.face;
      box.appendChild(d);
    });
    var total = el("span", String(v.dice.total), "die total");
    total.setAttribute("data-total", v.dice.total);
    box.appendChild(total);
    if (v.dice.by >= 0 && v.players[v.dice.by]) box.appendChild(el("span", "rolled by " + v.players[v.dice.by].name, "note"));
  }
  // sites lit for a moment: kept through a new drawing of the board (`relight` after it)
  var lights = [];
  function litSite(l) { return $("board").querySelector(".site[data-kind='" + l.kind + "'][data-at='" + l.at + "']"); }
  function relight() {
    var now = Date.now();
    lights = lights.filter(function (l) { return l.until > now; });
    lights.forEach(function (l) {
      var e = litSite(l);
      if (!e) return;
      e.style.setProperty("--seat", l.colour);
      e.classList.add("recent");
    });
  }
  function light(site, colour) {
    var l = { kind: site.kind, at: site.at, colour: colour, until: Date.now() + LIT };
    lights.push(l);
    relight();
    setTimeout(function () {
      lights = lights.filter(function (x) { return x !== l; });
      var e = litSite(l);
      if (e && !lights.some(function (x) { return x.kind === l.kind && x.at === l.at; })) e.classList.remove("recent");
    }, LIT);
  }
  // the moves since the person's last, one after the other, each site lit a moment; with
  // `onlyNew`, the moves a page already showed are listed at once and not lit again
  var paceTimers = [], litUpTo = -1;
  function pace(v, stamp, onlyNew) {
    paceTimers.forEach(clearTimeout);
    paceTimers = [];
    var box = $("recent"), items = v.recent || [];
    box.textContent = "";
    box.hidden = !items.length;
    if (!items.length) { document.body.setAttribute("data-paced", stamp); return; }
    box.appendChild(el("p", v.seat >= 0 ? "since your last move:" : "the last moves:", "note"));
    var fresh = onlyNew ? items.filter(function (r) { return r.n > litUpTo; }) : items;
    litUpTo = Math.max(litUpTo, items[items.length - 1].n);
    function line(r) {
      var colour = r.seat >= 0 && v.players[r.seat] ? v.players[r.seat].colour : "#888";
      var p = el("p", r.line, "recent-line");
      p.style.borderLeft = "4px solid " + colour;
      box.appendChild(p);
      return colour;
    }
    items.slice(0, items.length - fresh.length).forEach(line);
    if (!fresh.length) { document.body.setAttribute("data-paced", stamp); return; }
    fresh.forEach(function (r, i) {
      paceTimers.push(setTimeout(function () {
        var colour = line(r);
        if (r.site) light(r.site, colour);
        if (i === fresh.length - 1) document.body.setAttribute("data-paced", stamp);
      }, i * PACE));
    });
  }
  // cards given or taken one per action (a discard): chosen together, confirmed once
  function cardPicker(v, g, act) {
    var need = v.by_card.count, you = v.players[v.seat] || {}, hand = you.hand || {};
    var fs = el("fieldset", "", "by-card");
    fs.setAttribute("data-kind", g.kind);
    fs.appendChild(el("legend", g.title + ": choose " + need + " card" + (need === 1 ? "" : "s")));
    var chosen = {}, confirm = el("button", "");
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
      var pick = el("span", "", "pick"), count = el("span", "0", "count");
      pick.setAttribute("data-resource", res);
      var less = el("button", "\u2212"), more = el("button", "+");
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
    fs.appendChild(el("br"));
    fs.appendChild(confirm);
    refresh();
    return fs;
  }
  function pickable(v, g) {
    return v.by_card && g.actions.length && g.actions.every(function (a) { return a.action && a.action.resource; });
  }
  return { $: $, call: call, showError: showError, el: el, hoverIds: hoverIds, playersTable: playersTable,
           optionFields: optionFields, chosenOptions: chosenOptions, playerChoices: playerChoices, param: param,
           counts: counts, scenarios: scenarios, chooseBox: chooseBox, actionGroup: actionGroup,
           showTrade: showTrade, showCard: showCard, showDice: showDice, relight: relight, pace: pace,
           cardPicker: cardPicker, pickable: pickable };
})();
