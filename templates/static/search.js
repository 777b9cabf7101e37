// Search through Pagefind's own JavaScript API. Results are built with textContent only:
// titles and excerpts come from third-party text and are never inserted as HTML.
(function () {
  "use strict";
  var script = document.currentScript;
  var moduleUrl = new URL(script.getAttribute("data-pagefind"), window.location.href).href;
  // A large index comes in shards (builder/search.py): `data-shards` lists the pagefind.js of every
  // shard after the first, whose folders are merged into the first one's search. Each is given as a
  // path from the site's root, as Pagefind finds the first: from a full URL, Pagefind (in its web
  // worker) would make its results' URLs absolute too.
  var shardFolders = (script.getAttribute("data-shards") || "").split(" ").filter(Boolean).map(function (url) {
    return new URL(".", new URL(url, window.location.href)).pathname;
  });
  var pagefind = null;
  var loading = null;
  var latest = 0;
  var RESULTS = 30;

  function plain(html) {
    return new DOMParser().parseFromString(html || "", "text/html").body.textContent || "";
  }

  // A server's search document has one sub-section per tool, anchored `#t-<tool slug>`:
  // such a hit links to the tool's own page, `<server page>tools/<tool slug>/`.
  function toolUrl(url) {
    var match = /^(.*)#t-([a-z0-9_-]+)$/.exec(url);
    return match ? match[1] + "tools/" + match[2] + "/" : null;
  }

  function entry(url, title, excerpt) {
    var item = document.createElement("li");
    var link = document.createElement("a");
    link.href = url;
    link.textContent = title || url;
    item.appendChild(link);
    if (excerpt) {
      var text = document.createElement("p");
      text.textContent = plain(excerpt);
      item.appendChild(text);
    }
    return item;
  }

  // Names compare without case and with `-`, `_`, `.`, `/` and spaces alike: `get_playlist`
  // finds `get-playlist`.
  function normal(text) {
    return (text || "").toLowerCase().replace(/[\s\-_./]+/g, " ").trim();
  }
  // 0: the name is the query; 1: it starts with it; 2: it contains it; 3: Pagefind's match alone.
  function nameRank(name, query) {
    var a = normal(name), q = normal(query);
    if (!q) { return 3; }
    return a === q ? 0 : a.indexOf(q) === 0 ? 1 : a.indexOf(q) !== -1 ? 2 : 3;
  }

  var SHOWN_TOOLS = 5;

  // Pagefind ranks documents (a server with its tools); a person searching a name wants that
  // tool or server first. Hits are re-ranked by how their name matches the query, Pagefind's order
  // kept within a rank. A server with more matching tools than shown lists the rest, collapsed.
  function show(results, query, status, list) {
    list.textContent = "";
    var hits = [];
    results.forEach(function (data, order) {
      var server = (data.meta && data.meta.title) || "";
      var tools = (data.sub_results || []).filter(function (sub) { return toolUrl(sub.url); });
      tools.forEach(function (sub, index) {
        hits.push({ url: toolUrl(sub.url), name: sub.title, title: sub.title + " · " + server, excerpt: sub.excerpt,
                    rank: nameRank(sub.title, query), order: order, index: index, server: data.url, serverName: server });
      });
      if (!tools.length || nameRank(server, query) < 3) {
        hits.push({ url: data.url, name: server, title: server || data.url, excerpt: data.excerpt,
                    rank: nameRank(server, query), order: order, index: -1, server: data.url, serverName: server });
      }
    });
    hits.sort(function (p, q) { return p.rank - q.rank || p.order - q.order || p.index - q.index; });
    var shown = {}, rest = {}, restOrder = [];
    hits.forEach(function (hit) {
      var count = shown[hit.server] || 0;
      if (hit.index >= 0 && hit.rank === 3 && count >= SHOWN_TOOLS) {
        if (!rest[hit.server]) { rest[hit.server] = []; restOrder.push(hit); }
        rest[hit.server].push(hit);
        return;
      }
      shown[hit.server] = count + (hit.index >= 0 ? 1 : 0);
      list.appendChild(entry(hit.url, hit.title, hit.excerpt));
    });
    restOrder.forEach(function (first) {
      var more = rest[first.server];
      var item = document.createElement("li");
      var details = document.createElement("details");
      var summary = document.createElement("summary");
      summary.textContent = more.length + " more matching " + (more.length === 1 ? "tool" : "tools") + " of " + first.serverName;
      details.appendChild(summary);
      var inner = document.createElement("ul");
      more.forEach(function (hit) {
        var li = document.createElement("li");
        var link = document.createElement("a");
        link.href = hit.url;
        link.textContent = hit.name;
        li.appendChild(link);
        inner.appendChild(li);
      });
      details.appendChild(inner);
      item.appendChild(details);
      list.appendChild(item);
    });
    var count = hits.length;
    status.textContent = count ? count + (count === 1 ? " result" : " results") + " for “" + query + "”" : "No results for “" + query + "”";
  }

  // Loaded once, however many searches start meanwhile: a shard merged twice would give every hit twice.
  async function load() {
    var module = await import(moduleUrl);
    await module.init();
    for (var i = 0; i < shardFolders.length; i++) { await module.mergeIndex(shardFolders[i]); }
    return module;
  }

  async function run(query, status, list) {
    var ticket = ++latest;
    if (!query.trim()) { list.textContent = ""; status.textContent = ""; return; }
    if (!pagefind) { loading = loading || load(); pagefind = await loading; }
    var search = await pagefind.debouncedSearch(query, {}, 150);
    if (search === null || ticket !== latest) { return; }
    // Documents naming a tool or server exactly carry its compact form (builder/search.py
    // compact_name): searched too, and put first, they cannot drown among common words.
    var compact = normal(query).replace(/ /g, "");
    var named = compact && compact !== query.trim().toLowerCase() ? (await pagefind.search(compact)).results : [];
    if (ticket !== latest) { return; }
    var seen = {};
    var results = named.slice(0, 10).concat(search.results).filter(function (r) {
      if (seen[r.id]) { return false; }
      seen[r.id] = true;
      return true;
    });
    var data = await Promise.all(results.slice(0, RESULTS).map(function (r) { return r.data(); }));
    if (ticket === latest) { show(data, query, status, list); }
  }

  function setup() {
    var input = document.getElementById("q");
    var status = document.getElementById("search-status");
    var list = document.getElementById("search-results");
    if (!input) { return; }
    input.form.addEventListener("submit", function (event) { event.preventDefault(); run(input.value, status, list); });
    input.addEventListener("input", function () { run(input.value, status, list); });
    var initial = new URLSearchParams(window.location.search).get("q");
    if (initial) { input.value = initial; run(initial, status, list); }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setup); } else { setup(); }
})();
