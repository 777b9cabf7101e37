// Draws the page's Plotly charts. No inline script anywhere: the Content-Security-Policy forbids it.
// A chart is either a figure embedded as <script type="application/json" class="plot-data">, or built
// here from data the page already shows, so the numbers travel once:
//   <ul data-plot="TDQS">: a history list, newest first; each item starts with its date (YYYY-MM-DD)
//     and holds its score in a child .tier ("A 4.7"); an item without one is a gap.
//   <table data-plot="…">: tools worst first; first cell the name, second cell data-sort the TDQS
//     and a .tier-x badge giving the bar's colour.
// plotly.min.js sits beside this file and is loaded only when the page has something to draw.
(function () {
  "use strict";
  var MAX_BARS = 60;
  var self = document.currentScript;
  var plotly = new URL("plotly.min.js", self ? self.src : document.baseURI).href;

  // Plotly renders a subset of HTML in labels, hover text and titles (<a href>, <b>, <br>, entities):
  // names read from the page are third-party text, so they go in escaped and show as written.
  function plain(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }
  // The page's one tier→colour map: the --tiercolour-* custom properties base.html sets (builder/tier_colours.py).
  function tierColour(tier) {
    var style = getComputedStyle(document.documentElement);
    return style.getPropertyValue("--tiercolour-" + (tier || "none")).trim() || style.getPropertyValue("--tiercolour-none").trim();
  }
  function child(node, className) {
    for (var i = 0; i < node.children.length; i++) {
      if (node.children[i].classList.contains(className)) { return node.children[i]; }
    }
    return null;
  }
  function scoreOf(badge) {
    var match = badge ? /(\d+(?:\.\d+)?)\s*$/.exec(badge.textContent) : null;
    return match ? parseFloat(match[1]) : null;
  }
  function figureFor(node, label, before) {
    var figure = document.createElement("figure");
    var plot = document.createElement("div");
    figure.className = "chart";
    plot.className = "plot";
    plot.setAttribute("role", "img");
    plot.setAttribute("aria-label", label);
    figure.appendChild(plot);
    node.parentNode.insertBefore(figure, before ? node : node.nextSibling);
    return plot;
  }
  function historyFigure(list) {
    var name = list.getAttribute("data-plot");
    var x = [], y = [];
    Array.prototype.forEach.call(list.children, function (item) {
      x.unshift(plain(item.textContent.trim().slice(0, 10)));
      y.unshift(scoreOf(child(item, "tier")));
    });
    return {
      target: figureFor(list, name + " across captures (values listed below)", true),
      data: [{ type: "scatter", mode: "lines+markers", x: x, y: y }],
      layout: { height: 240, title: { text: plain(name) + " across captures" }, xaxis: {}, yaxis: { range: [1, 5], title: { text: plain(name) } } }
    };
  }
  function barsFigure(table) {
    var name = table.getAttribute("data-plot");
    var rows = Array.prototype.map.call(table.tBodies[0].rows, function (row) {
      var badge = row.cells[1].querySelector(".tier");
      var tier = badge ? (badge.className.match(/tier-([a-z]+)/) || [])[1] : "";
      return { name: plain(row.cells[0].textContent.trim()), tdqs: parseFloat(row.cells[1].getAttribute("data-sort")), colour: tierColour(tier) };
    });
    rows.sort(function (p, q) { return p.tdqs - q.tdqs || (p.name < q.name ? -1 : p.name > q.name ? 1 : 0); });
    if (rows.length > MAX_BARS) { return histogramFigure(table, rows); }
    return {
      target: figureFor(table, name, false),
      data: [{ type: "bar", orientation: "h", x: rows.map(function (r) { return r.tdqs; }), y: rows.map(function (r) { return r.name; }),
               marker: { color: rows.map(function (r) { return r.colour; }) } }],
      // Bars start at the axis (0), so a tool scoring 1.0 still has a bar; one line of height per tool.
      layout: { title: { text: plain(name) }, height: Math.max(240, 90 + 22 * rows.length),
                xaxis: { range: [0, 5], title: { text: "TDQS" } }, yaxis: { autorange: "reversed" } }
    };
  }
  // Past MAX_BARS tools a bar per tool is unreadable: a histogram of the tools' TDQS in tenths,
  // each bar in its tier's colour (every value in a bar shares one tier).
  function histogramFigure(table, rows) {
    var counts = {};
    rows.forEach(function (r) {
      var key = r.tdqs.toFixed(1);
      counts[key] = counts[key] || { count: 0, colour: r.colour };
      counts[key].count += 1;
    });
    var keys = Object.keys(counts).sort(function (a, b) { return parseFloat(a) - parseFloat(b); });
    var label = "TDQS of the " + rows.length + " tools (histogram)";
    return {
      target: figureFor(table, label, false),
      data: [{ type: "bar", x: keys.map(parseFloat), y: keys.map(function (k) { return counts[k].count; }),
               marker: { color: keys.map(function (k) { return counts[k].colour; }) } }],
      layout: { title: { text: label }, bargap: 0.05, xaxis: { range: [0.95, 5.05], title: { text: "TDQS" } },
                yaxis: { title: { text: "tools" }, rangemode: "tozero" } }
    };
  }
  function figures() {
    var found = [];
    document.querySelectorAll("script.plot-data").forEach(function (node) {
      var target = document.getElementById(node.getAttribute("data-target"));
      if (target) {
        var figure = JSON.parse(node.textContent);
        found.push({ target: target, data: figure.data, layout: figure.layout || {} });
      }
    });
    document.querySelectorAll("ul[data-plot]").forEach(function (list) { found.push(historyFigure(list)); });
    document.querySelectorAll("table[data-plot]").forEach(function (table) {
      if (table.tBodies[0] && table.tBodies[0].rows.length) { found.push(barsFigure(table)); }
    });
    return found;
  }
  function draw(found) {
    var style = getComputedStyle(document.documentElement);
    var fg = style.getPropertyValue("--fg").trim() || "#1f2328";
    var line = style.getPropertyValue("--line").trim() || "#d0d7de";
    found.forEach(function (figure) {
      var layout = figure.layout;
      layout.height = layout.height || 320;
      layout.margin = layout.margin || { l: 50, r: 20, t: 40, b: 50 };
      layout.paper_bgcolor = "rgba(0,0,0,0)";
      layout.plot_bgcolor = "rgba(0,0,0,0)";
      layout.font = { color: fg, family: "system-ui, sans-serif" };
      ["xaxis", "yaxis"].forEach(function (axis) {
        layout[axis] = Object.assign({ gridcolor: line, zerolinecolor: line, automargin: true }, layout[axis] || {});
      });
      window.Plotly.newPlot(figure.target, figure.data, layout, { displaylogo: false, displayModeBar: false, responsive: true });
    });
  }
  function start() {
    var found = figures();
    if (!found.length) { return; }
    if (window.Plotly) { draw(found); return; }
    var script = document.createElement("script");
    script.src = plotly;
    script.addEventListener("load", function () { draw(found); });
    document.head.appendChild(script);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
