"""Render the app's PNG icons from their SVG sources in static/icons/ (`make icons`).

The system's Chromium draws them (the browser tests' one: CHROMIUM, else its headless shell,
which is what CI installs, else the full browser),
so the PNGs look exactly like the SVG does in a browser. Each line of ICONS: the PNG, its
SVG source, its size in pixels; the manifest (views/app_shell.py) lists the same files.
"""

from __future__ import annotations

import base64
import os
import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS_DIR = Path(__file__).resolve().parent.parent / "static" / "icons"
ICONS = [
    ("icon-192.png", "icon.svg", 192),
    ("icon-512.png", "icon.svg", 512),
    ("icon-maskable-512.png", "icon-maskable.svg", 512),
    ("apple-touch-icon.png", "icon-maskable.svg", 180),  # iOS rounds the corners itself
]
CHROMIUM = (os.environ.get("CHROMIUM") or shutil.which("chromium-headless-shell") or shutil.which("chromium")
            or next((p for p in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if Path(p).exists()),
                    "/usr/bin/chromium"))


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        for png, svg, size in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            data = base64.b64encode((ICONS_DIR / svg).read_bytes()).decode()
            page.set_content(f'<body style="margin:0"><img src="data:image/svg+xml;base64,{data}" '
                             f'width="{size}" height="{size}" style="display:block"></body>')
            page.wait_for_function("document.images[0].complete")
            page.screenshot(path=str(ICONS_DIR / png), omit_background=True)
            page.close()
            print(f"static/icons/{png}: {size}×{size} from {svg}")
        browser.close()


if __name__ == "__main__":
    main()
