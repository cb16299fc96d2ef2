// Recording on flaky wifi. The form is sent with fetch; a ruling that cannot be sent (no network,
// the server down, the judge signed out) waits in this phone's storage, shown on every page with a
// count and a Send button, and is sent again when it can be. It leaves the phone only when the
// server has recorded it, or has refused that ruling itself (a bad value): never on a refused
// token (a new sign-in, a cleared cookie, a session's end), which fetches a fresh one and resends.
// The server records a ruling id once, so a resend never records twice. Without JavaScript the
// form posts as usual.
(function () {
  "use strict";
  var KEY = "referee-outbox", SENT = "referee-sent", FIELDS = ["csrf", "rid", "situation", "query", "table", "round"];
  var meta = document.querySelector('meta[name="referee-judge"]');
  var me = meta ? meta.getAttribute("content") : "";
  var form = document.getElementById("record");
  var status = form && form.querySelector(".outbox");
  var bar = document.getElementById("outbox-bar");
  var sending = false;

  function load(key) {
    try { return JSON.parse(localStorage.getItem(key) || "[]"); } catch (e) { return []; }
  }
  function save(key, items) {
    try { localStorage.setItem(key, JSON.stringify(items)); } catch (e) { /* private mode: nothing kept */ }
  }
  function keep(item) {
    save(KEY, load(KEY).filter(function (x) { return x.rid !== item.rid; }).concat([item]));
    show();
  }
  function done(item, note) {
    save(KEY, load(KEY).filter(function (x) { return x.rid !== item.rid; }));
    save(SENT, load(SENT).filter(function (x) { return x.rid !== item.rid; }).concat([note]).slice(-5));
    show();
  }
  function say(text) {
    if (!status) return;
    status.hidden = !text;
    status.textContent = text;
  }
  function post(item) {
    var body = new URLSearchParams();
    FIELDS.forEach(function (k) { body.append(k, item[k] || ""); });
    return fetch("/rulings", { method: "POST", body: body, credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  }
  function recorded(r) {
    return r.ok && r.redirected && /\/rulings\/[0-9a-z]{26}$/.test(r.url.split("?")[0]);
  }
  function why(r) { // the server's own words for a refused ruling: its inline error, or its message
    return r.text().then(function (text) {
      var doc = new DOMParser().parseFromString(text, "text/html");
      var found = doc.querySelector("[role=alert]");
      return (found && found.textContent.trim()) || "refused (" + r.status + ")";
    });
  }
  function freshToken() {
    return fetch("/csrf", { credentials: "same-origin", cache: "no-store" }).then(function (r) {
      return r.ok ? r.json().then(function (d) { return d.csrf || null; }) : null;
    });
  }
  // One kept ruling to the server: {url} recorded, {refused} the ruling itself refused, {wait} kept.
  function deliver(item, retried) {
    return post(item).then(function (r) {
      if (recorded(r)) return { url: r.url };
      if (r.status === 400 || r.status === 413) return why(r).then(function (t) { return { refused: t }; });
      if (r.status === 403 && !retried) {
        return freshToken().then(function (token) {
          if (!token) return { wait: "signed out" };
          item.csrf = token;
          return deliver(item, true);
        });
      }
      return { wait: r.status === 403 ? "signed out" : "server" };
    }, function () { return { wait: "offline" }; });
  }
  function label(item) {
    return "table " + (item.table || "?") + (item.title ? ", " + item.title : "");
  }

  function flush() {
    var mine = load(KEY).filter(function (x) { return x.judge === me; });
    if (!me || !mine.length || sending) { show(); return; }
    sending = true;
    show();
    var next = function (i) {
      if (i >= mine.length) { sending = false; show(); return; }
      deliver(mine[i]).then(function (res) {
        if (res.url) {
          done(mine[i], { rid: mine[i].rid, text: "Recorded ✓ " + label(mine[i]), url: res.url });
          if (form && form.elements.rid && form.elements.rid.value === mine[i].rid) say("Recorded ✓ (sent from this phone's outbox).");
        }
        else if ("refused" in res) done(mine[i], { rid: mine[i].rid, text: "Not recorded, refused: " + label(mine[i]) + ": " + res.refused });
        if (res.wait) { sending = false; show(res.wait); return; }
        next(i + 1);
      });
    };
    next(0);
  }

  function show(waiting) {
    if (!bar) return;
    var items = load(KEY), sent = load(SENT);
    var mine = items.filter(function (x) { return x.judge === me; });
    var text = bar.querySelector(".count"), button = bar.querySelector("button.send"), list = bar.querySelector("ul");
    var n = items.length;
    text.textContent = !n ? "" : n + (n === 1 ? " ruling is" : " rulings are") + " kept on this phone, NOT recorded yet. " +
      (sending ? "Sending…" : !me ? "Sign in to send." : !mine.length ? "Sign in as the judge who made them to send." :
        waiting === "offline" ? "No network yet." : waiting === "signed out" ? "Sign in again to send." :
        waiting === "server" ? "The server did not take it; try again." : "");
    button.hidden = !mine.length;
    button.disabled = sending;
    list.textContent = "";
    sent.forEach(function (note) {
      var li = document.createElement("li");
      if (note.url) {
        var a = document.createElement("a");
        a.href = note.url;
        a.textContent = note.text;
        li.appendChild(a);
      } else {
        li.textContent = note.text;
      }
      list.appendChild(li);
    });
    bar.querySelector("button.clear").hidden = !sent.length;
    bar.hidden = !n && !sent.length;
    bar.classList.toggle("pending", n > 0);
  }

  if (bar) {
    bar.querySelector("button.send").addEventListener("click", flush);
    bar.querySelector("button.clear").addEventListener("click", function () { save(SENT, []); show(); });
  }
  if (form && window.fetch && window.URLSearchParams && window.DOMParser) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var item = { judge: me, title: (document.querySelector("h1") || {}).textContent || "" };
      new FormData(form).forEach(function (v, k) { item[k] = String(v); });
      say("Recording…");
      deliver(item).then(function (res) {
        if (res.url) { window.location.href = res.url; return; }
        if (res.refused) { form.submit(); return; } // the server's page says why, next to the field
        keep(item);
        // a 5xx (the log restarting, an outage) is a retry, as no network is
        say(res.wait === "signed out"
          ? "You are signed out: this ruling is NOT recorded yet. It is kept on this phone and sent when you sign in again."
          : res.wait === "server"
          ? "The log cannot be reached just now: this ruling is NOT recorded yet. It is kept on this phone and sent again by itself."
          : "No network: this ruling is NOT recorded yet. It is kept on this phone and sent when the network is back.");
      });
    });
  }
  window.addEventListener("online", flush);
  setInterval(flush, 15000);
  flush();
})();
