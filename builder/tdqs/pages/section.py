"""The TDQS part of a data directory, described for the engine's record protocol
(builder.engine.records): its sources are the server folders, a record is one server read (scored,
or captured but not scored yet), and what a server contributes is its DuckDB rows, its search
document, its own pages and files, and the few values the build's process gathers of it
(`TdqsSection`). How the servers are read — by forked workers that keep their pages to render
them, the read cache, the spool — is the engine's.

`system()` is the section's entry for `builder.systems.all_systems()`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tdqs import ScoreReport, ToolDefinition

from builder import urls
from builder.config import SiteConfig
from builder.dates import instant_key
from builder.engine.grading_system import GradingSystem
from builder.engine.json_schema import model_schema
from builder.engine.problems import FileOwner, Problem, ProblemLog
from builder.engine.records import Contribution, Gathering, ReadContext, RecordSystem, Table
from builder.pages.page import DataFile, Output, Page
from builder.publish.badges import Badge, BadgeSet
from builder.sources.datafolder import kind
from builder.sources.jsonfile import read_json
from builder.store.spool import Spool
from builder.tdqs import layout
from builder.tdqs.add import KIND as ADD_KIND
from builder.tdqs.models import RegistryIndex, ServerMeta
from builder.tdqs.pages import changes
from builder.tdqs.pages import outputs as section_outputs
from builder.tdqs.pages.outputs import server_outputs
from builder.tdqs.pages.summary import ServerSummary, search_doc, summarise
from builder.tdqs.pages.unscored import (
    UnscoredSummary,
    unscored_search_doc,
    unscored_server_outputs,
    unscored_summary,
)
from builder.tdqs.reader import STAND_IN_PREFIX, SYSTEM, Server, discover_servers, folder_digest, read_server
from builder.tdqs.registry_index import compare_index
from builder.tdqs.store import CAPTURE_COLUMNS, SERVER_COLUMNS, TOOL_COLUMNS, server_rows
from builder.tdqs.unscored import UnscoredServer, read_unscored_server

INDEX_ENTRIES = "index-entries"
"""The spool's file of index.json entries: [server id, the entry as JSON] a line."""

TABLES = (Table("tdqs_servers", SERVER_COLUMNS), Table("tdqs_captures", CAPTURE_COLUMNS),
          Table("tdqs_tools", TOOL_COLUMNS), Table(changes.TABLE, changes.COLUMNS))
"""The tables a server's rows go to: those of `ServerRows`, in its order, then its changes."""


@dataclass(frozen=True)
class _Gathered:
    """What the build's process takes of a server read: the values it gathers."""

    summary: ServerSummary | UnscoredSummary | None
    """An UnscoredSummary when the server has no usable score; None when it is no server at all."""
    badges: dict[str, Badge]
    """The badges its pages show."""
    owners: dict[str, FileOwner] = field(default_factory=dict)
    """Its files with a problem, each with the server's page (the problems pages link back)."""


@dataclass
class TdqsSection(Gathering):
    outputs: list[Output] = field(default_factory=list)
    """Each server's own pages and files, when the build's process read them (with workers, they
    hold them: builder.engine.plan)."""
    badges: BadgeSet = field(default_factory=BadgeSet)
    unscored: list[UnscoredSummary] = field(default_factory=list)
    """Servers captured but without a usable score: a row in the list and a "not scored yet" page."""
    owners: dict[str, FileOwner] = field(default_factory=dict)
    """Every server's files with a problem, each with its server's page."""
    server_count: int = 0
    """Scored servers read. Their summaries are not kept: what the corpus-wide pages show of each
    server they query from the store, and what is needed before it is loaded is gathered here."""
    all_models: set[str] = field(default_factory=set)
    """The model of every capture ('' where a capture names none)."""
    all_spec_versions: set[str] = field(default_factory=set)
    newest: str | None = None
    """The newest capture's generatedAt, over every server."""

    def take(self, gathered: Any, spool: Spool) -> None:
        value: _Gathered = gathered
        self.badges.add(value.badges)
        self.owners.update(value.owners)
        summary = value.summary
        if isinstance(summary, UnscoredSummary):
            self.unscored.append(summary)
        elif summary is not None:
            # The summary itself is not kept (fifteen thousand of them were a tenth of the build's memory).
            self.server_count += 1
            self.all_models.update(summary.models)
            self.all_spec_versions.update(summary.spec_versions)
            self.newest = summary.newest if self.newest is None else max(self.newest, summary.newest, key=instant_key)
            spool.append_json(INDEX_ENTRIES, [summary.server_id, summary.index_entry])

    def finish(self, context: ReadContext, outputs: list[Output], spool: Spool) -> TdqsSection:
        """The servers' outputs kept; index.json compared with the servers read."""
        self.outputs = outputs
        index_path = context.data_dir / layout.INDEX_FILE
        stored = (read_json(index_path, context.data_dir, SYSTEM, context.log)
                  if kind(index_path) != "missing" else None)
        compare_index(stored, _index_entries(spool), context.log)
        return self

    @property
    def models(self) -> list[str]:
        return sorted(self.all_models - {""})

    @property
    def spec_versions(self) -> list[str]:
        return sorted(self.all_spec_versions)

    @property
    def stand_in_models(self) -> list[str]:
        return [model for model in self.models if model.startswith(STAND_IN_PREFIX)]

    @property
    def data_as_of(self) -> str | None:
        return self.newest


def _index_entries(spool: Spool) -> Iterator[tuple[str, str]]:
    """Every scored server's id and index.json entry as JSON (`index_entry_json`), in data-folder order."""
    for record in spool.records(INDEX_ENTRIES):
        server_id, entry = record
        yield server_id, entry


def _problems_by_file(log: ProblemLog) -> dict[str, list[Problem]]:
    """As the build's problems table returns them: by file, then JSON path and reason as text."""
    grouped: dict[str, list[Problem]] = {}
    for problem in sorted(log.problems, key=lambda p: (p.file, p.json_path, p.reason)):
        grouped.setdefault(problem.file, []).append(problem)
    return grouped


class TdqsRecords(RecordSystem[layout.ServerFiles, Server | UnscoredServer]):
    """A source is a server's folder; its record, the server read (or, without a usable score, the
    server as not scored yet)."""

    name = SYSTEM
    tables = TABLES
    shaping = ("tdqs",)  # the reference scorer: its rubric, tiers and arithmetic are on every page
    plans_outputs = True
    chunk = 100

    def discover(self, data_dir: Path, log: ProblemLog) -> list[layout.ServerFiles] | None:
        return discover_servers(data_dir, log)

    def digest(self, source: layout.ServerFiles) -> str:
        return folder_digest(source)

    def read(self, source: layout.ServerFiles, data_dir: Path, log: ProblemLog, digest: str | None
             ) -> Server | UnscoredServer | None:
        server = read_server(source, data_dir, log, digest)
        return server if server is not None else read_unscored_server(source, data_dir, log, digest)

    def contribute(self, record: Server | UnscoredServer | None, log: ProblemLog, config: SiteConfig
                   ) -> Contribution:
        if record is None:
            return Contribution(gathered=_Gathered(None, {}))
        problems = _problems_by_file(log)
        owner = FileOwner(record.display_name, urls.server_page(record.slug))
        owners = dict.fromkeys(sorted(problems), owner)
        if isinstance(record, UnscoredServer):
            return Contribution(search=unscored_search_doc(record),
                                outputs=list(unscored_server_outputs(record, sorted(problems))),
                                gathered=_Gathered(unscored_summary(record), {}, owners))
        badges = BadgeSet()
        outputs: list[Page | DataFile] = list(server_outputs(record, problems, config, badges))
        summary = summarise(record)
        return Contribution(
            rows=(*server_rows(record), changes.table_rows(changes.change_rows(record))),
            search=search_doc(record, summary.scores),
            outputs=outputs,
            gathered=_Gathered(summary, badges.used(), owners),
        )

    def gathering(self) -> TdqsSection:
        return TdqsSection()


RECORDS = TdqsRecords()


def schemas() -> dict[str, dict[str, Any]]:
    return {
        "tdqs-score-report.schema.json": model_schema(ScoreReport, "TDQS capture (tdqs ScoreReport)"),
        "tdqs-tool-definition.schema.json": model_schema(ToolDefinition, "One tools/list definition"),
        "tdqs-server.schema.json": model_schema(ServerMeta, "servers/<id>/server.json"),
        "tdqs-index.schema.json": model_schema(RegistryIndex, "index.json (registry rollup)"),
    }


def system() -> GradingSystem:
    return GradingSystem(
        key=SYSTEM,
        records=RECORDS,
        outputs=section_outputs.outputs,
        nav=section_outputs.nav,
        stand_in_models=lambda section: section.stand_in_models,
        data_as_of=lambda section: section.data_as_of,
        page_dates=section_outputs.page_dates,
        adds=(ADD_KIND,),
        schemas=schemas,
        file_owners=lambda section: section.owners,
        indexes_pages=False,
    )
