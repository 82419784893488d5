"""Charts as SVG, drawn on the server with pygal: no JavaScript, no external resources.

No Flask here: callers pass translated words in and put the returned SVG markup inline
into a page (so the page's CSS colours reach it: light and dark themes, print).

pygal by default links a tooltip script from the web and writes comments with web
addresses; both are switched off (``js=[]``) or filtered out (:func:`_local_only`), so the
SVG's only URLs are its namespace declarations. Each line keeps one colour and dash
pattern per seat (``--seat-0`` … ``--seat-3`` in static/app.css, the same on the whole
page), so lines stay apart in print and for colour-blind eyes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pygal
from markupsafe import Markup
from pygal.etree import etree as svg_etree  # lxml.etree when installed, else xml.etree
from pygal.style import Style

from .text import isolate

# pygal appends a sys.meta_path finder for its map plugins (unused here) that has no
# find_spec: Python 3.11 then warns (ImportWarning) whenever an import falls through to it.
sys.meta_path[:] = [finder for finder in sys.meta_path if type(finder).__name__ != "PluginImportFixer"]

#: Dash patterns by seat (solid, long dashes, short dashes, dash-dot): tell lines apart
#: without colour.
DASHES: tuple[str, ...] = ("none", "9,5", "3,4", "10,4,2,4")
SEATS = 4

# The chart's own sizes, in SVG units: drawn 360 wide, it is shown about that wide on a
# phone, so 14-unit labels read as 14 px there.
WIDTH = 360
HEIGHT = 250


def _style(colors: Sequence[str]) -> Style:
    """Colours from the page's CSS variables (the SVG is inline), one per series."""
    return Style(
        background="transparent",
        plot_background="transparent",
        foreground="var(--ink)",
        foreground_strong="var(--ink)",
        foreground_subtle="var(--line)",
        guide_stroke_color="var(--line)",
        major_guide_stroke_color="var(--muted)",
        font_family="system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', sans-serif",
        label_font_size=13,
        major_label_font_size=13,
        title_font_size=14,
        legend_font_size=13,
        value_font_size=12,
        tooltip_font_size=12,
        no_data_font_size=16,
        opacity="1",
        opacity_hover="1",
        stroke_opacity="1",
        stroke_opacity_hover="1",
        stroke_width="3",
        stroke_width_hover="3",
        transition="0s",
        colors=tuple(colors),
        # pygal would parse the colours to pick a text colour: give it one
        value_colors=("var(--ink)",) * len(colors),
    )


def _local_only(title: str, description: str) -> Any:
    """An XML filter: drop comments and scripts (pygal's web addresses and its tooltip
    configuration) and the coordinates pygal writes for that script (``<desc class="x …">``,
    ``"y …"``: numbers for no reader), give the chart its accessible name and role."""

    def strip(root: Any) -> Any:
        for parent in list(root.iter()):
            for child in list(parent):
                tag = child.tag if isinstance(child.tag, str) else ""
                coordinate = tag.endswith("desc") and (child.get("class") or "").split()[:1] in (["x"], ["y"])
                if child.tag is svg_etree.Comment or tag.endswith("script") or coordinate:
                    parent.remove(child)
                elif tag.endswith("title") and parent is root:
                    child.text = title
        desc = svg_etree.Element("desc")
        desc.text = description
        titles = [i for i, child in enumerate(root) if str(child.tag).endswith("title")]
        root.insert(titles[0] + 1 if titles else 0, desc)
        root.set("role", "img")
        root.set("class", f"{root.get('class', '')} chart-svg".strip())
        return root

    return strip


@dataclass(frozen=True)
class Line:
    """One line of a chart: its ``name`` (for the accessible description), ``values``
    (None where it has no point), its ``color`` (a CSS colour, e.g. "var(--seat-2)") and
    ``dash`` pattern (an SVG stroke-dasharray, "none" for solid), and optional ``links``
    (one address or None per value: a tap on that dot opens it)."""

    name: str
    values: Sequence[int | None]
    color: str
    dash: str = "none"
    links: Sequence[str | None] | None = None


def seat_line(name: str, values: Sequence[int | None], seat: int,
              links: Sequence[str | None] | None = None) -> Line:
    """A player's line in their seat's colour and dash pattern (``--seat-<n>``)."""
    return Line(name, values, f"var(--seat-{seat % SEATS})", DASHES[seat % len(DASHES)], links)


def nice_labels(labels: Sequence[str], most: int = 7) -> list[str]:
    """Every 1st, 2nd, 5th, 10th … label (the first and the last always), so that at most
    about ``most`` show: the x axis of a long game stays legible on a phone."""
    step = next((s for s in (1, 2, 5, 10, 20, 50, 100) if len(labels) / s <= most), 200)
    picked = [label for index, label in enumerate(labels) if index % step == 0]
    if labels and labels[-1] not in picked:
        picked.append(labels[-1])
    return picked


def y_labels(values: Sequence[int | None], most: int = 6) -> list[int]:
    """The y axis's labels for ``values`` (None skipped): every 1st, 2nd, 5th, 10th, 20th …
    whole number from one at or below the lowest value (and 0) to one at or above the
    highest, at most ``most`` of them, so the highest point and the lowest lie within the
    labelled range (tester 30: Anna's 150 drawn above a top label of 80, as if off the
    scale): values from −270 to 150 are labelled −300, −200, −100, 0, 100, 200."""
    present = [v for v in values if v is not None]
    low, high = min([0, *present]), max([0, *present])  # low ≤ 0 ≤ high
    power = 1
    while True:
        for factor in (1, 2, 5):
            step = power * factor
            first, last = low // step, -(-high // step)  # rounded down, and up
            if last - first + 1 <= most:
                return [k * step for k in range(first, last + 1)]
        power *= 10


def _as_on_paper(value: int) -> str:
    return f"\u2212{-value}" if value < 0 else str(value)


def line_chart(lines: Sequence[Line], x_labels: Sequence[str], *, title: str, description: str,
               x_title: str = "", y_title: str = "", target: int | None = None,
               x_major: Sequence[str] | None = None, number: Callable[[int], str] = _as_on_paper) -> Markup:
    """An inline SVG line chart (markup to put into a page).

    ``lines``: :class:`Line` objects, drawn in that order; ``x_labels``: one label per
    value; ``title``: the chart's accessible name; ``description``: a sentence saying what
    it shows (read by screen readers); ``target``: a value to mark with a thin dotted
    line (the Trigami target); ``x_major``: the x labels to write (default
    :func:`nice_labels`); ``number``: how a value on the y axis is written (the page's
    digits, locale_numbers.number; default 0–9 with a true minus sign). The SVG scales to its
    box's width (viewBox 360 × 250); dots shrink when there are many points.
    """
    colors = [line.color for line in lines] + ["var(--muted)"]
    chart = pygal.Line(
        js=[],
        width=WIDTH,
        height=HEIGHT,
        style=_style(colors),
        show_legend=False,
        disable_xml_declaration=True,
        explicit_size=False,
        margin=8,
        spacing=6,
        x_title=x_title or None,
        y_title=y_title or None,
        show_minor_x_labels=False,
        x_labels_major=list(x_major if x_major is not None else nice_labels(x_labels)),
        # the labels cover every value (and the target): y_labels, as pygal's own
        # scale may stop below the highest point
        y_labels=y_labels([v for line in lines for v in line.values] + ([target] if target is not None else [])),
        truncate_label=-1,
        dots_size=3.5 if len(x_labels) <= 12 else 2.2,
        show_x_guides=False,
        show_y_guides=True,
        include_x_axis=True,
        print_values=False,
        no_data_text=description,
        value_formatter=lambda v: number(round(v)),
    )
    chart.x_labels = list(x_labels)
    chart.add_xml_filter(_local_only(title, description))
    for line in lines:
        values: list[Any] = []
        for index, value in enumerate(line.values):
            link = line.links[index] if line.links else None
            values.append({"value": value, "xlink": {"href": link, "target": "_top"}}
                          if link and value is not None else value)
        # SVG text has no <bdi>: a series' name (its tooltip) is isolated by FSI…PDI
        chart.add(isolate(line.name), values, stroke_style={"dasharray": line.dash, "width": 3,
                                                   "linecap": "round"})
    if target is not None:
        chart.add("", [target] * len(x_labels), show_dots=False,
                  stroke_style={"dasharray": "2,6", "width": 1.5})
    # pygal escapes every text it writes (ElementTree): the markup is safe to inline.
    return Markup(chart.render(is_unicode=True))
