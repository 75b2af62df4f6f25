(function () {
  // A board wider than the screen opens scrolled to the reader's own piece (without JavaScript: at
  // its left edge), and pans with the keyboard: each pan box is focusable (tabindex 0, labelled); the
  // browser scrolls it with the arrow keys (smoothly, so here at once, 60 px a press, with Shift 240),
  // Home and End go to its edges.
  function centre() {
    document.querySelectorAll("#board .pan").forEach(function (pan) {
      var mine = pan.querySelector(".mine");
      if (!mine || pan.scrollWidth <= pan.clientWidth + 1) { return; }
      var box = mine.getBoundingClientRect(), frame = pan.getBoundingClientRect();
      pan.scrollLeft = Math.max(0, box.left - frame.left + box.width / 2 - pan.clientWidth / 2);
    });
  }
  centre();
  document.addEventListener("keydown", function (e) {
    var pan = e.target;
    if (!pan.classList || !pan.classList.contains("pan")) { return; }
    var step = {ArrowLeft: -60, ArrowRight: 60}[e.key];
    if (step) { pan.scrollLeft += e.shiftKey ? step * 4 : step; e.preventDefault(); }
    if (e.key === "Home") { pan.scrollLeft = 0; e.preventDefault(); }
    if (e.key === "End") { pan.scrollLeft = pan.scrollWidth; e.preventDefault(); }
  });
  // A place on the map (an SVG link, which htmx does not boost) updates the page in place too.
  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("#board a.target");
    if (!link || !window.htmx || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    e.preventDefault();
    var href = new URL(link.getAttribute("href"), window.location.href);
    window.htmx.ajax("GET", href.pathname + href.search, {target: "#live", swap: "outerHTML"}).then(function () {
      window.history.pushState({htmx: true}, "", href.pathname + href.search);
    });
  });
  // After an update in place: the boards centred again, and the keyboard's focus (lost with the
  // pressed button) put on what the update says (the notice, the refusal, the question to confirm),
  // without scrolling the page.
  document.body.addEventListener("htmx:afterSettle", function (e) {
    if (!e.target || e.target.id !== "live") { return; }
    centre();
    if (document.activeElement && document.activeElement !== document.body) { return; }
    var said = document.querySelector("#live #error, #live #notice, #live #undone, #live #confirm button, #live #plan h2");
    if (said) { said.focus({preventScroll: true}); }
  });
})();
(function () {
  // When the game moves on (or someone speaks), the page updates itself: in place with htmx (a
  // half-typed message and the scroll position stay), else by reloading when no message is typed.
  // With htmx, what the page shows is the live part's data-version (the game's version and the
  // newest message), so a move of the player's own, already swapped in, is not fetched again.
  var seen = null;
  function check() {
    fetch("/p/{{ token }}/version", {cache: "no-store"}).then(function (r) { return r.json(); }).then(function (v) {
      var now = v.version + ":" + v.chat, live = document.getElementById("live");
      if (window.htmx && live) {
        if (live.getAttribute("data-version") !== now && !live.classList.contains("htmx-request")) {
          window.htmx.ajax("GET", window.location.pathname + window.location.search, {target: "#live", swap: "outerHTML"});
        }
        return;
      }
      if (seen === null) { seen = now; return; }
      if (now === seen) { return; }
      seen = now;
      var box = document.getElementById("say");
      if (!box || !box.value) { window.location.replace("/p/{{ token }}/"); }
    }).catch(function () {});
  }
  check();
  setInterval(check, {{ poll_ms|default:"3000" }});
})();
