// Scorekeeper: small enhancements only. Every page works without this file.
// - live preview of each player's points (asks the server: the rules live in one place)
// - the last count fills itself in (13 minus the others), with a running "12 of 13"
// - the last Trix finisher fills itself in
// - the new-game form names the first-dealer chips after the typed players
"use strict";

(function () {
  function debounce(fn, ms) {
    let timer;
    return function () { clearTimeout(timer); timer = setTimeout(fn, ms); };
  }

  function intOrNull(input) {
    const v = input.value.trim();
    return /^\d+$/.test(v) ? parseInt(v, 10) : null;
  }

  // Counts that add up to a total: fill the one left blank, show the running sum.
  function setupCountGroup(inputs, total, sumLine) {
    if (!inputs.length) return;
    function update() {
      // Only a count the player has not typed in themselves is filled in: one they are
      // correcting (even emptied with Backspace) is theirs.
      const blanks = inputs.filter((i) => i.dataset.typed !== "1" && (i.value.trim() === "" || i.dataset.auto === "1"));
      if (blanks.length === 1) {
        const others = inputs.filter((i) => i !== blanks[0]).map(intOrNull);
        if (others.every((v) => v !== null)) {
          const rest = total - others.reduce((a, b) => a + b, 0);
          if (rest >= 0) { blanks[0].value = String(rest); blanks[0].dataset.auto = "1"; }
          else if (blanks[0].dataset.auto === "1") { blanks[0].value = ""; }
        }
      }
      if (sumLine) {
        const values = inputs.map(intOrNull);
        const sum = values.reduce((a, b) => a + (b || 0), 0);
        sumLine.textContent = sum + " of " + total;
        sumLine.classList.toggle("off", values.every((v) => v !== null) && sum !== total);
      }
    }
    inputs.forEach((input) => input.addEventListener("input", () => {
      delete input.dataset.auto;
      input.dataset.typed = "1";
      update();
    }));
    update();
  }

  function setupPreview(form) {
    const url = form.dataset.preview;
    const line = form.querySelector("[data-preview-line]");
    if (!url || !line || !window.fetch) return;
    let seq = 0;
    const run = debounce(function () {
      const mine = ++seq;
      // A form that saves posts its preview (with its CSRF token); a GET form (the
      // calculator, which saves nothing) asks with a GET.
      const data = new FormData(form);
      const request = (form.method || "get").toLowerCase() === "post"
        ? fetch(url, { method: "POST", body: data, credentials: "same-origin" })
        : fetch(url + (url.includes("?") ? "&" : "?") + new URLSearchParams(data), { credentials: "same-origin" });
      request
        .then((r) => (r.ok ? r.json() : null))
        .then(function (data) {
          if (!data || mine !== seq) return;
          const names = JSON.parse(form.dataset.players || "[]");
          form.querySelectorAll("[data-seat-preview]").forEach((o) => { o.textContent = ""; });
          line.textContent = "";
          if (data.ok) {
            data.points.forEach(function (p, seat) {
              const out = form.querySelector('[data-seat-preview="' + seat + '"]');
              if (out) out.textContent = p;
            });
            line.textContent = data.points.map((p, i) => (names[i] || "") + " " + p).join(" · ");
          } else if (data.message) {
            const span = document.createElement("span");
            span.className = "bad";
            span.textContent = data.message;
            line.appendChild(span);
          }
        })
        .catch(function () { /* offline: the server checks on save */ });
    }, 300);
    form.addEventListener("input", run);
    form.addEventListener("change", run);
  }

  function setupFinishingOrder(form) {
    const groups = Array.from(form.querySelectorAll("fieldset")).filter((f) =>
      f.querySelector('input[type="radio"][name^="trix_place_"]'));
    if (groups.length < 2) return;
    form.addEventListener("change", function (event) {
      if (!event.target.name || !event.target.name.startsWith("trix_place_")) return;
      const chosen = groups.map((g) => g.querySelector("input:checked"));
      const blanks = chosen.map((c, i) => (c ? -1 : i)).filter((i) => i >= 0);
      if (blanks.length !== 1) return;
      const used = chosen.filter(Boolean).map((c) => c.value);
      const left = Array.from(groups[blanks[0]].querySelectorAll("input")).filter((i) => !used.includes(i.value));
      if (left.length === 1) { left[0].checked = true; form.dispatchEvent(new Event("change")); }
    });
  }

  // Trix: "who led to that trick" matters only when the doubler took the card back
  function setupLeaders(form) {
    const prefixes = new Set(Array.from(form.querySelectorAll('input[name$="_leader"]'), (i) => i.name.slice(0, -"_leader".length)));
    prefixes.forEach(function (prefix) {
      const fieldset = form.querySelector('input[name="' + prefix + '_leader"]').closest("fieldset");
      function update() {
        const taker = form.querySelector('input[name="' + prefix + '_taker"]:checked');
        const doubler = form.querySelector('input[name="' + prefix + '_doubled_by"]:checked');
        const needed = taker && doubler && doubler.value !== "" && doubler.value === taker.value;
        const given = form.querySelector('input[name="' + prefix + '_leader"]:checked');
        fieldset.hidden = !needed && !(given && given.value !== "");
      }
      form.addEventListener("change", update);
      update();
    });
  }

  function setupNewGame(form) {
    const names = Array.from(form.querySelectorAll('input[name^="player_"]'));
    // last time's names are offered: a tap selects the name, so typing replaces it
    names.forEach((input) => input.addEventListener("focus", () => { if (input.value) input.select(); }));
    function relabel() {
      names.forEach(function (input, seat) {
        const label = form.querySelector('.first-dealer input[value="' + seat + '"] + label');
        if (label) label.textContent = input.value.trim() || label.dataset.original;
      });
    }
    form.querySelectorAll(".first-dealer label").forEach((l) => { l.dataset.original = l.textContent; });
    names.forEach((input) => input.addEventListener("input", relabel));
    relabel();
  }


  // A new deal's entries are kept in this browser until the deal is saved, so a save that
  // never reached the server (no connection at the table) loses nothing. A kept draft
  // comes back with its form token, so if the first save did arrive after all, sending it
  // again still saves the deal once.
  const DRAFTS = "scorekeeper-draft:";

  function setupDraft(form) {
    const key = DRAFTS + form.dataset.draft;
    const status = form.querySelector("[data-preview-line]");
    function keep() {
      const data = [];
      new FormData(form).forEach((value, name) => { if (name !== "csrf_token") data.push([name, value]); });
      try { localStorage.setItem(key, JSON.stringify({ at: Date.now(), data: data })); } catch (e) { /* private mode */ }
    }
    function say(text) {
      if (!status) return;
      status.textContent = "";
      const span = document.createElement("span");
      span.className = "bad";
      span.textContent = text;
      status.appendChild(span);
    }
    let kept = null;
    try { kept = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { kept = null; }
    const fresh = !form.querySelector(".errors");  // not a form the server sent back with problems
    if (kept && fresh && Date.now() - kept.at < 12 * 3600 * 1000) {
      form.querySelectorAll('input[type="radio"], input[type="checkbox"]').forEach((i) => { i.checked = false; });
      kept.data.forEach(function (pair) {
        const fields = form.querySelectorAll('[name="' + CSS.escape(pair[0]) + '"]');
        fields.forEach(function (field) {
          if (field.type === "radio" || field.type === "checkbox") {
            if (field.value === pair[1]) field.checked = true;
          } else {
            field.value = pair[1];
          }
        });
      });
      say(form.dataset.draftBack || "Your entries that were not saved are back.");
      form.dataset.restored = "1";
    }
    form.addEventListener("input", keep);
    form.addEventListener("change", keep);
    form.addEventListener("submit", function (event) {
      keep();
      if (navigator.onLine === false) {
        event.preventDefault();
        say(form.dataset.offline || "No connection: nothing was sent. Your entries are kept; tap Save again when the phone is back online.");
      }
    });
  }

  // The sheet shows how many deals are saved: drafts of those deals are done with.
  function clearSavedDrafts(sheet) {
    const count = parseInt(sheet.dataset.dealCount || "0", 10);
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const name = localStorage.key(i) || "";
      const match = name.startsWith(DRAFTS) && name.slice(DRAFTS.length).split(":");
      if (match && match[0] === sheet.dataset.game && parseInt(match[1], 10) <= count) localStorage.removeItem(name);
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("table.sheet[data-deal-count]").forEach(clearSavedDrafts);
    document.querySelectorAll("form.deal-form[data-draft]").forEach(setupDraft);
    document.querySelectorAll("form.deal-form").forEach(function (form) {
      const total = parseInt(form.dataset.totalTricks || "0", 10);
      if (total) {
        setupCountGroup(Array.from(form.querySelectorAll('input[name^="tricks_"]')), total,
          form.querySelector("[data-sum-line]"));
      }
      form.querySelectorAll("[data-block][data-total]").forEach(function (block) {
        setupCountGroup(Array.from(block.querySelectorAll("input.count-input")),
          parseInt(block.dataset.total, 10), block.querySelector("[data-sum-of]"));
      });
      setupFinishingOrder(form);
      setupLeaders(form);
      setupPreview(form);
      if (form.dataset.restored) {  // work out the sums and the preview of what came back
        form.querySelectorAll("input.count-input").forEach((i) => { if (i.value) i.dataset.typed = "1"; });
        form.dispatchEvent(new Event("change"));
      }
    });
    document.querySelectorAll("form.new-game").forEach(setupNewGame);
    // The past-games filters count days in the viewer's time zone (UTC without this)
    document.querySelectorAll("input[data-time-zone]").forEach(function (input) {
      try { input.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { /* UTC */ }
    });
    document.querySelectorAll("time[data-local-time]").forEach(function (t) {
      const d = new Date(t.getAttribute("datetime"));
      const day = { day: "numeric", month: "short", year: "numeric" };
      if (isNaN(d)) return;
      // data-local-time="datetime" (the history) shows the hour too
      t.textContent = t.dataset.localTime === "datetime"
        ? d.toLocaleString(undefined, Object.assign({ hour: "2-digit", minute: "2-digit" }, day))
        : d.toLocaleDateString(undefined, day);
    });
  });
})();

// Explanations open in place: a link marked data-explain (a number on the score sheet,
// or a link inside an explanation) fills the sheet's <dialog> with the explanation page's
// article. Without JavaScript, or if anything fails, the link is simply followed.
(function () {
  "use strict";
  function setup() {
    const dialog = document.querySelector("[data-explain-dialog]");
    if (!dialog || typeof dialog.showModal !== "function" || !window.fetch || !window.DOMParser) return;
    const body = dialog.querySelector("[data-explain-body]");
    const pageLink = dialog.querySelector("[data-explain-page]");
    let seq = 0;
    let pushed = false;

    function open(url) {
      const mine = ++seq;
      fetch(url, { credentials: "same-origin" })
        .then((r) => (r.ok ? r.text() : Promise.reject(new Error(String(r.status)))))
        .then(function (html) {
          if (mine !== seq) return;
          const article = new DOMParser().parseFromString(html, "text/html").querySelector("[data-explanation]");
          if (!article) throw new Error("no explanation");
          body.replaceChildren(document.importNode(article, true));
          if (pageLink) pageLink.href = url;
          if (!dialog.open) {
            dialog.showModal();
            // The phone's back button closes the explanation instead of leaving the sheet
            history.pushState({ explain: true }, "");
            pushed = true;
          }
          dialog.scrollTop = 0;
        })
        .catch(function () { window.location.href = url; });
    }

    document.addEventListener("click", function (event) {
      const link = event.target.closest && event.target.closest("a[data-explain]");
      if (!link || event.defaultPrevented || event.button !== 0 ||
          event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      open(link.href);
    });
    // A tap on the dimmed sheet around the dialog closes it
    dialog.addEventListener("click", function (event) {
      if (event.target === dialog) dialog.close();
    });
    dialog.addEventListener("close", function () {
      seq++;
      if (pushed) { pushed = false; history.back(); }
    });
    window.addEventListener("popstate", function () {
      if (dialog.open) { pushed = false; dialog.close(); }
    });
  }
  document.addEventListener("DOMContentLoaded", setup);
})();
