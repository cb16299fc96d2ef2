// Recording on flaky wifi: the form is sent with fetch; if the network fails, the ruling waits in
// this phone's storage and is sent again when the network is back. The server records a ruling
// id once, so a resend never records twice. Without JavaScript the form posts as usual.
(function () {
  "use strict";
  var KEY = "referee-outbox";
  var form = document.getElementById("record");
  var status = form && form.querySelector(".outbox");

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function save(items) {
    try { localStorage.setItem(KEY, JSON.stringify(items)); } catch (e) { /* private mode: nothing kept */ }
  }
  function say(text) {
    if (!status) return;
    status.hidden = !text;
    status.textContent = text;
  }
  function send(body) {
    return fetch("/rulings", { method: "POST", body: new URLSearchParams(body), credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  }
  function flush() {
    var items = load();
    if (!items.length) return;
    say(items.length + (items.length === 1 ? " ruling" : " rulings") + " waiting to send…");
    var item = items[0];
    send(item).then(function (r) {
      if (r.ok || r.status < 500) { // sent (or refused for good): either way it leaves the outbox
        save(load().filter(function (x) { return x.rid !== item.rid; }));
        if (load().length) flush(); else say("");
      }
    }, function () { /* still offline: try again later */ });
  }

  if (form && window.fetch && window.URLSearchParams) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var body = {};
      new FormData(form).forEach(function (v, k) { body[k] = String(v); });
      say("Recording…");
      send(body).then(function (r) {
        if (r.redirected || r.ok) { window.location.href = r.url; return; }
        form.submit(); // refused (a field missing): let the server's page say why
      }, function () {
        var items = load().filter(function (x) { return x.rid !== body.rid; });
        items.push(body);
        save(items);
        say("No network: this ruling is NOT recorded yet. It is kept on this phone and sent when the network is back.");
      });
    });
  }
  window.addEventListener("online", flush);
  setInterval(flush, 15000);
  flush();
})();
