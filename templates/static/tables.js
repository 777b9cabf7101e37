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
  // A sort chosen by a heading is kept in the page's address, `?sort=<table>.<column>.<asc|desc>`
  // (history.replaceState, one value a table): Back to the page, a reload or the address shared
  // shows the table sorted the same way. <table> is the table's id, else t1, t2 … in page order;
  // <column> its heading's words (`mean-tdqs`).
  function columnKey(th) {
    return th.textContent.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  }
  function parseSort(value) {
    var last = value.lastIndexOf("."), middle = value.lastIndexOf(".", last - 1);
    if (middle < 1) { return null; }
    return { table: value.slice(0, middle), column: value.slice(middle + 1, last), direction: value.slice(last + 1) };
  }
  function rememberSort(key, th, ascending) {
    var params = new URLSearchParams(location.search);
    var kept = params.getAll("sort").filter(function (value) {
      var sort = parseSort(value);
      return !sort || sort.table !== key;
    });
    params.delete("sort");
    kept.concat([key + "." + columnKey(th) + "." + (ascending ? "asc" : "desc")]).forEach(function (value) {
      params.append("sort", value);
    });
    history.replaceState(history.state, "", location.pathname + "?" + params.toString() + location.hash);
  }
  // The sort the address names for the table `key`: {index, ascending}, or null.
  function chosenSort(key, headers) {
    var found = null;
    new URLSearchParams(location.search).getAll("sort").forEach(function (value) {
      var sort = parseSort(value);
      if (!sort || sort.table !== key || (sort.direction !== "asc" && sort.direction !== "desc")) { return; }
      headers.forEach(function (th, index) {
        if (columnKey(th) === sort.column) { found = { index: index, ascending: sort.direction === "asc" }; }
      });
    });
    return found;
  }
  function sortBy(table, index, header, chosen) {
    var body = table.tBodies[0];
    var ascending = chosen !== undefined ? chosen : header.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) { th.removeAttribute("aria-sort"); });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a, index), y = cellValue(b, index);
      if (typeof x === typeof y) { return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1); }
      return typeof x === "number" ? -1 : 1;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    return ascending;
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
        // A server's row also carries what else it is found by (its id, repository and owner: data-find).
        var find = row.querySelector("[data-find]");
        var text = row.textContent + " " + (find ? find.getAttribute("data-find") : "");
        var keep = (needle === "" || text.toLowerCase().indexOf(needle) !== -1) &&
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
  // A list cut into pages (builder/pages/tdqs_server_list.py): the page holds one page of rows, and
  // the whole list is in the JSON file named by data-list, loaded only when the visitor first sorts
  // or filters. Its rows carry the same cell texts the pages show; the script only lays them out.
  var SHOWN = 50;
  function wholeList(table, tableKey) {
    var body = table.tBodies[0];
    var original = Array.prototype.slice.call(body.rows);
    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var numeric = headers.map(function (th) { return th.classList.contains("num"); });
    var root = (table.getAttribute("data-root") || "").replace(/index\.html$/, "");
    var onlyTier = table.getAttribute("data-list-tier");
    var pagers = document.querySelectorAll("nav.pager");
    var list = null, loading = null, matches = [], shown = 0, sortIndex = -1, ascending = false;
    var wrap = document.createElement("div");
    wrap.className = "table-filter";
    var label = document.createElement("label");
    var input = document.createElement("input");
    input.type = "search";
    label.textContent = "Find a server ";
    label.appendChild(input);
    wrap.appendChild(label);
    var status = document.createElement("p");
    status.className = "table-status";
    status.setAttribute("role", "status");
    wrap.appendChild(status);
    var more = document.createElement("button");
    more.type = "button";
    more.className = "more";
    more.textContent = "Show " + SHOWN + " more";
    more.hidden = true;
    var anchor = table.parentNode.classList.contains("table-wrap") ? table.parentNode : table;
    anchor.parentNode.insertBefore(wrap, anchor);
    anchor.parentNode.insertBefore(more, anchor.nextSibling);
    function load() {
      if (!loading) {
        status.textContent = "Loading the whole list…";
        loading = fetch(table.getAttribute("data-list")).then(function (response) {
          if (!response.ok) { throw new Error(response.status + " " + response.statusText); }
          return response.json();
        }).then(function (data) { list = data.rows; return list; }, function (error) {
          loading = null;
          status.textContent = "The whole list could not be loaded (" + error.message + ").";
          throw error;
        });
      }
      return loading;
    }
    function cellNode(values, index) {
      var td = document.createElement("td");
      var sort = values[0], text = values[1], tier = values[2], state = values[3], datetime = values[4], prefix = values[5];
      if (numeric[index]) { td.className = "num"; } else if (datetime) { td.className = "date"; }
      td.setAttribute("data-sort", String(sort));
      if (prefix) { td.appendChild(document.createTextNode(prefix)); }
      var inner;
      if (tier) {
        inner = document.createElement("span");
        inner.className = "tier tier-" + tier.toLowerCase();
        inner.textContent = tier + " " + text;
      } else if (state) {
        inner = document.createElement("span");
        inner.className = "state";
        inner.textContent = text;
      } else if (datetime) {
        inner = document.createElement("time");
        inner.setAttribute("datetime", datetime);
        inner.textContent = text;
      } else {
        inner = document.createTextNode(text);
      }
      td.appendChild(inner);
      return td;
    }
    function rowNode(row) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-tier", row[2]);
      var first = document.createElement("td");
      if (row[6]) { first.setAttribute("data-find", row[6]); }
      // A scored server can be ticked for the comparison: static/pick.js adds the tick.
      if (!row[3]) { first.setAttribute("data-pick", row[0].split("/")[1]); }
      var link = document.createElement("a");
      link.href = root + row[0].replace(/index\.html$/, "");
      link.textContent = row[1];
      first.appendChild(link);
      if (row[5]) {  // whose server: as the macro server_name draws it (templates/_partials/macros.html)
        first.appendChild(document.createTextNode(" "));
        var who = document.createElement("small");
        who.className = "who";
        who.textContent = row[5];
        first.appendChild(who);
      }
      if (row[3]) {
        first.appendChild(document.createElement("br"));
        var small = document.createElement("small");
        small.textContent = row[3];
        first.appendChild(small);
      }
      tr.appendChild(first);
      row[4].forEach(function (values, index) { tr.appendChild(cellNode(values, index + 1)); });
      return tr;
    }
    function key(row, index) { return index === 0 ? row[1].toLowerCase() : row[4][index - 1][0]; }
    function showMore() {
      var end = Math.min(matches.length, shown + SHOWN);
      for (var i = shown; i < end; i += 1) { body.appendChild(rowNode(matches[i])); }
      shown = end;
      more.hidden = shown >= matches.length;
      status.textContent = matches.length === 0 ? "No servers match." :
        "Showing " + shown + " of " + plural(matches.length, "server") + (onlyTier ? " in tier " + onlyTier : "") + ".";
    }
    function apply() {
      var needle = input.value.trim().toLowerCase();
      if (needle === "" && sortIndex < 0) {  // back to the page as it was built
        while (body.firstChild) { body.removeChild(body.firstChild); }
        original.forEach(function (row) { body.appendChild(row); });
        pagers.forEach(function (nav) { nav.hidden = false; });
        more.hidden = true;
        status.textContent = "";
        return;
      }
      load().then(function (rows) {
        matches = rows.filter(function (row) {
          var text = row[1] + " " + (row[5] || "") + " " + (row[6] || "");  // name, identity, id, repository
          return (!onlyTier || row[2] === onlyTier) && (needle === "" || text.toLowerCase().indexOf(needle) !== -1);
        });
        if (sortIndex >= 0) {
          matches = matches.map(function (row, position) { return [row, position]; });
          matches.sort(function (a, b) {
            var x = key(a[0], sortIndex), y = key(b[0], sortIndex);
            var order = typeof x === typeof y ? (x < y ? -1 : x > y ? 1 : 0) : (typeof x === "number" ? -1 : 1);
            return order * (ascending ? 1 : -1) || a[1] - b[1];
          });
          matches = matches.map(function (pair) { return pair[0]; });
        }
        while (body.firstChild) { body.removeChild(body.firstChild); }
        pagers.forEach(function (nav) { nav.hidden = true; });
        shown = 0;
        showMore();
      }, function () {});
    }
    headers.forEach(function (th, index) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      button.textContent = th.textContent.trim();
      while (th.firstChild) { th.removeChild(th.firstChild); }
      th.appendChild(button);
      button.addEventListener("click", function () {
        ascending = sortIndex === index ? !ascending : index === 0;
        sortIndex = index;
        headers.forEach(function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        rememberSort(tableKey, th, ascending);
        apply();
      });
    });
    var chosen = chosenSort(tableKey, headers);
    if (chosen) {
      sortIndex = chosen.index;
      ascending = chosen.ascending;
      headers[sortIndex].setAttribute("aria-sort", ascending ? "ascending" : "descending");
      apply();
    }
    var timer = null;
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(apply, 150); });
    more.addEventListener("click", showMore);
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
    document.querySelectorAll("table.sortable").forEach(function (table, position) {
      if (!table.tHead || !table.tBodies[0]) { return; }
      var key = table.id || "t" + (position + 1);
      if (table.hasAttribute("data-list")) { wholeList(table, key); return; }
      var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
      headers.forEach(function (th, index) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "sort";
        while (th.firstChild) { button.appendChild(th.firstChild); }
        th.appendChild(button);
        button.addEventListener("click", function () { rememberSort(key, th, sortBy(table, index, th)); });
      });
      var chosen = chosenSort(key, headers);
      if (chosen) { sortBy(table, chosen.index, headers[chosen.index], chosen.ascending); }
      addFilter(table);
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setup); } else { setup(); }
})();
