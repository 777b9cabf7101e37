// The comparison a visitor chose: compare/?s=<slug>&s=<slug> (two to four servers). Each server's
// column is made from its API JSON (api/servers/<slug>.json) with the texts the static comparisons
// print (builder/tdqs/pages/compare.py); every text goes in with textContent.
(function () {
  "use strict";
  var MOST = 4;
  var SLUG = /^[a-z0-9_-]{1,80}$/;
  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  var TOOL_KEYS = ["purpose_clarity", "usage_guidelines", "behavioral_transparency", "parameter_semantics",
    "conciseness_structure", "contextual_completeness"];
  var COHERENCE_KEYS = ["disambiguation", "naming_consistency", "tool_count_appropriateness", "completeness"];
  function one(value) { return value.toFixed(1); }  // scores are published with one decimal already
  function meanOf(sum, count) {  // sum / count to two decimals, half up, in integers (as builder.numbers)
    var units = Math.floor((200 * sum + count) / (2 * count));
    var part = units % 100;
    return Math.floor(units / 100) + "." + (part < 10 ? "0" : "") + part;
  }
  function dayWords(stamp) {
    var match = /^(\d{4})-(\d{2})-(\d{2})/.exec(stamp || "");
    if (!match || +match[2] < 1 || +match[2] > 12) { return stamp || "—"; }
    return (+match[3]) + " " + MONTHS[+match[2] - 1] + " " + match[1];
  }
  function grade(tier, score, published) {
    if (!published || score === null || score === undefined) { return { text: "not published", state: true }; }
    return { text: one(score), tier: tier };
  }
  function measures(server) {
    var s = server.scores, tools = server.tools || [], cells = {};
    cells.overall = grade(s.overallTier, s.overallScore, s.coverageOk);
    cells.description_quality = grade(s.descriptionQualityTier, s.descriptionQualityScore, s.coverageOk);
    cells.coherence = grade(s.coherenceTier, s.coherenceScore, true);
    cells.mean_tdqs = { text: one(s.meanTdqs) };
    cells.min_tdqs = { text: one(s.minTdqs) };
    TOOL_KEYS.forEach(function (key) {
      var sum = 0;
      tools.forEach(function (tool) { sum += tool.scores[key]; });
      cells[key] = { text: tools.length ? meanOf(sum, tools.length) : "—" };
    });
    COHERENCE_KEYS.forEach(function (key) { cells[key] = { text: server.coherence[key] + " of 5" }; });
    cells.coverage = { text: s.scoredToolCount + " of " + s.toolCount + (s.coverageOk ? "" : " (below 80%: not published)") };
    var when = server.provenance.scoredAt;
    cells.scored = { text: dayWords(when), datetime: when };
    return cells;
  }
  function cellNode(cell) {
    var td = document.createElement("td"), inner;
    td.className = "num";
    if (cell.tier) {
      inner = document.createElement("span");
      inner.className = "tier tier-" + String(cell.tier).toLowerCase();
      inner.textContent = cell.tier + " " + cell.text;
    } else if (cell.state) {
      inner = document.createElement("span");
      inner.className = "state";
      inner.textContent = cell.text;
    } else if (cell.datetime) {
      inner = document.createElement("time");
      inner.setAttribute("datetime", cell.datetime);
      inner.textContent = cell.text;
    } else {
      inner = document.createTextNode(cell.text);
    }
    td.appendChild(inner);
    return td;
  }
  function setup() {
    var table = document.getElementById("compare-table");
    var status = document.getElementById("compare-status");
    if (!table || !status) { return; }
    var root = table.getAttribute("data-root") || "../";
    var chosen = [], unknown = [];
    // ?s=a&s=b as the list's button writes it, and ?s=a,b as a person types or shares it.
    new URLSearchParams(window.location.search).getAll("s").forEach(function (value) {
      value.split(",").forEach(function (slug) {
        slug = slug.trim();
        if (!slug) { return; }
        if (!SLUG.test(slug)) { unknown.push(slug); } else if (chosen.indexOf(slug) < 0) { chosen.push(slug); }
      });
    });
    var dropped = chosen.length - MOST;
    chosen = chosen.slice(0, MOST);
    if (chosen.length < 2) {  // the page's own text says how to choose
      var said = unknown.length ? "No server id is " + unknown.join(", ") + ". " : "";
      status.textContent = said + (chosen.length ? "One server chosen: choose at least two." :
        unknown.length ? "Choose two to four servers on the servers list." : "");
      return;
    }
    status.textContent = "Loading " + chosen.length + " servers…";
    Promise.all(chosen.map(function (slug) {
      return fetch(root + "api/servers/" + slug + ".json").then(function (response) {
        return response.ok ? response.json() : null;
      }, function () { return null; });
    })).then(function (servers) {
      var head = table.tHead.rows[0];
      var missing = [];
      servers.forEach(function (server, index) {
        if (!server || !server.scores) { missing.push(chosen[index]); return; }
        var th = document.createElement("th");
        th.setAttribute("scope", "col");
        var link = document.createElement("a");
        link.href = root + "servers/" + chosen[index] + "/";
        link.textContent = server.displayName;
        th.appendChild(link);
        th.appendChild(document.createElement("br"));
        var small = document.createElement("small");
        small.textContent = server.identity || server.id;
        th.appendChild(small);
        head.appendChild(th);
        var cells = measures(server);
        Array.prototype.forEach.call(table.querySelectorAll("tr[data-measure]"), function (row) {
          row.appendChild(cellNode(cells[row.getAttribute("data-measure")]));
        });
      });
      var shown = head.cells.length - 1;
      Array.prototype.forEach.call(table.querySelectorAll("tr.group th"), function (th) { th.colSpan = shown + 1; });
      var words = "Comparing " + shown + " server" + (shown === 1 ? "" : "s") + ".";
      if (missing.length) { words += " No scored server at " + missing.join(", ") + "."; }
      if (dropped > 0) { words += " Only the first " + MOST + " of those chosen are shown."; }
      status.textContent = words;
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setup); } else { setup(); }
})();
