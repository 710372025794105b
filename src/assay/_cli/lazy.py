"""Click groups whose subcommands are imported by name, only when they run.

``assay --help``, ``assay <cmd> --help`` and shell completion must not import what a command
needs to run (suites, scipy, SQLAlchemy, httpx): a :class:`LazyGroup` knows each subcommand as
``name → LazyCommand("module:attribute", "one-line help")`` and imports the module when the
command is looked up to run or to print its own help. Listing (help, completion) reads the
table's help lines and imports nothing.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:  # loaded for shell completion only, as click itself does
    from click.shell_completion import CompletionItem


@dataclass(frozen=True)
class LazyCommand:
    """Where a command lives (``"package.module:attribute"``, or a function building it) and
    its one-line help."""

    target: str | Callable[[], click.Command]
    help: str

    def load(self) -> click.Command:
        if callable(self.target):
            return self.target()
        module, _, attribute = self.target.partition(":")
        command: Any = getattr(importlib.import_module(module), attribute)
        if callable(command) and not isinstance(command, click.Command):
            command = command()  # a factory (e.g. a group built from the registry)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.target} is not a click command")
        return command


class LazyGroup(click.Group):
    """A group of ``lazy`` commands (a mapping, or a function returning one, read when the
    group is used) besides any added the usual way. A name that is none of them is a usage
    error suggesting the nearest (``noun`` says what the group's commands are)."""

    noun = "command"

    def __init__(
        self,
        *args: Any,
        lazy: Mapping[str, LazyCommand] | Callable[[], Mapping[str, LazyCommand]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self._lazy = lazy

    def lazy_commands(self) -> Mapping[str, LazyCommand]:
        return self._lazy() if callable(self._lazy) else self._lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy_commands()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            spec = self.lookup(cmd_name)
            if spec is None:
                return self.missing_command(ctx, cmd_name)
            command = spec.load()
            self.commands[cmd_name] = command  # under the table's name, once
        return self.commands[cmd_name]

    def lookup(self, cmd_name: str) -> LazyCommand | None:
        """The table entry of ``cmd_name`` (None when there is none)."""
        return self.lazy_commands().get(cmd_name)

    def missing_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """A command in neither table: None (a usage error, ``resolve_command``)."""
        return None

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """click's, with "did you mean" for a name that is no command (issue 36)."""
        name = args[0] if args else ""
        usable = name and not name.startswith("-") and not ctx.resilient_parsing
        if usable and self.get_command(ctx, name) is None:
            ctx.fail(f"No such {self.noun} {name!r}.{self.suggest(ctx, name)}")
        return super().resolve_command(ctx, args)

    def suggest(self, ctx: click.Context, name: str) -> str:
        """ " Did you mean 'x'?" for the nearest command names, else the list of them."""
        names = self.list_commands(ctx)
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
        if close:
            return " Did you mean " + " or ".join(repr(c) for c in close) + "?"
        return f" {self.noun.capitalize()}s: {', '.join(names)}."

    def _help_lines(self, ctx: click.Context) -> list[tuple[str, str]]:
        lazy = self.lazy_commands()
        rows = []
        for name in self.list_commands(ctx):
            if name in lazy:  # the table's line, loaded or not: help never depends on history
                rows.append((name, lazy[name].help))
            elif not self.commands[name].hidden:
                rows.append((name, self.commands[name].get_short_help_str(limit=90)))
        return rows

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = self._help_lines(ctx)
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section("Commands"):
                formatter.write_dl([(n, _shorten(h, limit)) for n, h in rows])

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        from click.shell_completion import CompletionItem

        results = [
            CompletionItem(name, help=help_line)
            for name, help_line in self._help_lines(ctx)
            if name.startswith(incomplete)
        ]
        results.extend(click.Command.shell_complete(self, ctx, incomplete))
        return results


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 3, 1)].rstrip() + "..."
