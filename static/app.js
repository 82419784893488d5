// Scorekeeper: small enhancements only. Every page works without this file.
// - live preview of each player's points (asks the server: the rules live in one place),
//   or why they cannot be worked out yet
// - counts: a chip tapped and the number field kept equal; the last count fills itself in
//   (13 minus the others), with a running "12 of 13"; chips the other counts rule out
//   are disabled
// - the Trix finishing order tapped in order; the last finisher fills itself in; a
//   doubler tapped again is taken back
// - the new-game form names the first-dealer chips after the typed players
"use strict";

// Numbers and dates this script writes, as the server writes the page's (scorekeeper/
// locale_numbers.py): in the page's language and digits (<html lang data-digits>, e.g. "ar" and
// "arab": ٠–٩, or "latn" where the phone chose Western digits), never grouped.
function pageLocale() {
  const root = document.documentElement;
  const lang = root.lang || "en";
  return root.dataset.digits ? lang + "-u-nu-" + root.dataset.digits : lang;
}

// Days and times in the phone's own variant of the page's language, in the page's digits:
// a British phone on the English page reads "7 Dec 2026, 07:36", an American one "Dec 7,
// 2026, 07:36 AM" (the page says only "en": tester 67)
function dateLocale() {
  const root = document.documentElement;
  const lang = root.lang || "en";
  const own = (navigator.languages || [navigator.language]).find(
    (tag) => typeof tag === "string" && tag.split("-")[0].toLowerCase() === lang.split("-")[0]);
  let base = lang;
  try { if (own && Intl.DateTimeFormat.supportedLocalesOf([own]).length) base = own; } catch (e) { /* the page's */ }
  return root.dataset.digits ? base + "-u-nu-" + root.dataset.digits : base;
}

function pageNumber(n) {
  try { return new Intl.NumberFormat(pageLocale(), { useGrouping: false }).format(n); } catch (e) { return String(n); }
}

// Offline, the form tells the truth (issue 18, part 7). A page of a game carries the state
// of the game it was drawn for (data-next-deal, scorekeeper/next_deal.py): the number of
// deals, the next dealer and, in Trix, the kingdom's owner and the contracts played in it.
// The newest state this phone has seen is kept; an add-deal form opened again (kept by the
// service worker for the road) counts this phone's own deals after it, sent or waiting in
// the outbox, and shows the deal's number, dealer and contracts left from that. Actions
// that need the server (Undo, changing or deleting a deal, the game's other pages) are
// disabled while there is no connection, with a word why.
const OfflineTruth = (function () {
  "use strict";
  const KNOWN = "scorekeeper-known:";  // + a game's id: the newest state of it this phone has seen
  const SENT_DEALS = "scorekeeper-sent-deals";  // own deals sent from the outbox: [{game, nonce, contracts, before}]
  const OUTBOX = "scorekeeper-outbox";
  const SENT = "scorekeeper-sent";  // the outbox's: form tokens of deals sent from it, per game

  function load(name, fallback) {
    try { return JSON.parse(localStorage.getItem(name) || "null") || fallback; } catch (e) { return fallback; }
  }
  function save(name, value) {
    try { localStorage.setItem(name, JSON.stringify(value)); } catch (e) { /* private mode */ }
  }
  function stateOf(node) {
    try { return JSON.parse(node.dataset.nextDeal || "null"); } catch (e) { return null; }
  }
  function contractsOf(data) {
    return (data || []).filter((p) => p[0] === "contracts").map((p) => p[1]);
  }

  // A page's state, kept when it is newer than the one kept (versions only grow: the id of
  // the game's latest change). Own sent deals that any state kept now includes are done with.
  function remember(game, state) {
    if (!game || !state || typeof state.version !== "number") return;
    const kept = load(KNOWN + game, null);
    if (kept && kept.version >= state.version) return;
    save(KNOWN + game, state);
    save(SENT_DEALS, load(SENT_DEALS, []).filter((d) => d.game !== game || d.before >= state.version));
  }

  // The outbox sent one of this phone's deals, or found it saved: a state no newer than the
  // newest known now does not count it yet; one saved already at version ``added`` (an
  // earlier send's answer lost) is counted by every state of that version or later,
  // which the phone may know already (tester 42: counted twice, the next form said deal 3)
  function sent(item, added) {
    const kept = load(KNOWN + item.game, null);
    const known = kept ? kept.version : 0;
    const before = typeof added === "number" ? Math.min(known, added - 1) : known;
    const all = load(SENT_DEALS, []).filter((d) => d.nonce !== item.nonce);
    all.push({ game: item.game, nonce: item.nonce, contracts: contractsOf(item.data), before: before });
    const mine = all.filter((d) => d.game === item.game).slice(-20);
    save(SENT_DEALS, all.filter((d) => d.game !== item.game).concat(mine));
  }

  // This phone's deals of ``game`` waiting in the outbox that come before its next new deal,
  // in the phone's order: not those that wait for one of its deals opened again and not
  // saved yet (that deal is on its form, and they come after it); once it is saved again
  // (waiting in the outbox, or sent) they count (tester 22: the next form had said deal 3
  // where deals 2 to 4 were waiting), and refused again they count as the deals behind any
  // refused deal do, as if it were discarded (tester 23: "+ Add deal 3" with two waiting).
  // Not those the game's state ``base`` (the newest this phone knows) has among its deals
  // already (``tokens``): a Save whose answer a reload cut waits in the outbox, stored all
  // the same (tester 61: the form read "Deal 3", dealt by the wrong seat, until the
  // outbox's send was answered "saved once").
  function ownWaiting(game, base) {
    const outbox = load(OUTBOX, []);
    const sentNow = load(SENT, {})[game] || [];
    const stored = (base && base.tokens) || [];
    return outbox.filter((i) => i.game === game && i.state === "waiting" && !stored.includes(i.nonce)
                         && !onItsForm(i, outbox, sentNow));
  }

  // The newest state of ``game`` this phone knows: the one kept, or ``drawn`` (a page's)
  // when it is newer; null for none
  function newest(game, drawn) {
    const kept = load(KNOWN + game, null);
    return kept && (!drawn || kept.version > drawn.version) ? kept : drawn || null;
  }

  // This phone's deal of ``game`` the server refused and that is not settled yet (neither
  // opened again nor discarded; one it can still save): until it is, the next deal's
  // number and dealer are not known (tester 31: "+ Add deal 8, Ida deals" counted it as
  // discarded; opened and saved, it became deal 7 and the deal added as 8 became 9, dealt
  // by Jon). Null for none.
  function undecided(game) {
    return load(OUTBOX, []).find((i) => i.game === game && i.state === "refused" && !i.final && !i.over) || null;
  }

  // Whether the deal ``item`` waits for (``item.after``: one of this phone's deals, refused
  // and opened again) is on its form, not saved yet: neither in the ``outbox`` (waiting, or
  // refused again) nor among the game's deals sent from it (``sentNow``)
  function onItsForm(item, outbox, sentNow) {
    return Boolean(item.after) && !outbox.some((o) => o.nonce === item.after.nonce)
      && !sentNow.includes(item.after.nonce);
  }

  // The next deal as this phone knows it: {number, dealer, version, ahead (own deals counted
  // after the state), contracts and over (Trix)}; null without a state.
  function next(game, drawn) {
    const base = newest(game, drawn);
    if (!base) return null;
    const stored = base.tokens || [];
    const after = load(SENT_DEALS, []).filter((d) => d.game === game && d.before >= base.version && !stored.includes(d.nonce))
      .map((d) => d.contracts).concat(ownWaiting(game, base).map((i) => contractsOf(i.data)));
    const out = { number: base.deals + after.length + 1, version: base.version, ahead: after.length, dealer: null,
                  undecided: undecided(game) };
    if (base.kind === "trix") {
      // the owner deals every deal of the kingdom; once its owner has chosen every
      // contract, the next kingdom is the right-hand neighbour's (SCORING.md §2)
      let owner = base.owner;
      let done = base.done;
      let played = base.played.slice();
      after.forEach(function (contracts) {
        contracts.forEach((c) => { if (!played.includes(c)) played.push(c); });
        if (base.order.every((c) => played.includes(c))) { done += 1; owner = (owner + 1) % base.seats; played = []; }
      });
      const left = base.order.filter((c) => !played.includes(c));
      out.dealer = owner;
      out.kingdom = done + 1;
      out.over = done >= base.kingdoms;
      out.contracts = out.over ? [] : base.fixed ? left.slice(0, 1) : left;  // none once every kingdom is played
    } else if (base.dealer !== null && base.dealer !== undefined) {
      out.dealer = (base.dealer + after.length) % base.seats;  // the deal passes to the next seat
    }
    return out;
  }

  // A new deal's form (static/app.js setupDraft): its number, dealer and contracts as this
  // phone knows them. Not a form the server sent back (a problem, another phone's deal).
  function form(form) {
    const drawn = stateOf(form);
    const game = (form.dataset.draft || "").split(":")[0];
    remember(game, drawn);
    if (!drawn || form.querySelector(".errors, [data-conflict]")) return;
    const now = next(game, drawn);
    if (!now || (now.version === drawn.version && now.ahead === 0)) return;  // as drawn
    if (now.version > drawn.version) {
      // the form is for the deal after the game this phone has seen: its Save is checked
      // against that, and news is what came after it
      const seen = form.querySelector('input[name="seen"]');
      if (seen) seen.value = String(now.version);
      form.dataset.liveVersion = String(now.version);
    }
    const n = String(now.number);
    form.dataset.draft = game + ":" + n;
    form.dataset.number = n;
    // the deal's number in the page's digits, where it is written
    const digits = (text) => (text || "").replace(/\p{Nd}+/u, pageNumber(n));
    form.dataset.waitingText = digits(form.dataset.waitingText);
    form.dataset.heldText = digits(form.dataset.heldText);
    document.title = digits(document.title);
    document.querySelectorAll("h1, form.deal-form button[type=\"submit\"]").forEach((e) => { e.textContent = digits(e.textContent); });
    const lines = Array.from(document.querySelectorAll("[data-dealer-line]"));
    if (now.dealer !== null && lines.some((l) => l.dataset.dealerLine === String(now.dealer))) {
      lines.forEach((l) => { l.hidden = l.dataset.dealerLine !== String(now.dealer); });
      form.querySelectorAll("[data-dealer-badge]").forEach((b) => { b.hidden = b.dataset.dealerBadge !== String(now.dealer); });
    }
    if (now.contracts) offer(form, now.contracts);
    if (now.over && form.dataset.overOffline && !form.querySelector("[data-over-offline-note]")) {
      // this phone's deals waiting to be sent play the last kingdom out: no deal after them
      // (tester 63: "Deal 21", all five contracts, and a Save that queued a third deal)
      const note = document.createElement("p");
      note.className = "errors";
      note.dataset.overOfflineNote = "";
      note.setAttribute("role", "status");
      note.textContent = form.dataset.overOffline;
      form.prepend(note);
      form.querySelectorAll('button[type="submit"]').forEach((b) => { b.disabled = true; });
    }
  }

  // Trix: only the contracts left in the kingdom can be chosen (a fixed order's next one,
  // ticked); the others hidden, as the server draws them
  function offer(form, contracts) {
    const chips = Array.from(form.querySelectorAll('input[name="contracts"]'));
    chips.forEach(function (input) {
      const off = !contracts.includes(input.value);
      input.disabled = off;
      if (off) input.checked = false;
      input.closest(".chip").hidden = off;
    });
    if (contracts.length === 1 && chips.length && chips[0].type === "radio") {
      chips.forEach((input) => { input.checked = input.value === contracts[0]; });
    }
  }

  // A head's "deals next" badge shown (dealer) or kept as room only, hidden from screen readers
  function dealerBadge(badge, dealer) {
    badge.classList.toggle("badge-space", !dealer);
    if (dealer) badge.removeAttribute("aria-hidden"); else badge.setAttribute("aria-hidden", "true");
  }

  // The score sheet: with this phone's own deals waiting (or sent since it was drawn), who
  // deals next, the contracts left and the Trix sheet's "+ Queens" buttons are the ones after them.
  // The buttons as the server drew them, by their bar, to put back once no own deal is
  // ahead of the page any more (sent and drawn, or refused)
  const drawnButtons = new WeakMap();
  function sheet(region) {
    const drawn = stateOf(region);
    const game = region.dataset.game;
    remember(game, drawn);
    if (!drawn) return;
    const now = next(game, drawn);
    const line = region.querySelector("[data-next-texts]");
    const said = line && line.querySelector("[data-next-text]");
    let texts = null;
    try { texts = line ? JSON.parse(line.dataset.nextTexts) : null; } catch (e) { texts = null; }
    if (now && now.undecided && said && texts && texts.undecided && !now.over) {
      // nobody is named to deal while it depends on a deal not settled (undecided)
      if (said.dataset.drawn === undefined) said.dataset.drawn = said.textContent;
      said.textContent = texts.undecided.replace("{n}", pageNumber(now.undecided.number));
      region.querySelectorAll("thead th.player-col .dealer-badge").forEach(function (badge) {
        if (badge.dataset.drawn === undefined) badge.dataset.drawn = badge.classList.contains("badge-space") ? "" : "dealer";
        dealerBadge(badge, false);
      });
      return;
    }
    const bar = region.querySelector(".action-bar.add-contracts, .action-bar [data-add-label]");
    const adding = bar && (bar.matches(".add-contracts") ? [bar.querySelector("[data-add-label]"), bar.querySelector(".contract-buttons")]
                                                          : [bar]);
    if (now && now.over && now.ahead > 0 && said && texts && texts.over) {
      // this phone's deals waiting play the last kingdom out: the game ends with them, and
      // no deal is offered after them (tester 63: "+ Add deal 21: Diamonds | Tricks")
      if (said.dataset.drawn === undefined) said.dataset.drawn = said.textContent;
      said.textContent = texts.over;
      (adding || []).forEach((e) => { if (e) { e.hidden = true; e.dataset.overHidden = ""; } });
      region.querySelectorAll("thead th.player-col .dealer-badge").forEach(function (badge) {  // nobody deals next
        if (badge.dataset.drawn === undefined) badge.dataset.drawn = badge.classList.contains("badge-space") ? "" : "dealer";
        dealerBadge(badge, false);
      });
      return;
    }
    region.querySelectorAll("[data-over-hidden]").forEach((e) => { e.hidden = false; delete e.dataset.overHidden; });
    if (!now || (now.version === drawn.version && now.ahead === 0) || now.dealer === null || now.over) {
      // no own deal after the page's state (any more: one was refused): the page's own words
      if (said && said.dataset.drawn !== undefined) said.textContent = said.dataset.drawn;
      region.querySelectorAll("thead th.player-col .dealer-badge[data-drawn]").forEach(function (badge) {
        dealerBadge(badge, badge.dataset.drawn === "dealer");
      });
      region.querySelectorAll(".add-contracts .contract-buttons").forEach(function (bar) {
        const buttons = drawnButtons.get(bar);  // the contracts a refused deal had taken: offered again
        if (buttons) bar.replaceChildren(...buttons);
        drawnButtons.delete(bar);
      });
      return;
    }
    if (!texts) return;  // no line: nothing to put right
    let text = (texts.seats[now.dealer] || "").replace("{n}", pageNumber(now.kingdom || 0));
    if (now.contracts) text += " " + texts.still + " " + now.contracts.map((c) => texts.names[c] || c).join(texts.separator) + ".";
    if (said.dataset.drawn === undefined) said.dataset.drawn = said.textContent;
    said.textContent = text;
    region.querySelectorAll("thead th.player-col").forEach(function (th, seat) {
      const badge = th.querySelector(".dealer-badge");
      if (!badge) return;
      if (badge.dataset.drawn === undefined) badge.dataset.drawn = badge.classList.contains("badge-space") ? "" : "dealer";
      dealerBadge(badge, seat === now.dealer);
    });
    const buttons = Array.from(region.querySelectorAll(".add-contracts a[href*='contract=']"));
    if (now.contracts && buttons.length) {
      const at = buttons[buttons.length - 1].nextSibling;
      const bar = buttons[0].parentNode;
      if (!drawnButtons.has(bar)) drawnButtons.set(bar, Array.from(bar.childNodes));
      now.contracts.forEach(function (contract) {
        const button = buttons[0].cloneNode(false);
        const address = new URL(button.href, location.href);
        address.searchParams.set("contract", contract);
        button.href = address.pathname + address.search;
        button.textContent = texts.names[contract] || contract;
        bar.insertBefore(button, at);
      });
      buttons.forEach((b) => b.remove());
    }
  }

  // The preview without connection: the points come from the server
  function preview(form, line) {
    if (!form.dataset.previewOffline || form.dataset.queued) return;
    line.textContent = "";
    const span = document.createElement("span");
    span.className = "todo";
    span.dataset.previewOffline = "";
    span.textContent = form.dataset.previewOffline || "";
    line.appendChild(span);
  }

  // Without connection, what needs the server cannot be tapped, and says so once beside it
  let offline = null;
  function connection(ok, again) {
    if (offline === !ok && !again) return;  // said already (the live check asks every 2 s)
    offline = !ok;
    document.querySelectorAll("[data-needs-connection]").forEach(function (node) {
      if (node.tagName === "A") {
        if (offline && node.hasAttribute("href")) {
          node.dataset.href = node.getAttribute("href");
          node.removeAttribute("href");
          node.setAttribute("aria-disabled", "true");
        } else if (!offline && node.dataset.href !== undefined) {
          node.setAttribute("href", node.dataset.href);
          delete node.dataset.href;
          node.removeAttribute("aria-disabled");
        }
      } else {
        node.disabled = offline;
      }
      const around = node.closest(".undo, .sheet-links, .action-bar");
      const text = node.closest("[data-needs-connection-text]");
      if (!around || !text) return;
      let why = around.querySelector(":scope > [data-offline-why]");
      if (offline && !why) {
        why = document.createElement(around.matches(".sheet-links") ? "p" : "span");
        why.className = "offline-why";
        why.dataset.offlineWhy = "";
        why.textContent = text.dataset.needsConnectionText;
        if (around.matches(".undo")) around.appendChild(why); else around.prepend(why);
      } else if (!offline && why) {
        why.remove();
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".live-sheet[data-next-deal]").forEach(sheet);
    if (navigator.onLine === false) connection(false);
  });
  document.addEventListener("scorekeeper:swapped", function (event) {
    const region = event.detail;
    if (region && region.matches && region.matches(".live-sheet[data-next-deal]")) sheet(region);
    if (offline) connection(false, true);  // the fresh sheet's links and Undo
  });
  document.addEventListener("scorekeeper:sent", function () {
    document.querySelectorAll(".live-sheet[data-next-deal]").forEach(sheet);
  });
  document.addEventListener("scorekeeper:connection", (event) => connection(event.detail));
  window.addEventListener("offline", () => connection(false));
  window.addEventListener("online", () => connection(true));

  // The numbers the deals of ``game`` waiting on this phone (:func:`ownWaiting`) will have,
  // in order, after the sheet ``region``'s state (and any newer one this phone has seen),
  // and the next new deal's: {numbers: {form token: number}, next}; null without a state
  function numbers(game, region) {
    const now = next(game, stateOf(region));
    if (!now) return null;
    const waiting = ownWaiting(game, newest(game, stateOf(region)));
    const byToken = {};
    waiting.forEach((i, k) => { byToken[i.nonce] = now.number - waiting.length + k; });
    return { numbers: byToken, next: now.number };
  }

  // A form's entries as one string, to tell whether they changed (its tokens left out)
  function entriesOf(form) {
    const pairs = [];
    new FormData(form).forEach((value, name) => {
      if (typeof value === "string" && !["csrf_token", "nonce", "seen"].includes(name)) pairs.push([name, value]);
    });
    return JSON.stringify(pairs);
  }

  return { form: form, sent: sent, preview: preview, numbers: numbers, onItsForm: onItsForm, sheet: sheet,
           entries: entriesOf,
           undecided: undecided };
})();

(function () {
  function debounce(fn, ms) {
    let timer;
    return function () { clearTimeout(timer); timer = setTimeout(fn, ms); };
  }

  // The zeros of the decimal digits a phone's keypad may type: Western, Arabic-Indic,
  // Persian (Extended Arabic-Indic), N'Ko, Devanagari, Bengali, full-width
  const ZEROS = [0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xff10];

  // A count typed in any of those scripts ("٣", "۱۲", "１３"), as the server reads it
  // (scorekeeper/inputs.py whole_number); null for anything else
  function intOrNull(input) {
    return wholeNumber(input.value);
  }

  function wholeNumber(text) {
    const v = text.trim();
    if (!/^\p{Nd}+$/u.test(v)) return null;
    let digits = "";
    for (const c of v) {
      const code = c.codePointAt(0);
      const zero = ZEROS.find((z) => code >= z && code <= z + 9);
      if (zero === undefined) return null;
      digits += String(code - zero);
    }
    return parseInt(digits, 10);
  }

  // Counts (templates/_macros.html count_chips): a tap on a chip, or a number typed in
  // the field beside it; the two are kept equal (the server reads the field first).
  function chipsOf(input) {
    return Array.from(input.closest("[data-count]").querySelectorAll('input[type="radio"]'));
  }

  function showCount(input) {
    // tick the chip of the number in the field (a blank field: the chip of what blank
    // means, bugs' 0; a number with no chip: none)
    const n = intOrNull(input);
    const blank = wholeNumber(input.placeholder);  // in the page's digits: "٠"
    const v = n !== null ? String(n) : input.value.trim() === "" && blank !== null ? String(blank) : null;
    chipsOf(input).forEach((c) => { c.checked = c.value === v; });
  }

  function setCount(input, value) {
    // in the page's digits, as a phone's keypad types them ("٤" beside a typed "٣"); any
    // digits are read back (intOrNull, the server's inputs.whole_number)
    input.value = value === null ? "" : pageNumber(value);
    showCount(input);
  }

  function allow(input, low, high, keepChosen) {
    // chips for numbers the cards no longer allow are disabled, not hidden: the row keeps
    // its place under the thumb. ``keepChosen``: the chip of the count given stays as it
    // is (counts that add up to more than their total, a sum of 14 of 13 sent back: each
    // row's own count greyed made it look locked, tester 50; what the cards rule out
    // outright, a bug count, is greyed and let go: bugLimits)
    chipsOf(input).forEach((c) => {
      const n = parseInt(c.value, 10);
      c.disabled = !(keepChosen && c.checked) && (n < low || n > high);
    });
  }

  // Counts that add up to a total: the one left blank fills itself in, the running sum
  // shows, and no chip offers more than the counts the players gave leave over.
  function countGroup(inputs, total, sumLine) {
    return function update() {
      // Only a count the player has not given themselves is filled in: one they are
      // correcting (even emptied with Backspace) is theirs.
      const blanks = inputs.filter((i) => i.dataset.typed !== "1" && (i.value.trim() === "" || i.dataset.auto === "1"));
      if (blanks.length === 1) {
        const others = inputs.filter((i) => i !== blanks[0]).map(intOrNull);
        if (others.every((v) => v !== null)) {
          const rest = total - others.reduce((a, b) => a + b, 0);
          if (rest >= 0) { setCount(blanks[0], rest); blanks[0].dataset.auto = "1"; }
          else if (blanks[0].dataset.auto === "1") { setCount(blanks[0], null); }
        }
      } else if (blanks.length > 1) {
        // the counts given take everything (one player took all 13): the rest took none;
        // once they no longer do, those zeros are let go, not guessed at
        const given = inputs.filter((i) => !blanks.includes(i)).map(intOrNull);
        if (given.every((v) => v !== null) && given.reduce((a, b) => a + b, 0) === total) {
          blanks.forEach(function (blank) { setCount(blank, 0); blank.dataset.auto = "1"; });
        } else {
          blanks.forEach(function (blank) {
            if (blank.dataset.auto === "1") { setCount(blank, null); delete blank.dataset.auto; }
          });
        }
      }
      // Counts all given and adding up (a deal being changed): any one may be corrected
      // first, the sum then says which other to lower or raise (with one filled in by
      // the app, that one follows instead)
      const all = inputs.map(intOrNull);
      const complete = inputs.every((i) => i.dataset.auto !== "1") && all.every((v) => v !== null)
        && all.reduce((a, b) => a + b, 0) === total;
      inputs.forEach(function (input) {
        // a filled-in count follows the others, so it limits nobody
        const given = inputs.filter((o) => o !== input && o.dataset.auto !== "1").map(intOrNull);
        allow(input, 0, complete ? total : total - given.reduce((a, b) => a + (b || 0), 0), true);
      });
      if (sumLine) {
        const values = inputs.map(intOrNull);
        const sum = values.reduce((a, b) => a + (b || 0), 0);
        // "12 of 13" in the page's words and digits (data-sum-text: "{sum} من {total}")
        sumLine.textContent = (sumLine.dataset.sumText || "{sum} of {total}")
          .replace("{sum}", pageNumber(sum)).replace("{total}", pageNumber(total));
        sumLine.classList.toggle("off", values.every((v) => v !== null) && sum !== total);
      }
    };
  }

  // Trigami and plain Bugami: the bugs each player's tricks allow (SCORING.md §1.3, the
  // checks the server makes, loosely: never stricter): none without a trick; at most 3 a
  // trick plus the turnip (the leftover card); at least the cards taken beyond those of
  // the other suits; all of the suit with every trick; and players who share a bug suit
  // share its cards. A count with one possible number takes it, unless the player gave one.
  function bugLimits(form, total) {
    const seats = Array.from(form.querySelectorAll(".seat-card[data-seat]"), (card) => ({
      card: card,
      tricks: card.querySelector('input[name^="tricks_"].count-input'),
      bugs: card.querySelector('input[name^="bugs_"].count-input'),
    })).filter((s) => s.tricks && s.bugs);
    // the tricks the page came with (a deal being changed; entries sent back with a
    // problem) are the player's: only a change of them takes the count they force
    seats.forEach(function (seat) {
      const t = intOrNull(seat.tricks);
      if (t !== null) seat.bugs.dataset.forcedAt = String(t);
    });
    function suitOf(seat) {
      const bid = seat.card.querySelector('input[name^="bids_"]:checked');
      if (!bid) return null;
      if (bid.value !== "turnip") return bid.value;
      const turnip = form.querySelector('input[name="turnip"]:checked');
      return turnip && turnip.value ? turnip.value : null;
    }
    // Whether the turnip (plain Bugami: the leftover card, its suit never recorded) may be
    // among ``seat``'s bugs: they may have won the last trick (they did, or it is not
    // given) and it may be of their bug suit (it is, or a suit is not known yet); else
    // 3 a trick is their most (tester 33: a 4 beside 1 trick and another suit's turnip)
    function turnipMay(seat) {
      const last = form.querySelector('input[name="last_trick"]:checked');
      if (last && last.value !== "" && last.value !== seat.card.dataset.seat) return false;
      const turnip = form.querySelector('input[name="turnip"]:checked');
      const suit = suitOf(seat);
      return !(turnip && turnip.value && suit && suit !== turnip.value);
    }
    return function update() {
      seats.forEach(function (seat) {
        const size = chipsOf(seat.bugs).length - 1;  // the cards of a suit
        const outside = 3 * total + 1 - size;  // every card but the turnip is in a trick of 3
        const t = intOrNull(seat.tricks);
        let low = 0;
        let high = size;
        if (t !== null) {
          high = t === 0 ? 0 : Math.min(size, 3 * t + (turnipMay(seat) ? 1 : 0));
          low = t === total ? size : Math.max(0, 3 * t - outside);
        }
        const suit = suitOf(seat);
        if (suit) {
          seats.forEach(function (other) {
            if (other !== seat && suitOf(other) === suit) high = Math.min(high, size - (intOrNull(other.bugs) || 0));
          });
        }
        allow(seat.bugs, low, high);
        const shown = () => (seat.bugs.value.trim() === "" ? 0 : intOrNull(seat.bugs));
        const count = shown();
        // The tricks alone leave one number (no trick: 0; every trick: all of the suit):
        // it is taken, even over a number the player gave (a deal being changed keeps its
        // old count until its tricks change)
        // (once, when the tricks become such a number: a count typed after that is the
        // player's, kept and said to be off, never overwritten by a change elsewhere)
        const forced = t !== null && (t === 0 || t === total) && seat.bugs.dataset.forcedAt !== String(t);
        if (t !== null && (t === 0 || t === total)) seat.bugs.dataset.forcedAt = String(t);
        else delete seat.bugs.dataset.forcedAt;
        if (low === high && count !== low && (seat.bugs.dataset.typed !== "1" || forced)) {
          delete seat.bugs.dataset.typed;
          setCount(seat.bugs, low);
          seat.bugs.dataset.auto = "1";  // the form's, not the player's
        } else if (low !== high && seat.bugs.dataset.auto === "1" && seat.bugs.dataset.typed !== "1") {
          // the tricks no longer leave one number: the count the form took goes (tester
          // 32: every trick's 10 bugs stayed once the tricks were put right to 12)
          setCount(seat.bugs, null);
          delete seat.bugs.dataset.auto;
        }
        // A number the cards now rule out: its chip is not left chosen (greyed out), and
        // the field says it is off (the bar at the bottom says why, as Save would)
        const now = shown();
        const off = now !== null && (now < low || now > high);
        if (off) chipsOf(seat.bugs).forEach((c) => { c.checked = false; });
        if (off) seat.bugs.setAttribute("aria-invalid", "true"); else seat.bugs.removeAttribute("aria-invalid");
      });
    };
  }

  function setupCounts(form) {
    const updates = [];
    const total = parseInt(form.dataset.totalTricks || "0", 10);
    if (total) {
      updates.push(countGroup(Array.from(form.querySelectorAll('input[name^="tricks_"].count-input')), total,
        form.querySelector("[data-sum-line]")));
      updates.push(bugLimits(form, total));
    }
    form.querySelectorAll("[data-block][data-total]").forEach(function (block) {
      updates.push(countGroup(Array.from(block.querySelectorAll("input.count-input")),
        parseInt(block.dataset.total, 10), block.querySelector("[data-sum-of]")));
    });
    const inputs = Array.from(form.querySelectorAll("[data-count] input.count-input"));
    function refresh() { updates.forEach((u) => u()); }
    function given(input) { delete input.dataset.auto; input.dataset.typed = "1"; }
    // Capture: before the draft is kept and the preview asked, the field holds the chip's number
    form.addEventListener("change", function (event) {
      const chip = event.target;
      if (chip.type !== "radio" || !chip.closest("[data-count]")) {
        if (chip.type === "radio") refresh();  // a bid or the turnip's suit: the bugs allowed
        return;
      }
      const input = chip.closest("[data-count]").querySelector("input.count-input");
      input.value = pageNumber(Number(chip.value));
      given(input);
      refresh();
    }, true);
    inputs.forEach((input) => input.addEventListener("input", function () {
      given(input);
      showCount(input);
      refresh();
    }));
    function start() {
      // counts already in the form (sent back with a problem, a deal being changed, a
      // kept draft) are the player's: nothing overwrites them; but for those a kept draft
      // says the form filled in itself (setupDraft), which go on following the others
      inputs.forEach((i) => { if (i.value.trim() !== "" && i.dataset.auto !== "1") given(i); showCount(i); });
      refresh();
    }
    form.addEventListener("scorekeeper:restored", start);
    start();
  }

  // A refused Save's marks on what was put right since: the preview's answer lists where
  // the form's problems stand now (``wrong``: a field's id, or a group's "<group>-errors");
  // every message beside a field or a group not among them goes, with its field's red
  // (tester 24: the K♥ question stayed red once answered, until the next Save). Nothing
  // is marked here: a new problem is the preview line's, and Save's. The summary at the
  // top stays: it says what that Save found.
  function settleMarks(form, wrong) {
    const still = new Set(wrong);
    form.querySelectorAll("ul.errors[id$='-errors']").forEach(function (list) {
      if (list.hidden || still.has(list.id)) return;
      const id = list.id.slice(0, -"-errors".length);
      if (still.has(id)) return;
      list.hidden = true;
      const field = document.getElementById(id);
      const box = field && (field.closest(".has-error") || field);
      if (box) {
        box.classList.remove("has-error");
        [box, ...box.querySelectorAll('[aria-invalid="true"]')].forEach((i) => i.removeAttribute("aria-invalid"));
      }
      form.querySelectorAll('[aria-describedby~="' + list.id + '"]').forEach(function (i) {
        const rest = i.getAttribute("aria-describedby").split(/\s+/).filter((t) => t && t !== list.id);
        if (rest.length) i.setAttribute("aria-describedby", rest.join(" ")); else i.removeAttribute("aria-describedby");
      });
    });
  }

  function setupPreview(form) {
    const url = form.dataset.preview;
    const line = form.querySelector("[data-preview-line]");
    if (!url || !line || !window.fetch) return;
    let seq = 0;
    let changes = 0;  // the player's changes so far: an answer is for the entries now only if none came since it was asked
    // Points shown for entries since changed are dimmed (and the line busy) until the
    // answer for what the chips say now arrives (tester 58: the bar read the old points
    // for half a second on a slow connection, beside a bug chip already lit)
    function pending(on) {
      form.classList.toggle("preview-pending", on);
      if (on) line.setAttribute("aria-busy", "true"); else line.removeAttribute("aria-busy");
    }
    const run = debounce(function () {
      const mine = ++seq;
      const asked = changes;
      if (form.dataset.queued) { pending(false); return; }  // the deal waits in the outbox: the line says so
      if (navigator.onLine === false) { pending(false); OfflineTruth.preview(form, line); return; }  // no word from the server
      // A form that saves posts its preview (with its CSRF token); a GET form (the
      // calculator, which saves nothing) asks with a GET.
      const data = new FormData(form);
      const request = (form.method || "get").toLowerCase() === "post"
        ? fetch(url, { method: "POST", body: data, credentials: "same-origin" })
        : fetch(url + (url.includes("?") ? "&" : "?") + new URLSearchParams(data), { credentials: "same-origin" });
      request
        .then((r) => (r.ok ? r.json() : null))
        .then(function (data) {
          // (an answer that comes after a tap, before that tap's own question has gone,
          // leaves the points dimmed: tester 59)
          if (mine === seq && asked === changes) pending(false);
          // (not over "Saving…" while the Save waits for its answer: tester 42)
          if (!data || mine !== seq || form.dataset.queued || form.dataset.saving === "now") return;
          if (data.wrong) settleMarks(form, data.wrong);
          const names = JSON.parse(form.dataset.players || "[]");
          form.querySelectorAll("[data-seat-preview]").forEach((o) => { o.textContent = ""; });
          line.textContent = "";
          if (data.ok) {
            data.points.forEach(function (p, seat) {
              const out = form.querySelector('[data-seat-preview="' + seat + '"]');
              if (out) out.textContent = p;
            });
            // each name isolated (FSI … PDI, as the server's messages): "سارة +75، Anna 0" keeps its
            // order; the page's separator (data-separator: " · ", Arabic "، ": "·" beside "٠" reads as a digit);
            // a no-break space between a name and its points, which a line no longer parts
            // (tester 38: "Anna" at a line's end, "−٢٥" on the next)
            line.textContent = data.points.map((p, i) => "\u2068" + (names[i] || "") + "\u2069\u00a0" + p).join(line.dataset.separator || " · ");
            // kept for the outbox once "Saving…" takes the line, with the entries they are of
            form.dataset.shownPoints = line.textContent;
            form.dataset.shownFor = OfflineTruth.entries(form);
          } else if (data.message) {
            delete form.dataset.shownPoints;
            // why the points cannot be worked out yet, as Save would say it: something
            // still to enter, or a mistake (in red)
            const span = document.createElement("span");
            span.className = data.question ? "todo" : "bad";
            span.textContent = data.message;
            line.appendChild(span);
          }
        })
        .catch(function () {
          if (mine === seq && asked === changes) pending(false);
          if (mine === seq && form.dataset.saving !== "now") OfflineTruth.preview(form, line);  // the server checks on save
        });
    }, 300);
    const changed = function () {
      changes += 1;
      if (form.dataset.shownPoints || form.querySelector("[data-seat-preview]:not(:empty)")) pending(true);
      run();
    };
    form.addEventListener("input", changed);
    form.addEventListener("change", changed);
    if (navigator.onLine === false && !form.dataset.restored) OfflineTruth.preview(form, line);
    window.addEventListener("online", run);
  }

  // Trix: the finishing order, tapped player by player in the order they went out; a tap
  // on a player already in it takes them out (those after move up). The places' radio
  // buttons below stay the form's fields (and what shows without JavaScript); the last
  // one out is whoever is left.
  function setupFinishingOrder(form) {
    const taps = form.querySelector("[data-finish-taps]");
    const places = form.querySelector("[data-finish-places]");
    if (!taps || !places) return;
    const groups = Array.from(places.querySelectorAll("fieldset"));
    const names = groups.map((g) => g.querySelector("legend").textContent.trim());
    const buttons = Array.from(taps.querySelectorAll("button[data-seat]"));
    let auto = null;  // the seat filled in as last, not tapped

    function read() {
      // the seats in the places, in order; a player ticked in two places keeps the first
      const order = [];
      groups.forEach(function (g) {
        const c = g.querySelector("input:checked");
        if (c && c.value !== "" && !order.includes(c.value)) order.push(c.value);
      });
      return order;
    }
    function write(order) {
      if (order.length === groups.length - 1) {
        auto = buttons.map((b) => b.dataset.seat).find((seat) => !order.includes(seat));
        order = order.concat([auto]);
      } else {
        auto = null;
      }
      groups.forEach((g, i) => g.querySelectorAll("input").forEach((r) => { r.checked = r.value === order[i]; }));
      buttons.forEach(function (b) {
        const place = order.indexOf(b.dataset.seat);
        b.setAttribute("aria-pressed", place >= 0 ? "true" : "false");
        b.classList.toggle("auto", b.dataset.seat === auto);
        b.querySelector("[data-place]").textContent = place >= 0 ? names[place] : "";
      });
    }
    buttons.forEach((b) => b.addEventListener("click", function () {
      const order = read().filter((seat) => seat !== auto);
      const at = order.indexOf(b.dataset.seat);
      if (at >= 0) order.splice(at, 1);
      else order.push(b.dataset.seat);
      write(order);
      form.dispatchEvent(new Event("change"));  // the draft, the preview
    }));
    taps.hidden = false;
    places.hidden = true;
    write(read());
  }

  // Trix: "who led to that trick" matters only when the doubler took the card back. Once
  // it no longer does (the doubling taken back, another taker tapped), the leader given is
  // set aside with its row (left chosen, it would have the Save refused: "not doubled, so
  // no leader", tester 18) and comes back if the doubler takes the card again.
  function setupLeaders(form) {
    const prefixes = new Set(Array.from(form.querySelectorAll('input[name$="_leader"]'), (i) => i.name.slice(0, -"_leader".length)));
    prefixes.forEach(function (prefix) {
      const fieldset = form.querySelector('input[name="' + prefix + '_leader"]').closest("fieldset");
      const none = fieldset.querySelector('input[type="radio"][value=""]');
      let aside = null;  // the leader set aside
      function update() {
        const taker = form.querySelector('input[name="' + prefix + '_taker"]:checked');
        const doubler = form.querySelector('input[name="' + prefix + '_doubled_by"]:checked');
        const needed = taker && doubler && doubler.value !== "" && doubler.value === taker.value;
        const given = form.querySelector('input[name="' + prefix + '_leader"]:checked');
        let changed = false;
        if (!needed && given && given.value !== "" && none) {
          aside = given;
          none.checked = true;
          changed = true;
        } else if (needed && aside && (!given || given.value === "")) {
          aside.checked = true;
          aside = null;
          changed = true;
        }
        fieldset.hidden = !needed && !(given && given.value !== "" && !none);
        if (changed) form.dispatchEvent(new Event("change"));  // the draft, the preview
      }
      form.addEventListener("change", update);
      update();
    });
  }

  // Trix: who doubled a card (and who led), tapped again, is taken back. The "nobody" (and
  // "—") chip that does so without JavaScript is hidden, so the row lines up with the
  // takers' row above it; it is still the field's value sent.
  function setupTakeBack(form) {
    form.querySelectorAll("fieldset.doubler, fieldset.leader").forEach(function (fieldset) {
      const none = fieldset.querySelector('input[type="radio"][value=""]');
      if (!none) return;
      none.closest(".chip").hidden = true;
      let before = null;
      function remember() { before = fieldset.querySelector("input:checked"); }
      fieldset.addEventListener("pointerdown", remember, true);
      fieldset.addEventListener("keydown", remember, true);
      fieldset.addEventListener("click", function (event) {
        // a radio's click comes with it ticked already: the same one as before the tap
        // (or Space) means "not that one after all"
        if (event.target.type !== "radio" || event.target !== before || event.target === none) return;
        none.checked = true;
        before = none;
        form.dispatchEvent(new Event("change"));  // who led, the draft, the preview
      });
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
  const DRAFT_MS = 12 * 3600 * 1000;  // how long a form's kept entries are offered back
  // how long a Save waits for the server's answer before the deal waits in the outbox
  // (sent again with its form token: saved once, even if the first did arrive)
  const SAVE_MS = 15000;

  // Whether a draft's [name, value] pairs hold anything the player entered: not the form's
  // tokens and versions, the contract it was opened for, or the fields that only mirror a
  // count (its chips, what it showed): the count's own field carries it
  const NOT_ENTRIES = new Set(["csrf_token", "nonce", "version", "seen", "mine", "contracts", "scorekeeper-auto"]);
  function entered(data) {
    return Array.isArray(data) && data.some((pair) => !NOT_ENTRIES.has(pair[0])
      && !/_(was|chip)$/.test(pair[0]) && String(pair[1]).trim() !== "");
  }

  // The draft kept under ``name`` when it still offers entries back (not sent, younger
  // than DRAFT_MS, with something the player entered), else null
  // The draft kept under ``name`` with entries, younger than DRAFT_MS; null for none
  function draftOf(name) {
    let draft = null;
    try { draft = JSON.parse(localStorage.getItem(name) || "null"); } catch (e) { draft = null; }
    return draft && Date.now() - draft.at < DRAFT_MS && entered(draft.data) ? draft : null;
  }

  function keptDraft(name) {
    const draft = draftOf(name);
    return draft && !draft.sent ? draft : null;
  }

  // A draft marked sent whose Save never ended: no answer, no place in the outbox (the
  // tab closed, or the phone switched off, while it went), long past the Save's own
  // time. The sheet, after clearSavedDrafts let go of those the game has, counts it as
  // kept (tester 63: the sheet opened again said nothing of it; the form brought it back).
  function lostSave(name) {
    const draft = draftOf(name);
    return draft && draft.sent && Date.now() - draft.at > 2 * SAVE_MS ? draft : null;
  }

  function setupDraft(form) {
    // This phone's own deals since the game this form was drawn for (waiting in the
    // outbox, or sent since) come first: this form is for the deal after them (OfflineTruth).
    OfflineTruth.form(form);
    const key = DRAFTS + form.dataset.draft;
    const status = form.querySelector("[data-preview-line]");
    // the counts the form filled in itself (the last player's tricks, bugs forced to 0) are
    // kept as such: restored, they go on following the others (tester 30: the last
    // player's tricks, back from a draft, stayed 3 when the first player's changed)
    const AUTO = "scorekeeper-auto";
    // The entries of a draft's data, as text to compare: what the player typed and tapped
    function entriesOf(data) {
      // a count the same in any digits (brought back on a page in other digits: "٥" for "5")
      const count = (value) => (wholeNumber(String(value)) === null ? value : String(wholeNumber(String(value))));
      return JSON.stringify(data.filter((pair) => (!NOT_ENTRIES.has(pair[0]) || pair[0] === "contracts")
        && !/_(was|chip)$/.test(pair[0])).map((pair) => [pair[0], count(pair[1])]).sort());
    }
    // ``sent``: true, kept as the Save goes; the sheet then lets go of it once the game has
    // that deal (clearSavedDrafts), while a draft never sent stays for the next form. false:
    // not sent (a page sent back: nothing was saved). Otherwise (a change on the form) a
    // draft sent stays so while its entries are those sent: a sent draft brought back
    // (the form loaded again as its Save went) has its sums worked out again, which is no
    // change of the player's (tester 60: Save then reload at once, and the sheet and the
    // next form said the saved deal's entries were kept, never saved)
    function keep(sent) {
      const data = [];
      new FormData(form).forEach((value, name) => { if (name !== "csrf_token") data.push([name, value]); });
      // nothing typed or tapped (a Save of an empty form, refused): no entries to bring back
      // (tester 39: "your entries for deal 8, not saved, are back" over an empty form)
      if (!entered(data)) {
        try { localStorage.removeItem(key); } catch (e) { /* private mode */ }
        return;
      }
      const filled = Array.from(form.querySelectorAll('input.count-input[data-auto="1"]'), (i) => i.name);
      if (filled.length) data.push([AUTO, filled.join(" ")]);
      let mark = sent === true;
      if (sent !== true && sent !== false) {
        let before = null;
        try { before = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { before = null; }
        mark = Boolean(before && before.sent && Array.isArray(before.data) && entriesOf(before.data) === entriesOf(data));
      }
      const kept = mark ? { at: Date.now(), data: data, sent: true } : { at: Date.now(), data: data };
      if (taken) {  // typed for deal ``taken.n``, which another phone added: weighed again at that version
        kept.taken = taken.n;
        kept.data = data.map((pair) => (pair[0] === "seen" ? ["seen", taken.seen] : pair));
      }
      try { localStorage.setItem(key, JSON.stringify(kept)); } catch (e) { /* private mode */ }
    }
    // Without connection, a count left empty (one whose blank means nothing, unlike bugs'
    // 0) would only be refused once the server answers, long after the hand (tester 38):
    // said now, the first such field focused; whether it was said
    function saidEmpty() {
      const empty = Array.from(form.querySelectorAll("input.count-input")).filter((input) =>
        !input.disabled && input.value.trim() === "" && !input.placeholder && input.offsetParent !== null);
      const unset = empty.length ? [] : untapped();
      if (unset.length && form.dataset.offlineUntapped) {
        // a tap the deal cannot do without, none made (tester 63: a King of Hearts with no
        // taker waited offline, to be refused once back): marked, the first brought into sight
        say(form.dataset.offlineUntapped);
        unset.forEach(function (set) {
          set.classList.add("has-error");
          set.addEventListener("change", () => set.classList.remove("has-error"), { once: true });
        });
        unset[0].scrollIntoView({ block: "center" });
        const first = unset[0].querySelector("input:not(:disabled)");
        if (first) first.focus({ preventScroll: true });
        return true;
      }
      if (!empty.length || !form.dataset.offlineEmpty) return false;
      const names = empty.map((input) => input.getAttribute("aria-label")
        || (input.labels && input.labels[0] ? input.labels[0].textContent.trim() : input.name));
      // joined as the page's language lists things (<html data-list-separator>: Arabic "، ")
      say(form.dataset.offlineEmpty.replace("{fields}", names.join(document.documentElement.dataset.listSeparator || ", ")));
      empty[0].focus();
      return true;
    }
    // The rows of chips a deal cannot be saved without, shown and none tapped: each
    // player's bid (Trigami), the contract, who took a card, the first three places out
    // (Trix). (The turnip's suit and the doublers are the server's to ask about.)
    function untapped() {
      return Array.from(form.querySelectorAll("fieldset.chips")).filter(function (set) {
        const input = set.querySelector('input[type="radio"], input[type="checkbox"]');
        if (!input || input.disabled) return false;
        const needed = /^bids_\d+$|_taker$|^trix_place_[123]$|^contracts$/.test(input.name);
        const block = set.closest("[data-block]") || set;
        return needed && block.offsetParent !== null && !set.querySelector("input:checked");
      });
    }
    function say(text, kind) {
      if (!status) return;
      status.textContent = "";
      const span = document.createElement("span");
      span.className = kind || "bad";
      span.textContent = text;
      status.appendChild(span);
    }
    // "Discard them" beside entries brought back: let go of, the form drawn again empty
    function discardButton() {
      const drop = document.createElement("button");
      drop.className = "button small";
      drop.textContent = form.dataset.draftDrop || "Discard them";
      drop.type = "button";
      drop.addEventListener("click", function () {
        try { localStorage.removeItem(key); } catch (e) { /* private mode */ }
        form.dataset.reloading = "1";
        location.reload();
      });
      return drop;
    }
    // {n, seen}: these entries were typed for deal n, which another phone added (weighed
    // at version seen): kept so, below and by keep()
    let taken = null;
    let kept = null;
    try { kept = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { kept = null; }
    if (kept && !entered(kept.data)) kept = null;  // kept empty by an older copy of this script
    // not a form the server sent back with problems, or with another phone's deal
    const fresh = !form.querySelector(".errors, [data-conflict]");
    // a refused deal opened again from the sheet (reopen) is this form's, whatever deal its
    // entries were kept for: the sheet may have counted one deal too few (tester 21's run:
    // the form for deal 5 opened empty, its entries kept for deal 4)
    const openedName = "scorekeeper-opened:" + form.dataset.draft.split(":")[0];
    let opened = null;
    try { opened = JSON.parse(localStorage.getItem(openedName) || "null"); } catch (e) { opened = null; }
    if (fresh && typeof opened === "string" && opened.startsWith(DRAFTS)) {
      if (opened !== key) {  // (over an older draft of this deal: "Open it" asked for these entries)
        let other = null;
        try { other = JSON.parse(localStorage.getItem(opened) || "null"); } catch (e) { other = null; }
        if (other) {
          kept = other;
          try { localStorage.setItem(key, JSON.stringify(kept)); localStorage.removeItem(opened); } catch (e) { /* private mode */ }
        }
      }
      try { localStorage.removeItem(openedName); } catch (e) { /* private mode */ }
    }
    // Entries typed for an earlier deal of this game and never sent, left on its form for
    // the sheet while another phone added that deal (tester 32, HIGH: the next form opened
    // empty, and the sheet's next load let go of them): they come back on this form, said
    // to be that deal's, to save as this one or discard
    let orphan = null;
    // kept beside another phone's deal that took theirs (``taken``, below): that deal's
    // (not under a contract the kingdom has played since: nothing left to compare on this
    // form, and the form says so, with Discard, below)
    const offeredNow = (data) => data.filter((pair) => pair[0] === "contracts").every((pair) =>
      form.querySelector('input[name="contracts"][value="' + CSS.escape(pair[1]) + '"]:not(:disabled)'));
    if (fresh && kept && kept.taken && kept.taken < parseInt(form.dataset.draft.split(":")[1], 10) && offeredNow(kept.data)) {
      orphan = { n: kept.taken, name: key, kept: kept };
      const seen = (kept.data.find((pair) => pair[0] === "seen") || [])[1];
      if (seen) taken = { n: kept.taken, seen: seen };
    }
    if (fresh && !kept) {
      const [game, number] = form.dataset.draft.split(":");
      const prefix = DRAFTS + game + ":";
      for (let i = 0; i < localStorage.length; i++) {
        const name = localStorage.key(i) || "";
        const n = name.startsWith(prefix) ? parseInt(name.slice(prefix.length), 10) : NaN;
        if (!(n < parseInt(number, 10)) || (orphan && orphan.n > n)) continue;
        const other = keptDraft(name);
        if (other) orphan = { n: n, name: name, kept: other };
      }
      if (orphan) {
        kept = orphan.kept;
        try { localStorage.setItem(key, JSON.stringify(kept)); localStorage.removeItem(orphan.name); } catch (e) { /* private mode */ }
      }
    }
    if (fresh && (!kept || Date.now() - kept.at >= DRAFT_MS)) {
      // A new form token for every fresh form: a form kept for the road (opened again
      // without connection) must not send two deals under one token.
      const nonce = form.querySelector('input[name="nonce"]');
      if (nonce && window.crypto && crypto.getRandomValues) {
        nonce.value = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
      }
    }
    if (kept && fresh && Date.now() - kept.at < DRAFT_MS) {
      form.querySelectorAll('input[type="radio"], input[type="checkbox"]').forEach((i) => { i.checked = false; });
      kept.data.forEach(function (pair) {
        if (pair[0] === AUTO) {  // (no field: which counts were the form's own)
          pair[1].split(" ").forEach(function (name) {
            const count = form.querySelector('input.count-input[name="' + CSS.escape(name) + '"]');
            if (count) count.dataset.auto = "1";
          });
          return;
        }
        const fields = form.querySelectorAll('[name="' + CSS.escape(pair[0]) + '"]');
        fields.forEach(function (field) {
          if (field.type === "radio" || field.type === "checkbox") {
            if (field.value === pair[1]) field.checked = true;
          } else if (field.classList.contains("count-input") && wholeNumber(pair[1]) !== null) {
            // a count in the page's digits, as its chips and keypad write it (tester 61:
            // typed on the English page, the Arabic one brought back a Western "5")
            field.value = pageNumber(wholeNumber(pair[1]));
          } else {
            field.value = pair[1];
          }
        });
      });
      // said at the top of the form, where it stays: the preview soon takes the line
      // below, and the taps alone would look like someone else's
      const back = document.createElement("p");
      back.className = "draft-back";
      back.setAttribute("role", "status");
      back.textContent = form.dataset.draftBack || "Your entries that were not saved are back.";
      if (orphan && form.dataset.draftTaken) {
        // typed for deal N, which another phone added: the same deal, or another one?
        back.classList.add("draft-taken");
        back.textContent = form.dataset.draftTaken.replaceAll("{n}", pageNumber(orphan.n))
          .replace("{next}", pageNumber(Number(form.dataset.draft.split(":")[1])));
        back.append(" ", discardButton());
        // what Save does now: the other phone's deal set beside these entries (the form
        // keeps the version they were typed at), then "Add mine as deal N+1" (tester 60:
        // "Save deal 2" promised to save and showed the comparison)
        if (form.dataset.draftCompare) {
          form.querySelectorAll('.action-bar button[type="submit"]').forEach(function (button) {
            button.textContent = form.dataset.draftCompare.replaceAll("{n}", pageNumber(orphan.n));
            // the page that answers says it is the comparison asked for, not a new race
            // (tester 64: "another phone was quicker" again)
            button.name = "compare";
            button.value = "1";
            // a comparison is the server's: not without connection (tester 61: tapped
            // offline, the entries waited in the outbox as a deal of their own)
            button.dataset.needsConnection = "";
            if (navigator.onLine === false) button.disabled = true;
          });
        }
      }
      // (a game over's kept entries, shown: its page says what they are; data-kept-over)
      if (!form.querySelector("[data-kept-over]")) form.prepend(back);
      form.dataset.restored = "1";
    }
    // Opened from the score sheet's "+ Queens": that contract, over a kept draft's choice
    // (and on the form the service worker kept, which was drawn without it)
    // (not on a game over's kept entries, shown: looking at them moves them nowhere, tester 61)
    const keptOver = form.querySelector("[data-kept-over]");
    const wanted = fresh && !keptOver && new URLSearchParams(location.search).get("contract");
    const choice = wanted && form.querySelector('input[name="contracts"][value="' + CSS.escape(wanted) + '"]:not(:disabled)');
    if (choice) form.querySelectorAll('input[name="contracts"]').forEach((c) => { c.checked = c === choice; });
    // Entries kept under another contract than the one tapped on the sheet: said where
    // they are, not "back" over a form that shows none of them (tester 43: a draft for
    // Diamonds, opened as "+ Trix")
    const draftBack = form.querySelector(".draft-back");
    if (choice && draftBack && form.dataset.draftElsewhere) {
      const under = kept.data.filter((pair) => pair[0] === "contracts").map((pair) => pair[1]);
      if (under.length && !under.includes(wanted)) {
        const names = under.map(function (value) {
          const chip = form.querySelector('input[name="contracts"][value="' + CSS.escape(value) + '"]');
          return chip && chip.labels && chip.labels[0] ? chip.labels[0].textContent.trim() : value;
        }).join(document.documentElement.dataset.listSeparator || ", ");
        const where = document.createElement("span");
        where.dataset.draftElsewhere = "";
        // none of those contracts offered now (played in this kingdom since, on another
        // phone): no chip to tap; they are that deal's, or none (tester 61: "tap Tricks"
        // where there was no Tricks)
        const offered = under.some(function (value) {
          const chip = form.querySelector('input[name="contracts"][value="' + CSS.escape(value) + '"]');
          return chip && !chip.disabled && !chip.closest("[hidden]");
        });
        const said = offered ? form.dataset.draftElsewhere : form.dataset.draftPlayed || form.dataset.draftElsewhere;
        where.textContent = " " + said.replaceAll("{contract}", names);
        let drop = draftBack.querySelector("button");
        if (!drop && !offered) {
          drop = discardButton();
          draftBack.append(where, " ", drop);
        } else if (drop) draftBack.insertBefore(where, drop);
        else draftBack.append(where);
      }
    }
    // a game over's kept entries asked for with none kept (discarded in another tab): said
    if (keptOver && !form.dataset.restored && keptOver.dataset.none) {
      keptOver.querySelector("p").textContent = keptOver.dataset.none;
    }
    form.addEventListener("input", keep);
    form.addEventListener("change", keep);
    // Sent back with a problem or beside another phone's deal: the Save saved nothing, so
    // the entries as the page shows them are kept, not marked sent, under this form's deal
    // (else the sheet let go of them as saved once another phone added this deal; tester
    // 59: sent back for deal 4 after another phone's deal 3, or once the game was over,
    // the entries left by "Score sheet" were lost). "Discard mine" lets go of them.
    // Beside another phone's deal that took the one these entries were typed for: kept
    // with that deal's number and the version the Save was weighed at, so that the form
    // loaded again (the language switched, a reload) brings them back as that deal's, to
    // compare again, not as a new deal of their own (tester 63: switched to English, the
    // same hand was saved as deal 7 beside the other phone's deal 6)
    const back = !fresh && sentBack();
    if (back && form.querySelector("[data-conflict]") && !form.querySelector("[data-conflict] [data-none-added]")) {
      const n = parseInt(back.name.slice(back.name.lastIndexOf(":") + 1), 10);
      const seen = (back.draft.data.find((pair) => pair[0] === "seen") || [])[1];
      if (n < parseInt(form.dataset.draft.split(":")[1], 10) && seen) taken = { n: n, seen: seen };
    }
    if (back) keep(false);
    // Whether this page answers a Save of this phone's: a draft of this game marked sent
    // with this form's token (kept under an earlier deal's number when the page is for
    // the deal after another phone's). An empty form refused keeps nothing (tester 39:
    // its bugs come back as 0, which are no entries of the player's)
    function sentBack() {
      const token = form.querySelector('input[name="nonce"]');
      const prefix = DRAFTS + form.dataset.draft.split(":")[0] + ":";
      for (let i = 0; i < localStorage.length; i++) {
        const name = localStorage.key(i) || "";
        if (!name.startsWith(prefix)) continue;
        let draft = null;
        try { draft = JSON.parse(localStorage.getItem(name) || "null"); } catch (e) { draft = null; }
        if (draft && draft.sent && Array.isArray(draft.data) && token
            && draft.data.some((pair) => pair[0] === "nonce" && pair[1] === token.value)) return { name: name, draft: draft };
      }
      return null;
    }
    // "Discard mine" (beside another phone's deal; or a game over's kept entries, shown)
    const discard = form.querySelector("[data-discard-draft]");
    if (discard) discard.addEventListener("click", function () {
      try { localStorage.removeItem(key); } catch (e) { /* private mode */ }
    });
    // The server's disk was full (507): nothing saved. The deal waits in the outbox, says
    // why, and is sent by itself once the server can save it again.
    const held = form.querySelector("[data-disk-full]");
    if (held && window.Scorekeeper && window.Scorekeeper.queue(form, held.textContent.trim())) {
      localStorage.removeItem(key);
    }
    form.addEventListener("submit", function (event) {
      keep(true);
      // With connection, while deals of this game entered before it wait on this phone
      // (not sent yet, or behind one that was refused): it waits after them, in the outbox,
      // and goes in the phone's order. Sent at once, it had been saved before them (tester
      // 22, HIGH: entered as deal 4, saved as deal 2).
      const game = (form.dataset.draft || "").split(":")[0];
      const token = form.querySelector('input[name="nonce"]');
      if (navigator.onLine !== false && window.Scorekeeper && window.Scorekeeper.pending(game, token && token.value)) {
        event.preventDefault();
        if (window.Scorekeeper.queue(form, undefined, true)) localStorage.removeItem(key);
        return;
      }
      // its own answer (the sheet with "Deal N saved" and Undo) comes back to this page:
      // the live check below does not take this page to the sheet meanwhile
      if (navigator.onLine !== false) form.dataset.sentAt = String(Date.now());
      // With the phone on the Wi-Fi but the server out of reach (the way a weak connection
      // fails most), a Save sent as a page lands on the browser's error page and the deal
      // is lost (tester 41, HIGH). It is sent first without leaving the page: no answer
      // (or none in SAVE_MS), it waits in the outbox and goes by itself, once (its form
      // token); saved, the sheet opens at its row, as the server's answer does; any
      // other answer (a problem, another phone's deal) is shown as the page the server
      // sends, by sending the form again, which nothing saved the first time.
      if (navigator.onLine !== false && window.fetch && window.AbortController && form.dataset.answered !== "1") {
        event.preventDefault();
        const submitter = event.submitter || null;
        const body = new FormData(form);
        if (submitter && submitter.name) body.append(submitter.name, submitter.value);
        const buttons = Array.from(form.querySelectorAll('button[type="submit"]'));
        buttons.forEach((b) => { b.disabled = true; });
        const saying = form.dataset.saving;
        if (saying) say(saying, "todo");
        form.dataset.saving = "now";  // the preview's answers wait (the line says "Saving…")
        // this phone's own deals of the game (sent from the outbox, or a Save whose answer
        // was lost) are no other phone's to this Save, as they are to the outbox's sends
        // (tester 61, HIGH: a form opened before its own deal 1 arrived weighed deal 2
        // against it: "another phone was quicker", or, the same entries, "saved once")
        const mine = window.Scorekeeper && window.Scorekeeper.own
          ? window.Scorekeeper.own(game).filter((n) => !token || n !== token.value).slice(-50) : [];
        if (mine.length) body.set("mine", mine.join(","));
        const stop = new AbortController();
        const timer = setTimeout(() => stop.abort(), SAVE_MS);
        const url = submitter && submitter.hasAttribute("formaction") ? submitter.formAction : (form.action || location.href);
        fetch(url, { method: "POST", body: body, credentials: "same-origin", redirect: "manual", signal: stop.signal })
          .then(function (response) {
            clearTimeout(timer);
            if (response.type === "opaqueredirect") {  // saved (or saved already: once)
              // settled: saved, saved by its first send, or the same deal the other phone
              // saved (tester 61: those entries came back on the next form, "Already saved,
              // once" at every Save)
              try { localStorage.removeItem(key); } catch (e) { /* private mode */ }
              location.assign((form.dataset.sheetUrl || location.pathname) + "#deal-" + (form.dataset.number || ""));
              return;
            }
            buttons.forEach((b) => { b.disabled = false; });
            form.dataset.saving = saying || "";
            form.dataset.answered = "1";
            if (mine.length) {  // sent again as a page, for its answer: with them too
              const field = form.querySelector('input[name="mine"]') || form.appendChild(document.createElement("input"));
              field.type = "hidden";
              field.name = "mine";
              field.value = mine.join(",");
            }
            if (submitter && form.requestSubmit) form.requestSubmit(submitter);
            else if (form.requestSubmit) form.requestSubmit();
            else HTMLFormElement.prototype.submit.call(form);
          })
          .catch(function () {
            clearTimeout(timer);
            buttons.forEach((b) => { b.disabled = false; });
            form.dataset.saving = saying || "";
            if (saidEmpty()) return;  // not kept to be refused later, as without connection
            if (window.Scorekeeper && window.Scorekeeper.queue(form)) {
              localStorage.removeItem(key);  // in the outbox now, sent by itself once the server answers
              return;
            }
            say(form.dataset.offline || "No connection: nothing was sent. Your entries are kept; tap Save again when the phone is back online.");
          });
        return;
      }
      if (navigator.onLine === false) {
        event.preventDefault();
        if (saidEmpty()) return;
        if (window.Scorekeeper && window.Scorekeeper.queue(form)) {
          localStorage.removeItem(key);  // it is in the outbox now, sent by itself later
          return;
        }
        say(form.dataset.offline || "No connection: nothing was sent. Your entries are kept; tap Save again when the phone is back online.");
      }
    });
  }

  // Back to an add-deal form kept whole by the browser (back/forward cache), e.g. from the
  // sheet its Save led to: that form may be saved already, so ask the server for the form
  // as it is now (the next deal's, empty; or this one with its kept draft). Not without
  // connection: the kept page is then the best there is (a save goes to the outbox, once).
  window.addEventListener("pageshow", function (event) {
    const form = document.querySelector("form.deal-form[data-draft]");
    if (!event.persisted || navigator.onLine === false || !form) return;
    form.dataset.reloading = "1";  // the live check leaves the page to this reload
    form.reset();  // meanwhile nothing old shows (a kept draft comes back with the reload)
    location.reload();
  });

  // The sheet shows how many deals are saved: drafts of those deals are done with.
  function clearSavedDrafts(sheet) {
    const count = parseInt(sheet.dataset.dealCount || "0", 10);
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const name = localStorage.key(i) || "";
      const match = name.startsWith(DRAFTS) && name.slice(DRAFTS.length).split(":");
      if (!match || match[0] !== sheet.dataset.game || !(parseInt(match[1], 10) <= count)) continue;
      // saved: sent from its form; one never sent (another phone added that deal) stays
      // for the next form (setupDraft), unless it is older than a form keeps one
      let kept = null;
      try { kept = JSON.parse(localStorage.getItem(name) || "null"); } catch (e) { kept = null; }
      if (!kept || kept.sent || !(Date.now() - kept.at < DRAFT_MS)) localStorage.removeItem(name);
    }
  }

  // Entries typed on this phone and not saved (a deal half entered, or a refused deal
  // opened again and left on its form) wait for the next deal's form (setupDraft): the
  // sheet says so above its "+ Add deal" (tester 36: nothing on it mentioned them)
  // A game over has no next form: its sheet says instead that the kept entries cannot be
  // added, with Discard (tester 58: they were kept out of reach, unmentioned)
  function noteKeptDrafts(sheet) {
    const region = sheet.closest(".live-sheet");
    const over = region && region.querySelector("[data-drafts-over]");
    const add = region && region.querySelector(".action-bar [data-add-label]");
    if (!over && (!add || !region.dataset.draftsKept)) return;
    const prefix = DRAFTS + sheet.dataset.game + ":";
    const names = [];  // every draft of this game, kept or stale: Discard takes them all
    let kept = false;
    const contracts = new Set();  // Trix: the contracts the kept entries were typed for
    for (let i = 0; i < localStorage.length; i++) {
      const name = localStorage.key(i) || "";
      if (!name.startsWith(prefix)) continue;
      names.push(name);
      const draft = keptDraft(name) || lostSave(name);
      if (!draft) continue;
      kept = true;
      (Array.isArray(draft.data) ? draft.data : []).forEach(function (pair) {
        if (pair[0] === "contracts") contracts.add(pair[1]);
      });
    }
    if (over) {
      over.hidden = !kept;
      over.querySelector("[data-discard-drafts]").onclick = function () {
        names.forEach((name) => localStorage.removeItem(name));
        over.hidden = true;
      };
      return;
    }
    const bar = add.closest(".action-bar");
    let note = bar.querySelector(":scope > [data-drafts-kept]");
    // the contract buttons of the kept entries marked, and described by the note (tester
    // 37: which of the five was it?)
    bar.querySelectorAll(".contract-buttons a[href]").forEach(function (button) {
      const contract = new URL(button.href, location.href).searchParams.get("contract");
      const marked = kept && contracts.has(contract);
      button.classList.toggle("draft-kept", marked);
      if (marked) button.setAttribute("aria-describedby", "drafts-kept-note");
      else button.removeAttribute("aria-describedby");
    });
    if (!kept) { if (note) note.remove(); return; }
    if (!note) {
      note = document.createElement("p");
      note.className = "hint drafts-kept";
      note.id = "drafts-kept-note";
      note.dataset.draftsKept = "";
      bar.insertBefore(note, add.parentElement === bar ? add : bar.firstChild);
    }
    note.textContent = region.dataset.draftsKept;
  }

  // The fixed bar at the bottom grows (a preview of four long names, the Trix sheet's
  // contract buttons): the page's end keeps clear of it (app.css, --bar-space)
  let barWatch = null;
  function measureBar() {
    const bar = document.querySelector("main .action-bar");
    if (!bar || !window.ResizeObserver) return;
    barWatch = barWatch || new ResizeObserver(function () {
      const now = document.querySelector("main .action-bar");  // the one in the page now
      if (!now) return;
      document.documentElement.style.setProperty("--bar-space", now.offsetHeight + "px");
      keepFocusClear(now);
    });
    barWatch.disconnect();
    barWatch.observe(bar);
  }

  // What has focus stays clear of the fixed bar (WCAG 2.4.11), as it takes focus and
  // when the bar grows over it: a preview's answer may add a line after Tab has moved on
  // (four long names on a 320 px phone), and the count chip in focus was left under the
  // bar. A chip's radio button is a pixel: what the player sees is its label. Only what
  // the bar covers moves, never what the player has scrolled away from.
  function keepFocusClear(bar) {
    const focused = document.activeElement;
    // (an open dialog, an explanation's, lies over the bar: what is in it is not under it)
    if (!focused || focused === document.body || bar.contains(focused) || focused.closest("dialog")
        || getComputedStyle(bar).position !== "fixed") return;
    const shown = focused.labels && focused.labels.length && focused.getBoundingClientRect().width < 2 ? focused.labels[0] : focused;
    const box = shown.getBoundingClientRect();
    if (box.bottom > bar.getBoundingClientRect().top && box.top < innerHeight) shown.scrollIntoView({ block: "nearest" });
  }

  // A box's room inside its padding, and its widest line with its text broken between
  // words only, each line as wide as its words: a line wider than the room holds a word
  // that would break inside (fitWords, fitSeatChips)
  function wordRoom(box) {
    const style = getComputedStyle(box);
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    box.style.overflowWrap = "normal";
    const lines = document.createRange();
    lines.selectNodeContents(box);
    const widest = Math.max(0, ...Array.from(lines.getClientRects(), (r) => r.width));
    box.style.overflowWrap = "";
    return { room: room, widest: widest };
  }

  // The score sheet's names, and its "deals next": each whole in its column where a
  // smaller size allows it ("Alexandr/a", "Konstanti/nos" with four seats at 390 px:
  // testers 43, 46, 49; "seuraavaks" cut at 320 px: tester 51), the names all the same
  // size, never below three quarters of their own (app.css, --name-fit, --badge-fit);
  // only a word wider than that breaks inside. Measured as the Trix chips are (wordRoom).
  function fitWords(table, selector, property) {
    table.style.removeProperty(property);
    let fit = 1;
    table.querySelectorAll(selector).forEach(function (box) {
      if (!box.offsetWidth) return;
      const { room, widest } = wordRoom(box);
      if (widest > room + 0.5) fit = Math.min(fit, (room / widest) * 0.97);  // a little to spare: glyphs do not shrink exactly
    });
    if (fit < 1) table.style.setProperty(property, fit.toFixed(3));
  }
  function fitNames(table) {
    fitWords(table, "thead .player-name", "--name-fit");
    fitWords(table, "thead .dealer-badge", "--badge-fit");
  }

  // The score sheet's names and totals stick to the top; their height changes with the
  // names' lines and the phone's width. What the page scrolls to (the row of a deal just
  // saved, #deal-N; a number in focus) keeps clear of them (app.css, --head-space).
  let headWatch = null;
  function measureHead() {
    document.querySelectorAll("table.sheet").forEach(fitNames);
    const head = document.querySelector("table.sheet thead");
    if (!head) return;
    document.documentElement.style.setProperty("--head-space", head.getBoundingClientRect().height + "px");
    if (!window.ResizeObserver) return;
    headWatch = headWatch || new ResizeObserver(function () {
      const now = document.querySelector("table.sheet thead");
      if (now) fitNames(now.closest("table"));
      if (now) document.documentElement.style.setProperty("--head-space", now.getBoundingClientRect().height + "px");
    });
    headWatch.disconnect();
    headWatch.observe(head);
  }

  // Opened at a deal's row (#deal-N after a Save, #latest from "Carry on"): the browser
  // scrolled there before the head was measured; now the row sits just below the names
  // and totals, with the rows that head it (its kingdom, who took over a seat) in sight
  // above it (tester 37: a kingdom's heading was left under the names). Not on a reload
  // or Back, where the browser puts back where the player was.
  function landAtRow() {
    const id = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : "";
    const target = id && document.getElementById(id);
    const nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    if (!target || !target.closest("table.sheet") || (nav && nav.type !== "navigate")) return;
    // the headings' height as the row's scroll margin (app.css has one line's), so that
    // the browser's own scroll to the #fragment, which may come after this, lands alike
    const row = target.closest("tr") || target;
    let above = 0;
    for (let r = row.previousElementSibling; r && r.matches(".kingdom-row, .seat-row"); r = r.previousElementSibling) {
      above += r.getBoundingClientRect().height;
    }
    if (above) target.style.scrollMarginBlockStart = above + "px";
    target.scrollIntoView();
  }

  // Trix: a player chip a column, four to a row, while every name fits whole; a name
  // that would break inside a word ("Hassa/n" at 390 px: tester 34) puts its card's chips
  // two to a row, as the server does for names over 8 letters (deals/_trix.html). Measured
  // with the name broken between words only: a word wider than its chip would break.
  function fitSeatChips(form) {
    const groups = [[".block", ".seat-chips .chip label", "names-long"], [".finish-taps", ".finish-tap", "places-long"]];
    function fit() {
      groups.forEach(function ([where, chips, wide]) {
        form.querySelectorAll(where).forEach(function (box) {
          if (box.dataset.fitWide) { box.classList.remove(wide); delete box.dataset.fitWide; }
          if (box.classList.contains(wide)) return;  // the server's already
          const breaks = Array.from(box.querySelectorAll(chips)).some(function (chip) {
            if (!chip.offsetWidth) return false;  // not on show (another contract's card)
            const { room, widest } = wordRoom(chip);
            return widest > room + 0.5;
          });
          if (breaks) { box.classList.add(wide); box.dataset.fitWide = "1"; }
        });
      });
    }
    fit();
    window.addEventListener("resize", debounce(fit, 150));
    form.addEventListener("change", function (event) {  // a contract's card comes on show
      if (event.target.name === "contracts") fit();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    // A refused save: the summary of what to put right takes the focus, so a screen
    // reader says it and a keyboard goes on from there (its links lead to the fields).
    const problems = document.getElementById("problems");
    if (problems) problems.focus();
    // A form refused on a page of several forms, with no summary (the Group page's
    // passcode or name): its first field with a problem in sight and focused, to type
    // again; the page had stayed at its top, the message screens below (tester 29: a
    // refused passcode looked set)
    const refused = problems ? null : document.querySelector('form [aria-invalid="true"]');
    if (refused) {
      refused.focus({ preventScroll: true });
      refused.scrollIntoView({ block: "center" });
    }
    // A new reading of a card taken back is asked about first: the question takes the focus
    const asked = document.getElementById("taken_back-confirm");
    if (asked && !problems) asked.focus();
    measureBar();
    // a chip taking focus (Tab): the browser brings its radio button, a pixel at the
    // chip's top, clear of the bar; the rest of the chip, what the player sees, came
    // with it or not by chance
    document.addEventListener("focusin", function () {
      const bar = document.querySelector("main .action-bar");
      if (bar) keepFocusClear(bar);
    });
    measureHead();
    landAtRow();
    document.addEventListener("scorekeeper:swapped", measureBar);  // a live sheet's new bar
    document.addEventListener("scorekeeper:swapped", measureHead);
    document.querySelectorAll("table.sheet[data-deal-count]").forEach(clearSavedDrafts);
    document.querySelectorAll("table.sheet[data-deal-count]").forEach(noteKeptDrafts);
    // entries kept or let go of in another tab of this phone (tester 61: "Show them" stayed
    // after the other tab's Discard, over nothing)
    window.addEventListener("storage", function (event) {
      if (event.key === null || event.key.startsWith(DRAFTS)) {
        document.querySelectorAll("table.sheet[data-deal-count]").forEach(noteKeptDrafts);
      }
    });
    // the passcode page: entries typed on this phone and not saved are kept for after it
    // (tester 58: a first passcode took a phone off its form and said nothing of them)
    document.querySelectorAll("[data-passcode-drafts]").forEach(function (line) {
      line.hidden = !Object.keys(localStorage).some((name) => name.startsWith(DRAFTS) && keptDraft(name) !== null);
    });
    document.addEventListener("scorekeeper:swapped", function (event) {
      event.detail.querySelectorAll("table.sheet[data-deal-count]").forEach(noteKeptDrafts);
    });
    document.querySelectorAll("form.deal-form[data-draft]").forEach(setupDraft);
    document.querySelectorAll("form.deal-form").forEach(function (form) {
      setupCounts(form);
      setupFinishingOrder(form);
      setupTakeBack(form);
      setupLeaders(form);
      setupPreview(form);
      fitSeatChips(form);  // the chips as the setups above leave them on show
      if (form.dataset.restored) {  // work out the sums and the preview of what came back
        form.dispatchEvent(new Event("scorekeeper:restored"));
        form.dispatchEvent(new Event("change"));
      }
    });
    document.querySelectorAll("form.new-game").forEach(setupNewGame);
    // The past-games filters count days in the viewer's time zone (UTC without this)
    document.querySelectorAll("input[data-time-zone]").forEach(function (input) {
      try { input.value = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { /* UTC */ }
      const said = input.value && input.form && input.form.querySelector("[data-days-local]");
      if (said) said.textContent = said.dataset.daysLocal;  // the next search counts the phone's days
    });
    // Game cards that would look alike (same game, same players, same day) show the time
    // they were started: the page counts UTC days; count the phone's own days instead
    const alike = {};
    const dayKey = function (t) {
      const d = new Date(t.getAttribute("datetime"));
      return isNaN(d) ? null : t.dataset.alike + "|" + d.getFullYear() + "-" + d.getMonth() + "-" + d.getDate();
    };
    document.querySelectorAll("time[data-alike]").forEach(function (t) {
      const key = dayKey(t);
      if (key) alike[key] = (alike[key] || 0) + 1;
    });
    document.querySelectorAll("time[data-alike]").forEach(function (t) {
      const key = dayKey(t);
      if (key) t.dataset.localTime = alike[key] > 1 ? "datetime" : "";
    });
    document.querySelectorAll("time[data-local-time]").forEach(function (t) {
      const d = new Date(t.getAttribute("datetime"));
      const day = { day: "numeric", month: "short", year: "numeric" };
      if (isNaN(d)) return;
      // data-local-time="datetime" (the history) shows the hour too
      // in the page's language and digits, the phone's time zone
      t.textContent = t.dataset.localTime === "datetime"
        ? d.toLocaleString(dateLocale(), Object.assign({ hour: "2-digit", minute: "2-digit" }, day))
        : d.toLocaleDateString(dateLocale(), day);
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

  // An error page's "Back": to the form as it was, entries and all (templates/error.html)
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-history-back]").forEach(function (button) {
      if (history.length < 2) return;
      button.hidden = false;
      button.addEventListener("click", function () { history.back(); });
    });
  });
})();

// Several phones and a flaky connection (issue "several phones"):
// - live pages: a page marked data-live asks its game's version every 2 s (a short
//   request, 304 while nothing changed); a sheet or the home page then puts the fresh
//   page in place, a deal form being filled in says what arrived and keeps the entries;
// - without connection, the sheet says so and since when it is (the service worker,
//   /sw.js, keeps the last copy of each page for a reload without connection);
// - the outbox: a new deal saved without connection is kept on this phone and sent by
//   itself when the connection is back, once (its form token makes a resend harmless);
//   the sheet lists what waits, and what the server refused, with why.
(function () {
  "use strict";
  const OUTBOX = "scorekeeper-outbox";
  const SENT = "scorekeeper-sent";  // form tokens of deals sent from the outbox, per game
  const REOPENED = "scorekeeper-reopened";  // refused deals opened again to be saved, per game
  const POLL_MS = 2000;
  // how long a deal form's Save waits for its own answer before a poll that found the deal
  // stored takes the page to the sheet instead
  const ANSWER_MS = 10000;

  function load(name, fallback) {
    try { return JSON.parse(localStorage.getItem(name) || "null") || fallback; } catch (e) { return fallback; }
  }
  function save(name, value) {
    try { localStorage.setItem(name, JSON.stringify(value)); } catch (e) { /* private mode: kept in this page only */ }
  }
  function clock(when) {
    const d = new Date(when);
    return isNaN(d) ? "" : d.toLocaleTimeString(dateLocale(), { hour: "2-digit", minute: "2-digit" });
  }
  function fill(text, values) {
    return String(text || "").replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
  }
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // ``text`` into ``node`` with ♥ and ♦ in red, as the pages write them (the macro
  // "suited" of templates/_macros.html; tester 60: black in the outbox's cards)
  function suited(node, text) {
    String(text).split(/([\u2665\u2666])/).forEach(function (part) {
      if (part === "\u2665" || part === "\u2666") node.appendChild(el("span", part === "\u2665" ? "suit-H" : "suit-D", part));
      else if (part) node.appendChild(document.createTextNode(part));
    });
    return node;
  }

  // ------------------------------------------------------------------ the outbox

  function describe(form) {
    // The entries as the player sees them, in the page's own words (so in its language):
    // "Anna: Turnip, Tricks 4, Bugs 1" for a seat's card, "Who took the K♥: Carla"
    // for a group of chips. Blocks the form hides (contracts not chosen) are left out.
    const groups = new Map();
    form.querySelectorAll("input").forEach(function (input) {
      const picked = (input.type === "radio" || input.type === "checkbox") && input.checked && input.value !== "";
      const counted = input.classList.contains("count-input") && input.value.trim() !== "";
      if ((!picked && !counted) || (picked && input.closest("[data-count]"))) return;  // a count says it once
      // (the places of a Trix finishing order are hidden behind its taps: still said)
      const around = input.closest(".seat-card, section");
      if (around && around.checkVisibility && !around.checkVisibility()) return;
      const card = input.closest(".seat-card");
      const legend = input.closest("fieldset") && input.closest("fieldset").querySelector("legend");
      // a legend with a hint in it gives its short name (data-short: "Turnip card", tester 69)
      const head = card ? card.querySelector("h2").firstChild.textContent.trim()
        : (legend ? (legend.dataset.short || legend.textContent).trim() : "");
      const label = form.querySelector('label[for="' + CSS.escape(input.id) + '"]');
      const text = (label ? label.textContent.replace(/\s+/g, " ").trim() : input.value) + (counted ? " " + input.value.trim() : "");
      if (!groups.has(head)) groups.set(head, []);
      groups.get(head).push(text);
    });
    // a question's mark gives way to the colon ("Who took the Q♠: Carla", not "…Q♠?: Carla":
    // tester 50, "؟:" in Arabic)
    return Array.from(groups, ([head, items]) => (head ? head.replace(/[?？؟]$/, "") + ": " : "") + items.join(listSeparator()));
  }

  // what joins a list as the page's language lists things (<html data-list-separator>:
  // ", ", Arabic "، ")
  function listSeparator() {
    return document.documentElement.dataset.listSeparator || ", ";
  }

  // reason: why the server could not take it now (its disk full), said where it waits;
  // behind: the phone is online but deals of this game wait before it (sent in order);
  // neither: no connection
  function queue(form, reason, behind) {
    const data = [];
    new FormData(form).forEach((value, name) => { if (typeof value === "string") data.push([name, value]); });
    const nonce = (data.find((p) => p[0] === "nonce") || [])[1];
    const game = (form.dataset.draft || "").split(":")[0];
    if (!nonce || !game) return false;
    const items = load(OUTBOX, []).filter((i) => i.nonce !== nonce);
    const preview = form.querySelector("[data-preview-line]");
    // the points only (a line with a message in it is no points: still to enter, no connection)
    // (or, once "Saving…" took the line, the points it showed last: tester 49, a slow Save
    // kept after 15 s said "worked out when it arrives" of points the form had shown)
    const shown = form.dataset.shownFor === OfflineTruth.entries(form) ? form.dataset.shownPoints || "" : "";
    const points = preview && !preview.querySelector("span") ? preview.textContent.trim() : shown;
    const item = { nonce: nonce, game: game, number: parseInt(form.dataset.number || "0", 10),
                   players: JSON.parse(form.dataset.players || "[]"),
                   url: form.action || location.href, sheet: form.dataset.sheetUrl, data: data,
                   entries: describe(form), points: points, at: Date.now(), state: "waiting",
                   held: reason || undefined };
    // in the phone's order: a deal opened again (refused, then opened from its card) goes
    // before the deals that wait for it, where it was (tester 22, HIGH: listed and sent
    // last, a deal entered after them went in before them)
    const at = items.findIndex((i) => i.game === game && i.after && i.after.nonce === nonce);
    items.splice(at < 0 ? items.length : at, 0, item);
    save(OUTBOX, items);
    // The form says it is kept and waiting (sent by itself, then the sheet opens: flush)
    const line = form.querySelector("[data-preview-line]");
    const text = reason || behind ? form.dataset.heldText : form.dataset.waitingText;
    if (line) { line.textContent = ""; line.appendChild(el("span", "waiting", text)); }
    form.querySelectorAll('button[type="submit"]').forEach((b) => { b.disabled = true; });
    form.dataset.queued = nonce;
    if (behind && form.dataset.sheetUrl) {  // the sheet lists it and sends the deals in order
      location.href = form.dataset.sheetUrl;
      return true;
    }
    // ... or the sheet lists it, if the service worker kept the sheet (a form opened first
    // on this phone may lead to a sheet never kept: "not opened on it before" says nothing
    // of the deal)
    const sheet = form.dataset.sheetUrl;
    if (sheet && navigator.serviceWorker && navigator.serviceWorker.controller && window.caches) {
      caches.match(sheet, { ignoreVary: true })
        .then(function (hit) { if (hit && load(OUTBOX, []).some((i) => i.nonce === nonce)) location.href = sheet; })
        .catch(() => undefined);
    }
    return true;
  }

  function own(game) {
    // form tokens of this phone's deals for this game: already sent, waiting before, or
    // refused and opened again to be saved from its form (REOPENED)
    return (load(SENT, {})[game] || []).concat(load(OUTBOX, []).filter((i) => i.game === game).map((i) => i.nonce),
                                               load(REOPENED, {})[game] || []);
  }

  // A waiting deal entered after one of this phone's deals that was not saved (refused:
  // another phone's deal came first) waits for it: sent now, it would be weighed against
  // the other phone's deal as if it were the one refused (tester 20, MEDIUM: "Deal 5 from
  // the other phone and yours are not the same" said of this phone's deal 6). It goes once
  // that deal is discarded, or opened and saved again (its token then stored: REOPENED).
  // The deal it waits for, {number, nonce}, or null.
  function waitsFor(item) {
    const items = load(OUTBOX, []);
    const before = items.slice(0, items.findIndex((i) => i.nonce === item.nonce))
      .filter((i) => i.game === item.game && i.state === "refused");
    if (before.length) return before[before.length - 1];
    if (item.after && !(load(SENT, {})[item.game] || []).includes(item.after.nonce)) return item.after;
    return null;
  }

  // A refused deal settled on the sheet (discarded, or opened to be saved again): the
  // deals waiting after it are now this phone's deals after the sheet as it shows it (its
  // version: the other phone's deal looked at), not after the game as it was when they
  // were entered. ``reopened``: they wait until that deal is saved again.
  // The version: the sheet's, or the one the refusal came with (the game as the server had
  // it then, the other phone's deal named on the card) when the sheet has not polled since
  // (a loaded phone; seen in CI): the later of the two.
  function settled(item, reopened) {
    const region = document.querySelector("[data-live-version]");
    const known = [region ? region.dataset.liveVersion : null, item.version]
      .filter((v) => v && /^\d+$/.test(v)).map(Number);
    const version = known.length ? String(Math.max(...known)) : null;
    const items = load(OUTBOX, []);
    // (waiting for it as refused, or as opened again once before: refused again since)
    items.filter((i) => i.game === item.game && i.state === "waiting" && i.nonce !== item.nonce
                 && (i.behind === item.number || (i.after && i.after.nonce === item.nonce)))
      .forEach(function (later) {
        if (version) later.data = later.data.map((p) => (p[0] === "seen" ? ["seen", version] : p));
        if (reopened) later.after = { number: item.number, nonce: item.nonce };
        // discarded: they no longer wait for it (opened once before and refused again, they
        // had waited for it for good: tester 23, HIGH)
        else if (later.after && later.after.nonce === item.nonce) delete later.after;
      });
    save(OUTBOX, items.filter((i) => i.nonce !== item.nonce));
    if (reopened) {
      const kept = load(REOPENED, {});
      kept[item.game] = (kept[item.game] || []).concat([item.nonce]).slice(-20);
      save(REOPENED, kept);
    }
  }

  // ``added``: the version each token's deal was added at (the poll's; a state of that
  // version or later counts it), else the poll's ``version``, which has it
  function arrived(game, stored, added, version) {
    // a refused deal opened again and saved from its form: the deals after it may go
    const reopened = load(REOPENED, {});
    const saved = (reopened[game] || []).filter((n) => stored.includes(n));
    if (saved.length) {
      const sent = load(SENT, {});
      sent[game] = (sent[game] || []).concat(saved).slice(-20);
      save(SENT, sent);
      reopened[game] = reopened[game].filter((n) => !saved.includes(n));
      save(REOPENED, reopened);
      flush();
    }
    // waiting deals the server has (a send whose answer was lost): no longer waiting
    const items = load(OUTBOX, []);
    const done = items.filter((i) => i.game === game && stored.includes(i.nonce));
    if (!done.length) return;
    done.forEach((item) => OfflineTruth.sent(item, (added && added[item.nonce]) || version));
    const sent = load(SENT, {});
    sent[game] = (sent[game] || []).concat(done.map((i) => i.nonce)).slice(-20);
    save(SENT, sent);
    save(OUTBOX, items.filter((i) => !done.includes(i)));
    render();
  }

  function reasonFrom(html, status) {
    try {
      const doc = new DOMParser().parseFromString(html, "text/html");
      // in a card's own words (no table of entries below it); a game over since is the
      // reason, no comparison with the deal that ended it (tester 41: repeated on every card)
      const over = doc.querySelector("[data-conflict] [data-reason][data-final]");
      const said = Array.from(doc.querySelectorAll("[data-conflict] [data-reason]"))
        .filter((n) => !(over && n.matches("[data-differ]"))).map((n) => n.dataset.cardText || n.textContent);
      // a page that says why in one line (a table card's, groups/table_only.html): that
      // line, "final" when the deal can never be saved from this phone
      const refusal = doc.querySelector("[data-refusal]");
      const node = refusal || doc.querySelector(".form-errors") || doc.querySelector("main");
      // the game's version the refusing form was drawn at (settled)
      const drawn = doc.querySelector("form.deal-form[data-live-version]");
      const version = drawn ? drawn.dataset.liveVersion : null;
      let text = said.length ? said.join(" ") : node ? node.textContent : "";
      if (!said.length && !refusal && node && node.matches(".form-errors") && node.querySelector("li")) {
        // the problems themselves, each a sentence: the summary above them ("Nothing was
        // saved: 1 thing to put right.") would follow the card's own "Not saved:" (tester 21)
        text = Array.from(node.querySelectorAll("li"), (li) => li.textContent.replace(/\s+/g, " ").trim())
          .map((line) => (/[.!?؟]$/.test(line) ? line : line + ".")).join(" ");
      }
      if (text.trim()) {
        // "over": the game ended meanwhile (another phone's deal, or a deal put right):
        // nothing to open it into, nothing to send again
        // "noneAdded": the conflict is a change that added no deal (a seat taken over, a
        // deal put right): no other deal to be the same one
        return { text: text.replace(/\s+/g, " ").trim(), conflict: said.length > 0,
                 noneAdded: said.length > 0 && !!doc.querySelector("[data-conflict] [data-none-added]"),
                 final: !said.length && !!refusal && refusal.dataset.refusal === "final",
                 over: !!doc.querySelector("[data-game-over]"), version: version };
      }
    } catch (e) { /* fall through */ }
    return { text: "HTTP " + status, conflict: false, final: false, over: false };
  }

  function addedFrom(html) {
    // The answer to a send an earlier send had saved already (deals/saved_already.html):
    // {added: the game's version it was added at, or null}; null for any other page
    try {
      const node = new DOMParser().parseFromString(html, "text/html").querySelector("[data-saved-already]");
      return node ? { added: node.dataset.added ? parseInt(node.dataset.added, 10) : null } : null;
    } catch (e) { return null; }
  }

  function sameFrom(html) {
    // "Already saved, once — the other phone had entered this very deal": the answer to a send
    // whose very deal another phone had added first (issue 18, part 8), in the page's
    // language, and that deal's form token (this phone's own deal from now on)
    try {
      const node = new DOMParser().parseFromString(html, "text/html").querySelector("[data-same-deal]");
      return node ? { text: node.textContent.replace(/\s+/g, " ").trim(), nonce: node.dataset.nonce || "" } : null;
    } catch (e) { return null; }
  }

  function passcodeAsked(html) {
    // The passcode page answering a deal sent (the group's passcode set or changed while
    // the deal waited): what the deal's card says while it waits for it
    try {
      const node = new DOMParser().parseFromString(html, "text/html").querySelector("[data-passcode-asked]");
      return node ? node.dataset.passcodeAsked : null;
    } catch (e) { return null; }
  }

  function heldFrom(html) {
    // What a 507 answer says of the server's disk, in the page's language
    try {
      const node = new DOMParser().parseFromString(html, "text/html").querySelector("[data-disk-full]");
      return node ? node.textContent.replace(/\s+/g, " ").trim() : "";
    } catch (e) { return ""; }
  }

  // One round at a time; a call during a round waits for it (the offline page reloads
  // only once what waits is sent). One round at a time on the phone, too: its other pages
  // (another tab) start theirs on the same "online", and each would send the same deal;
  // the Web Locks API has a page's round wait for another page's, whose outbox it then
  // reads as that round left it (a browser without it: the server takes a deal once).
  let sending = null;
  function flush() {
    if (!sending) {
      const round = navigator.locks ? navigator.locks.request("scorekeeper-outbox", send) : send();
      sending = round.finally(() => { sending = null; });
    }
    return sending;
  }
  async function send() {
    if (navigator.onLine === false) return;
    let changed = false;
    let closed = false;  // a deal refused for good: the card's round or night closed meanwhile
    // In the phone's order, game by game: a deal after one held back this round waits too,
    // unless it is the very deal that one waits for (a refused deal opened again and saved:
    // it goes first). Sent at once, a deal entered later had been saved before deals
    // entered earlier (tester 22, HIGH). {game: the form tokens the held deals wait for}
    const held = {};
    for (const item of load(OUTBOX, [])) {
      if (item.state !== "waiting") continue;
      const first = waitsFor(item);
      const before = load(OUTBOX, []);
      const kept = before.find((i) => i.nonce === item.nonce);
      if (!kept || kept.state !== "waiting") continue;  // (refused this round: the game ended)
      // said on its card: the deal it waits for, not saved (refused, or opened again and
      // not saved yet); not one saved again and waiting before it (they go in order)
      const unsaved = first && !before.some((i) => i.nonce === first.nonce && i.state === "waiting");
      if ((unsaved ? first.number : undefined) !== kept.behind) {
        kept.behind = unsaved ? first.number : undefined;
        save(OUTBOX, before);
        changed = true;
      }
      const inLine = held[item.game] && !held[item.game].includes(item.nonce);
      if (first || inLine) {
        held[item.game] = (held[item.game] || []).concat(first ? [first.nonce] : []);
        continue;
      }
      const body = new URLSearchParams();
      kept.data.forEach((p) => { if (p[0] !== "mine") body.append(p[0], p[1]); });
      body.append("mine", own(item.game).filter((n) => n !== item.nonce).join(","));
      body.append("outbox", "1");  // a deal another phone entered first is said in the answer
      let response;
      try {
        response = await fetch(item.url, { method: "POST", body: body, credentials: "same-origin", redirect: "manual" });
      } catch (e) {
        break;  // still no connection: try again later
      }
      const items = load(OUTBOX, []);
      const mine = items.find((i) => i.nonce === item.nonce);
      const asked = response.status === 403 ? passcodeAsked(await response.clone().text()) : null;
      if (response.status === 507 || asked) {
        // the server's disk is full, or the group's passcode is asked for (set or changed
        // meanwhile): nothing saved; it stays waiting, says why, and is sent again by the
        // next round (the deals after it would meet the same), once there is room or the
        // passcode was given on this phone
        const held = asked || heldFrom(await response.text()) || (mine && mine.held) || "HTTP 507";
        if (mine && mine.held !== held) {  // said once, not again at every try
          mine.held = held;
          save(OUTBOX, items);
          changed = true;
        }
        break;
      }
      const already = response.ok ? addedFrom(await response.clone().text()) : null;
      if (already || response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
        // saved, or saved already by an earlier send that lost its answer (then at the
        // game's version it says: a state of that version counts it already)
        OfflineTruth.sent(item, already ? already.added : null);
        const sent = load(SENT, {});
        sent[item.game] = (sent[item.game] || []).concat([item.nonce]).slice(-20);
        save(SENT, sent);
        save(OUTBOX, items.filter((i) => i.nonce !== item.nonce));
      } else if (mine) {
        const page = await response.text();
        const same = response.ok ? sameFrom(page) : null;
        if (same && same.text) {
          // nothing added: the other phone's deal is this one; sent, said until dismissed,
          // and its token counts as this phone's own, so the deals waiting after it are
          // no conflict
          mine.state = "same";
          mine.reason = same.text;
          if (same.nonce) {
            const sent = load(SENT, {});
            sent[item.game] = (sent[item.game] || []).concat([same.nonce]).slice(-20);
            save(SENT, sent);
          }
        } else {
          mine.state = "refused";
          const why = reasonFrom(page, response.status);
          mine.reason = why.text;
          mine.conflict = why.conflict;
          mine.noneAdded = why.noneAdded;
          mine.final = why.final;
          mine.over = why.over;
          mine.version = why.version;
          closed = closed || why.final;
          if (why.over) {
            // the game ended meanwhile: the deals kept after this one cannot be added
            // either; each says so, with Discard, instead of waiting for a deal that can
            // only be discarded ("Open deal 7 and save it again", tester 32)
            items.filter((i) => i.game === item.game && i.state === "waiting").forEach(function (later) {
              Object.assign(later, { state: "refused", reason: why.text, conflict: false, noneAdded: false,
                                     final: false, over: true, version: why.version, behind: undefined });
            });
          }
        }
        save(OUTBOX, items);
      }
      changed = true;
    }
    if (closed && document.querySelector(".live-sheet")) {
      // this phone can no longer enter deals here (its table card was closed meanwhile):
      // the sheet as the server draws it now, the refused deal listed on it. Reloaded once
      // the server answers through the service worker too: a reload whose fetch fails
      // there (the worker still offline a moment after the page, or a weak connection)
      // would show the sheet it kept, with its "Add deal"
      reloadFresh(20);
      return;
    }
    if (changed) {
      render();
      document.dispatchEvent(new Event("scorekeeper:sent"));
      // a form whose deal waited here: the sheet once it is sent, or once it is refused
      // (the sheet lists it with why, "Open it" and "Discard"; the form stayed greyed out
      // on "No connection" for good on a phone without the service worker)
      const form = document.querySelector("form.deal-form[data-queued]");
      const queued = form && load(OUTBOX, []).find((i) => i.nonce === form.dataset.queued);
      if (form && (!queued || queued.state !== "waiting")) location.href = form.dataset.sheetUrl;
    }
  }

  // Reload the page once the server answers it (asked through the service worker, which
  // then gives no kept copy: templates/sw.js, FRESH); tries again each second, ``tries`` times
  function reloadFresh(tries) {
    fetch(location.href, { credentials: "same-origin", cache: "no-store", headers: { "X-Scorekeeper-Fresh": "1" } })
      .then((response) => { if (response.ok) location.reload(); else throw new Error(String(response.status)); })
      .catch(() => { if (tries > 1) setTimeout(() => reloadFresh(tries - 1), 1000); else location.reload(); });
  }

  // A line that says how many deals wait in the outbox ("1 deal waiting to be sent",
  // data-t-one / data-t-many), hidden while none waits
  function sayWaiting(line) {
    const waiting = load(OUTBOX, []).filter((i) => i.state === "waiting").length;
    line.textContent = waiting ? fill(waiting === 1 ? line.dataset.tOne : line.dataset.tMany, { n: pageNumber(waiting) }) : "";
    line.hidden = !waiting;
  }

  function render() {
    // the passcode page (templates/groups/passcode.html): how many deals wait for it
    document.querySelectorAll("[data-passcode-waiting]").forEach(sayWaiting);
    // the games list: how many deals wait on this phone, whichever game (tester 31)
    document.querySelectorAll("[data-outbox-waiting]").forEach(sayWaiting);
    // every page but the sheet that lists them: this phone's deals the server refused
    document.querySelectorAll("[data-outbox-elsewhere]").forEach(function (notice) {
      const listed = new Set(Array.from(document.querySelectorAll("[data-outbox][data-game]"), (box) => box.dataset.game));
      const refused = load(OUTBOX, []).filter((i) => i.state === "refused" && !listed.has(i.game));
      notice.replaceChildren();
      notice.hidden = !refused.length;
      const comma = listSeparator();
      refused.forEach(function (item) {
        // which game (tester 23: two games' refused deals read alike): its players, each
        // isolated, listed as the page's language lists; a deal kept before they were kept, as before
        const players = (item.players || []).map((name) => "\u2068" + name + "\u2069").join(comma);
        const words = players ? fill(notice.dataset.tRefusedGame, { n: pageNumber(item.number), players: players, time: clock(item.at) })
          : fill(notice.dataset.tRefused, { n: pageNumber(item.number), time: clock(item.at) });
        const line = el("p", "flash flash-told", words + " ");
        const link = el("a", "", notice.dataset.tOpen);
        link.href = item.sheet || item.url.replace(/\/deals\/new.*$/, "");
        line.appendChild(link);
        notice.appendChild(line);
      });
    });
    document.querySelectorAll("[data-outbox]").forEach(function (box) {
      const game = box.dataset.game;
      const items = load(OUTBOX, []).filter((i) => i.game === game);
      box.replaceChildren();
      box.hidden = !items.length;
      firstSettle(box, items);
      const waiting = items.filter((i) => i.state === "waiting").length;
      // Undo takes back the game's last deal: with this phone's deals waiting after it, it
      // is not the last one (tester 69: "Undo deal 4" beside deal 5 waiting to be sent)
      document.querySelectorAll(".own-news form.undo").forEach((undo) => { undo.hidden = waiting > 0; });
      const table = document.querySelector("table.sheet[data-deal-count]");
      const add = box.closest("[data-add-url]") && box.closest("[data-add-url]").querySelector(".action-bar [data-add-label]");
      // the numbers as this phone will send them: after the sheet and this phone's deals sent
      // since, in the outbox's order, as the next form and the dealer line count them; a
      // deal that waits for one opened again and not saved yet keeps the number it was
      // kept as (tester 22: two cards had read "Deal 2"). Again once none waits: the last
      // one found saved (its answer lost) is on the sheet, not ahead of it (tester 49:
      // "+ Add deal 8" after deal 6 until a reload)
      const region = document.querySelector(".live-sheet[data-next-deal]");
      const known = region ? OfflineTruth.numbers(game, region) : null;
      if (add && (known || table)) {  // "Add deal 3" when deal 2 waits to be sent
        const n = known ? known.next : parseInt(table.dataset.dealCount, 10) + waiting + 1;
        add.textContent = add.textContent.replace(/\p{Nd}+/u, pageNumber(n));
      }
      if (!items.length) return;
      // (one waiting behind a deal of this phone's that was not saved comes after it: at
      // least that deal's number and one more for each waiting behind it before this one;
      // tester 41: deal 2 behind a refused deal 1 read "Deal 1")
      const numberOf = function (item) {
        if (!(known && item.state === "waiting" && item.nonce in known.numbers)) return item.number;
        if (item.behind === undefined) return known.numbers[item.nonce];
        const before = items.slice(0, items.indexOf(item))
          .filter((i) => i.state === "waiting" && i.behind === item.behind).length;
        return Math.max(known.numbers[item.nonce], item.behind + 1 + before);
      };
      const sentNow = load(SENT, {})[game] || [];
      // the head counts what waits to be sent and, apart, what was not saved (tester 28,
      // tester 31: "1 deal waiting to be sent" over a refused deal and a waiting one)
      const refused = items.filter((i) => i.state === "refused").length;
      const head = [];
      if (waiting) head.push(fill(waiting === 1 ? box.dataset.tOne : box.dataset.tMany, { n: pageNumber(waiting) }));
      if (refused && box.dataset.tRefusedOne) {
        head.push(fill(refused === 1 ? box.dataset.tRefusedOne : box.dataset.tRefusedMany, { n: pageNumber(refused) }));
      }
      // a deal found sent as another phone's very deal is news, said above that head and
      // apart from what it counts (tester 50: "stored once" read under "1 deal not saved")
      const headLine = head.length ? el("h2", "outbox-head", head.join(" · ")) : null;
      const shown = items.filter((i) => i.state === "same").concat(items.filter((i) => i.state !== "same"));
      shown.forEach(function (item) {
        const index = items.indexOf(item);
        if (headLine && !headLine.parentNode && item.state !== "same") box.appendChild(headLine);
        const card = el("section", "outbox-item" + (item.state === "refused" ? " refused" : ""));
        card.appendChild(el("h3", "", fill(box.dataset.tDeal, { n: pageNumber(numberOf(item)), time: clock(item.at) })));
        if (item.state === "waiting" && item.held) {  // why it waits, and that it is sent by itself
          card.appendChild(el("p", "errors outbox-held", fill(box.dataset.tHeld, { reason: item.held })));
        }
        // it waits for this phone's deal before it, not saved: refused ("comes after your deal
        // N, which was not saved"), or opened again and on its form, not saved yet ("sent once
        // your deal N, opened again, is saved"; not once that deal is sent, or refused
        // again: tester 23). Saved again and waiting in the outbox before this one, with no
        // refused deal before it: nothing to say (they go in order).
        const onItsForm = OfflineTruth.onItsForm(item, items, sentNow);
        const resaved = item.after && items.some((i) => i.nonce === item.after.nonce && i.state === "waiting")
          && !items.slice(0, index).some((i) => i.state === "refused");
        // opened again, the deal it waits for is saved as the next deal, not under the
        // number it was kept as (tester 32: "Open deal 2" led to the form of deal 3)
        const as = onItsForm && known ? known.next : item.behind;
        if (item.state === "waiting" && item.behind && !resaved) {
          card.appendChild(el("p", "errors outbox-behind", onItsForm
            ? fill(as === item.behind ? box.dataset.tAfterOpened : box.dataset.tAfterOpenedAs,
                   { n: pageNumber(item.behind), m: pageNumber(as) })
            : fill(box.dataset.tBehind, { n: pageNumber(item.behind) })));
          const add = box.closest("[data-add-url]");
          if (onItsForm && add && add.dataset.addUrl
              && items.find((i) => i.after && i.after.nonce === item.after.nonce) === item) {
            // the deal it waits for is a draft on the add-deal form (opened, left unsaved):
            // the way back to it, on the first card that waits for it
            const back = el("a", "button small primary", fill(box.dataset.tOpenDeal, { n: pageNumber(as) }));
            back.href = add.dataset.addUrl;
            card.appendChild(back);
          }
        }
        if (item.state === "refused") {
          card.appendChild(el("p", "errors", fill(box.dataset.tRefused, { reason: item.reason || "" })));
          card.appendChild(el("p", "", item.final ? box.dataset.tFinal : item.over ? box.dataset.tOver
            : item.conflict ? (item.noneAdded ? box.dataset.tCheckChange : box.dataset.tSameOrOther)
            : box.dataset.tCorrect));
        }
        if (item.state === "same") {  // sent: the other phone had entered this very deal
          card.classList.add("same");
          card.appendChild(el("p", "flash outbox-same", item.reason || ""));
        }
        const list = el("ul", "outbox-entries");
        item.entries.forEach((line) => list.appendChild(suited(el("li"), line)));
        card.appendChild(list);
        // the points as far as this phone knows; "worked out when it arrives" only while it
        // waits (a refused deal arrives only if opened and saved again)
        if (item.state !== "same" && !item.final && !item.over && (item.points || item.state === "waiting")) {
          card.appendChild(el("p", "outbox-points", item.points ? fill(box.dataset.tPoints, { points: item.points }) : box.dataset.tNoPoints));
        }
        const actions = el("div", "outbox-actions");
        if (item.state === "same") {
          const done = el("button", "button small", box.dataset.tDone || "OK");
          done.type = "button";
          done.addEventListener("click", function () {
            save(OUTBOX, load(OUTBOX, []).filter((i) => i.nonce !== item.nonce));
            render();
          });
          actions.appendChild(done);
          card.appendChild(actions);
          box.appendChild(card);
          return;
        }
        if (item.state === "refused" && !item.final && !item.over) {
          const open = el("button", "button small primary", box.dataset.tOpen);
          open.type = "button";
          open.addEventListener("click", function () { reopen(item, box); });
          actions.appendChild(open);
        }
        const drop = el("button", "button small danger", box.dataset.tDiscard);
        drop.type = "button";
        drop.addEventListener("click", function () {
          // a second tap while the first one's question was open: that deal is gone already
          if (!load(OUTBOX, []).some((i) => i.nonce === item.nonce)) { render(); return; }
          if (!window.confirm(fill(box.dataset.tDiscardAsk, { n: pageNumber(item.number) }))) return;
          if (!load(OUTBOX, []).some((i) => i.nonce === item.nonce)) { render(); return; }
          settled(item, false);
          render();
          flush();  // the deals that waited for it go now
        });
        actions.appendChild(drop);
        card.appendChild(actions);
        box.appendChild(card);
      });
    });
    // who deals next, as the outbox now stands (a refused deal settled, or one refused)
    document.querySelectorAll(".live-sheet[data-next-deal]").forEach(OfflineTruth.sheet);
  }

  // While one of this phone's deals of the sheet's game was refused and is not settled yet
  // (OfflineTruth: undecided), the sheet offers no new deal: where "+ Add deal" was, it
  // says that deal comes first, with the way to it; its number and dealer would be a guess
  // (tester 31). Settled (opened again, or discarded), the bar is as drawn.
  function firstSettle(box, items) {
    const region = box.closest("[data-add-url]");
    const bar = region && region.querySelector(".action-bar");
    if (!bar) return;
    const item = items.length ? OfflineTruth.undecided(box.dataset.game) : null;
    let note = bar.querySelector(":scope > [data-settle-first]");
    bar.querySelectorAll(":scope > [data-add-label], :scope > .contract-buttons").forEach((e) => { e.hidden = !!item; });
    if (!item) { if (note) note.remove(); return; }
    if (!note) {
      note = el("div", "settle-first");
      note.dataset.settleFirst = "";
      bar.appendChild(note);
    }
    const show = el("button", "button small", fill(box.dataset.tShow, { n: pageNumber(item.number) }));
    show.type = "button";
    show.addEventListener("click", function () {
      const card = box.querySelector(".outbox-item.refused");
      if (!card) return;
      card.scrollIntoView({ block: "center" });
      const open = card.querySelector(".outbox-actions .button");
      if (open) open.focus({ preventScroll: true });
    });
    note.replaceChildren(el("p", "", fill(box.dataset.tFirst, { n: pageNumber(item.number) })), show);
  }

  function reopen(item, box) {
    // Back into the add-deal form as a kept draft (the form of the game as it is now:
    // the draft leaves out the version it was made against)
    const sheet = document.querySelector("table.sheet[data-deal-count]");
    const next = sheet ? parseInt(sheet.dataset.dealCount, 10) + 1 : item.number;
    const data = item.data.filter((p) => p[0] !== "seen" && p[0] !== "mine" && p[0] !== "csrf_token");
    save("scorekeeper-draft:" + item.game + ":" + next, { at: Date.now(), data: data });
    // the form that opens finds it whatever deal it is for (setupDraft): a sheet not yet
    // brought up to date with another phone's deal counts one deal too few
    save("scorekeeper-opened:" + item.game, "scorekeeper-draft:" + item.game + ":" + next);
    settled(item, true);
    const add = box.closest("[data-add-url]");
    location.href = (add && add.dataset.addUrl) || item.url;
  }

  // ------------------------------------------------------------------ live pages

  function setupLive(region) {
    const mode = region.dataset.live;
    let version = region.dataset.liveVersion;
    let busy = false;
    let offline = null;  // not known until the first answer (or failure)

    function connection(ok) {
      document.dispatchEvent(new CustomEvent("scorekeeper:connection", { detail: ok }));
      const status = region.querySelector("[data-live-status]");
      if (!status || offline === !ok) return;
      offline = !ok;
      status.classList.remove("news");
      status.hidden = ok;
      // the sheet as last loaded, and when: the service worker may have kept it for hours
      if (!ok) status.textContent = fill(region.dataset.offlineText, { time: clock(region.dataset.renderedAt) });
    }

    async function swap(news, wanted) {
      // not while the player is typing in this part of the page (a filter on the home
      // page): the next poll tries again
      const typing = document.activeElement;
      if (typing && region.contains(typing) && typing.matches("input, select, textarea")) return false;
      const response = await fetch(location.href, { credentials: "same-origin", cache: "no-cache" });
      if (!response.ok) return false;
      const doc = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = doc.querySelector('[data-live="' + mode + '"]');
      if (!fresh) return false;
      // an older copy than the poll told of: the one the service worker kept, when its
      // own fetch failed (a weak connection, or the worker still offline a moment after
      // the page is back). Taken for the news, it would show old totals as current until
      // the next change; the next poll asks again
      const got = fresh.dataset.liveVersion;
      if (got && wanted !== undefined && Number(got) < Number(wanted)) return false;
      const before = new Set(Array.from(region.querySelectorAll("tr.deal-row[id]"), (r) => r.id));
      const opened = Array.from(region.querySelectorAll("details"), (d) => d.open);  // the QR code stays open
      // this phone's "Deal 4 deleted. ↶ Restore deal 4" (or "… the change was not saved"),
      // shown once: another phone's save redrew the sheet without it, and with it the way
      // back (tester 36); it stays while the page is open
      const restore = Array.from(region.querySelectorAll(".own-news .flash-restore"));
      region.replaceChildren(...Array.from(fresh.childNodes, (n) => document.importNode(n, true)));
      if (restore.length && !region.querySelector(".flash-restore")) {
        let own = region.querySelector(".own-news");
        if (!own) {  // nothing of this phone's own on the new sheet: its place, as games/_undo.html
          own = el("div", "own-news");
          const bar = region.querySelector(".action-bar");
          if (bar) bar.prepend(own);
          else region.appendChild(el("div", "action-bar own-bar")).appendChild(own);
        }
        const box = el("div", "flashes");
        box.setAttribute("role", "status");
        restore.forEach((flash) => box.appendChild(flash));
        own.prepend(box);
      }
      region.querySelectorAll("details").forEach((d, i) => { if (opened[i]) d.open = true; });
      for (const name of ["liveVersion", "renderedAt", "addUrl", "nextDeal"]) {
        if (fresh.dataset[name] !== undefined) region.dataset[name] = fresh.dataset[name];
      }
      region.querySelectorAll("tr.deal-row[id]").forEach((r) => { if (!before.has(r.id)) r.classList.add("arrived"); });
      const line = region.querySelector("[data-live-status]");
      if (line && news) { line.hidden = false; line.classList.add("news"); line.textContent = news; }
      document.dispatchEvent(new CustomEvent("scorekeeper:swapped", { detail: region }));
      return true;
    }

    function warn(data) {
      const box = region.querySelector("[data-live-news]");
      if (!box || !data.news) return;
      // only earlier deals put right (and this phone's own deals): Save adds the deal after
      // them, without asking (store.own_changes)
      // the game over (another phone's deal ended it): a new deal's form says it cannot be
      // added, not that saving will ask first (tester 59)
      const keep = data.finished && region.dataset.liveOver ? region.dataset.liveOver
        : data.stops === false && region.dataset.liveKeepAdds ? region.dataset.liveKeepAdds : region.dataset.liveKeep;
      box.replaceChildren(el("p", "", data.news), el("p", "", fill(keep, { n: pageNumber(data.deals + 1) })));
      box.hidden = false;
      if (!data.finished) contractsNow(box, data.left);
      // the bar at the bottom, where the player is (tester 60: the news at the top of the
      // form was off screen, the bar unchanged): a line that brings the news into sight;
      // the game over, no Save (it could only be refused) but the way to the score sheet,
      // which keeps the entries and says so
      const bar = region.querySelector(".action-bar");
      if (!bar || !region.dataset.liveBar) return;
      const over = Boolean(data.finished && region.dataset.liveOver);
      let line = bar.querySelector(":scope > [data-bar-news]");
      if (!line) {
        line = el("button", "bar-news");
        line.type = "button";
        line.dataset.barNews = "";
        line.addEventListener("click", function () {
          box.scrollIntoView({ block: "center" });
        });
        bar.prepend(line);
      }
      line.textContent = (over ? region.dataset.liveOver : region.dataset.liveBar) + " \u2191";
      bar.querySelectorAll('button[type="submit"]').forEach((b) => { b.hidden = over; });
      let sheet = bar.querySelector(":scope > [data-bar-sheet]");
      if (over && !sheet && region.dataset.sheetUrl) {
        sheet = el("a", "button primary", region.dataset.sheetLabel || "Score sheet");
        sheet.href = region.dataset.sheetUrl;
        sheet.dataset.barSheet = "";
        bar.append(sheet);
      } else if (!over && sheet) {
        sheet.remove();  // no longer over: another phone took that deal back
      }
    }

    // Trix: the contracts the kingdom has left once another phone changed the game (an
    // earlier deal's contract changed, a deal deleted; the live check's ``left``): the
    // form offers them, and a contract chosen here that the kingdom has played since is
    // said at once, not on Save (tester 63: "Save adds them as deal 7" over Queens, then
    // "Queens has already been played")
    function contractsNow(box, left) {
      const chips = Array.from(region.querySelectorAll('input[name="contracts"]'));
      if (!chips.length || !region.dataset.draft || !region.dataset.played || !Array.isArray(left) || !left.length) return;
      const played = [];
      chips.forEach(function (input) {
        const off = !left.includes(input.value);
        if (off && input.checked) played.push(input.labels && input.labels[0] ? input.labels[0].textContent.trim() : input.value);
        input.disabled = off && !input.checked;  // a chosen one stays, with the word why
        input.closest(".chip").hidden = off && !input.checked;
      });
      if (played.length) {
        const said = el("p", "errors", fill(region.dataset.played, { contracts: played.join(" + ") }));
        said.dataset.playedSince = "";
        box.append(said);
      }
    }

    async function poll() {
      if (busy || document.hidden) return;
      busy = true;
      try {
        const since = mode === "warn" ? region.dataset.liveVersion : version;
        // this phone's own deals (sent, waiting, and this form's) are no news from "another phone"
        const game = region.dataset.game;
        const nonce = region.querySelector('input[name="nonce"]');
        const mine = game ? own(game).concat(nonce && nonce.value ? [nonce.value] : []) : [];
        const url = region.dataset.liveUrl + (region.dataset.liveUrl.includes("?") ? "&" : "?") + "since=" + encodeURIComponent(since) +
          (mine.length ? "&mine=" + encodeURIComponent(mine.join(",")) : "");
        const response = await fetch(url, { credentials: "same-origin", cache: "no-cache" });
        if (response.redirected) {
          // sent elsewhere: this phone's link was replaced, or a passcode is asked now. Not
          // a lost connection: the page asked again is answered as the server answers this
          // phone now (the welcome page saying the link was replaced, the passcode page);
          // a form's entries stay kept in its draft, for when the phone is let in again.
          // Not while this form's Save may still be answered, nor while the outbox sends:
          // that answer is the passcode page saying nothing was saved and that the form
          // opens again with what was typed, and a reload first cut it off, leaving the
          // bare passcode page (seen when a poll crossed a Save on a busy machine)
          if (Date.now() - Number(region.dataset.sentAt || 0) < ANSWER_MS || sending) return;
          location.reload();
          return;
        }
        if (response.status === 410) {
          // the game was deleted: its page says so (and, for a form being filled in, that
          // another phone deleted it; the entries stay kept: setupDeletedPage)
          if (region.dataset.draft) {
            try { sessionStorage.setItem(DELETED + game, region.dataset.draft.split(":")[1] || ""); } catch (e) { /* private mode */ }
          }
          location.reload();
          return;
        }
        if (!response.ok) throw new Error(String(response.status));
        const data = await response.json();
        connection(true);
        if (data.shut && !document.querySelector("[data-card-shut]")) {
          // this phone's table card saves no more (its round closed, tester 28): a form
          // keeps its entries, says why and offers no Save; any other page is drawn again,
          // read-only (its bar then says so: data-card-shut)
          if (mode === "warn" && region.matches("form")) {
            // the bar says it too, as on the page drawn now (it said "enters deals")
            const bar = document.querySelector(".table-card-bar");
            if (bar && data.shut_bar) {
              bar.dataset.cardShut = "";
              const words = bar.querySelector("p");
              if (words) words.textContent = data.shut_bar;
            }
            const box = el("div", "errors form-errors");
            box.dataset.cardShut = "";
            box.setAttribute("role", "alert");
            box.append(el("p", "", data.shut), el("p", "", region.dataset.cardShutKeep || ""));
            region.prepend(box);
            region.querySelectorAll('button[type="submit"]').forEach((b) => b.remove());
            return;
          }
          location.reload();
          return;
        }
        if (game && data.stored && data.stored.length) arrived(game, data.stored, data.added || {}, data.version);
        if (region.dataset.reloading) return;
        if (mode === "warn" && nonce && (data.stored || []).includes(nonce.value) && region.dataset.draft) {
          // this form's deal was saved (its answer lost on the way, or still coming): the
          // sheet at its row, where the Save's own answer leads too. Not while that answer
          // may still come: leaving now would lose its "Deal N saved" and Undo (seen when
          // a poll crossed a Save on a busy machine); after ANSWER_MS it counts as lost.
          if (Date.now() - Number(region.dataset.sentAt || 0) < ANSWER_MS) return;
          // nor while the outbox is sending: its round reads the answer, lets go of the deal
          // and then opens the sheet itself; leaving first lost the answer, so the next page
          // sent the deal again and its Undo was gone (seen under CI's load)
          if (sending) return;
          localStorage.removeItem("scorekeeper-draft:" + region.dataset.draft);
          location.href = region.dataset.sheetUrl + (region.dataset.number ? "#deal-" + region.dataset.number : "");
          return;
        }
        if (String(data.version) !== String(version)) {
          if (mode === "warn") { warn(data); version = String(data.version); }
          else if (await swap(data.news, data.version)) version = region.dataset.liveVersion = String(data.version);
        }
      } catch (e) {
        connection(false);
      } finally {
        busy = false;
      }
    }

    if (navigator.onLine === false) {
      connection(false);
      // a page kept by the service worker may carry an old message ("Deal 5 saved")
      document.querySelectorAll(".flashes").forEach((f) => { f.hidden = true; });
    }
    setInterval(poll, POLL_MS);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
    window.addEventListener("online", poll);
    window.addEventListener("offline", () => connection(false));
    document.addEventListener("scorekeeper:sent", poll);
  }

  // Any other save (a change, a delete, Undo, Restore, settings) without connection:
  // say so on the page instead of the browser's own "no internet" page.
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (event.defaultPrevented || navigator.onLine !== false || (form.method || "").toLowerCase() !== "post") return;
    if (form.matches("form.deal-form[data-draft]")) return;  // a new deal goes to the outbox
    event.preventDefault();
    let note = form.querySelector("[data-offline-note]");
    if (!note) {
      note = el("p", "errors offline-note");
      note.dataset.offlineNote = "";
      note.setAttribute("role", "alert");
      form.prepend(note);
    }
    note.textContent = document.documentElement.dataset.offlineNothing || "No connection: nothing was changed.";
  });

  // Whether deals of ``game`` wait in the outbox on this phone (to be sent, or refused and
  // not yet opened again or discarded) that come before the deal of form token ``nonce``:
  // that deal then waits after them. Not the deals that wait for it (it is a refused deal
  // opened again: they come after it).
  function pending(game, nonce) {
    return load(OUTBOX, []).some((i) => i.game === game && i.nonce !== nonce
      && (i.state === "waiting" || i.state === "refused") && !(i.after && i.after.nonce === nonce));
  }

  window.Scorekeeper = { queue: queue, flush: flush, pending: pending, own: own };

  // The page of a deleted game (templates/games/deleted_game.html), shown where a deal
  // form was: that another phone deleted it meanwhile, that the entries of this phone's
  // new deal are kept (its draft, setupDraft), and, once the game is restored on any
  // phone, the page asked for again: the form, with the entries back.
  const DELETED = "scorekeeper-deleted-meanwhile:";
  function setupDeletedPage(panel) {
    const game = panel.dataset.deletedGame;
    let meanwhile = null;
    try { meanwhile = sessionStorage.getItem(DELETED + game); } catch (e) { meanwhile = null; }
    const said = panel.querySelector("[data-deleted-meanwhile]");
    if (said && meanwhile) {
      said.textContent = fill(said.dataset.text, { n: pageNumber(parseInt(meanwhile, 10)) });
      said.hidden = false;
    }
    // this phone's draft of the game's next deal (the newest, if several)
    let number = 0;
    for (let i = 0; i < localStorage.length; i++) {
      const name = localStorage.key(i) || "";
      const parts = name.startsWith("scorekeeper-draft:") ? name.slice("scorekeeper-draft:".length).split(":") : [];
      const kept = parts[0] === game && load(name, null);
      if (kept && Date.now() - kept.at < 12 * 3600 * 1000) number = Math.max(number, parseInt(parts[1], 10) || 0);
    }
    const draftName = "scorekeeper-draft:" + game + ":" + number;
    const draft = panel.querySelector("[data-draft-kept]");
    if (draft && number) {
      draft.textContent = fill(draft.dataset.text, { n: pageNumber(number) });
      draft.hidden = false;
    }
    let busy = false;
    async function restored() {
      if (busy || document.hidden) return;
      busy = true;
      try {
        // asked since the version the draft's form was drawn at: what changed meanwhile
        const kept = number ? load(draftName, null) : null;
        const seen = kept && Array.isArray(kept.data) ? kept.data.find((p) => p[0] === "seen") : null;
        const url = panel.dataset.liveUrl + (seen ? "?since=" + encodeURIComponent(seen[1]) : "");
        const response = await fetch(url, { credentials: "same-origin", cache: "no-cache" });
        if (response.ok) {
          // Deleted and restored, nothing else (no news a player would see): the draft is
          // for the game as it is, not "another phone was quicker" on Save
          const data = await response.json();
          if (seen && !data.news && data.version !== undefined) {
            seen[1] = String(data.version);
            save(draftName, kept);
          }
          try { sessionStorage.removeItem(DELETED + game); } catch (e) { /* private mode */ }
          location.reload();  // restored: this address is the game's page (or its form) again
        }
      } catch (e) {
        /* no connection: asked again */
      } finally {
        busy = false;
      }
    }
    setInterval(restored, POLL_MS);
    document.addEventListener("visibilitychange", restored);
  }

  // The page shown for a page never opened (templates/offline.html): what waits in the
  // outbox, and, once the server answers again, what waits is sent and the page asked for
  // is loaded (the sheet a deal's Save led to, say).
  function setupOfflinePage(panel) {
    const line = panel.querySelector("[data-offline-waiting]");
    if (line) sayWaiting(line);
    // the page itself opened (/offline, with connection): nothing to come back to
    if (location.pathname === panel.dataset.offlinePage) return;
    let trying = false;
    async function back() {
      if (trying || navigator.onLine === false) return;
      trying = true;
      try {
        // HEAD: past the service worker (it answers GETs only), so only the server answers
        await fetch(location.href, { method: "HEAD", cache: "no-store", credentials: "same-origin" });
      } catch (e) {
        trying = false;
        return;  // still no connection
      }
      await flush().catch(() => undefined);
      location.reload();
    }
    setInterval(back, POLL_MS);
    window.addEventListener("online", back);
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-live]").forEach(setupLive);
    document.querySelectorAll("[data-offline-page]").forEach(setupOfflinePage);
    document.querySelectorAll("[data-deleted-game]").forEach(setupDeletedPage);
    render();
    flush();
    setInterval(flush, 5000);
    window.addEventListener("online", flush);
    document.addEventListener("scorekeeper:swapped", render);
    const root = document.documentElement;
    if (root.dataset.serviceWorker && navigator.serviceWorker) {
      // A phone's first visit (the group's link or QR code opened this page): the page
      // came before the service worker ran, so nothing kept it. Once the worker serves
      // this page, a game's sheet or deal form is fetched again through it, and kept:
      // a deal saved without connection then opens the sheet, not "never opened here".
      const keptAtLoad = Boolean(navigator.serviceWorker.controller);
      const gamePage = document.querySelector("[data-add-url], form[data-draft]");
      const served = () => new Promise(function (resolve) {
        if (navigator.serviceWorker.controller) { resolve(); return; }
        navigator.serviceWorker.addEventListener("controllerchange", () => resolve(), { once: true });
      });
      navigator.serviceWorker.register(root.dataset.serviceWorker, { scope: "/", updateViaCache: "none" })
        .then(() => navigator.serviceWorker.ready)
        .then(served)
        .then(function () {
          if (navigator.onLine === false) return;
          const keep = [];
          if (!keptAtLoad && gamePage) keep.push(location.pathname + location.search);
          // a deal form opened first: the sheet its Save leads to, never opened here yet
          const form = document.querySelector("form.deal-form[data-draft][data-sheet-url]");
          if (!keptAtLoad && form) keep.push(form.dataset.sheetUrl);
          // the add-deal form of this sheet, for a deal entered without connection
          const add = document.querySelector("[data-add-url]");
          if (add && add.dataset.addUrl) keep.push(add.dataset.addUrl);
          keep.forEach((url) => fetch(url, { credentials: "same-origin" }).catch(() => {}));
        })
        .catch(function () { /* not a secure origin (plain http on the Wi-Fi): pages still work online */ });
    }
  });
})();

// What was typed survives the language (or digits) switch: the switch is a link that
// loads the page again in the other language, so the entries of the page's forms are
// kept for that one page load (sessionStorage) and put back. A new deal's form keeps its
// own draft (setupDraft); hidden fields (the form's token), passwords and files are never
// kept.
(function () {
  "use strict";
  const KEY = "scorekeeper-typed:";
  const SKIPPED = ["hidden", "password", "file", "submit", "button", "reset", "image"];
  function forms() {
    return Array.from(document.querySelectorAll("main form"))
      .filter((form) => !form.matches("form.deal-form[data-draft]"));
  }
  function typed(form) {
    return Array.from(form.elements).filter((el) => el.name && !SKIPPED.includes(el.type))
      .filter(function (el) {
        if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
        if (el.tagName === "SELECT") return Array.from(el.options).some((o) => o.selected !== o.defaultSelected);
        return el.value !== el.defaultValue;
      })
      .map((el) => ({ name: el.name, type: el.type, value: el.value, checked: el.checked }));
  }
  function keep(event) {
    const link = event.target.closest("nav.languages a[href], nav.digits a[href]");
    if (!link) return;
    let back;
    try { back = new URL(link.href, location.href).searchParams.get("next"); } catch (e) { return; }
    const kept = forms().map((form) => ({ action: form.getAttribute("action") || "", fields: typed(form) }))
      .filter((form) => form.fields.length);
    if (!back || !kept.length) return;
    try { sessionStorage.setItem(KEY + back, JSON.stringify(kept)); } catch (e) { /* private mode: nothing kept */ }
  }
  function restore() {
    const key = KEY + location.pathname + location.search;
    let kept;
    try {
      kept = JSON.parse(sessionStorage.getItem(key) || "null");
      sessionStorage.removeItem(key);
    } catch (e) { return; }
    if (!Array.isArray(kept)) return;
    const here = forms();
    kept.forEach(function (saved) {
      const form = here.find((f) => (f.getAttribute("action") || "") === saved.action);
      if (!form) return;
      saved.fields.forEach(function (field) {
        const named = Array.from(form.elements).filter((el) => el.name === field.name && !SKIPPED.includes(el.type));
        named.forEach(function (el) {
          if (el.type === "checkbox" || el.type === "radio") {
            if (el.value === field.value) el.checked = field.checked;
          } else {
            el.value = field.value;
          }
        });
        named.forEach((el) => el.dispatchEvent(new Event("input", { bubbles: true })));
      });
      form.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }
  document.addEventListener("click", keep, true);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restore);
  else restore();
})();

// Trix Complex (SCORING.md §2.5): several penalty contracts may be played in one deal,
// but Trix never with another. Tapping Trix lets go of the penalty contracts chosen, and
// tapping a penalty contract lets go of Trix, so the form never holds what Save refuses.
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || box.name !== "contracts" || box.type !== "checkbox" || !box.checked) return;
    const dropped = Array.from(box.form ? box.form.querySelectorAll('input[name="contracts"][type="checkbox"]:checked') : [])
      .filter((other) => other !== box && (box.value === "trix" || other.value === "trix"));
    dropped.forEach(function (other) {
      other.checked = false;
      other.dispatchEvent(new Event("change", { bubbles: true }));  // the preview and the kept draft see it
    });
  });
})();
