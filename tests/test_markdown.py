"""Third-party Markdown: raw HTML is text, and only http, https and mailto become links."""

from __future__ import annotations

from builder.markdown import is_safe_url, render_untrusted


def test_raw_html_is_escaped() -> None:
    html = render_untrusted("Hello <script>alert(1)</script> <img src=x onerror=alert(2)>")
    assert "<script>" not in html and "<img" not in html
    assert "&lt;script&gt;" in html


def test_only_web_and_mail_links_become_links() -> None:
    html = render_untrusted("[a](https://example.org) [b](mailto:x@example.org) [c](javascript:alert(1)) "
                            "[d](data:text/html,x) [e](/relative) [f](vbscript:x)")
    assert html.count("<a ") == 2
    assert 'href="https://example.org"' in html and 'href="mailto:x@example.org"' in html
    assert "javascript:" not in html.split("<a ")[1] and "href=\"javascript" not in html


def test_safe_url() -> None:
    assert is_safe_url("https://example.org/x") and is_safe_url("mailto:a@b.c")
    for bad in ("javascript:alert(1)", " javascript:x", "JAVASCRIPT:x", "data:x", "//evil", "/x", "http://", "https://a\nb"):
        assert not is_safe_url(bad), bad
