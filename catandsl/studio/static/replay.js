// The replay view: a game's actions one step at a time, by turn, or played on.
"use strict";
(function () {
  var S = Studio, frame = null, timer = null, rid = null, loading = false;

  function showFrame(f) {
    frame = f;
    S.$("viewer").hidden = false;
    S.$("open").hidden = true;
    S.$("title").textContent = f.title;
    document.title = f.title + " (replay) - catandsl studio";
    S.$("board").innerHTML = f.svg;
    S.$("result").textContent = f.result || ("turn " + f.turn + (f.stage === "setup" ? " (set-up)" : ""));
    S.$("step").textContent = "step " + f.step + " of " + f.steps + ", turn " + f.turn;
    var slider = S.$("slider");
    slider.max = String(f.steps);
    slider.value = String(f.step);
    S.$("jump").max = f.turns.length ? String(f.turns[f.turns.length - 1][0]) : "0";
    S.playersTable(document.querySelector("#players-table tbody"), f.players);
    var log = S.$("log");
    log.textContent = f.log.join("\n");
    log.scrollTop = log.scrollHeight;
    document.body.setAttribute("data-step", String(f.step));
    document.body.setAttribute("data-steps", String(f.steps));
  }
  function go(k) {
    if (!frame || loading) return;
    k = Math.max(0, Math.min(frame.steps, k));
    loading = true;
    S.call("GET", "/api/replays/" + encodeURIComponent(rid) + "/" + k).then(function (f) {
      loading = false;
      S.showError(S.$("error"), null);
      showFrame(f);
    }, function (err) { loading = false; stop(); S.showError(S.$("error"), err); });
  }
  // the step that starts turn t (the set-up before turn 1 starts at 0)
  function turnStart(t) {
    var best = 0;
    frame.turns.forEach(function (ts) { if (ts[0] <= t) best = ts[1]; });
    return best;
  }
  function currentTurnIndex() {
    var k = -1;
    frame.turns.forEach(function (ts, i) { if (ts[1] <= frame.step) k = i; });
    return k;
  }
  function stop() {
    if (timer) { clearInterval(timer); timer = null; }
    S.$("autoplay").textContent = "autoplay";
  }
  S.$("first").onclick = function () { stop(); go(0); };
  S.$("last").onclick = function () { stop(); go(frame.steps); };
  S.$("prev").onclick = function () { stop(); go(frame.step - 1); };
  S.$("next").onclick = function () { stop(); go(frame.step + 1); };
  S.$("prev-turn").onclick = function () {
    stop();
    var i = currentTurnIndex();
    var start = i >= 0 ? frame.turns[i][1] : 0;
    go(start < frame.step ? start : (i > 0 ? frame.turns[i - 1][1] : 0));
  };
  S.$("next-turn").onclick = function () {
    stop();
    var i = currentTurnIndex();
    go(i + 1 < frame.turns.length ? frame.turns[i + 1][1] : frame.steps);
  };
  S.$("slider").oninput = function () { stop(); go(parseInt(S.$("slider").value, 10)); };
  S.$("jump-form").addEventListener("submit", function (e) {
    e.preventDefault();
    stop();
    go(turnStart(parseInt(S.$("jump").value || "0", 10)));
  });
  S.$("autoplay").onclick = function () {
    if (timer) { stop(); return; }
    if (frame.step >= frame.steps) go(0);
    this.textContent = "pause";
    timer = setInterval(function () {
      if (frame.step >= frame.steps) stop(); else go(frame.step + 1);
    }, 300);
  };
  document.addEventListener("keydown", function (e) {
    if (!frame || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") { stop(); go(frame.step - 1); }
    if (e.key === "ArrowRight") { stop(); go(frame.step + 1); }
  });

  function opened(f) {
    rid = f.id;
    history.replaceState(null, "", "/replay?replay=" + encodeURIComponent(rid) + "&step=" + f.step);
    showFrame(f);
  }
  function openForm() {
    S.$("open").hidden = false;
    var scenarios = {}, sel = S.$("ref");
    S.call("GET", "/api/scenarios").then(function (data) {
      data.files.concat(data.shipped).forEach(function (s) {
        if (!s.ok || s.library) return;
        scenarios[s.ref] = s;
        var o = S.el("option", s.title + " (" + s.label + ")");
        o.value = s.ref;
        sel.appendChild(o);
      });
      if (sel.value) S.optionFields(S.$("option-fields"), scenarios[sel.value].options, null, null);
      document.body.setAttribute("data-ready", "1");
    }, function (err) { S.showError(S.$("open-error"), err); });
    sel.addEventListener("change", function () {
      S.optionFields(S.$("option-fields"), scenarios[sel.value].options, null, null);
    });
    S.$("open-form").addEventListener("submit", function (e) {
      e.preventDefault();
      var f = S.$("file").files[0];
      if (!f) { S.showError(S.$("open-error"), { code: "replay/missing", message: "choose a file first" }); return; }
      f.text().then(function (text) {
        var body, save = null;
        try { save = JSON.parse(text); } catch (err) { save = null; }
        if (save && typeof save === "object" && !Array.isArray(save)) body = { save: save };
        else {
          body = { log: text, ref: S.$("ref").value, seed: parseInt(S.$("seed").value || "1", 10),
                   options: S.chosenOptions(S.$("option-fields")) };
          if (S.$("players").value) body.players = parseInt(S.$("players").value, 10);
        }
        S.call("POST", "/api/replays", body).then(opened, function (err) { S.showError(S.$("open-error"), err); });
      });
    });
  }
  var given = S.param("replay");
  if (given) {
    rid = given;
    S.call("GET", "/api/replays/" + encodeURIComponent(rid) + "/" + (S.param("step") || "0")).then(showFrame,
      function (err) { openForm(); S.showError(S.$("open-error"), err); });
  } else {
    openForm();
  }
})();
