// arena report: the episode list (paged, filtered) with links into the viewer.
(function () {
  "use strict";
  var holder = document.getElementById("arena-episodes");
  if (!holder) return;
  var eps = JSON.parse(holder.textContent);
  var body = document.getElementById("ep-body");
  var filter = document.getElementById("ep-filter");
  var info = document.getElementById("ep-info");
  var PAGE = 100, page = 0, shown = eps;
  function td(text, cls) { var e = document.createElement("td"); e.textContent = text; if (cls) e.className = cls; return e; }
  function draw() {
    body.textContent = "";
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    page = Math.max(0, Math.min(page, pages - 1));
    shown.slice(page * PAGE, page * PAGE + PAGE).forEach(function (e) {
      var tr = document.createElement("tr");
      tr.appendChild(td(String(e.episode), "num"));
      tr.appendChild(td(e.level));
      tr.appendChild(td(String(e.seed), "num"));
      tr.appendChild(td(e.seats.map(function (s) { return s.agent; }).join(" vs ")));
      tr.appendChild(td(e.seats.map(function (s) { return s.result; }).join(" / ")));
      var bad = e.seats.filter(function (s) { return s.outcome !== "normal"; });
      tr.appendChild(td(bad.map(function (s) { return s.agent + ": " + s.outcome; }).join(", "), bad.length ? "bad" : ""));
      tr.appendChild(td(e.seats.map(function (s) { return s.score; }).join(" / "), "num"));
      tr.appendChild(td(String(e.steps), "num"));
      var cell = document.createElement("td");
      if (e.replay) {
        var a = document.createElement("a");
        a.href = "#episode=" + e.episode; a.textContent = "view";
        cell.appendChild(a);
        var b = document.createElement("a");
        b.href = "#episode=" + e.episode + "&tick=end"; b.textContent = " end";
        cell.appendChild(b);
      } else cell.textContent = "-";
      tr.appendChild(cell);
      body.appendChild(tr);
    });
    info.textContent = shown.length + " episodes, page " + (page + 1) + " of " + pages;
  }
  filter.addEventListener("input", function () {
    var q = filter.value.toLowerCase();
    shown = !q ? eps : eps.filter(function (e) { return JSON.stringify(e).toLowerCase().indexOf(q) >= 0; });
    page = 0; draw();
  });
  document.getElementById("ep-prev").addEventListener("click", function () { page--; draw(); });
  document.getElementById("ep-next").addEventListener("click", function () { page++; draw(); });
  draw();
  // When the whole page is parsed and its scripts ran (the viewer's data
  // comes after this script), for the benchmark (benches/report.rs).
  window.addEventListener("load", function () {
    document.documentElement.setAttribute("data-ready-ms", String(Math.round(performance.now())));
  });
})();
