// The head judge's log: new rulings arrive over Server-Sent Events and go on top of the table.
// Phones and laptops drop the connection when asleep, so it is reopened when the page is shown.
(function () {
  "use strict";
  var badge = document.getElementById("live");
  var rows = document.getElementById("rows");
  if (!badge || !rows || !window.EventSource) return;
  document.body.classList.add("wide");
  var after = badge.getAttribute("data-after") || "";
  var query = badge.getAttribute("data-query") || "";
  var source = null;

  function show(state) {
    badge.textContent = state === "on" ? "live" : "reconnecting…";
    badge.className = "badge " + state;
  }

  function open() {
    if (source) source.close();
    var url = "/log/stream?" + (query ? query + "&" : "") + "after=" + encodeURIComponent(after);
    source = new EventSource(url);
    source.onopen = function () { show("on"); };
    source.onerror = function () { show("off"); };
    source.addEventListener("ruling", function (e) {
      after = e.lastEventId || after;
      var holder = document.createElement("tbody");
      holder.innerHTML = e.data; // rendered by the server's autoescaping template
      var row = holder.firstElementChild;
      if (!row || document.getElementById(row.id)) return; // already shown: never twice
      row.classList.add("new");
      rows.insertBefore(row, rows.firstChild);
      var count = document.getElementById("count");
      if (count) count.textContent = String(rows.children.length);
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") open();
  });
  show("off");
  open();
})();
