// "13 days ago" beside a scoring date. The page carries the absolute date (<time datetime>), so the
// same data builds the same bytes; only the browser knows today's date, so only it adds the words.
(function () {
  "use strict";
  var DAY = 86400000;
  function ago(days) {
    if (days < 1) { return "today"; }
    if (days < 2) { return "yesterday"; }
    if (days < 60) { return Math.floor(days) + " days ago"; }
    if (days < 730) { return Math.floor(days / 30.44) + " months ago"; }
    return Math.floor(days / 365.25) + " years ago";
  }
  function setup() {
    var now = Date.now();
    document.querySelectorAll("time[data-ago]").forEach(function (time) {
      var when = Date.parse(time.getAttribute("datetime") || "");
      if (isNaN(when) || when > now + DAY) { return; }
      var words = document.createElement("span");
      words.className = "ago";
      words.textContent = ", " + ago((now - when) / DAY);
      time.after(words);
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setup); } else { setup(); }
}());
