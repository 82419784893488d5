"""The accessibility audit the browser tests share (issue 8): axe-core (the copy packaged
with axe-playwright-python, nothing from the web) with WCAG 2.2 AA's tags, and the
contrasts axe does not measure (WCAG 1.4.11 for graphics, 1.4.3 for the charts' SVG text
and the fields' placeholders), on each page shown, in the light colour scheme and then in
the dark. tests/test_a11y_browser.py says what is checked where."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.base import AXE_FILE_PATH

from tests.browser_support import new_page

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
#: The colour schemes every page is audited in (the phone's setting)
SCHEMES = ["light", "dark"]
#: axe's rules of TAGS whose outcome can depend on colours: the text's contrast (WCAG
#: 1.4.3) and a link told from the text around it by colour alone (1.4.1). The dark theme
#: changes nothing but colours (its blocks in static/app.css set colour properties and no
#: other: tests/test_css.py checks it), so every other rule finds on a page in the dark
#: what it found in the light; those run once, in the light, and in the dark only these
#: (with the measured contrasts below). Colour contrast is about two thirds of axe's time
#: on a page (its performanceTimer), the other rules about a third.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]

# The checks axe does not make (WCAG 1.4.11 for graphics, 1.4.3 for the charts' SVG text),
# measured on the page: each returns "what: ratio < least" for every shortfall.
MEASURE = """() => {
  function parse(text) {
    let m = text.match(/^rgba?\\(([^)]*)\\)/);
    if (m) {
      const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
      return [p[0] / 255, p[1] / 255, p[2] / 255, p.length > 3 ? p[3] : 1];
    }
    m = text.match(/^color\\(srgb ([^)]*)\\)/);
    if (m) {
      const p = m[1].split(/[\\s\\/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    }
    return null;
  }
  function over(top, under) {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
  }
  // the colour an element is drawn on: its ancestors' backgrounds laid over each other
  function ground(el) {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let colour = [1, 1, 1, 1];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  }
  function lum(c) {
    const f = (v) => (v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  }
  function ratio(a, b) {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  }
  function seen(el) {
    const box = el.getBoundingClientRect();
    // a straight line's box is 0 high or 0 wide
    return (box.width > 0 || box.height > 0) && getComputedStyle(el).visibility !== "hidden";
  }
  function name(el) {
    const cls = el.getAttribute("class");
    return el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (cls ? "." + cls.trim().split(/\\s+/).join(".") : "");
  }
  const short = [];
  function need(el, colourText, on, least, what) {
    const c = parse(colourText);
    if (!c || c[3] === 0) return;
    const r = ratio(over(c, on), on);
    if (r < least) short.push(what + " " + name(el) + ": " + r.toFixed(2) + " < " + least);
  }
  for (const chart of document.querySelectorAll("svg.chart-svg")) {
    if (!seen(chart)) continue;
    const on = ground(chart);
    for (const line of chart.querySelectorAll(".series .line")) {
      if (seen(line)) need(line, getComputedStyle(line).stroke, on, 3, "chart line");
    }
    for (const text of chart.querySelectorAll("text")) {
      if (seen(text) && text.textContent.trim()) need(text, getComputedStyle(text).fill, on, 4.5, "chart text");
    }
  }
  for (const line of document.querySelectorAll(".chart-legend .swatch line")) {
    if (seen(line)) need(line, getComputedStyle(line).stroke, ground(line.closest("ul")), 3, "legend swatch");
  }
  const fields = "input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select, textarea";
  for (const field of document.querySelectorAll(fields)) {
    if (!seen(field)) continue;
    const style = getComputedStyle(field);
    const on = ground(field.parentElement);
    // a field stands out by its border, or else by its own background
    const fill = parse(style.backgroundColor);
    if (fill && fill[3] > 0 && ratio(over(fill, on), on) >= 3) continue;
    need(field, style.borderTopColor, on, 3, "field boundary");
  }
  // a placeholder ("0": a blank counts as nought) is text like any other (WCAG 1.4.3)
  for (const field of document.querySelectorAll("[placeholder]")) {
    if (!seen(field) || field.value || !field.placeholder.trim()) continue;
    const inside = over(parse(getComputedStyle(field).backgroundColor) || [0, 0, 0, 0], ground(field.parentElement));
    need(field, getComputedStyle(field, "::placeholder").color, inside, 4.5, "placeholder");
  }
  return short;
}"""

#: What :class:`Audit` does on the page in each colour scheme, in one call: first (in the
#: first scheme) every <details> opened, so that what it hides is checked too; then the
#: scheme the page shows, axe's violations of the rules ``only`` names, and MEASURE's
#: shortfalls.
_AUDIT = """async ({only, first}) => {
  if (first) document.querySelectorAll('details').forEach((d) => { d.open = true; });
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  const results = await axe.run(document, {runOnly: only, resultTypes: ['violations']});
  return {dark, violations: results.violations, short: (MEASURE)()};
}""".replace("MEASURE", MEASURE)


class Audit:
    """axe and the measured contrasts on each page shown, in the light colour scheme and
    then in the dark (the phone's setting switched on the page as shown: the themes
    differ only in colours, static/app.css), every rule of TAGS in the light and the
    rules about colour (COLOUR_RULES) again in the dark; every shortfall is kept with
    where it was and in which scheme, and listed at the end."""

    def __init__(self, page) -> None:
        self.page = page
        self.problems: list[str] = []
        self.checked = 0

    def __call__(self, what: str) -> None:
        page = self.page
        page.wait_for_load_state("load")
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            only = ({"type": "tag", "values": TAGS} if scheme == SCHEMES[0]
                    else {"type": "rule", "values": COLOUR_RULES})
            # one round trip a scheme (each costs Chromium and Playwright's driver about
            # 10 ms): the scheme the page now shows, axe's violations, the measured contrasts
            found = page.evaluate(_AUDIT, {"only": only, "first": scheme == SCHEMES[0]})
            assert found["dark"] == (scheme == "dark"), f"{what}: the page did not switch to {scheme}"
            where = f"{what} [{scheme}]"
            for violation in found["violations"]:
                targets = "; ".join(" ".join(node["target"]) for node in violation["nodes"][:8])
                more = len(violation["nodes"]) - 8
                self.problems.append(f"{where}: {violation['id']} ({violation['impact']}): {violation['help']}: "
                                     f"{targets}{f' (+{more} more)' if more > 0 else ''}")
            self.problems += [f"{where}: {short}" for short in found["short"]]
        self.checked += 1

    def visit(self, base: str, address: str) -> None:
        self.page.goto(base + address)
        self(address)

    def report(self) -> str:
        return f"{len(self.problems)} problems on {self.checked} pages:\n" + "\n".join(self.problems)


def audited_page(browser: Any, *args: Any, **kwargs: Any) -> Any:
    """A phone page (browser_support.new_page, with its arguments) with axe loaded into
    every document it opens, before the page's own scripts; close its context after."""
    page = new_page(browser, *args, **kwargs)
    page.context.add_init_script(path=str(AXE_FILE_PATH))
    return page
