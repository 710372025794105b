"""The ``assay`` command's start-up: what building the CLI and asking for help import.

Not timed (benchmarks/bench_startup.py measures the time): the import graph is checked, so a
heavy import moved back to a module's top level fails here on any machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from assay._cli import main
from assay._cli.app import COMMANDS, THREAD_VARIABLES, cli, pin_threads
from assay._cli.lazy import LazyCommand
from assay.errors import InputError

HEAVY = ("scipy", "sqlalchemy", "httpx", "rich.progress")

#: prints the sorted imported modules after running ``assay ARGS`` in a fresh interpreter
PROBE = """
import contextlib, io, json, sys
from assay._cli.app import build_cli, main
build_cli()
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def _modules_after(*args: str, cwd: Path | None = None) -> list[str]:
    res = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True, cwd=cwd
    )
    result = json.loads(res.stdout.splitlines()[-1])
    assert result["code"] == 0, res.stderr
    modules: list[str] = result["modules"]
    return modules


def _suites(modules: list[str]) -> set[str]:
    return {m.split(".")[2] for m in modules if m.startswith("assay.suites.")}


def _heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if m in HEAVY or m.startswith(tuple(h + "." for h in HEAVY))]


def test_building_the_cli_imports_nothing_heavy() -> None:
    modules = _modules_after("--version")
    assert _suites(modules) == set()
    assert _heavy(modules) == []
    assert "numpy" not in modules and "pydantic" not in modules


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("score", "--help"),
        ("compare", "--help"),
        ("significance", "--help"),
        ("gate", "--help"),
        ("report", "--help"),
        ("runs", "--help"),
        ("runs", "list", "--help"),
        ("serve", "--help"),
        ("demo", "--help"),
        ("tasks", "--help"),
        ("ab", "--help"),
    ],
)
def test_help_imports_no_suite_and_nothing_heavy(args: tuple[str, ...]) -> None:
    modules = _modules_after(*args)
    assert _suites(modules) == set()
    assert _heavy(modules) == []


@pytest.mark.parametrize(
    ("args", "suites"),
    [
        (("score", "classification", "--help"), {"classification"}),
        (("score", "claims", "--help"), {"claims"}),
        (("mt", "--help"), set()),  # the group is in _cli: its help needs no suite module
        (("claims", "--help"), {"claims"}),
        (("legal", "--help"), {"contracteval"}),
        (("extraction", "--help"), {"extraction"}),
        (("biblio", "--help"), {"biblio"}),
    ],
)
def test_a_suite_command_imports_that_suite_only(args: tuple[str, ...], suites: set[str]) -> None:
    modules = _modules_after(*args)
    assert _suites(modules) == suites
    assert _heavy(modules) == []


def _sacrebleu_files(folder: Path) -> list[str]:
    """A reference, a baseline and a system of 12 lines each."""
    texts = {
        "ref.txt": "the cat sat on the mat {}",
        "base.txt": "the cat sat on mat {}",
        "sys.txt": "a cat sat on the mat {}",
    }
    for name, text in texts.items():
        (folder / name).write_text("".join(text.format(i) + "\n" for i in range(12)))
    return [str(folder / name) for name in texts]


#: what `mt sacrebleu` must not import: its start-up is its budget beside sacrebleu's CLI
#: (pydantic builds settings models, rich draws tables, the run store and scoring engine are
#: for runs; the plain table and the settings defaults need none of them)
NOT_FOR_MT_SACREBLEU = (
    "pydantic",
    "rich",
    "sqlalchemy",
    "scipy",
    "assay._engine.run",
    "assay._engine.scoring",
    "assay._settings.loader",
    "assay.suites.translation.task",
    "assay.suites.translation._lib.comet",
)


def test_mt_sacrebleu_imports_no_settings_models_tables_or_run_machinery(tmp_path: Path) -> None:
    ref, base, system = _sacrebleu_files(tmp_path)
    args = ("mt", "sacrebleu", "-r", ref, "-i", base, system, "--paired-bs-n", "20")
    modules = _modules_after(*args, cwd=tmp_path)
    assert "assay.suites.translation._lib.systems" in modules and "numpy" in modules  # it did run
    assert "sacrebleu" not in modules  # its default options are assay's own preprocessing
    loaded = [m for m in modules if m.startswith(tuple(NOT_FOR_MT_SACREBLEU)) and (
        m in NOT_FOR_MT_SACREBLEU or m.startswith(tuple(n + "." for n in NOT_FOR_MT_SACREBLEU))
    )]  # fmt: skip
    assert loaded == []
    assert _suites(modules) == {"translation"}


@pytest.mark.parametrize("command", ["mt test", "score translation"])
def test_translation_scoring_imports_no_sacrebleu(command: str, tmp_path: Path) -> None:
    """chrF++, BLEU (13a) and TER with their default options are assay's own preprocessing
    (assay.metrics.corpus.options): sacrebleu's package (~14.5 MiB resident: its __init__
    loads every metric, its datasets, lxml, portalocker) is imported only for other options."""
    ref, base, _ = _sacrebleu_files(tmp_path)
    out = str(tmp_path / "run.json")
    if command == "mt test":
        args = ["mt", "test", base, "-r", ref, "--no-store", "-o", out, "--n-bootstrap-ci", "20"]
    else:
        lines = Path(ref).read_text().splitlines(), Path(base).read_text().splitlines()
        rows = zip(*lines, strict=True)
        entries = tmp_path / "entries.jsonl"
        entries.write_text(
            "".join(
                json.dumps({"id": f"s{i}", "expected": r, "predicted": h}) + "\n"
                for i, (r, h) in enumerate(rows)
            )
        )
        args = ["score", "translation", "--pred", str(entries), "--no-store", "-o", out]
    modules = _modules_after(*args, cwd=tmp_path)
    assert "assay.metrics.corpus.kinds" in modules and Path(out).is_file()  # it did score
    # nor multiprocessing (~1.5 MiB): the process pools are imported when items run on them
    assert [m for m in modules if m.split(".")[0] in ("sacrebleu", "multiprocessing")] == []


def test_mt_compare_of_two_runs_imports_neither_sacrebleu_nor_the_scoring_engine(
    tmp_path: Path,
) -> None:
    """Run artifacts hold their statistics: comparing them needs no extraction (sacrebleu), no
    scoring (cohort, readers, process pools), no spill machinery or input readers (yaml) to
    read an artifact, and no console library (rich) to print the tables."""
    ref, base, system = _sacrebleu_files(tmp_path)
    for hyp, out in ((base, "a.json"), (system, "b.json")):
        args = ["-q", "mt", "test", hyp, "-r", ref, "--no-ter", "--no-store", "-o"]
        assert main([*args, str(tmp_path / out)]) == 0
    modules = _modules_after(
        "mt", "compare", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--significance",
        "--n-bootstrap", "20", cwd=tmp_path,
    )  # fmt: skip
    assert "assay._compare.comparison" in modules  # it did compare
    unwanted = (
        "sacrebleu", "assay._engine.scoring", "assay._engine.cohort", "multiprocessing", "rich",
        "yaml",
        "assay._engine.spill", "assay._io.readers", "assay._io.decoding",
    )  # fmt: skip
    assert [m for m in modules if m.split(".")[0] in unwanted or m in unwanted] == []


#: what scoring an extraction run needs none of: the plain metric functions, the paired tests,
#: out-of-core scoring and its pools (the run is small), miss attribution, the gzip reader (the
#: inputs are plain text) and the shell completion's items
NOT_FOR_EXTRACTION_SCORING = (
    "assay.metrics.functions",
    "assay.stats.significance",
    "assay._engine.outofcore",
    "assay.suites.extraction._lib.misses",
    "gzip",
    "click.shell_completion",
)


def _tiny_extraction(folder: Path) -> list[str]:
    """Two documents' predictions and gold; the paths as ``--pred``/``--gold`` options."""
    docs = {"d1": ("Acme supply", "Acme supply"), "d2": ("Beta", "Beta deal")}
    for name, key, side in (("pred.jsonl", "predicted", 0), ("gold.jsonl", "expected", 1)):
        (folder / name).write_text(
            "".join(
                json.dumps({"id": doc, key: {"title": titles[side], "date": "2020-01-02"}}) + "\n"
                for doc, titles in docs.items()
            )
        )
    return ["--pred", str(folder / "pred.jsonl"), "--gold", str(folder / "gold.jsonl")]


def test_extraction_help_imports_neither_the_run_model_nor_miss_attribution() -> None:
    """``assay score extraction --help`` builds its options from the suite's settings model:
    the run artifact's models (assay._engine.run) and what only other commands use stay out."""
    modules = _modules_after("score", "extraction", "--help")
    assert "assay.suites.extraction.settings" in modules  # it did build the suite's options
    unwanted = ("assay._engine.run", "assay._engine.scoring", *NOT_FOR_EXTRACTION_SCORING)
    assert [m for m in unwanted if m in modules] == []


def test_extraction_scoring_imports_only_what_the_run_uses(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    args = ["-q", "score", "extraction", *_tiny_extraction(tmp_path), "--no-store", "-o", str(out)]
    modules = _modules_after(*args, cwd=tmp_path)
    assert "assay._engine.scoring" in modules and out.is_file()  # it did score
    assert [m for m in NOT_FOR_EXTRACTION_SCORING if m in modules] == []


def test_completion_lists_commands_without_importing_them() -> None:
    probe = (
        "import os, sys\n"
        "os.environ.update(_ASSAY_COMPLETE='bash_complete', COMP_WORDS='assay s', COMP_CWORD='1')\n"
        "from assay._cli.app import cli\n"
        "try:\n    cli.main(prog_name='assay', complete_var='_ASSAY_COMPLETE')\n"
        "except SystemExit:\n    pass\n"
        "print([m for m in sys.modules if m.startswith('assay._cli.') or m == 'scipy'])\n"
    )
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    lines = res.stdout.splitlines()
    assert "plain,score" in lines and "plain,serve" in lines and "plain,significance" in lines
    assert sorted(eval(lines[-1])) == ["assay._cli.app", "assay._cli.lazy", "assay._cli.state"]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_table_line_loads_its_command_and_help(name: str) -> None:
    """The table's help line is the first sentence of the command's own help."""
    command = cli.get_command(click.Context(cli), name)
    assert isinstance(command, click.Command)
    assert command.get_short_help_str(limit=10_000) == COMMANDS[name].help


def test_an_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["nosuch"]) == 2
    assert "No such command 'nosuch'" in capsys.readouterr().err


# --------------------------------------------------------------------------- exit codes


def _command_raising(exc: BaseException) -> LazyCommand:
    @click.command("boom")
    def boom() -> None:
        """Raise."""
        raise exc

    return LazyCommand(lambda: boom, "Raise.")


@pytest.mark.parametrize(
    ("exc", "code", "message"),
    [
        (RuntimeError("kaput"), 3, "internal error (a bug in assay"),
        (KeyboardInterrupt(), 130, "interrupted"),
        (InputError("pred.jsonl: line 3: not JSON"), 2, "error: pred.jsonl: line 3: not JSON"),
        (FileNotFoundError(2, "No such file or directory", "x.jsonl"), 2, "x.jsonl"),
        (click.exceptions.Exit(1), 1, ""),
    ],
)
def test_exit_codes(
    exc: BaseException,
    code: int,
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setitem(COMMANDS, "boom", _command_raising(exc))
    monkeypatch.delitem(cli.commands, "boom", raising=False)
    assert main(["boom"]) == code
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err and err.strip().count("\n") == 0
    cli.commands.pop("boom", None)


def test_an_internal_error_shows_its_traceback_with_debug(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(COMMANDS, "boom", _command_raising(RuntimeError("kaput")))
    assert main(["boom", "--debug"]) == 3
    err = capsys.readouterr().err
    assert "Traceback" in err and "RuntimeError: kaput" in err and "a bug in assay" in err
    cli.commands.pop("boom", None)


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "classification", "--no-such-option"]) == 2
    assert "No such option" in capsys.readouterr().err
    assert main(["gate"]) == 2  # a required argument missing


def test_help_is_the_same_after_commands_were_loaded(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--help"]) == 0
    before = capsys.readouterr().out
    assert main(["score", "classification", "--help"]) == 0
    capsys.readouterr()
    assert main(["score", "--help"]) == 0
    assert capsys.readouterr().out == before


def test_pin_threads_sets_one_thread_unless_the_user_chose() -> None:
    env: dict[str, str] = {"PATH": "/bin"}
    assert pin_threads(env) is True
    assert {k: env[k] for k in THREAD_VARIABLES} == dict.fromkeys(THREAD_VARIABLES, "1")
    for name in THREAD_VARIABLES:  # any one of them set: the user's choice, none touched
        mine = {name: "4"}
        assert pin_threads(mine) is False
        assert mine == {name: "4"}


#: what ``entry`` leaves in the environment before ``main`` runs, and whether numpy was loaded
ENTRY_PROBE = """
import json, os, sys
from assay._cli import app
def fake_main():
    names = app.THREAD_VARIABLES
    print(json.dumps([{n: os.environ.get(n) for n in names}, "numpy" in sys.modules]))
    return 0
app.main = fake_main
app.entry()
"""


@pytest.mark.parametrize(
    ("user", "expected"),
    [
        ({}, {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}),
        (
            {"OMP_NUM_THREADS": "3"},
            {"OMP_NUM_THREADS": "3", "OPENBLAS_NUM_THREADS": None, "MKL_NUM_THREADS": None},
        ),
        (
            {"OPENBLAS_NUM_THREADS": "2"},
            {"OMP_NUM_THREADS": None, "OPENBLAS_NUM_THREADS": "2", "MKL_NUM_THREADS": None},
        ),
    ],
)
def test_the_console_entry_pins_threads_before_numpy_and_respects_the_user(
    user: dict[str, str], expected: dict[str, str | None]
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES} | user
    res = subprocess.run(
        [sys.executable, "-c", ENTRY_PROBE], capture_output=True, text=True, env=env, check=True
    )
    seen, numpy_loaded = json.loads(res.stdout)
    assert seen == expected
    assert numpy_loaded is False


def test_the_console_entry_freezes_what_is_left_before_the_interpreter_exits() -> None:
    probe = """
import gc
from assay._cli import app
app.main = lambda: 3
try:
    app.entry()
except SystemExit as exit:
    print(exit.code, gc.get_freeze_count() > 0)
"""
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert res.stdout.split() == ["3", "True"]  # main's exit code, and the objects frozen
