// Scorekeeper: the screen stays on while a game's sheet or a deal form is open (issue 18,
// part 6), so the phone beside the cards does not dim and lock between deals. Only an
// addition: a page with the switch (templates/_wake.html, [data-wake-lock]) takes the
// Screen Wake Lock, takes it again when the page is shown again (the browser lets it go
// whenever the page is hidden), and lets it go when the page is left. The switch turns it
// off, remembered on this phone (localStorage). A browser without a wake lock sees no
// switch and no error.
"use strict";
(function () {
  const KEY = "scorekeeper-wake-lock";  // "off": the player turned it off on this phone
  let lock = null;      // the WakeLockSentinel held
  let asking = false;   // a request on its way
  let wanted = false;   // the switch is on and the page is open

  function remembered() {
    try {
      return localStorage.getItem(KEY) !== "off";
    } catch (e) {
      return true;
    }
  }

  function release() {
    const held = lock;
    lock = null;
    if (held && !held.released) held.release().catch(() => undefined);
  }

  function take() {
    if (!wanted || lock || asking || document.visibilityState !== "visible") return;
    asking = true;
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      if (sentinel.addEventListener) {
        sentinel.addEventListener("release", function () { if (lock === sentinel) lock = null; });
      }
      if (!wanted || document.visibilityState !== "visible") release();  // turned off, or hidden, meanwhile
    }).catch(() => undefined)  // refused (battery saver, a page not in view): the screen dims as usual
      .finally(function () { asking = false; });
  }

  function setup() {
    const spot = document.querySelector("[data-wake-lock]");
    if (!spot || !navigator.wakeLock || typeof navigator.wakeLock.request !== "function") return;
    const box = spot.querySelector("[data-wake-switch]");
    spot.hidden = false;
    wanted = remembered();
    if (box) {
      box.checked = wanted;
      box.addEventListener("change", function () {
        wanted = box.checked;
        try {
          localStorage.setItem(KEY, wanted ? "on" : "off");
        } catch (e) { /* private mode: on for this page only */ }
        if (wanted) take(); else release();
      });
    }
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") take(); else release();
    });
    window.addEventListener("pagehide", function () {
      wanted = false;
      release();
    });
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) {  // back from the browser's page cache: the page is open again
        wanted = box ? box.checked : remembered();
        take();
      }
    });
    take();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
