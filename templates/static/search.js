// Search through Pagefind's own JavaScript API. Results are built with textContent only:
// titles and excerpts come from third-party text and are never inserted as HTML.
//
// Server hits come first, then tool hits, then other pages (a group holding a hit named exactly
// by the query first), each with its grade and whose server it is (the metadata of
// templates/search/tdqs_server.html). "Best grade first" asks Pagefind to sort graded servers by
// their overall score. Every match is reachable: the first PAGE are shown, then PAGE more at a
// time, and the count said is of all of them. A scored server's hit can be ticked for the
// comparison (static/pick.js). The query and order are the page's address, so a search can be
// shared and Back returns to it.
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
  var PAGE = 30;  // matches whose data is fetched at a time: each is one more file
  var SHOWN_TOOLS = 5;
  var FRAGMENT_LETTERS = 3;  // as builder/tdqs/pages/search_fields.py

  function plain(html) {
    return new DOMParser().parseFromString(html || "", "text/html").body.textContent || "";
  }

  // A server's search document has one sub-section per tool, anchored `#t-<tool slug>`:
  // such a hit links to the tool's own page, `<server page>tools/<tool slug>/`.
  function toolSlug(url) {
    var match = /^(.*)#t-([a-z0-9_-]+)$/.exec(url);
    return match ? { page: match[1] + "tools/" + match[2] + "/", slug: match[2] } : null;
  }

  // Names compare without case and with `-`, `_`, `.`, `/` and spaces alike: `get_playlist`
  // finds `get-playlist`.
  function normal(text) {
    return (text || "").toLowerCase().replace(/[\s\-_./]+/g, " ").trim();
  }
  // As builder/engine/search.py compact_name: `get_playlist` → `getplaylist`.
  function compact(text) { return normal(text).replace(/ /g, ""); }
  // 0: the name is the query; 1: it starts with it; 2: it contains it; 3: Pagefind's match alone.
  // Compared as words and compact (`getPlaylist` is `get-playlist`).
  function nameRank(name, query) {
    var a = normal(name), q = normal(query), ca = compact(name), cq = compact(query);
    if (!q) { return 3; }
    return a === q || ca === cq ? 0 : a.indexOf(q) === 0 || ca.indexOf(cq) === 0 ? 1
      : a.indexOf(q) !== -1 || ca.indexOf(cq) !== -1 ? 2 : 3;
  }

  // The compact forms indexed beside names (`getplaylist` for `get_playlist`, `listtables` for
  // `listTables`) are for finding, not reading: an excerpt leaves out each word that is exactly one
  // of them and not a name as written.
  //
  // A server's hit shows its name and whose server it is above the excerpt, so the excerpt leaves
  // out the name its document begins with and the run of words the server is found by (its id,
  // repository, owner, their compact forms and endings: templates/search/tdqs_server.html). A word
  // of that run stands alone in a description too ("mcp", an owner's name): only two or more of
  // them together, or those cut off at the excerpt's edge, are the run; and the run's first words,
  // "MCP server", are the run only beside one of its other words or at the edge.
  var RUN_START = { mcp: true, server: true };
  function bareWord(word) { return word.replace(/^[^\w]+|[^\w]+$/g, "").toLowerCase(); }
  function foundBy(terms, title) {
    var run = { mcp: true, server: true };
    run[compact(title)] = true;
    (terms || "").split(" ").forEach(function (term) {
      var whole = compact(term);
      if (!term) { return; }
      run[term.toLowerCase()] = true;
      run[whole] = true;
      for (var start = 1; start + FRAGMENT_LETTERS <= whole.length; start += 1) { run[whole.slice(start)] = true; }
    });
    return run;
  }
  function cleaned(excerpt, names, title, terms) { return cleanedText(plain(excerpt), names, title, terms); }
  function cleanedText(text, names, title, terms) {
    var junk = {}, written = {};
    names.forEach(function (name) {
      (name || "").split(" ").concat([name || ""]).forEach(function (part) {
        var c = compact(part);
        written[part] = true;
        if (c && c !== part.toLowerCase()) { junk[c] = true; }  // `Calendar` is a word, not a compact form
      });
    });
    var words = text.split(/\s+/).filter(Boolean);
    var heading = (title || "").split(/\s+/).filter(Boolean).map(bareWord);
    if (heading.length && heading.every(function (word, at) { return words[at] && bareWord(words[at]) === word; })) {
      words = words.slice(heading.length);
    }
    if (terms) {
      var run = foundBy(terms, title), keep = words.map(function () { return true; }), at = 0;
      while (at < words.length) {
        var end = at, own = false;
        while (end < words.length && run[bareWord(words[end])]) { own = own || !RUN_START[bareWord(words[end])]; end += 1; }
        if ((own && end - at >= 2) || (end > at && (at === 0 || end === words.length))) {
          for (var k = at; k < end; k += 1) { keep[k] = false; }
        }
        at = Math.max(end, at + 1);
      }
      words = words.filter(function (word, index) { return keep[index]; });
    }
    return words.filter(function (word) {
      var bare = word.replace(/^[^\w]+|[^\w]+$/g, "");
      return !(junk[bare] && !written[bare]);
    }).join(" ").trim();
  }

  // `A 4.9` → a tier pill as the site draws it; `not scored yet` → muted words.
  function gradeNode(grade) {
    var span = document.createElement("span");
    var match = /^([A-F]) (\d+(?:\.\d+)?)$/.exec(grade || "");
    span.className = match ? "tier tier-" + match[1].toLowerCase() : "state";
    span.textContent = grade;
    return span;
  }
  function gradeValue(grade) {
    var match = /^[A-F] (\d+(?:\.\d+)?)$/.exec(grade || "");
    return match ? parseFloat(match[1]) : -1;
  }

  function entry(hit) {
    var item = document.createElement("li");
    if (hit.pick) { item.setAttribute("data-pick", hit.pick); }  // a scored server: static/pick.js ticks it
    var link = document.createElement("a");
    link.href = hit.url;
    link.textContent = hit.name || hit.url;
    item.appendChild(link);
    if (hit.grade) { item.appendChild(document.createTextNode(" ")); item.appendChild(gradeNode(hit.grade)); }
    if (hit.who) {
      var who = document.createElement("small");
      who.className = "who";
      who.textContent = hit.who;
      item.appendChild(who);
    }
    if (hit.excerpt) {
      var text = document.createElement("p");
      text.textContent = hit.excerpt;
      item.appendChild(text);
    }
    return item;
  }

  function section(list, title, count) {
    var heading = document.createElement("h2");
    heading.textContent = title + " (" + count + ")";
    var items = document.createElement("ol");
    items.className = "search-results";
    list.appendChild(heading);
    list.appendChild(items);
    return items;
  }

  function toolGrades(meta) {
    var grades = {};
    (meta.tools || "").split("|").forEach(function (pair) {
      var at = pair.indexOf("=");
      if (at > 0) { grades[pair.slice(0, at)] = pair.slice(at + 1); }
    });
    return grades;
  }

  // Pagefind ranks documents (a server with its tools); a person searching a name wants that
  // tool or server first. Hits are re-ranked by how their name matches the query (or, ordered by
  // grade, by their grade), Pagefind's order kept within a rank. A server with more matching tools
  // than shown lists the rest, collapsed.
  //
  // `total`: how many documents match (`total.pages`), how many of them are servers (`total.servers`);
  // `results` are the first of them, fetched so far. Until all are, the servers and other pages are
  // counted from `total` and the tools among those fetched.
  function show(results, query, byGrade, total, status, list) {
    list.textContent = "";
    var all = results.length >= total.pages;
    var servers = [], tools = [], others = [];
    results.forEach(function (data, order) {
      var meta = data.meta || {};
      var name = meta.title || "";
      var isServer = meta.kind === "server";
      var subs = (data.sub_results || []).filter(function (sub) { return toolSlug(sub.url); });
      var grades = toolGrades(meta);
      var names = [name, meta.id, meta.identity, meta.terms].concat(Object.keys(grades), subs.map(function (sub) { return sub.title; }));
      var slug = isServer && meta.grade !== "not scored yet" ? /\/servers\/([a-z0-9_-]+)\/$/.exec(data.url || "") : null;
      subs.forEach(function (sub, index) {
        var tool = toolSlug(sub.url);
        tools.push({ url: tool.page, name: sub.title, grade: grades[tool.slug] || "",
                     who: "of " + name + (meta.identity ? " · " + meta.identity : ""), excerpt: cleaned(sub.excerpt, names),
                     rank: nameRank(sub.title, query), order: order, index: index, server: data.url, serverName: name });
      });
      // A page is also named by its address's last part (a session's or namespace's id).
      var last = decodeURIComponent((data.url || "").replace(/\/$/, "").split("/").pop() || "");
      var rank = Math.min(nameRank(name, query), nameRank(meta.id, query), nameRank(meta.identity, query),
                          isServer ? 3 : nameRank(last, query));
      var excerpt = cleaned(data.excerpt, names, isServer ? name : "", isServer ? meta.terms : "");
      if (isServer && !excerpt) {  // the words around the match were all shown above: its document's first words
        excerpt = cleanedText((data.content || "").split(/\s+/).slice(0, 40).join(" "), names, name, meta.terms);
      }
      (isServer ? servers : others).push({ url: data.url, name: name || data.url, grade: meta.grade || "", who: meta.identity || "",
                                           excerpt: excerpt,
                                           rank: rank, order: order, pick: slug ? slug[1] : "" });
    });
    var relevance = function (p, q) { return p.rank - q.rank || p.order - q.order || (p.index || 0) - (q.index || 0); };
    var grade = function (p, q) { return gradeValue(q.grade) - gradeValue(p.grade) || relevance(p, q); };
    servers.sort(byGrade ? grade : relevance);
    tools.sort(byGrade ? grade : relevance);
    others.sort(relevance);
    // Servers, then tools, then other pages; a group whose best hit is named exactly by the query
    // (`get_playlist`, a session's id) comes first.
    var groups = [["Servers", servers, showServers, all ? servers.length : total.servers],
                  ["Tools", tools, showTools, all ? tools.length : tools.length + " among the first " + results.length + " matches"],
                  ["Other pages", others, showOthers, all ? others.length : total.pages - total.servers]];
    var exact = function (group) { return group[1].some(function (hit) { return hit.rank === 0; }) ? 0 : 1; };
    groups.map(function (group, position) { return [exact(group), position, group]; })
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; })
      .forEach(function (entry) { if (entry[2][1].length) { entry[2][2](section(list, entry[2][0], entry[2][3])); } });
    function showServers(items) { servers.forEach(function (hit) { items.appendChild(entry(hit)); }); }
    function showOthers(items) { others.forEach(function (hit) { items.appendChild(entry(hit)); }); }
    function showTools(toolList) {
      var shown = {}, rest = {}, restOrder = [];
      tools.forEach(function (hit) {
        var count = shown[hit.server] || 0;
        if (!byGrade && hit.rank === 3 && count >= SHOWN_TOOLS) {
          if (!rest[hit.server]) { rest[hit.server] = []; restOrder.push(hit); }
          rest[hit.server].push(hit);
          return;
        }
        shown[hit.server] = count + 1;
        toolList.appendChild(entry(hit));
      });
      restOrder.forEach(function (first) {
        var more = rest[first.server];
        var item = document.createElement("li");
        var details = document.createElement("details");
        var summary = document.createElement("summary");
        summary.textContent = more.length + " more matching " + (more.length === 1 ? "tool" : "tools") + " of " + first.serverName;
        details.appendChild(summary);
        var inner = document.createElement("ul");
        more.forEach(function (hit) { inner.appendChild(entry({ url: hit.url, name: hit.name, grade: hit.grade })); });
        details.appendChild(inner);
        item.appendChild(details);
        toolList.appendChild(item);
      });
    }
    var count = servers.length + tools.length + others.length;
    var order = byGrade ? ", best grade first" : "";
    if (!all) {
      var parts = [];
      if (total.servers) { parts.push(total.servers + (total.servers === 1 ? " server" : " servers")); }
      if (total.pages > total.servers) {
        var rest = total.pages - total.servers;
        parts.push(rest + (rest === 1 ? " other page" : " other pages"));
      }
      status.textContent = parts.join(" and ") + " for “" + query + "”" + order + "; showing the first " + results.length + ".";
      return;
    }
    status.textContent = count ? count + (count === 1 ? " result" : " results") + " for “" + query + "”" + order
      : "No results for “" + query + "”";
  }

  // Loaded once, however many searches start meanwhile: a shard merged twice would give every hit twice.
  // The shards are merged all at once, not one after another: each costs two fetches (its entry, then
  // its metadata), and a registry has sixteen. Pagefind adds each to its list as the call is made, so
  // their order is the shards' order either way.
  async function load() {
    var module = await import(moduleUrl);
    await module.init();
    await Promise.all(shardFolders.map(function (folder) { return module.mergeIndex(folder); }));
    return module;
  }

  function unique(results) {
    var seen = {};
    return results.filter(function (r) {
      if (seen[r.id]) { return false; }
      seen[r.id] = true;
      return true;
    });
  }

  // The search shown: its query and order, every matching document in order (`results`), how many
  // are servers, and the data fetched so far, PAGE documents at a time ("Show more").
  var current = null;

  async function run(form, status, list, more) {
    var ticket = ++latest;
    var query = form.q.value;
    if (!query.trim()) { current = null; list.textContent = ""; status.textContent = ""; more.hidden = true; return; }
    if (!pagefind) { loading = loading || load(); pagefind = await loading; }
    var byGrade = form.order && form.order.value === "grade";
    var options = {};
    if (byGrade) { options.sort = { grade: "desc" }; }
    var search = await pagefind.debouncedSearch(query, options, 150);
    if (search === null || ticket !== latest) { return; }
    // Documents naming a tool or server (or a server's id, repository or owner) exactly carry its
    // compact form (builder/search.py compact_name): searched too, and put first, they cannot
    // drown among common words.
    var compactQuery = compact(query);
    var queries = compactQuery && compactQuery !== query.trim().toLowerCase() ? [query, compactQuery] : [query];
    var named = queries.length > 1 ? (await pagefind.search(compactQuery, options)).results : [];
    if (ticket !== latest) { return; }
    var results = unique(named.slice(0, 10).concat(search.results, named.slice(10)));
    // How many of them are servers: a search ordered by grade finds only documents with a grade to
    // order by (Pagefind leaves the others out), and every server's document has one.
    var servers = results.length;
    if (!byGrade) {
      var graded = await Promise.all(queries.map(function (q) { return pagefind.search(q, { sort: { grade: "desc" } }); }));
      if (ticket !== latest) { return; }
      servers = unique([].concat.apply([], graded.map(function (found) { return found.results; }))).length;
    }
    current = { query: query, byGrade: byGrade, results: results, total: { pages: results.length, servers: servers }, data: [] };
    await showMore(ticket, status, list, more);
  }

  async function showMore(ticket, status, list, more) {
    var shown = current;
    if (!shown) { return; }
    var next = shown.results.slice(shown.data.length, shown.data.length + PAGE);
    var data = await Promise.all(next.map(function (r) { return r.data(); }));
    if (ticket !== latest || shown !== current) { return; }
    shown.data = shown.data.concat(data);
    show(shown.data, shown.query, shown.byGrade, shown.total, status, list);
    var left = shown.total.pages - shown.data.length;
    more.hidden = left <= 0;
    more.textContent = left > PAGE ? "Show " + PAGE + " more" : "Show the last " + left;
  }

  // The query and order are the page's address (search/?q=…&order=grade): a search can be shared,
  // and Back returns to it. Typing changes the address in place; the first change after a search
  // was settled (Enter, leaving the box, another order, a page loaded with a query) adds a new
  // step to the history, so Back goes from one search to the one before.
  function address(form) {
    var params = new URLSearchParams();
    if (form.q.value.trim()) { params.set("q", form.q.value); }
    if (form.order && form.order.value === "grade") { params.set("order", "grade"); }
    var query = params.toString();
    return window.location.pathname + (query ? "?" + query : "");
  }

  function setup() {
    var form = document.querySelector("form.search-box");
    var status = document.getElementById("search-status");
    var list = document.getElementById("search-results");
    if (!form || !form.q) { return; }
    var more = document.createElement("button");
    more.type = "button";
    more.className = "more";
    more.hidden = true;
    list.parentNode.insertBefore(more, list.nextSibling);
    var settled = false;
    function remember() {
      var target = address(form);
      if (target === window.location.pathname + window.location.search) { return; }
      if (settled && new URLSearchParams(window.location.search).get("q")) {
        window.history.pushState(null, "", target);
      } else {
        window.history.replaceState(null, "", target);
      }
      settled = false;
    }
    var go = function () { run(form, status, list, more); };
    function fromAddress() {
      var params = new URLSearchParams(window.location.search);
      if (form.order) { form.order.value = params.get("order") === "grade" ? "grade" : ""; }
      form.q.value = params.get("q") || "";
      settled = true;
      go();
    }
    form.addEventListener("submit", function (event) { event.preventDefault(); remember(); settled = true; go(); });
    form.q.addEventListener("input", function () { remember(); go(); });
    form.q.addEventListener("change", function () { settled = true; });
    if (form.order) { form.order.addEventListener("change", function () { settled = true; remember(); settled = true; go(); }); }
    more.addEventListener("click", function () {
      showMore(latest, status, list, more).then(function () {
        // The last ones shown, the button is gone: focus goes to the line saying how many there are.
        if (more.hidden) { status.setAttribute("tabindex", "-1"); status.focus(); }
      });
    });
    window.addEventListener("popstate", fromAddress);
    if (new URLSearchParams(window.location.search).get("q")) { fromAddress(); }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setup); } else { setup(); }
})();
