"""The embeddable card: one SVG per scorecard that a maintainer puts in a README, richer than the badge.

A badge says one grade in one line; the card says whose server it is, the grade and overall score,
the two or three figures behind them and when they were scored. It is drawn here from a `Card`,
which a grading system fills (builder.tdqs.pages.card); this module knows nothing of any system.

What a README needs of it:
- A fixed declared size (`width`, `height` and a `viewBox`), so the image takes its place before it
  loads and scales down with a narrow column.
- Legible on GitHub's light and dark backgrounds: the card has its own background, and its `<style>`
  follows `prefers-color-scheme`, which applies to an SVG shown through `<img>` as GitHub shows it.
  Every colour pair is WCAG AA (4.5:1) or better; the grade's chip is the tier's colour with white
  text, as the site's and the badge's are (builder.tier_colours).
- An accessible name: `role="img"` and a `<title>` it is labelled by, with the full text.
- Third-party text (a server's name, its owner and repository) XML-escaped, and the characters XML
  cannot carry at all (control characters, lone surrogates) shown as U+FFFD. A long name is cut by
  characters with an ellipsis so it never runs past its room: the cut is made on a generous width
  per character (`text_width`), and each third-party line is also clipped to its own band, for a
  glyph wider than any estimate. The `<title>` keeps the whole text.
- A few KB, and the same bytes for the same card: no date of drawing, no random id.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from xml.sax.saxutils import escape

from builder.tier_colours import colour

WIDTH = 500
HEIGHT = 140
MARGIN = 12
CHIP_WIDTH = 88
LEFT = MARGIN + CHIP_WIDTH + 16
"""Where the text beside the grade's chip starts."""
RIGHT = WIDTH - 16
COLUMNS = ((LEFT, 140), (LEFT + 140, 104), (LEFT + 244, RIGHT - LEFT - 244))
"""(x, width) of the figures' three columns."""
GAP = 8
"""Room kept free at the right end of a column."""

FONT = '-apple-system,BlinkMacSystemFont,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif'
"""GitHub's own system font stack: the card reads as part of the README around it."""
STYLE = (
    f"text{{font-family:{FONT};fill:#1f2328}}"
    ".bg{fill:#fff;stroke:#d0d7de}.m{fill:#59636e}.c text{fill:#fff}.b{font-weight:600}"
    "@media (prefers-color-scheme:dark){.bg{fill:#0d1117;stroke:#3d444d}text{fill:#f0f6fc}.m{fill:#9198a1}}"
)
"""Light: GitHub's text (#1f2328) and muted text (#59636e) on white. Dark: #f0f6fc and #9198a1 on
#0d1117. `.c text` is the chip's white text, the same in both."""

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 cannot hold, even escaped."""
REPLACEMENT = "\ufffd"
ELLIPSIS = "…"
BOLD = 1.15
"""How much wider a bold glyph is than its regular one, at most (DejaVu Sans Bold's is ~10% wider)."""


def xml_text(text: str) -> str:
    """`text` as XML character data or a quoted attribute's inside: escaped (a carriage return as a
    reference, which a parser would otherwise read as a line feed), and what XML cannot hold
    replaced by U+FFFD."""
    return escape(_NOT_XML.sub(REPLACEMENT, text), {'"': "&quot;", "\r": "&#13;"})


def _em(ch: str) -> float:
    """A generous width of `ch`, in em: at least its advance in the common sans-serif fonts
    (DejaVu Sans, the widest of them, included)."""
    if ch.isascii():
        if ch in "mwMW@%":
            return 1.0
        if ch in "#&+<=>^~*":
            return 0.85
        if ch in " iIjlft.,:;'!|`r":
            return 0.42
        return 0.8 if ch.isupper() else 0.66
    if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0.0  # combining marks and format characters take no room of their own
    if ord(ch) >= 0x1F000:
        return 1.3  # emoji and pictographs: colour-emoji fonts draw them wider than an em
    return 1.0


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    """A width at least that of `text` drawn at `size` px."""
    return sum(_em(ch) for ch in text) * size * (BOLD if bold else 1.0)


def fit(text: str, room: float, size: float, *, bold: bool = False) -> str:
    """`text` whole when it fits in `room` px at `size` px, else its longest start that fits with
    an ellipsis after it. A cut never falls between a character and the marks that combine with it."""
    text = _NOT_XML.sub(REPLACEMENT, text)
    if text_width(text, size, bold=bold) <= room:
        return text
    budget = room - text_width(ELLIPSIS, size, bold=bold)
    used, end = 0.0, 0
    for index, ch in enumerate(text):
        used += _em(ch) * size * (BOLD if bold else 1.0)
        if used > budget:
            break
        end = index + 1
    while 0 < end < len(text) and (unicodedata.category(text[end]) in ("Mn", "Me") or text[end] == "\u200d"):
        end -= 1
    return text[:end].rstrip() + ELLIPSIS


@dataclass(frozen=True)
class Figure:
    """One of the figures behind the grade: a short label over its value (`Coherence`, `A 4.5`)."""

    label: str
    value: str


@dataclass(frozen=True)
class Card:
    """What a card shows; a grading system fills it from a subject's current scores."""

    system: str
    """The grading system's short name (`TDQS`)."""
    name: str
    identity: str
    """Whose it is (`owner/repository`), under the name."""
    tier: str | None
    """The grade's letter; None when no grade is published."""
    score: str | None
    """The overall score as the site prints it (`3.4`); None when not published, or when the system
    grades by letter alone."""
    figures: tuple[Figure, ...]
    """Two or three figures behind the grade."""
    scored: str | None
    """When the scores were made, in words (`1 Jun 2026`); None when the data does not say."""
    no_grade: str = "not graded"
    """What stands for the grade when there is none, and why (`not published: coverage below 80%`)."""
    note: str | None = None
    """What the scores are if not a real grader's (`stand-in`, `synthetic`): the chip says it under the system."""
    made: str = "scored"
    """How the system says its scores were made (`scored`, `graded`), before their date."""

    @property
    def published(self) -> bool:
        return self.tier is not None

    @property
    def grade(self) -> str:
        if self.tier is None:
            return self.no_grade
        return f"{self.tier} {self.score}" if self.score is not None else self.tier

    @property
    def when(self) -> str:
        return f" · {self.made} {self.scored}" if self.scored else ""

    @property
    def footer(self) -> str:
        if self.published:
            return f"Overall {self.grade}{self.when}"
        return f"{self.no_grade[:1].upper()}{self.no_grade[1:]}{self.when}"

    @property
    def title(self) -> str:
        """The accessible name: everything the card shows, in full."""
        system = f"{self.system} ({self.note})" if self.note else self.system
        figures = "".join(f", {f.label.lower()} {f.value}" for f in self.figures)
        when = f"; {self.made} {self.scored}" if self.scored else ""
        return f"{system} scorecard of {self.name} ({self.identity}): overall {self.grade}{figures}{when}"

    def _chip(self) -> list[str]:
        """The grade's chip: the system, the letter and the score, white on the tier's colour."""
        middle, inside = f"{MARGIN + CHIP_WIDTH / 2:g}", CHIP_WIDTH - GAP

        def line(y: int, size: int, text: str) -> str:
            return f'<text x="{middle}" y="{y}" font-size="{size}">{xml_text(fit(text, inside, size, bold=True))}</text>'

        chip = colour(self.tier if self.published else None)
        lines = [
            f'<rect x="{MARGIN}" y="{MARGIN}" width="{CHIP_WIDTH}" height="{HEIGHT - 2 * MARGIN}" rx="6" fill="{chip}"/>',
            '<g class="c b" text-anchor="middle">' + line(34, 12, self.system),
        ]
        if self.note:
            lines.append(line(49, 10, self.note))
        if self.published:
            lines.append(line(90 if self.score is not None else 96, 40, self.tier or ""))
            if self.score is not None:
                lines.append(line(116, 17, self.score))
        else:
            lines.append(line(90, 40, "–"))
        lines.append("</g>")
        return lines

    def svg(self) -> str:
        room = RIGHT - LEFT
        lines = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
            'role="img" aria-labelledby="card-title">',
            f'<title id="card-title">{xml_text(self.title)}</title>',
            f"<style>{STYLE}</style>",
            # Each third-party line is clipped to its band: nothing it holds can paint over another line.
            f'<clipPath id="card-name"><rect x="{LEFT}" y="12" width="{room}" height="28"/></clipPath>',
            f'<clipPath id="card-who"><rect x="{LEFT}" y="40" width="{room}" height="18"/></clipPath>',
            f'<rect class="bg" x="0.5" y="0.5" width="{WIDTH - 1}" height="{HEIGHT - 1}" rx="8"/>',
            *self._chip(),
            f'<text class="b" x="{LEFT}" y="34" font-size="16" clip-path="url(#card-name)">'
            f"{xml_text(fit(self.name, room, 16, bold=True))}</text>",
            f'<text class="m" x="{LEFT}" y="53" font-size="12" clip-path="url(#card-who)">'
            f"{xml_text(fit(self.identity, room, 12))}</text>",
        ]
        for (x, width), figure in zip(COLUMNS, self.figures, strict=False):
            lines.append(f'<text class="m" x="{x}" y="80" font-size="11">{xml_text(fit(figure.label, width - GAP, 11))}</text>')
            lines.append(f'<text class="b" x="{x}" y="99" font-size="14">'
                         f"{xml_text(fit(figure.value, width - GAP, 14, bold=True))}</text>")
        lines.append(f'<text class="m" x="{LEFT}" y="124" font-size="11">{xml_text(fit(self.footer, room, 11))}</text>')
        lines.append("</svg>")
        return "\n".join(lines) + "\n"


def markdown_alt(text: str) -> str:
    """`text` as a Markdown image's alt text: one line, its brackets and backslashes escaped."""
    flat = " ".join(_NOT_XML.sub(REPLACEMENT, text).split())
    return re.sub(r"([\\\[\]])", r"\\\1", flat)


def html_snippet(card_url: str, page_url: str, alt: str) -> str:
    """The HTML to paste into a README: the card at its declared size, linking to its scorecard."""
    flat = " ".join(_NOT_XML.sub(REPLACEMENT, alt).split())
    return (f'<a href="{html.escape(page_url)}"><img src="{html.escape(card_url)}" width="{WIDTH}" height="{HEIGHT}" '
            f'alt="{html.escape(flat)}"></a>')
