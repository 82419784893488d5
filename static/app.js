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

  function setupNewGame(form) {
    const names = Array.from(form.querySelectorAll('input[name^="player_"]'));
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

  document.addEventListener("DOMContentLoaded", function () {
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
      setupPreview(form);
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
