// The scenario list: every .catan file under the folder and every shipped scenario.
"use strict";
(function () {
  var S = Studio;
  function players(p) { return p.min === p.max ? String(p.min) : p.min + "-" + p.max; }
  function options(opts) {
    return (opts || []).map(function (o) {
      return o.name + ": " + o.items.map(function (i) { return i.name + (i.name === o.default ? "*" : ""); }).join(", ");
    }).join("; ");
  }
  function row(tbody, s) {
    var tr = S.el("tr");
    tr.className = "scenario";
    tr.setAttribute("data-ref", s.ref);
    var a = S.el("a", s.label);
    a.href = "/author?ref=" + encodeURIComponent(s.ref);
    var td = S.el("td"); td.appendChild(a); tr.appendChild(td);
    if (s.pending) {
      tr.appendChild(S.el("td", "checking...", "pending"));
      tr.appendChild(S.el("td", "")); tr.appendChild(S.el("td", "")); tr.appendChild(S.el("td", ""));
    } else if (!s.ok) {
      tr.appendChild(S.el("td", s.problem ? s.first : s.errors + " error" + (s.errors === 1 ? "" : "s") + ": " + s.first,
                          "bad"));
      tr.appendChild(S.el("td", "")); tr.appendChild(S.el("td", "")); tr.appendChild(S.el("td", ""));
    } else {
      tr.appendChild(S.el("td", s.title, "title"));
      tr.appendChild(S.el("td", s.library ? "library" : players(s.players), "players"));
      tr.appendChild(S.el("td", options(s.options), "options"));
      td = S.el("td");
      if (!s.library) {
        var p = S.el("a", "play");
        p.href = "/play?ref=" + encodeURIComponent(s.ref);
        td.appendChild(p);
      }
      tr.appendChild(td);
    }
    tbody.appendChild(tr);
  }
  S.scenarios(function (data, done) {
    S.$("folder").textContent = data.folder;
    var files = document.querySelector("#files tbody"), shipped = document.querySelector("#shipped tbody");
    files.textContent = ""; shipped.textContent = "";
    data.files.forEach(function (s) { row(files, s); });
    data.shipped.forEach(function (s) { row(shipped, s); });
    if (!data.files.length) files.appendChild(S.el("tr", "no .catan files in this folder"));
    if (done) document.body.setAttribute("data-ready", "1");
  }, function (err) { S.showError(S.$("error"), err); });
})();
