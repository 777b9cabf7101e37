"""Every string of the Big List of Naughty Strings, placed in every third-party text field of a
corpus (server name, tool name, description, justification, summary, evidence, session id, …),
builds; in headless Chromium no dialog opens and no injected element appears on any page."""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import ARGS, lightest_chromium, require_chromium, served
from corpus import KEYS, report, write_capture
from shared_data import shared_file
from tdqs import ToolDefinition, ToolScore, compute_context_signals

from builder.build import build
from builder.config import SiteConfig


@functools.cache
def naughty_strings() -> list[str]:
    """The Big List of Naughty Strings, read when a test first needs it (not at collection)."""
    return json.loads(shared_file("bad-input/naughty-strings.json").read_text(encoding="utf-8"))


PER_SERVER = 60

# What our templates may put on a page; anything else came from the data.
INJECTION_PROBE = """() => {
  const found = [];
  const origin = window.location.origin;
  for (const el of document.querySelectorAll("*")) {
    for (const attr of el.getAttributeNames()) {
      if (attr.toLowerCase().startsWith("on")) found.push(`${el.tagName} ${attr}`);
    }
    const tag = el.tagName.toLowerCase();
    if (["iframe", "object", "embed", "frame", "frameset", "base", "applet", "video", "audio", "math"].includes(tag)) found.push(tag);
    if (tag === "script" && el.type !== "application/json" && !(el.src && el.src.startsWith(origin + "/"))) found.push("script");
    const ours = (src) => src.includes("badges/") || (el.classList.contains("card") && (src === "card.svg" || src.endsWith("/card.svg")));
    if (tag === "img" && !ours(el.getAttribute("src"))) found.push("img " + el.getAttribute("src"));
    const drawn = el.classList.contains("chart-svg") && el.parentElement && el.parentElement.matches("figure.chart");
    if (tag === "svg" && !drawn && !el.closest(".plot") && !el.closest("#js-plotly-tester")) found.push("svg " + el.outerHTML.slice(0, 80));
    // The site's own form (search) and the boxes static/pick.js adds to tick a server for the comparison.
    if (tag === "form" && !el.classList.contains("search-box")) found.push("form");
    const compareBox = el.type === "checkbox" && el.classList.contains("pick") && el.parentElement.hasAttribute("data-pick");
    if (tag === "input" && !(el.id === "q" || el.type === "search" || compareBox)) found.push("input");
    if (tag === "meta" && el.httpEquiv && el.httpEquiv.toLowerCase() === "refresh") found.push("meta refresh");
    if (tag === "link" && !(el.href.startsWith(origin + "/") || el.rel === "canonical")) found.push("link " + el.href);
    for (const name of ["href", "src", "action", "formaction", "xlink:href"]) {
      const value = (el.getAttribute(name) || "").trim().toLowerCase();
      if (value.startsWith("javascript:") || value.startsWith("data:") || value.startsWith("vbscript:")) found.push(`${tag} ${name}=${value.slice(0, 30)}`);
    }
  }
  return found;
}"""


def tool(name: str, text: str, position: int) -> tuple[ToolScore, dict]:
    definition = {
        "name": name or f"empty-{position}",
        "title": text,
        "description": text,
        "inputSchema": {"type": "object", "properties": {text or "p": {"type": "string", "description": text}}},
    }
    dims = {k: 1 + (position + i) % 5 for i, k in enumerate(KEYS)}
    from tdqs import compute_smells, compute_tdqs, compute_tier

    tdqs = compute_tdqs(dims)
    score = ToolScore(
        context_signals=compute_context_signals(ToolDefinition.model_validate(definition)),
        flags=[], justifications={k: {"score": v, "justification": text} for k, v in dims.items()},
        name=definition["name"], scores=dims, server_flags=[], smells=compute_smells(dims), summary=text,
        tdqs=tdqs, tier=compute_tier(tdqs),
    )
    return score, definition


def write_naughty_corpus(data: Path) -> None:
    naughty = naughty_strings()
    for start in range(0, len(naughty), PER_SERVER):
        chunk = naughty[start : start + PER_SERVER]
        server_id = f"naughty-{start // PER_SERVER:02d}"
        scored = [tool(text, naughty[-1 - start - i], start + i) for i, text in enumerate(chunk)]
        rep = report(chunk[0] or "empty", [s for s, _ in scored]).model_copy(deep=True)
        document = rep.model_dump(mode="json")
        document["serverScore"]["coherenceSummary"] = chunk[-1]
        for key in document["serverScore"]["coherenceJustifications"]:
            document["serverScore"]["coherenceJustifications"][key]["justification"] = chunk[1 % len(chunk)]
        write_capture(data, server_id, document, [d for _, d in scored])
        meta = {"displayName": chunk[2 % len(chunk)][:300], "description": chunk[3 % len(chunk)][:20000],
                "repositoryUrl": chunk[4 % len(chunk)][:2000], "homepageUrl": "javascript:alert(1)"}
        (data / "servers" / server_id / "server.json").write_text(json.dumps(meta), encoding="utf-8")
    sessions = data / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    rows = []
    for i, text in enumerate(naughty):
        dimension = {"score": 10, "max": 20, "evidence": [text, naughty[-1 - i]]}
        rows.append(json.dumps({
            "sessionId": text or "empty", "taskId": text, "totalScore": 50, "maxScore": 100,
            "dimensions": {k: dimension for k in ("sessionDiscipline", "discoveryEfficiency", "taskHygiene", "errorProtocol", "disclosureUse")},
            "flags": [text], "timestamp": f"2026-05-{1 + i % 28:02d}T10:{i % 60:02d}:00Z", "entryCount": 3,
            "evaluator": text,
        }))
    (sessions / "naughty.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def naughty_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[str]]]:
    data = tmp_path_factory.mktemp("naughty-data")
    write_naughty_corpus(data)
    out = tmp_path_factory.mktemp("naughty") / "site"
    result = build(data, out, SiteConfig(base_url="/n/"))
    assert result.files_written > len(naughty_strings())
    pages = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html") if "pagefind" not in p.parts)
    with served(out, "/n/") as url:
        yield url, pages


def test_the_naughty_corpus_builds_with_every_string_on_a_page(naughty_site) -> None:
    _, pages = naughty_site
    assert sum(p.startswith("servers/naughty-") and "/tools/" in p for p in pages) >= len(naughty_strings()) - 20
    assert sum(p.startswith("sessions/") for p in pages) > 100


TABS = 2
"""Pages open at once: the browser and its renderer take turns on one core a page, so two tabs keep
both of CI's cores busy. Every page is still loaded and probed, each in a tab of its own context."""


async def _without_refresh(route: Any) -> None:
    """A file's stable problems address (problems/files/…/) sends the browser on at once (a meta
    refresh): probed as it is written, without leaving it (the page it leads to is probed too)."""
    response = await route.fetch()
    body = (await response.text()).replace('http-equiv="refresh"', 'data-refresh-held="refresh"')
    await route.fulfill(response=response, body=body)


async def _visit_every_page(base: str, pages: list[str]) -> list[str]:
    """Each page loaded in one of TABS tabs and probed; the dialogs and injected elements found, in
    the order of `pages`."""
    from playwright.async_api import async_playwright

    found: dict[str, list[str]] = {}
    todo = iter(pages)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=lightest_chromium(), args=ARGS, headless=True)
        try:
            context = await browser.new_context()

            async def tab() -> None:
                page = await context.new_page()
                current: list[str] = [""]

                async def dismiss(dialog: Any) -> None:
                    found.setdefault(current[0], []).append(f"dialog {dialog.message!r} on {page.url}")
                    await dialog.dismiss()

                page.on("dialog", dismiss)
                await page.route("**/problems/files/**", _without_refresh)
                for path in todo:
                    current[0] = path
                    await page.goto(base + path, wait_until="load")
                    injected = await page.evaluate(INJECTION_PROBE)
                    if injected:
                        found.setdefault(path, []).append(f"{path}: {injected[:5]}")
                await page.close()

            await asyncio.gather(*(tab() for _ in range(TABS)))
            await context.close()
        finally:
            await browser.close()
    return [problem for path in ["", *pages] for problem in found.get(path, [])]


def test_no_dialog_and_no_injected_element_on_any_page(naughty_site) -> None:
    base, pages = naughty_site
    require_chromium()
    problems = asyncio.run(_visit_every_page(base, pages))
    assert not problems, "\n".join(problems[:30])
