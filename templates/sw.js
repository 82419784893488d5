// Scorekeeper's service worker (served at /sw.js by scorekeeper/views/offline.py).
// Pages: the network first, so every phone with a connection sees the game as it is; each
// page fetched is kept, and shown when there is no connection (the sheet then says since
// when it is). Static files: kept, under URLs that change with every version of the app.
// A new version of the app has a new VERSION, so this file changes: the browser installs
// it on the next visit with connection, and it deletes the old version's cache.
// The page shown for a page never opened (OFFLINE) is kept in the phone's language: a page
// that comes in another language (the language switch, or the phone's own language
// changed) fetches it again, now in that language.
"use strict";
const VERSION = {{ version|tojson }};
const CACHE = "scorekeeper-" + VERSION;
const SHELL = {{ shell|tojson }};
const OFFLINE = {{ offline|tojson }};
const MAX_PAGES = {{ kept_pages|tojson }};
// The header of a page asked fresh: answered by the network alone
const FRESH = "X-Scorekeeper-Fresh";
// What install keeps, as the cache names it (absolute): never let go to make room
const KEPT_ALWAYS = new Set(SHELL.map((url) => new URL(url, self.location.origin).href));

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
    // the oldest page goes (a page kept again moves to the end, the shell stays)
    const pages = (await cache.keys()).filter((key) => !KEPT_ALWAYS.has(key.url));
    if (pages.length > MAX_PAGES) await cache.delete(pages[0]);
  });
}

// The offline page in ``language`` (a page's Content-Language), fetched again unless the
// one kept is already in it; the fetch carries the phone's cookies, so it comes in the
// language the page just did.
async function offlinePageIn(language) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(OFFLINE);
  if (kept && kept.headers.get("Content-Language") === language) return;
  const response = await fetch(OFFLINE);
  if (response.ok && response.headers.get("Content-Language") === language) await cache.put(OFFLINE, response);
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;  // saves go to the server (the page keeps them when offline)
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // asked live, never from a copy: the game's version, the preview of a deal, this file
  if (/\/live$/.test(url.pathname) || /\/preview$/.test(url.pathname) || url.pathname === "/sw.js") return;
  // a page asked fresh (static/app.js reloadFresh): the network's answer or a failure, never
  // the copy kept (FRESH)
  if (request.headers.get(FRESH)) { event.respondWith(fetch(request)); return; }
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request).then(function (response) {
      keep(request, response);
      return response;
    })));
    return;
  }
  event.respondWith(fetch(request).then(function (response) {
    keep(request, response);
    const language = response.ok && request.mode === "navigate" && response.headers.get("Content-Language");
    if (language) event.waitUntil(offlinePageIn(language).catch(() => undefined));
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
