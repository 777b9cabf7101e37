// The servers a visitor picks to compare (two to four), kept while they browse: a tick beside each
// scored server on the servers list (every page of it, and the rows "Find a server" draws), on
// category pages and among search results, and a bar leading to compare/?s=<slug>&s=<slug>.
//
// A page marks where a tick goes (`data-pick="<slug>"` on the element holding the server's link);
// the tick is made here, so without JavaScript no tick shows: the comparison of a visitor's choice
// is drawn by a script too (static/compare.js), and each server's page links to its static one.
//
// The choice is kept in sessionStorage: it lasts while the visitor browses in this tab (through
// list pages, category pages and searches, Back and Forward) and is gone when the tab closes, so a
// week-old choice never comes back ticked; localStorage would also tie every tab to one choice.
// Its key holds the site's root path, as sites published side by side on one host (GitHub Pages'
// project sites) share one storage.
(function () {
  "use strict";
  var MOST = 4;
  var SLUG = /^[a-z0-9_-]{1,80}$/;
  var script = document.currentScript;
  var root = new URL(script.getAttribute("data-root") || "./", window.location.href);
  var KEY = "scorecards-compare " + root.pathname.replace(/index\.html$/, "");
  var compare = new URL(script.getAttribute("data-compare") || "compare/", window.location.href).pathname
    .replace(/index\.html$/, "");
  var memory = [];  // where storage is refused (a browser's private mode may refuse it)
  var bar = null, link = null, words = null, clear = null, status = null;

  function read() {
    try {
      var saved = JSON.parse(window.sessionStorage.getItem(KEY) || "[]");
      memory = Array.isArray(saved) ? saved.filter(function (slug) {
        return typeof slug === "string" && SLUG.test(slug);
      }).slice(0, MOST) : [];
    } catch (error) { /* keep what this page knows */ }
    return memory.slice();
  }
  function write(chosen) {
    memory = chosen.slice();
    try { window.sessionStorage.setItem(KEY, JSON.stringify(chosen)); } catch (error) { /* this page only */ }
  }

  function makeBar() {
    bar = document.createElement("div");
    bar.className = "pick-bar";
    bar.setAttribute("role", "region");
    bar.setAttribute("aria-label", "Servers to compare");
    link = document.createElement("a");
    words = document.createElement("span");
    clear = document.createElement("button");
    clear.type = "button";
    clear.textContent = "Clear";
    status = document.createElement("span");
    status.setAttribute("role", "status");
    bar.appendChild(link);
    bar.appendChild(words);
    bar.appendChild(document.createTextNode(" "));
    bar.appendChild(clear);
    bar.appendChild(document.createTextNode(" "));
    bar.appendChild(status);
    (document.querySelector("main") || document.body).appendChild(bar);
    clear.addEventListener("click", function () { write([]); status.textContent = ""; sync(); });
  }

  // Every tick shows the choice as stored, and the bar says how many are chosen.
  function sync() {
    var chosen = read();
    document.querySelectorAll("input.pick").forEach(function (box) { box.checked = chosen.indexOf(box.value) >= 0; });
    if (!bar) { return; }
    bar.hidden = chosen.length === 0;
    link.hidden = chosen.length < 2;
    link.href = compare + "?" + chosen.map(function (slug) { return "s=" + encodeURIComponent(slug); }).join("&");
    link.textContent = "Compare (" + chosen.length + ")";
    words.textContent = chosen.length === 1 ? "1 server ticked: tick another to compare." : "";
  }

  // Rows drawn again (the list's own rows, back after a filter is cleared) show the choice as it is now.
  // Only the boxes' `checked` is set here, which the MutationObserver calling this does not see.
  function addTicks() {
    var chosen = read(), added = false;
    document.querySelectorAll("input.pick").forEach(function (box) { box.checked = chosen.indexOf(box.value) >= 0; });
    document.querySelectorAll("[data-pick]").forEach(function (holder) {
      var slug = holder.getAttribute("data-pick");
      if (!SLUG.test(slug) || holder.querySelector("input.pick")) { return; }
      var box = document.createElement("input");
      box.type = "checkbox";
      box.className = "pick";
      box.value = slug;
      box.checked = chosen.indexOf(slug) >= 0;
      var named = holder.querySelector("a");
      box.setAttribute("aria-label", "Compare " + (named ? named.textContent : slug));
      holder.insertBefore(box, holder.firstChild);
      added = true;
    });
    if (added && !bar) { makeBar(); sync(); }
  }

  function picked(event) {
    var box = event.target;
    if (!box.classList || !box.classList.contains("pick")) { return; }
    var chosen = read(), at = chosen.indexOf(box.value);
    status.textContent = "";
    if (box.checked && at < 0) {
      if (chosen.length >= MOST) {
        box.checked = false;
        status.textContent = "Four servers at most: untick one first.";
        return;
      }
      chosen.push(box.value);
    } else if (!box.checked && at >= 0) {
      chosen.splice(at, 1);
    }
    write(chosen);
    sync();
  }

  function setup() {
    addTicks();
    // Rows and results drawn later ("Find a server", a search) get their ticks as they come.
    new MutationObserver(addTicks).observe(document.body, { childList: true, subtree: true });
    document.addEventListener("change", picked);
    // A page shown again by Back or Forward shows the choice made meanwhile on other pages.
    window.addEventListener("pageshow", sync);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setup); } else { setup(); }
})();
