"""What every command shares: the `app` they register on, the consoles, the one place that
maps expected errors to a line and an exit code (`guarded`), and the common options.

Imported by each command module and by the package's face; it imports none of them.
"""
from __future__ import annotations

import errno
import gc
import sys
from typing import Any, Callable, NoReturn

import typer

from .. import __version__
from ..errors import LoadError, RefereeError, UsageError
from .helpfmt import App, examples  # noqa: F401  (examples: for the commands)
from .show import LazyConsole, print_json, safe  # noqa: F401  (print_json: for the commands)

app = App(
    add_completion=False,
    invoke_without_command=True,  # `referee` alone: the help on stdout, exit 0, as git or pip do
    help="Rulings for American Mah Jongg (NMJL-style): find the situation, answer a few questions, read the ruling.",
    epilog="Start with 'referee rule' and type what happened, e.g. 'wrong wall' or 'false mahj'. "
           "'referee COMMAND --help' shows a command's options and examples.",
)


def _safe_console(**kw: Any) -> Any:
    from .consoles import SafeConsole

    return SafeConsole(**kw)


def _prompt_console() -> Any:
    from .consoles import PromptConsole

    return PromptConsole()


# Made on first print: `rule --json` never imports rich.
out = LazyConsole(_safe_console)
err = LazyConsole(lambda: _safe_console(stderr=True))
ask = LazyConsole(_prompt_console)  # questions and the choices they offer

EXIT_OK, EXIT_FINDING, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def fail(exc: RefereeError) -> NoReturn:
    if isinstance(exc, LoadError) and len(exc.problems) > 1:
        more = len(exc.problems) - 1
        err.print(f"referee: {safe(exc.problems[0])} (and {more} more; run '{safe(exc.check)}')")
    else:
        err.print(f"referee: {safe(exc)}")
    raise typer.Exit(exc.exit_code)


def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """One place that turns expected errors into a line and an exit code."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not gc.isenabled():  # off for start-up only (see __main__.run)
            gc.freeze()
            gc.enable()
        try:
            result = fn(*args, **kwargs)
            sys.stdout.flush()  # a closed pipe is found here, while we can still say how to end
            return result
        except RefereeError as exc:
            fail(exc)
        except KeyboardInterrupt:
            err.print("\nreferee: interrupted")
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except BrokenPipeError:
            closed_pipe()
        except OSError as exc:  # a path the system refuses (name too long, no permission): one line
            fail(UsageError(_os_message(exc)))

    return wrapper


def _os_message(exc: OSError) -> str:
    name = str(exc.filename) if exc.filename is not None else ""
    if len(name) > 60:
        name = f"{name[:40]}... ({len(name)} characters)"
    return f"{name}: {exc.strerror or exc}" if name else f"cannot read: {exc.strerror or exc}"


def _pairs(items: list[str], flag: str) -> dict[str, str]:
    result = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"{flag} expects NAME=VALUE, got '{item}'")
        result[key.strip()] = value.strip()
    return result


def format_for(fmt: str | None, output: Any, by_suffix: dict[str, str], default: str) -> str:
    """--format, else what -o's extension says, else the default; a --format that contradicts the
    file's name is refused (a rules.pdf holding HTML, a rulings.csv holding JSON open as garbage)."""
    implied = by_suffix.get(output.suffix.lower()) if output is not None else None
    if fmt is None:
        return implied or default
    if implied is not None and fmt in by_suffix.values() and implied != fmt:
        raise UsageError(f"--format {fmt} does not match {output}; name the file .{fmt} or drop --format")
    return fmt


# None: the event's ruleset, else nmjl (cli/defaults.py), so a forgotten -r never changes the rules
RULESET_OPT = typer.Option(None, "--ruleset", "-r", metavar="RULESET", help="Ruleset id, or the path of a ruleset folder (default: the event's, else nmjl).")


def _version(value: bool) -> None:
    if value:
        out.print(f"referee {__version__}")
        raise typer.Exit()


@app.callback()
def _referee(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_version, help="Print the version and exit."),
) -> None:
    """Rulings for American Mah Jongg (NMJL-style): find the situation, answer a few questions, read the ruling."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(EXIT_OK)


def closed_pipe() -> NoReturn:
    """The reader went away (`referee list | head -1`): stop quietly, as cat or git do, ended by
    SIGPIPE; not click's exit 1, which the README's codes call a finding."""
    import os
    import signal

    try:  # nothing more reaches the pipe, not even the interpreter's last flush
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGPIPE)
    sys.exit(128 + 13)


def main() -> None:
    try:
        app(prog_name="referee")
    except KeyboardInterrupt:
        err.print("\nreferee: interrupted")
        sys.exit(EXIT_INTERRUPTED)
    except SystemExit as exc:
        cause = exc.__context__
        if exc.code == 1 and isinstance(cause, OSError) and cause.errno == errno.EPIPE:
            closed_pipe()  # click's own catch of a closed pipe, outside any command's
        # Ctrl-C while typer still parses the command line comes out as a bare exit 130, the
        # interrupt only its cause; guarded commands have said so already (their exit has none).
        if exc.code == EXIT_INTERRUPTED and isinstance(getattr(exc.__context__, "__cause__", None), KeyboardInterrupt):
            err.print("\nreferee: interrupted")
        raise

