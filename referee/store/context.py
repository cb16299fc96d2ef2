"""Where the log lives and whether a ruling is recorded. No database access here.

The log is an SQLite file (a path) or a PostgreSQL database (a `postgresql://` URL, a `DbUrl`).
The current event (and judge, round, ruleset) set with `referee log event` is a small JSON file
beside the SQLite file, or in the application folder for a URL (the settings are this machine's
judge, not the organization's), so `referee rule` can tell whether to log, and under which
rules to rule, without opening the database.
"""
from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Union
from urllib.parse import parse_qsl, urlencode, urlsplit

from ..errors import UsageError

ENV_DB = "REFEREE_DB"
ENV = {"event": "REFEREE_EVENT", "judge": "REFEREE_JUDGE", "round": "REFEREE_ROUND", "table": "REFEREE_TABLE",
       "ruleset": "REFEREE_RULESET", "card": "REFEREE_CARD"}


def app_dir() -> Path:
    """The user's application data folder for referee, by the platform's convention."""
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "referee"


URL_SCHEMES = ("postgresql://", "postgres://")


@dataclass(frozen=True)
class DbUrl:
    """A PostgreSQL log's URL. Printing it (str, repr, f-strings) never shows a password: only
    `conninfo` carries one, for the driver; PGPASSWORD and ~/.pgpass are the driver's to read."""

    shown: str  # the URL without any password
    conninfo: str = field(repr=False)

    @classmethod
    def parse(cls, url: str) -> "DbUrl":
        """A URL as libpq reads it; one that cannot be one is a UsageError naming it (no password)."""
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 - a port that is not a number raises here, not in the driver
        except ValueError as exc:  # an unclosed '[', a port that is not a number
            raise UsageError(f"{_without_password(url)}: not a PostgreSQL URL ({exc}); "
                             "e.g. postgresql://USER@HOST/DBNAME") from None
        netloc = parts.netloc
        if "@" in netloc:
            user, host = netloc.rsplit("@", 1)
            netloc = user.split(":", 1)[0] + "@" + host
        query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "password"], safe="/")
        # urlunsplit drops the '//' of an empty host ('postgresql://' came back as 'postgresql:')
        shown = f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "") + (f"#{parts.fragment}" if parts.fragment else "")
        return cls(shown, url)

    def __str__(self) -> str:
        return self.shown


Location = Union[Path, DbUrl]


def _without_password(url: str) -> str:
    """The URL as typed, with any 'user:password@' and 'password=' cut out, for a message about it."""
    shown = re.sub(r"(://[^/@?#]*?):[^/@?#]*@", r"\1@", url)
    return re.sub(r"(?i)([?&]password=)[^&#]*", r"\1***", shown)


def is_url(db: object) -> bool:
    return isinstance(db, DbUrl) or str(db).lower().startswith(URL_SCHEMES)


def db_path(db: str | Path | DbUrl | None = None) -> Location:
    """`--db`, else REFEREE_DB, else rulings.db in the application folder."""
    if isinstance(db, DbUrl):
        return db
    chosen = db or os.environ.get(ENV_DB)
    if chosen and is_url(chosen):
        return DbUrl.parse(str(chosen))
    return Path(chosen).expanduser() if chosen else app_dir() / "rulings.db"


def event_file(db: Location) -> Path:
    if isinstance(db, DbUrl):  # one file per database, named without the password
        return app_dir() / "events" / (re.sub(r"[^A-Za-z0-9@.-]+", "_", db.shown.split("://", 1)[1]) + ".event.json")
    return db.with_name(db.name + ".event.json")


@dataclass
class EventConfig:
    """Defaults for every ruling recorded into one log: set once per event, not per ruling."""

    event: str | None = None
    judge: str | None = None
    round: str | None = None
    table: str | None = None
    ruleset: str | None = None  # what 'referee rule' rules under when neither -r nor a file names one
    card: str | None = None  # the card hands are checked against when no --card is given

    def any(self) -> bool:
        return any(asdict(self).values())


def read_event(db: Location) -> EventConfig:
    path = event_file(db)
    if not path.is_file():
        return EventConfig()
    def refuse(why: str) -> UsageError:
        return UsageError(f"{path}: not a referee event file ({why}); remove it or run 'referee log event --clear'")

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError, RecursionError) as exc:
        raise refuse(getattr(exc, "strerror", None) or str(exc) or type(exc).__name__) from None
    if not isinstance(data, dict):  # valid JSON, but "Spring Open" or [1] is no set of settings
        kind = {str: "text", list: "a list", bool: "true or false", type(None): "null"}.get(type(data), "a number")
        raise refuse(f"holds {kind}, not an object of settings")
    bad = [k for k, v in data.items() if k in ENV and not isinstance(v, (str, int, float, type(None)))]
    if bad:
        raise refuse(f"'{bad[0]}' should be text")
    return EventConfig(**{k: (str(v) if v is not None else None) for k, v in data.items() if k in ENV})


def write_event(db: Location, config: EventConfig | None) -> None:
    """Save the event defaults (None or an empty config removes the file)."""
    path = event_file(db)
    if config is None or not config.any():
        path.unlink(missing_ok=True)
        return
    from ..writing import write_whole

    path.parent.mkdir(parents=True, exist_ok=True)
    write_whole(path, json.dumps(asdict(config), indent=2) + "\n")  # a full disk keeps the old settings


# The longest event, judge, round and table a ruling may carry, in characters: the log indexes
# them, and PostgreSQL refuses an index entry past 2,704 bytes where SQLite takes any, so both
# backends hold the same rulings only within these.
INDEXED = {"event": 200, "judge": 200, "round": 100, "table": 100}


@dataclass(frozen=True)
class LogContext:
    """Where and under which event a ruling is recorded."""

    db: Location
    event: str | None = None
    round: str | None = None
    table: str | None = None
    judge: str | None = None
    sign_in: str | None = None  # the judges' web page: which sign-in records it


def log_context(
    db: str | Path | DbUrl | None = None,
    event: str | None = None,
    round: str | None = None,
    table: str | None = None,
    judge: str | None = None,
    no_log: bool = False,
    saved: EventConfig | None = None,
) -> LogContext | None:
    """The log a ruling goes to, or None when it is not recorded.

    Recorded when any of --db/--event/--round/--table/--judge is given, or an event is
    configured (REFEREE_EVENT, or `referee log event NAME`); --no-log wins over all of it.
    Options beat environment variables, which beat the configured event. `saved`: the event
    file, when the caller has read it already.
    """
    if no_log:
        return None
    for name, value in {"event": event, "round": round, "table": table, "judge": judge}.items():
        if value is not None and not str(value).strip():  # '--table ""' must not quietly record nothing
            raise UsageError(f"--{name} is empty; give the {name}'s name or number, or leave the option out")
    path = db_path(db)
    saved = saved if saved is not None else read_event(path)
    given = {"event": event, "round": round, "table": table, "judge": judge}
    values = {k: given[k] or os.environ.get(ENV[k]) or getattr(saved, k) for k in given}
    for name, value in values.items():
        if value is not None and len(str(value).strip()) > INDEXED[name]:
            raise UsageError(f"the {name} '{str(value).strip()[:40]}…' is longer than {INDEXED[name]} characters; "
                             "a log holds names up to that length")
    if not (db is not None or any(given.values()) or os.environ.get(ENV["event"]) or saved.event):
        return None
    return LogContext(db=path, **{k: (str(v).strip() or None) if v is not None else None for k, v in values.items()})


def event_ruleset(saved: EventConfig) -> str | None:
    """The ruleset 'referee rule' uses when neither -r nor an answers file names one.

    REFEREE_RULESET, else the configured event's ruleset. A saved ruleset waits for an event,
    like the saved judge and round: a leftover setting must not change rulings silently.
    """
    chosen = os.environ.get(ENV["ruleset"], "").strip()
    if chosen:
        return chosen
    has_event = bool(os.environ.get(ENV["event"], "").strip() or saved.event)
    return saved.ruleset if has_event else None


def event_card() -> str | None:
    """REFEREE_CARD, else the card set with 'referee log event --card', else None."""
    chosen = os.environ.get(ENV["card"], "").strip()
    return chosen or read_event(db_path()).card
