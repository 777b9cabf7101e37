"""`scorecards.toml`: the settings an operator would otherwise pass as flags on every build.

One pydantic model validates both: the file's keys are the flags' names with underscores
(`base-url` → `base_url`), a flag given on the command line overrides the file's value, and an
unknown key or a value of the wrong type is a one-line error naming the key (a mistyped key with the
one it is close to: `titel` → "did you mean title?"), or the flag when the value came from one
(`--site-url: …`: the file is not to blame for what was typed on the command line). `scorecards build`
looks for the file beside the data folder (in its parent) and then in the current folder.
"""

from __future__ import annotations

import difflib
import tomllib
from pathlib import Path
from typing import Annotated, Any

from pydantic import ConfigDict, Field, ValidationError

from builder.config import SiteConfig
from builder.diff.budgets import Budgets
from builder.engine.weight import PAGES_SUPPORTED

FILE_NAME = "scorecards.toml"


class SettingsError(Exception):
    """The settings file cannot be used: the message names the file, the key and the reason."""


class Settings(SiteConfig):
    """Everything `scorecards.toml` may hold: the site's settings and how a build runs."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    strict: bool = False
    """Exit 1 when the input has any problem (warnings included)."""
    search: bool = True
    """Build the Pagefind search index."""
    size_warning_bytes: int = Field(default=PAGES_SUPPORTED, gt=0)
    """Warn when the site's files add up to more bytes than this (builder.engine.weight): by
    default GitHub Pages' supported 1 GB. A warning only: it does not fail a strict build."""

    max_input_age_days: Annotated[int, Field(ge=0)] | None = None
    """Warn about each input folder whose newest capture is older than this many days before the
    data's as-of date (builder.publish.manifest); with `strict`, exit 1. None: no warning."""

    budgets: Budgets = Budgets()
    """What a pull request may not do to the scores (`scorecards diff`, builder.diff.budgets): all off."""

    def site(self) -> SiteConfig:
        """The settings that shape pages (what the incremental cache keys on)."""
        return SiteConfig.model_validate(self.model_dump(exclude={"strict", "search", "size_warning_bytes",
                                                                  "max_input_age_days", "budgets"}))


def find_settings(data_dir: Path, cwd: Path) -> Path | None:
    """`scorecards.toml` in the data folder's parent, else in the current folder."""
    for folder in (data_dir.resolve().parent, cwd.resolve()):
        candidate = folder / FILE_NAME
        if candidate.is_file():
            return candidate
    return None


def _key(location: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in location) or "(top level)"


def _did_you_mean(key: str, known: list[str]) -> str:
    """` (did you mean base_url?)` for `base-url` or `baseurl`; else the list of keys. A key
    written with dashes, as its flag is, is matched with underscores."""
    close = difflib.get_close_matches(key.replace("-", "_").lower(), known, n=1, cutoff=0.6)
    if close:
        return f" (did you mean {close[0]}?)"
    return f" (known keys: {', '.join(known)})"


def load_settings(path: Path | None, overrides: dict[str, Any]) -> Settings:
    """The file's settings (none: the defaults), with the flags that were given laid over them."""
    values: dict[str, Any] = {}
    name = path.name if path is not None else "settings"
    if path is not None:
        try:
            values = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise SettingsError(f"{path}: cannot be read: {error}") from error
        except tomllib.TOMLDecodeError as error:
            raise SettingsError(f"{path}: not valid TOML: {_one_line(str(error))}") from error
        except RecursionError as error:
            raise SettingsError(f"{path}: not usable TOML: nested too deeply") from error
        name = str(path)
    flags = [key for key, value in overrides.items() if value is not None]
    values.update((key, overrides[key]) for key in flags)
    try:
        return Settings.model_validate(values)
    except ValidationError as error:
        first = error.errors()[0]
        key = _key(first["loc"])
        reason = _one_line(first["msg"].removeprefix("Value error, "))
        if first["loc"] and first["loc"][0] in flags:  # the flag's value, whatever the file says
            raise SettingsError(f"{_flag(str(first['loc'][0]))}: {reason}") from error
        if not first["loc"] and flags:  # the settings together (site_url with base_url), some from flags
            given = ", ".join(_flag(flag) for flag in flags)
            raise SettingsError(f"{name} with {given}: {reason}" if path is not None else f"{given}: {reason}") \
                from error
        if first["type"] == "extra_forbidden":
            model: Any = Settings
            for part in first["loc"][:-1]:
                model = model.model_fields[str(part)].annotation
            hint = _did_you_mean(str(first["loc"][-1]), list(model.model_fields))
            raise SettingsError(f"{name}: {key}: unknown key{hint}") from error
        raise SettingsError(f"{name}: {key}: {reason}") from error


def _flag(key: str) -> str:
    """The command-line flag of a setting: `base_url` → `--base-url`."""
    return "--" + key.replace("_", "-")


def _one_line(text: str) -> str:
    """Every settings error is one line, whatever the value it quotes held."""
    return " ".join(text.split())
