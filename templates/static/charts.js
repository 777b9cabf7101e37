// Draws every Plotly figure embedded on the page as <script type="application/json" class="plot-data">.
// No inline script anywhere: the Content-Security-Policy forbids it.
(function () {
  "use strict";
  function colours() {
    var style = getComputedStyle(document.documentElement);
    return { fg: style.getPropertyValue("--fg").trim() || "#1f2328", line: style.getPropertyValue("--line").trim() || "#d0d7de" };
  }
  function draw() {
    if (!window.Plotly) { return; }
    var c = colours();
    document.querySelectorAll("script.plot-data").forEach(function (node) {
      var target = document.getElementById(node.getAttribute("data-target"));
      if (!target) { return; }
      var figure = JSON.parse(node.textContent);
      var layout = figure.layout || {};
      layout.height = layout.height || 320;
      layout.margin = layout.margin || { l: 50, r: 20, t: 40, b: 50 };
      layout.paper_bgcolor = "rgba(0,0,0,0)";
      layout.plot_bgcolor = "rgba(0,0,0,0)";
      layout.font = { color: c.fg, family: "system-ui, sans-serif" };
      ["xaxis", "yaxis"].forEach(function (axis) {
        layout[axis] = Object.assign({ gridcolor: c.line, zerolinecolor: c.line, automargin: true }, layout[axis] || {});
      });
      window.Plotly.newPlot(target, figure.data, layout, { displaylogo: false, displayModeBar: false, responsive: true });
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", draw); } else { draw(); }
})();
