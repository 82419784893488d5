// Scorekeeper's service worker (served at /sw.js by scorekeeper/views/live.py).
// Pages: the network first, so every phone with a connection sees the game as it is; each
// page fetched is kept, and shown when there is no connection (the sheet then says since
// when it is). Static files: kept, under URLs that change with every version of the app.
// A new version of the app has a new VERSION, so this file changes: the browser installs
// it on the next visit with connection, and it deletes the old version's cache.
"use strict";
const VERSION = {{ version|tojson }};
const CACHE = "scorekeeper-" + VERSION;
const SHELL = {{ shell|tojson }};
const OFFLINE = {{ offline|tojson }};
const MAX_PAGES = 150;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("scorekeeper-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

function keep(request, response) {
  if (!response.ok || response.type !== "basic" || response.redirected) return;
  const copy = response.clone();
  caches.open(CACHE).then(async function (cache) {
    await cache.put(request, copy);
    const keys = await cache.keys();
    if (keys.length > MAX_PAGES + SHELL.length) await cache.delete(keys[SHELL.length]);  // the oldest page
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;  // saves go to the server (the page keeps them when offline)
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // asked live, never from a copy: the game's version, the preview of a deal, this file
  if (/\/live$/.test(url.pathname) || /\/preview$/.test(url.pathname) || url.pathname === "/sw.js") return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request).then(function (response) {
      keep(request, response);
      return response;
    })));
    return;
  }
  event.respondWith(fetch(request).then(function (response) {
    keep(request, response);
    return response;
  }).catch(async function () {
    const hit = await caches.match(request, { ignoreVary: true }) ||
      // the score sheet's "+ Queens" opens the kept add-deal form (the page ticks the contract itself)
      (/\/deals\/new$/.test(url.pathname) && await caches.match(url.pathname, { ignoreVary: true, ignoreSearch: true }));
    if (hit) return hit;
    if (request.mode === "navigate") return (await caches.match(OFFLINE)) || Response.error();
    return Response.error();
  }));
});
