"""Draw assets/og-image.png (1200x630), the picture shown when a page is shared; re-run after renaming the company.

Usage: python tools/dev/og_image.py  (needs Pillow, which fpdf2 already installs, and the Liberation Sans fonts)
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.core.config import settings  # noqa: E402

FONTS = Path("/usr/share/fonts/truetype/liberation")
W, H = 1200, 630
BLUE_950, BLUE_800, AMBER, WHITE, BLUE_100 = "#172554", "#1e40af", "#fbbf24", "#ffffff", "#dbeafe"


def main() -> None:
    img = Image.new("RGB", (W, H), BLUE_950)
    glow = Image.new("RGB", (W, H), BLUE_800)
    mask = Image.new("L", (W, H), 0)
    ImageDraw.Draw(mask).ellipse((600, -420, 1600, 420), fill=150)
    mask = mask.filter(ImageFilter.GaussianBlur(110))
    img.paste(glow, (0, 0), mask)
    d = ImageDraw.Draw(img)
    bold = ImageFont.truetype(str(FONTS / "LiberationSans-Bold.ttf"), 76)
    name_font = ImageFont.truetype(str(FONTS / "LiberationSans-Bold.ttf"), 40)
    text_font = ImageFont.truetype(str(FONTS / "LiberationSans-Regular.ttf"), 34)

    # The logo mark: rounded square, sun and two waves (assets/favicon.svg at 3x).
    d.rounded_rectangle((80, 80, 176, 176), radius=24, fill=BLUE_800)
    d.ellipse((133, 20 + 80 - 9, 154, 121 - 9), fill=AMBER)
    for y, colour in ((135, WHITE), (152, "#93c5fd")):
        d.arc((96, y - 8, 128, y + 8), 180, 360, fill=colour, width=6)
        d.arc((128, y - 8, 160, y + 8), 0, 180, fill=colour, width=6)
    d.text((200, 104), settings.company_name, font=name_font, fill=WHITE)

    d.text((80, 250), "Digital transformation that", font=bold, fill=WHITE)
    d.text((80, 340), "moves your business forward", font=bold, fill=AMBER)
    d.text(
        (80, 470),
        "Web development · Hosting · BI reports · Mobile apps · Databases",
        font=text_font,
        fill=BLUE_100,
    )
    d.text((80, 520), "Port St. Lucie & the Treasure Coast, Florida", font=text_font, fill=BLUE_100)
    img.save(ROOT / "assets" / "og-image.png", optimize=True)


if __name__ == "__main__":
    main()
