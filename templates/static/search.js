// Search through Pagefind's own JavaScript API. Results are built with textContent only:
// titles and excerpts come from third-party text and are never inserted as HTML.
(function () {
  "use strict";
  var script = document.currentScript;
  var moduleUrl = new URL(script.getAttribute("data-pagefind"), window.location.href).href;
  var pagefind = null;
  var latest = 0;

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
    var text = document.createElement("p");
    text.textContent = plain(excerpt);
    item.appendChild(link);
    item.appendChild(text);
    return item;
  }

  function show(results, query, status, list) {
    list.textContent = "";
    var count = 0;
    results.forEach(function (data) {
      var tools = (data.sub_results || []).filter(function (sub) { return toolUrl(sub.url); });
      tools.slice(0, 5).forEach(function (sub) {
        list.appendChild(entry(toolUrl(sub.url), sub.title + " · " + ((data.meta && data.meta.title) || ""), sub.excerpt));
        count += 1;
      });
      if (!tools.length) {
        list.appendChild(entry(data.url, data.meta && data.meta.title, data.excerpt));
        count += 1;
      }
    });
    status.textContent = count ? count + " results for “" + query + "”" : "No results for “" + query + "”";
  }

  async function run(query, status, list) {
    var ticket = ++latest;
    if (!query.trim()) { list.textContent = ""; status.textContent = ""; return; }
    if (!pagefind) { pagefind = await import(moduleUrl); await pagefind.init(); }
    var search = await pagefind.debouncedSearch(query, {}, 150);
    if (search === null || ticket !== latest) { return; }
    var data = await Promise.all(search.results.slice(0, 20).map(function (r) { return r.data(); }));
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
