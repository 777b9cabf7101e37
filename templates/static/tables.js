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
  function addFilter(table) {
    var wrap = document.createElement("div");
    wrap.className = "table-filter";
    var label = document.createElement("label");
    var input = document.createElement("input");
    input.type = "search";
    label.textContent = "Filter rows ";
    label.appendChild(input);
    wrap.appendChild(label);
    var anchor = table.parentNode.classList.contains("table-wrap") ? table.parentNode : table;
    anchor.parentNode.insertBefore(wrap, anchor);
    input.addEventListener("input", function () {
      var needle = input.value.trim().toLowerCase();
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        row.hidden = needle !== "" && row.textContent.toLowerCase().indexOf(needle) === -1;
      });
    });
  }
  function setup() {
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
      if (table.tBodies[0].rows.length > 8) { addFilter(table); }
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setup); } else { setup(); }
})();
