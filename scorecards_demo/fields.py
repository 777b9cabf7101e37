"""Parameter documentation and the shapes of object-valued parameters.

Real servers document parameters in one of a few registers: not at all, a terse label ("Issue
ID"), or a sentence with a format or an example. `describe_field` produces the last two; whether
a parameter gets any description at all is decided per server in `definitions.py`, because
coverage is an author's habit rather than a property of a parameter.
"""

from __future__ import annotations

from typing import Literal

from scorecards_demo.vocabulary import FieldSpec, parse_fields

DocStyle = Literal["terse", "rich"]

COMPOSITES: dict[str, tuple[FieldSpec, ...]] = {
    "location": parse_fields("lat!:number lng!:number"),
    "amount": parse_fields("value!:integer currency!"),
    "date_range": parse_fields("start!:date end!:date"),
    "shipping_address": parse_fields("line1! city! postal_code! country!"),
}
"""Objects with declared properties; any other `object` field is a free-form string map."""

_RICH: dict[str, str] = {
    "limit": "Maximum number of results to return (1-100, default 25).",
    "cursor": "Opaque pagination cursor from the previous response's next_cursor.",
    "query": "Free-text search query. Supports quoted phrases and -exclusions.",
    "title": "Short, human-readable title.",
    "name": "Display name. Must be unique within its parent.",
    "description": "Longer description; Markdown is supported.",
    "body": "Body text in Markdown.",
    "text": "The text content.",
    "email": "Email address, e.g. ada@example.com.",
    "phone": "Phone number in E.164 format, e.g. +14155550123.",
    "since": "Only return items created after this ISO 8601 timestamp.",
    "updated_since": "Only return items updated after this ISO 8601 timestamp.",
    "created_after": "Only return items created after this ISO 8601 timestamp.",
    "sort": "Field to sort by.",
    "tags": "Tags to attach; existing tags are kept.",
    "labels": "Label names to apply.",
    "due_date": "Due date as YYYY-MM-DD.",
    "path": "Absolute path inside one of the allowed directories.",
    "url": "Absolute http(s) URL.",
    "sql": "The SQL text. Use $1, $2 … placeholders with params instead of inlining values.",
    "params": "Values bound to the $n placeholders, in order.",
    "location": "Coordinates as {lat, lng} in decimal degrees.",
    "amount": "Amount in the currency's smallest unit (cents for USD) with an ISO 4217 code.",
    "date_range": "Inclusive start and end dates (YYYY-MM-DD).",
    "selector": "CSS selector of the target element, e.g. button[type=submit].",
    "namespace": "Kubernetes namespace; defaults to the context's namespace.",
    "repo": "Repository in owner/name form.",
    "owner": "User or organization login.",
    "content": "The full content to write. Replaces any existing content.",
    "metadata": "Arbitrary key-value pairs stored with the record.",
    "filter": "Field filters as key-value pairs; all must match.",
    "top_k": "Number of nearest matches to return (default 10).",
    "timeout_ms": "How long to wait before giving up, in milliseconds.",
    "dry_run": "If true, validate and show what would change without applying it.",
    "force": "Skip confirmation checks. Use with care.",
    "recursive": "Apply to everything below the path as well.",
    "state": "Filter by state.",
    "status": "Filter by status.",
    "range": "Cell range in A1 notation, e.g. Sheet1!A1:C10.",
    "values": "Rows of cell values, outer array = rows.",
    "target_lang": "Target language code (ISO 639-1), e.g. de.",
    "source_lang": "Source language code; detected automatically when omitted.",
    "mode": "Travel mode.",
    "units": "Unit system for temperatures and speeds.",
    "priority": "Priority level.",
    "manifest": "One or more YAML documents separated by ---.",
}


def _words(name: str) -> str:
    return name.replace("_", " ")


def describe_field(field: FieldSpec, *, owner: str, style: DocStyle) -> str:
    """The description a parameter gets when its server documents parameters. `owner` is the
    resource the tool works on ("issue"), for phrases like "ID of the issue"."""
    words = _words(field.name)
    if style == "terse":
        if field.name.endswith("_id"):
            return f"{_words(field.name[:-3]).capitalize()} ID"
        return words.capitalize()
    if field.name in _RICH:
        text = _RICH[field.name]
    elif field.name.endswith("_id"):
        text = f"ID of the {_words(field.name[:-3])}, as returned by the list tool."
    elif field.name.endswith("_ids"):
        text = f"IDs of the {_words(field.name[:-4])}s to act on."
    elif field.kind == "boolean":
        text = f"Whether to {words} (default false)."
    elif field.kind in ("date", "date-time"):
        text = f"The {words} as an ISO 8601 {'date' if field.kind == 'date' else 'timestamp'}."
    elif field.kind == "integer" and field.name.startswith(("max_", "min_")):
        text = f"{words.capitalize()} (a positive integer)."
    elif field.array:
        text = f"List of {words}."
    else:
        text = f"The {words} of the {owner}." if owner else f"The {words}."
    if field.enum and "One of" not in text:
        text = f"{text} One of: {', '.join(field.enum)}."
    return text
