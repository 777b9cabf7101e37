// Pagefind's own search UI, mounted on the search page. Kept in a file: the CSP forbids inline script.
(function () {
  "use strict";
  function mount() {
    if (!window.PagefindUI) { return; }
    var params = new URLSearchParams(window.location.search);
    var ui = new window.PagefindUI({ element: "#search", showSubResults: true, resetStyles: false });
    if (params.get("q")) { ui.triggerSearch(params.get("q")); }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", mount); } else { mount(); }
})();
