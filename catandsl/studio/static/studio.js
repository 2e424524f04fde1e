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
  return { $: $, call: call, showError: showError, el: el, hoverIds: hoverIds, playersTable: playersTable,
           optionFields: optionFields, chosenOptions: chosenOptions, playerChoices: playerChoices, param: param,
           counts: counts, scenarios: scenarios };
})();
