// The quiz pages work without it. With it: the shared quiz's board refreshes its scores every
// two seconds without reloading the page (without it the page reloads itself), and the answer
// form asks before a story is marked with no game chosen.
(function () {
  "use strict";
  var board = document.getElementById("board-rows");
  if (board && window.fetch) {
    var n = (document.getElementById("board").getAttribute("data-n") || "");
    var refresh = function () {
      fetch("/quiz/board?format=json", { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (data) {
          if (!data) return;
          while (board.firstChild) board.removeChild(board.firstChild);
          if (!data.rows.length) {
            var empty = document.createElement("tr");
            var cell = document.createElement("td");
            cell.colSpan = 3;
            cell.textContent = "No answers yet.";
            empty.appendChild(cell);
            board.appendChild(empty);
          }
          data.rows.forEach(function (row) {
            var tr = document.createElement("tr");
            [row.judge, row.stories + (n ? " of " + n : ""), row.right + " of " + row.parts].forEach(function (text) {
              var td = document.createElement("td");
              td.textContent = text; // never innerHTML: a judge's name is typed by her
              tr.appendChild(td);
            });
            board.appendChild(tr);
          });
        })
        .catch(function () { /* the next tick tries again */ });
    };
    setInterval(refresh, 2000);
  }
  var form = document.getElementById("quiz-answer");
  if (form) {
    form.addEventListener("submit", function (e) {
      if (!form.querySelector("input[name=game]:checked")) {
        e.preventDefault();
        var first = form.querySelector("input[name=game]");
        if (first) first.focus();
      }
    });
  }
})();
