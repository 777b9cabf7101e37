// Sortable and filterable tables from static files. Tables work as plain HTML without JavaScript;
// with it, every column heading of a table.sortable becomes a button, and a filter box narrows rows.
(function () {
  "use strict";
  function cellValue(row, index) {
    var cell = row.cells[index];
    if (!cell) { return ""; }
    var key = cell.getAttribute("data-sort");
    var text = key !== null ? key : cell.textContent.trim();
    var number = parseFloat(text);
    return isNaN(number) || !/^-?[0-9.]+(e-?[0-9]+)?$/i.test(text) ? text.toLowerCase() : number;
  }
  function sortBy(table, index, header) {
    var body = table.tBodies[0];
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) { th.removeAttribute("aria-sort"); });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a, index), y = cellValue(b, index);
      if (typeof x === typeof y) { return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1); }
      return typeof x === "number" ? -1 : 1;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  var TIER_ORDER = ["A", "B", "C", "D", "F"];
  // The tiers of a table's rows (`data-tier`), A to F first, then other states in order of appearance.
  function tierCounts(rows) {
    var counts = {}, order = [];
    rows.forEach(function (row) {
      var tier = row.getAttribute("data-tier");
      if (tier === null) { return; }
      if (!(tier in counts)) { counts[tier] = 0; order.push(tier); }
      counts[tier] += 1;
    });
    order.sort(function (a, b) {
      var x = TIER_ORDER.indexOf(a), y = TIER_ORDER.indexOf(b);
      return (x < 0 ? 99 : x) - (y < 0 ? 99 : y) || order.indexOf(a) - order.indexOf(b);
    });
    return order.map(function (tier) { return { tier: tier, count: counts[tier] }; });
  }
  function plural(count, word) { return count + " " + word + (count === 1 ? "" : "s"); }
  // A text filter (tables of more than 8 rows), a tier filter with the count of each tier (tables
  // marked data-tier-filter) and a live line saying how many rows are shown, or that none match.
  function addFilter(table) {
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var tiers = table.hasAttribute("data-tier-filter") ? tierCounts(rows) : [];
    var wrap = document.createElement("div");
    wrap.className = "table-filter";
    var input = null, select = null;
    if (rows.length > 8) {
      var label = document.createElement("label");
      input = document.createElement("input");
      input.type = "search";
      label.textContent = "Filter rows ";
      label.appendChild(input);
      wrap.appendChild(label);
    }
    if (tiers.length > 1) {
      var tierLabel = document.createElement("label");
      select = document.createElement("select");
      select.className = "tier-filter";
      tierLabel.textContent = "Show " + (table.getAttribute("data-tier-filter") || "tier") + " ";
      var all = document.createElement("option");
      all.value = "";
      all.textContent = "all (" + rows.length + ")";
      select.appendChild(all);
      tiers.forEach(function (entry) {
        var option = document.createElement("option");
        option.value = entry.tier;
        option.textContent = entry.tier + " (" + entry.count + ")";
        select.appendChild(option);
      });
      tierLabel.appendChild(select);
      wrap.appendChild(tierLabel);
    }
    if (!input && !select) { return; }
    var status = document.createElement("p");
    status.className = "table-status";
    status.setAttribute("role", "status");
    wrap.appendChild(status);
    var anchor = table.parentNode.classList.contains("table-wrap") ? table.parentNode : table;
    anchor.parentNode.insertBefore(wrap, anchor);
    function apply() {
      var needle = input ? input.value.trim().toLowerCase() : "";
      var tier = select ? select.value : "";
      var shown = 0;
      rows.forEach(function (row) {
        var keep = (needle === "" || row.textContent.toLowerCase().indexOf(needle) !== -1) &&
          (tier === "" || row.getAttribute("data-tier") === tier);
        row.hidden = !keep;
        if (keep) { shown += 1; }
      });
      status.textContent = shown === 0 ? "No rows match." :
        shown === rows.length ? plural(rows.length, "row") : "Showing " + shown + " of " + plural(rows.length, "row") + ".";
    }
    if (input) { input.addEventListener("input", apply); }
    if (select) { select.addEventListener("change", apply); }
    apply();
  }
  // A table.stack becomes one block per row on a phone (site.css): each cell is labelled with its
  // column's heading, so no column is cut off past the screen's edge.
  function labelCells(table) {
    if (!table.tHead || !table.tHead.rows.length) { return; }
    var labels = Array.prototype.map.call(table.tHead.rows[0].cells, function (th) { return th.textContent.trim(); });
    Array.prototype.forEach.call(table.tBodies, function (body) {
      Array.prototype.forEach.call(body.rows, function (row) {
        Array.prototype.forEach.call(row.cells, function (cell, index) {
          if (cell.tagName === "TD" && labels[index]) { cell.setAttribute("data-label", labels[index]); }
        });
      });
    });
  }
  function setup() {
    document.querySelectorAll("table.stack").forEach(labelCells);
    // A table wider than a phone scrolls sideways; keyboard users must be able to scroll it too.
    document.querySelectorAll("table.data").forEach(function (table) {
      if (table.scrollWidth > table.clientWidth && !table.hasAttribute("tabindex")) { table.setAttribute("tabindex", "0"); }
    });
    document.querySelectorAll("table.sortable").forEach(function (table) {
      if (!table.tHead || !table.tBodies[0]) { return; }
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "sort";
        while (th.firstChild) { button.appendChild(th.firstChild); }
        th.appendChild(button);
        button.addEventListener("click", function () { sortBy(table, index, th); });
      });
      addFilter(table);
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setup); } else { setup(); }
})();
