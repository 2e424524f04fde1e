// The author view: the board for the chosen players, options and seed, the
// diagnostics with their source lines, and a reload when a file it reads changes.
"use strict";
(function () {
  var S = Studio, ref = S.param("ref"), watched = [], loads = 0, pending = null;
  var board = S.$("board");
  S.hoverIds(board, S.$("hover"));
  function query() {
    var q = new URLSearchParams();
    q.set("ref", ref);
    if (S.$("players").value) q.set("players", S.$("players").value);
    q.set("seed", S.$("seed").value || "1");
    var opts = S.chosenOptions(S.$("option-fields"));
    Object.keys(opts).forEach(function (k) { q.append("option", k + "=" + opts[k]); });
    return q;
  }
  function diagnostics(list) {
    var ol = S.$("diagnostics");
    ol.textContent = "";
    list.forEach(function (d) {
      var li = S.el("li");
      li.className = "sev-" + d.severity;
      li.setAttribute("data-code", d.code);
      li.appendChild(S.el("div", d.file + ":" + d.span.line + ":" + d.span.column + ": " + d.severity + "[" +
                                 d.code + "]: " + d.message, "head"));
      if (d.excerpt.length) {
        var ex = S.el("div", null, "excerpt");
        d.excerpt.forEach(function (l) {
          var line = S.el("div", null, l.here ? "here" : "");
          line.appendChild(S.el("span", String(l.line), "num"));
          line.appendChild(document.createTextNode(l.text));
          ex.appendChild(line);
        });
        li.appendChild(ex);
      }
      (d.notes || []).forEach(function (n) { li.appendChild(S.el("div", "note: " + n, "note")); });
      if (d.help) li.appendChild(S.el("div", "help: " + d.help, "help"));
      ol.appendChild(li);
    });
    if (!list.length) ol.appendChild(S.el("li", "no diagnostics", "clean"));
  }
  function show(data) {
    loads += 1;
    document.body.setAttribute("data-loads", String(loads));
    S.showError(S.$("error"), null);
    watched = data.watch || [];
    S.$("title").textContent = data.title || data.label;
    document.title = (data.title || data.label) + " - catandsl studio";
    S.$("counts").textContent = "(" + data.errors + " errors, " + data.warnings + " warnings)";
    diagnostics(data.diagnostics);
    if (data.players) {
      var chosen = data.chosen || {};
      S.playerChoices(S.$("players"), data.players.min, data.players.max, chosen.players || data.players.max);
      S.optionFields(S.$("option-fields"), data.options, chosen.options, load);
      S.$("play-link").href = "/play?ref=" + encodeURIComponent(ref);
    }
    var problem = S.$("problem");
    problem.hidden = !data.problem;
    problem.textContent = data.problem ? data.problem.code + ": " + data.problem.message : "";
    board.innerHTML = data.svg || "";
    board.setAttribute("data-state", data.svg ? "board" : "diagnostics");
    if (!data.svg && !data.problem && data.errors) {  // the diagnostics in place of the board
      var box = S.el("div", null, "board-diagnostics");
      box.appendChild(S.el("p", "no board: the file has " + data.errors + " error" + (data.errors === 1 ? "" : "s"),
                           "problem"));
      var ul = S.el("ul");
      data.diagnostics.forEach(function (d) {
        if (d.severity === "error") ul.appendChild(S.el("li", d.file + ":" + d.span.line + ": [" + d.code + "] " + d.message));
      });
      box.appendChild(ul);
      board.appendChild(box);
    }
    S.$("settings").hidden = !data.players;
  }
  function load() {
    if (!ref) { S.showError(S.$("error"), { code: "path/missing", message: "no scenario given" }); return; }
    var url = "/api/author?" + query().toString();
    pending = url;
    S.call("GET", url).then(function (data) {
      if (pending === url) show(data);
    }, function (err) { S.showError(S.$("error"), err); });
  }
  S.$("players").addEventListener("change", load);
  S.$("seed").addEventListener("change", load);
  S.$("settings").addEventListener("submit", function (e) { e.preventDefault(); load(); });
  load();
  // reload when a file the scenario reads changes on disk
  if (window.EventSource) {
    var events = new EventSource("/api/events");
    events.onmessage = function (m) {
      var changed = JSON.parse(m.data).changed || [];
      var mine = ref.indexOf("dir:") === 0 ? ref.slice(4) : null;
      if (changed.some(function (c) { return c === mine || watched.indexOf(c) >= 0; })) {
        S.$("reloaded").textContent = "reloaded: " + changed.join(", ") + " changed";
        load();
      }
    };
  }
})();
