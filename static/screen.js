// The big screen (templates/nights/screen.html) fits one screen, as a TV shows it: on a
// wide window the type shrinks step by step (--fit, read by app.css) until the page is
// no taller than the window; again after every live update (app.js "scorekeeper:swapped")
// and on resize. A phone scrolls instead. A file of its own: the Content-Security-Policy
// allows scripts from this server's files only.
(function () {
  "use strict";
  const root = document.documentElement;

  function fit() {
    root.style.setProperty("--fit", "1");
    if (window.innerWidth < 960) return;
    let scale = 1;
    for (let step = 0; step < 14 && root.scrollHeight > window.innerHeight + 1; step++) {
      scale *= 0.93;
      root.style.setProperty("--fit", scale.toFixed(3));
    }
  }

  window.addEventListener("load", fit);
  window.addEventListener("resize", fit);
  document.addEventListener("scorekeeper:swapped", fit);
})();
