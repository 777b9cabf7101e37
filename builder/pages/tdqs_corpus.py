"""What the TDQS section's pages read of the corpus: a protocol, not the reader's own class.

builder.pages.tdqs_section reads the servers and plans each one's pages with
builder.pages.tdqs.server_outputs; the section-wide pages read what it made. Were they to import
its `TdqsSection`, even for annotations only, the reader and its pages would import each other.
"""

from __future__ import annotations

from typing import Protocol

from builder.newest import Newest
from builder.pages.page import DataFile, Owned, Page
from builder.pages.tdqs_publish import ChangeRow
from builder.pages.tdqs_summary import ServerSummary
from builder.pages.tdqs_unscored import UnscoredSummary
from builder.publish.badges import BadgeSet
from builder.publish.feeds import FeedEntry


class TdqsSection(Protocol):
    """What the section's pages read of the corpus builder.pages.tdqs_section reads (its own
    `TdqsSection` has these)."""

    @property
    def summaries(self) -> list[ServerSummary]: ...
    @property
    def unscored(self) -> list[UnscoredSummary]: ...
    @property
    def outputs(self) -> list[Page | DataFile | Owned]: ...
    @property
    def badges(self) -> BadgeSet: ...
    @property
    def models(self) -> list[str]: ...
    @property
    def changes(self) -> Newest[ChangeRow]: ...
    @property
    def feed(self) -> Newest[FeedEntry]: ...
