"""``assay score <suite>``: the shared options and each suite's settings options never clash."""

from __future__ import annotations

import warnings

import click

from assay._cli.score import make_score_command
from assay._engine.registry import get_task, task_names


def test_no_suite_option_repeats_a_flag() -> None:
    for name in task_names():
        command = make_score_command(get_task(name))
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # click warns on a flag used twice
            params = command.get_params(click.Context(command))
        flags = [flag for param in params for flag in param.opts]
        assert len(flags) == len(set(flags)), name


def test_a_settings_field_named_like_a_shared_option_is_prefixed_by_its_suite() -> None:
    command = make_score_command(get_task("translation"))
    by_flag = {flag: param for param in command.params for flag in param.opts}
    assert by_flag["--format"].name == "fmt"  # the output format
    assert by_flag["--translation-format"].name == "format"  # the input format setting
    ctx = command.make_context(
        "translation", ["--pred", "p.txt", "--translation-format", "text", "--format", "json"]
    )
    assert ctx.params["format"] == "text" and ctx.params["fmt"] == "json"
