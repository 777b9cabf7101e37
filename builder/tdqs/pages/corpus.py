"""What the TDQS section's pages read of the corpus: a protocol, not the reader's own class.

builder.tdqs.pages.section reads the servers and plans each one's pages with
builder.tdqs.pages.outputs.server_outputs; the section-wide pages read what it made. Were they to import
its `TdqsSection`, even for annotations only, the reader and its pages would import each other.
"""

from __future__ import annotations

from typing import Protocol

from builder.pages.page import DataFile, Page
from builder.publish.badges import BadgeSet
from builder.tdqs.pages.unscored import UnscoredSummary


class TdqsSection(Protocol):
    """What the section's pages read of the corpus builder.tdqs.pages.section reads (its own
    `TdqsSection` has these)."""

    @property
    def spec_versions(self) -> list[str]: ...
    @property
    def unscored(self) -> list[UnscoredSummary]: ...
    @property
    def outputs(self) -> list[Page | DataFile]: ...
    @property
    def badges(self) -> BadgeSet: ...
    @property
    def models(self) -> list[str]: ...
    @property
    def stand_in_models(self) -> list[str]: ...
    @property
    def data_as_of(self) -> str | None: ...
