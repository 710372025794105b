"""Issue 20 replayed: hostile and careless input, one case a test, inputs built here.

Each test names the case of the issue it replays (F = failed before, W = weak: an unclear
message or a silent drop) and checks a clear error or a correct result with nothing lost.
Cases replayed elsewhere, with their own fixtures:

- F15 200 concurrent dashboard clients on 1,000 runs (no errors; latency is measured by
  benchmarks/bench_dashboard_load.py), W6 backlog, header timeout, half-open connections,
  oversized and malformed requests: tests/dashboard/test_dashboard_server.py
- F16 processes racing on a new store's creation: tests/store/test_store_concurrency.py
- COMET Infinity (a counted null) and the TER size limit (a listed failure of that segment):
  tests/suites/translation/test_translation_ter.py
- the gate's NaN threshold (a usage error) and all-null headlines (a failed gate):
  tests/compare/test_gate.py

Issue 36's cases follow at the end (sections "36: …"): JSON text nested past the depth limit,
a huge line and a huge gzip member under an address-space cap (``resource.setrlimit`` in a
child process), concurrent writers of one artifact, gold-side errors, careless predictions
(exit 4), console escapes, and the LLM endpoints (tests/judge/hostile_llm.py). Replayed
elsewhere: the record limit line by line (tests/io/test_readers.py, test_decoding.py), atomic
writes by many processes (tests/io/test_atomic.py), a lost race's message
(tests/cli/test_score.py), progress (tests/cli/test_progress.py), the install
(tests/test_install.py), the store's durable commits (tests/store/test_store_runs.py).
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import random
import re
import unicodedata
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
from pydantic import BaseModel
from rich.console import Console

import assay
from assay._cli import main
from assay._engine.item import Item
from assay._engine.run import Run
from assay._engine.task import ItemScore, Task, score_in_blocks
from assay._io import read_records
from assay._io.safe_yaml import safe_yaml_load
from assay._io.strict import MAX_DEPTH, MAX_VALUE_CHARS
from assay._report.console import print_gate, print_run
from assay._store import RunStore
from assay.errors import ConfigError, InputError, RunInputError
from assay.metrics import MetricSpec
from assay.suites.classification import ClassificationSettings
from tests.conftest import write_jsonl

EXTRACTION_GOLD = [
    {"id": f"d{i}", "expected": {"document_name": f"Agreement {i}", "parties": [f"Co {i}"]}}
    for i in range(1, 6)
]


def _extraction_preds() -> list[str]:
    return [
        json.dumps({"id": f"d{i}", "predicted": {"document_name": f"Agreement {i}"}})
        for i in range(1, 6)
    ]


def _write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def _failure(run: Run, item_id: str) -> str:
    reasons = [f.reason for f in run.cohort.failures if f.id == item_id]
    assert reasons, f"{item_id} is not a listed failure: {run.cohort.failures}"
    return reasons[0]


# --------------------------------------------------------------------------- F: one record


@pytest.mark.parametrize(
    ("case", "raw", "field"),
    [
        ("F1 NaN money", '"contract_value": NaN', "$.predicted.contract_value"),
        ("F2 Infinity in a list", '"parties": [Infinity]', "$.predicted.parties[0]"),
        ("F2 -Infinity", '"parties": ["A", -Infinity]', "$.predicted.parties[1]"),
    ],
)
def test_non_finite_prediction_is_that_records_failure(
    tmp_path: Path, case: str, raw: str, field: str
) -> None:
    preds = _extraction_preds()
    preds[2] = '{"id": "d3", "predicted": {"document_name": "Agreement 3", ' + raw + "}}"
    pred = _write_lines(tmp_path / "pred.jsonl", preds)
    gold = write_jsonl(tmp_path / "gold.jsonl", EXTRACTION_GOLD)
    run = assay.score("extraction", pred=pred, gold=gold, ci=False)
    reason = _failure(run, "d3")
    assert "not valid JSON" in reason and f"(field {field})" in reason
    assert [f.where for f in run.cohort.failures] == [f"{pred}:3"]
    assert run.cohort.attempted == 5 and run.cohort.evaluated == 4  # d3 stays in the denominator


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 50_000, 100_000])
def test_f3_deep_nesting_in_extraction(tmp_path: Path, depth: int) -> None:
    preds = _extraction_preds()
    deep = "[" * depth + "]" * depth
    preds[0] = '{"id": "d1", "predicted": {"document_name": ' + deep + "}}"
    pred = _write_lines(tmp_path / "pred.jsonl", preds)
    gold = write_jsonl(tmp_path / "gold.jsonl", EXTRACTION_GOLD)
    run = assay.score("extraction", pred=pred, gold=gold, ci=False)
    assert run.cohort.attempted == 5 and run.cohort.evaluated == 4
    if depth < 1000:  # Python's parser still reads it: the failure carries the record's id
        assert "nested deeper than 100 levels (field " in _failure(run, "d1")
    else:  # beyond its stack no id can be read: listed by line, and d1 counted as missing
        [failure] = run.cohort.parse_failures
        assert failure.where == f"{pred}:1" and "nested deeper than 100" in failure.reason
        assert run.cohort.missing_ids == ["d1"]


CLAIMS_GOLD = [
    {
        "paper": "p1",
        "claims": [
            {"slug": "c1", "claim": "Cells divide faster under heat.", "role": "main"},
            {"slug": "c2", "claim": "Heat shock proteins rise.", "role": "support"},
        ],
    },
    {"paper": "p2", "claims": [{"slug": "c1", "claim": "Mice sleep more.", "role": "main"}]},
]


def test_f4_deep_nesting_in_claims(tmp_path: Path) -> None:
    gold = write_jsonl(tmp_path / "gold.jsonl", CLAIMS_GOLD)
    deep = "[" * 60_000 + "]" * 60_000
    bad = '{"paper": "p2", "claims": [{"slug": "c1", "claim": "x", "extra": ' + deep + "}]}"
    pred = _write_lines(tmp_path / "pred.jsonl", [json.dumps(CLAIMS_GOLD[0]), bad])
    run = assay.score("claims", pred=pred, gold=gold, ci=False)
    assert run.cohort.missing_ids == ["p2"]  # in the denominator
    [failure] = run.cohort.parse_failures
    assert failure.where == f"{pred}:2" and "nested deeper than 100 levels" in failure.reason


BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True)
)


def test_f5_yaml_alias_bomb_in_claim_front_matter(tmp_path: Path) -> None:
    gold = write_jsonl(tmp_path / "gold.jsonl", CLAIMS_GOLD)
    tree = tmp_path / "tree"
    for paper in CLAIMS_GOLD:
        d = tree / str(paper["paper"])
        d.mkdir(parents=True)
        (d / "index.md").write_text(f"---\npaper-slug: {paper['paper']}\n---\n")
        for c in paper["claims"]:  # type: ignore[attr-defined]
            front = f"slug: {c['slug']}\nclaim: {c['claim']}\nrole: {c['role']}\n"
            if paper["paper"] == "p2":
                front += BOMB
            (d / f"{c['slug']}.md").write_text(f"---\n{front}---\n")
    run = assay.score("claims", pred=tree, gold=gold, ci=False)
    problems = run.cohort.failures + run.cohort.parse_failures
    assert any("aliases are expanded" in f.reason and f.id == "p2" for f in problems), problems
    assert run.cohort.attempted == 2 and run.cohort.evaluated == 1


def test_f5_yaml_budgets_directly() -> None:
    with pytest.raises(Exception, match="nodes once aliases are expanded"):
        safe_yaml_load(BOMB)
    many = "".join(f"k{i}: &a{i} 1\n" for i in range(120)) + "".join(
        f"r{i}: *a{i}\n" for i in range(120)
    )
    with pytest.raises(Exception, match="more than 100 aliases"):
        safe_yaml_load(many)
    assert safe_yaml_load("a: &x [1, 2]\nb: *x\n") == {"a": [1, 2], "b": [1, 2]}


CLASSES = ["contract", "invoice", "memo", "letter"]


def _classification(
    tmp_path: Path, n: int = 200, seed: int = 3
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rng = random.Random(seed)
    gold = [{"id": f"doc{i:03d}", "expected": rng.choice(CLASSES)} for i in range(n)]
    pred = [
        {"id": g["id"], "predicted": g["expected"] if rng.random() < 0.8 else rng.choice(CLASSES)}
        for g in gold
    ]
    return gold, pred


@pytest.mark.parametrize(
    ("token", "reason"),
    [
        ("NaN", "NaN is not valid JSON"),  # F6
        ("Infinity", "Infinity is not valid JSON"),  # F7
        ("1e999", "1e999 is beyond the range of a float"),  # F7: Python reads it as inf
    ],
)
def test_f6_f7_non_finite_labels_are_no_class(tmp_path: Path, token: str, reason: str) -> None:
    gold, pred = _classification(tmp_path, n=40)
    g_lines = [json.dumps(r) for r in gold]
    p_lines = [json.dumps(r) for r in pred]
    g_lines[5] = '{"id": "doc005", "expected": ' + token + "}"
    p_lines[5] = '{"id": "doc005", "predicted": ' + token + "}"
    p_lines[6] = '{"id": "doc006", "predicted": ' + token + "}"
    g = _write_lines(tmp_path / "gold.jsonl", g_lines)
    p = _write_lines(tmp_path / "pred.jsonl", p_lines)
    run = assay.score("classification", pred=p, gold=g, ci=False)
    names = " ".join(run.metrics)
    assert "nan" not in names and "inf" not in names
    assert [(f.id, f.where) for f in run.cohort.gold_failures] == [("doc005", f"{g}:6")]
    assert f"{reason} (field $.expected)" in run.cohort.gold_failures[0].reason
    assert "doc005" not in run.cohort.missing_ids  # no gold: not on the surface, listed above
    assert "field $.predicted" in _failure(run, "doc006")  # scored as a miss, in the 39


def _metrics_bytes(run: Run) -> str:
    return json.dumps({k: v.model_dump() for k, v in run.metrics.items()}, sort_keys=True)


def test_f8_row_order_never_moves_a_ci(tmp_path: Path) -> None:
    gold, pred = _classification(tmp_path)
    a = assay.score(
        "classification",
        pred=write_jsonl(tmp_path / "p1.jsonl", pred),
        gold=write_jsonl(tmp_path / "g1.jsonl", gold),
        n_bootstrap_ci=300,
    )
    rng = random.Random(11)
    rng.shuffle(gold)
    rng.shuffle(pred)
    b = assay.score(
        "classification",
        pred=write_jsonl(tmp_path / "p2.jsonl", pred),
        gold=write_jsonl(tmp_path / "g2.jsonl", gold),
        n_bootstrap_ci=300,
    )
    assert _metrics_bytes(a) == _metrics_bytes(b)
    assert a.stats == b.stats


def test_f9_row_order_never_moves_corpus_chrf_bleu(tmp_path: Path) -> None:
    rng = random.Random(5)
    words = ["the", "report", "was", "published", "on", "day", "one", "two", "three", "four"]
    entries = []
    for i in range(60):
        ref = " ".join(rng.choice(words) for _ in range(8))
        hyp = " ".join(w if rng.random() < 0.7 else rng.choice(words) for w in ref.split())
        entries.append({"id": f"s{i}", "source": f"q {i}", "expected": ref, "predicted": hyp})
    a = tmp_path / "a.json"
    a.write_text(json.dumps({"entries": entries}))
    rng.shuffle(entries)
    b = tmp_path / "b.json"
    b.write_text(json.dumps({"entries": entries}))
    run_a = assay.score("translation", pred=a, n_bootstrap_ci=200, ter=False)
    run_b = assay.score("translation", pred=b, n_bootstrap_ci=200, ter=False)
    assert any("chrf" in n for n in run_a.metrics) and any("bleu" in n for n in run_a.metrics)
    assert _metrics_bytes(run_a) == _metrics_bytes(run_b)


# --------------------------------------------------------------------------- F: console


def _labels(tmp_path: Path) -> tuple[Path, Path]:
    gold, pred = _classification(tmp_path, n=60)
    return write_jsonl(tmp_path / "gold.jsonl", gold), write_jsonl(tmp_path / "pred.jsonl", pred)


def test_f10_markup_in_run_name_is_stored_and_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, pred = _labels(tmp_path)
    store = f"sqlite:///{tmp_path / 's.db'}"
    out = tmp_path / "run.json"
    code = main(
        [
            *("score", "classification", "--pred", str(pred), "--gold", str(gold)),
            *("--name", "run[/bold]x", "--output", str(out), "--store", store, "--no-ci"),
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0
    assert "run[/bold]x" in printed
    run = Run.load(out)
    with RunStore(store) as st:
        assert st.get(run.run_id).name == "run[/bold]x"


def test_f11_f12_bracketed_names_print_verbatim(tmp_path: Path) -> None:
    gold, pred = _labels(tmp_path)
    run = assay.score("classification", pred=pred, gold=gold, ci=False, name="gpt4[v2]")
    assert "accuracy[contract]" in run.metrics
    console = Console(record=True, width=200, markup=True)  # even a console with markup on
    print_run(console, run, show_all=True)
    text = console.export_text()
    assert "gpt4[v2]" in text
    assert "accuracy[contract]" in text and "accuracy[invoice]" in text


def test_w_markup_in_failure_reasons_and_gate_lines(tmp_path: Path) -> None:
    from assay._compare.gate import GateCheck, GateResult

    console = Console(record=True, width=200, markup=True)
    check = GateCheck(name="accuracy[contract]", value=0.5, passed=False, reason="[red]below[/red]")
    print_gate(console, GateResult(threshold=0.6, checks=[check]))
    text = console.export_text()
    assert "accuracy[contract]" in text and "[red]below[/red]" in text


MARKUP = ("run[/bold]x", "gpt4[v2]")


@pytest.fixture(scope="module")
def bracketed_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[str]]:
    """Four stored runs on one surface named ``run[/bold]x`` and ``gpt4[v2]`` (by turns), whose
    metrics include ``accuracy[contract]``; the store URL, the artifact paths and run ids."""
    tmp_path = tmp_path_factory.mktemp("markup")
    gold, pred = _labels(tmp_path)
    rows = [json.loads(line) for line in pred.read_text().splitlines()]
    store = f"sqlite:///{tmp_path / 'm.db'}"
    paths = []
    for k in range(4):
        flipped = [{**r, "predicted": "invoice"} if i % 7 == k else r for i, r in enumerate(rows)]
        p = write_jsonl(tmp_path / f"pred{k}.jsonl", flipped)
        out = tmp_path / f"run{k}.json"
        args = ["score", "classification", "--pred", str(p), "--gold", str(gold)]
        args += ["--name", MARKUP[k % 2], "--output", str(out), "--store", store]
        assert main([*args, "--n-bootstrap-ci", "200"]) == 0
        paths.append(str(out))
    return store, paths + [Run.load(Path(p)).run_id for p in paths]


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        (["runs", "list"], MARKUP),
        (["runs", "show", "{4}", "--all"], (MARKUP[0], "accuracy[contract]")),
        (["compare", "{0}", "{1}", "--all"], (*MARKUP, "accuracy[contract]")),
        (["compare", "{0}", "{1}", "{2}"], MARKUP),
        (
            ["significance", "{0}", "{1}", "--all", "--n-bootstrap", "200"],
            (*MARKUP, "accuracy[contract]"),
        ),
        (
            [
                "ab",
                "{1}",
                "--baseline",
                "{0}",
                "--all",
                "--metric",
                "exact_match",
                "--n-bootstrap",
                "200",
            ],
            (*MARKUP, "accuracy[contract]"),
        ),
        (["noise-floor", "{0}", "{2}", "--no-save"], ("exact_match",)),
        (["gate", "{0}", "--threshold", "0.99", "--metrics", "accuracy[contract]"], ()),
        (
            ["gate", "{1}", "--baseline", "{0}", "--metrics", "accuracy[contract]"],
            ("accuracy[contract]",),
        ),
    ],
    ids=lambda c: " ".join(a for a in c if not a.startswith("{"))[:40],
)
def test_f10_f11_f12_every_command_prints_user_text_verbatim(
    bracketed_runs: tuple[str, list[str]],
    command: list[str],
    shown: tuple[str, ...],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``run[/bold]x``, ``gpt4[v2]`` and ``accuracy[contract]`` through each command that prints
    runs: shown as typed (never read as rich markup: no lost suffix, no markup error, no
    escaping backslash)."""
    store, paths = bracketed_runs
    capsys.readouterr()
    args = [a.format(*paths) for a in command]
    code = main([*args, "--store", store])
    printed = capsys.readouterr()
    text = printed.out + printed.err
    assert code in (0, 1), text  # 1: a gate that fails; never 2 (an error)
    assert "\\[" not in text, text
    for name in shown:
        assert name in text, (name, text)
    if args[0] == "gate" and "--threshold" in args:
        assert "FAIL accuracy[contract] = " in text


def test_f10_suite_commands_print_ids_verbatim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A suite's own command (claims evaluate's per-paper table) prints paper ids as typed."""
    gold = [
        {
            "paper": "p[/bold]1",
            "claims": [{"slug": "c1", "claim": "Cells divide.", "role": "main"}],
        },
        {"paper": "gpt4[v2]", "claims": [{"slug": "c1", "claim": "Mice sleep.", "role": "main"}]},
    ]
    ref = write_jsonl(tmp_path / "ref.jsonl", gold)
    args = ["claims", "evaluate", "--reference", str(ref), "--extracted", str(ref)]
    code = main([*args, "--no-store", "--output", str(tmp_path / "run.json")])
    printed = capsys.readouterr().out
    assert code == 0
    assert "p[/bold]1" in printed and "gpt4[v2]" in printed


def test_cli_consoles_never_read_markup(capsys: pytest.CaptureFixture[str]) -> None:
    """The one path every command prints through (``assay._cli.state.out`` / ``err``)."""
    from assay._cli.state import err, out

    out().print("a run[/bold]x and gpt4[v2] and [red]accuracy[contract][/red]")
    err().print("warning: [bold]label[/bold]")
    printed = capsys.readouterr()
    assert "a run[/bold]x and gpt4[v2] and [red]accuracy[contract][/red]" in printed.out
    assert "warning: [bold]label[/bold]" in printed.err


def test_w_a_rendering_error_never_loses_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import assay._report.console as console_module  # score imports print_run when it runs

    def boom(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("terminal exploded")

    monkeypatch.setattr(console_module, "print_run", boom)
    gold, pred = _labels(tmp_path)
    store = f"sqlite:///{tmp_path / 's.db'}"
    out = tmp_path / "run.json"
    code = main(
        [
            *("score", "classification", "--pred", str(pred), "--gold", str(gold)),
            *("--output", str(out), "--store", store, "--no-ci"),
        ]
    )
    assert code != 0  # the error is reported...
    with RunStore(store) as st:  # ...after the run was saved and stored
        assert st.count_runs() == 1 and st.has(Run.load(out).run_id)


# --------------------------------------------------------------------------- F: dashboard


def test_f13_f14_dashboard_host_and_page(tmp_path: Path) -> None:
    from assay._dashboard import serve_in_thread

    gold, pred = _labels(tmp_path)
    url = f"sqlite:///{tmp_path / 'd.db'}"
    with RunStore(url) as st:
        st.add(assay.score("classification", pred=pred, gold=gold, ci=False))
    store = RunStore(url, readonly=True)
    server, _ = serve_in_thread(store)
    port = int(server.server_address[1])

    def get(target: str, host: str) -> int:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", target, headers={"Host": host})
        status = conn.getresponse().status
        conn.close()
        return status

    try:
        assert get("/", "rebind.attacker.example") == 403  # F13
        assert get("/", f"localhost:{port}") == 200
        assert get("/?page=10^30", f"localhost:{port}") == 400  # F14
        assert get("/?page=" + "9" * 30, f"localhost:{port}") == 400
    finally:
        server.shutdown()
        server.server_close()
        store.close()


# --------------------------------------------------------------------------- F17: scoring


class NoSettings(BaseModel):
    pass


class Brittle(Task[NoSettings]):
    """Scores ``gold["x"]``; raises on a marked item, or returns a non-finite row."""

    name: ClassVar[str] = "brittle"
    description: ClassVar[str] = "test task"
    settings_model = NoSettings
    batch_size: ClassVar[int] = 3

    def load(self, pred: Path, gold: tuple[Path, ...], settings: NoSettings) -> Any:
        raise AssertionError("not used")

    def score_item(self, item: Item, settings: NoSettings) -> ItemScore:
        if item.pred is None:
            return ItemScore(stats={"num": 0.0, "den": 1.0})
        if item.pred.get("raise") == "recursion":
            raise RecursionError("maximum recursion depth exceeded")
        if item.pred.get("raise") == "config":
            raise ConfigError("bad settings")
        if item.pred.get("raise") == "run-input":
            raise RunInputError("docs/c.txt: source document is not UTF-8")
        if item.pred.get("raise") == "input":
            raise InputError("segment 1: not a string")
        if item.pred.get("nan"):
            return ItemScore(stats={"num": float("nan"), "den": 1.0})
        return ItemScore(stats={"num": 1.0, "den": 1.0})

    def metric_specs(self, scores: Any, settings: NoSettings) -> list[MetricSpec]:
        return []


def test_f17_one_item_raising_is_that_items_miss() -> None:
    items = [Item(f"i{k}", {}, {}) for k in range(7)]
    items[2] = Item("i2", {}, {"raise": "recursion"})
    items[5] = Item("i5", {}, {"nan": True})
    scores = score_in_blocks(Brittle(), items, NoSettings())
    assert [s.stats["num"] for s in scores] == [1, 1, 0, 1, 1, 0, 1]
    assert all(s.stats["den"] == 1 for s in scores)  # every item in the denominator
    assert "RecursionError" in scores[2].details["score_error"]
    assert "not a finite number" in scores[5].details["score_error"]
    assert "score_error" in scores[2].flags and "score_error" not in scores[0].flags
    with pytest.raises(ConfigError):  # a configuration error is the run's, not an item's
        score_in_blocks(Brittle(), [Item("c", {}, {"raise": "config"})], NoSettings())
    with pytest.raises(RunInputError, match=r"c\.txt"):  # so is an input of the whole run
        score_in_blocks(Brittle(), [Item("c", {}, {"raise": "run-input"})], NoSettings())
    (alone,) = score_in_blocks(Brittle(), [Item("d", {}, {"raise": "input"})], NoSettings())
    assert "InputError: segment 1" in alone.details["score_error"]  # any other: the item's


def test_f17_listed_in_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cls = type(assay.get_task("classification"))
    gold, pred = _labels(tmp_path)
    original = cls.score_item

    def flaky(self: Any, item: Item, settings: ClassificationSettings) -> ItemScore:
        if item.id == "doc007" and item.pred is not None:
            raise MemoryError("segment too large")
        return original(self, item, settings)

    monkeypatch.setattr(cls, "score_item", flaky)
    run = assay.score("classification", pred=pred, gold=gold, ci=False)
    assert "MemoryError: segment too large" in _failure(run, "doc007")
    assert run.cohort.attempted == 60 and run.cohort.evaluated == 59


# --------------------------------------------------------------------------- W: paths, files


def test_w1_grobid_ids_never_leave_out(tmp_path: Path) -> None:
    from assay.suites.biblio._lib.grobid import run_grobid

    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    (pdfs / "ok.pdf").write_bytes(b"%PDF-1.4")
    out = tmp_path / "out"
    transport = httpx.MockTransport(lambda request: httpx.Response(200, text="0.8.0"))
    for bad in ("../evil", "/etc/passwd", "a/../../b", "..", "x\\..\\y"):
        with pytest.raises(InputError, match="cannot name a file"):
            run_grobid("http://127.0.0.1:1", pdfs, out, ids=["ok", bad], transport=transport)
    assert not (tmp_path / "evil.tei.xml").exists() and not out.exists()


def test_w2_extraction_source_stays_in_its_folder(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (tmp_path / "secret.txt").write_text("outside")
    gold = write_jsonl(
        tmp_path / "gold.jsonl",
        [{"id": "../secret", "expected": {"document_name": "x"}}, *EXTRACTION_GOLD],
    )
    pred = _write_lines(tmp_path / "pred.jsonl", _extraction_preds())
    with pytest.raises(InputError, match=r"document id '\.\./secret\.txt' cannot name a file"):
        assay.score("extraction", pred=pred, gold=gold, source=str(src), ci=False)


def test_w3_fifo_as_pred_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pred.jsonl"
    os.mkfifo(fifo)
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"id": "a", "expected": "memo"}])
    with pytest.raises(InputError, match="FIFO"):
        assay.score("classification", pred=fifo, gold=gold, ci=False)


def test_w4_absurd_resample_counts_are_usage_errors(tmp_path: Path) -> None:
    gold, pred = _labels(tmp_path)
    with pytest.raises(ConfigError, match="less than or equal to 1000000"):
        assay.score("classification", pred=pred, gold=gold, n_bootstrap_ci=100_000_000)
    a = assay.score("classification", pred=pred, gold=gold, ci=False)
    from assay.errors import UsageError

    with pytest.raises(UsageError, match="from 1 to 1,000,000"):
        assay.compare(a, a, n_bootstrap=100_000_000)


def test_w5_symlink_loop_in_a_prediction_folder_is_listed(tmp_path: Path) -> None:
    gold = write_jsonl(
        tmp_path / "gold.jsonl", [{"id": f"d{i}", "expected": "memo"} for i in range(3)]
    )
    folder = tmp_path / "preds"
    folder.mkdir()
    for i in (0, 1):
        (folder / f"d{i}.json").write_text(json.dumps({"predicted": "memo"}))
    os.symlink("d2.json", folder / "d2.json")  # a link to itself
    run = assay.score("classification", pred=folder, gold=gold, id_field=None, ci=False)
    assert "Too many levels of symbolic links" in _failure(run, "d2")
    assert run.cohort.missing_ids == []


def _artifact(tmp_path: Path) -> dict[str, Any]:
    gold, pred = _labels(tmp_path)
    data: dict[str, Any] = json.loads(
        assay.score("classification", pred=pred, gold=gold, ci=False).to_json()
    )
    return data


def test_w7_tampered_stats_rows_named(tmp_path: Path) -> None:
    data = _artifact(tmp_path)
    data["stats"]["values"] = data["stats"]["values"][:30]
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match=rf"{path}: .*stats\.values: 30 rows for 60 ids"):
        Run.load(path)


def test_w8_metric_value_as_string_named(tmp_path: Path) -> None:
    data = _artifact(tmp_path)
    data["metrics"]["exact_match"]["value"] = "0.99"
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    named = rf"^{re.escape(str(path))}: tampered or corrupt run artifact: "
    with pytest.raises(InputError, match=named + r"metrics\.exact_match\.value: '0\.99' is not"):
        Run.load(path)
    data["metrics"]["exact_match"]["value"] = True  # pydantic alone would read it as 1.0
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match=named + r"metrics\.exact_match\.value: True is not"):
        Run.load(path)
    data["metrics"]["exact_match"]["value"] = 0.5
    data["stats"]["values"][3][0] = "1"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match=named + r"stats\.values\[3\]\[0\]"):
        Run.load(path)


# --------------------------------------------------------------------------- W: ids, decoding


def test_w9_w10_id_variants_pair_on_both_sides(tmp_path: Path) -> None:
    composed = unicodedata.normalize("NFC", "café")
    decomposed = unicodedata.normalize("NFD", "café")
    gold = write_jsonl(
        tmp_path / "gold.jsonl",
        [{"id": "d1", "expected": "memo"}, {"id": composed, "expected": "letter"}],
    )
    pred = write_jsonl(
        tmp_path / "pred.jsonl",
        [{"id": " d1\t", "predicted": "memo"}, {"id": decomposed, "predicted": "letter"}],
    )
    run = assay.score("classification", pred=pred, gold=gold, ci=False)
    assert run.cohort.evaluated == 2 and run.cohort.unmatched == 0
    assert run.metrics["exact_match"].value == 1.0


def test_w11_id_collisions_are_reported(tmp_path: Path) -> None:
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"id": "d1", "expected": "memo"}])
    pred = write_jsonl(
        tmp_path / "pred.jsonl",
        [{"id": "d1", "predicted": "memo"}, {"id": "d1 ", "predicted": "letter"}],
    )
    run = assay.score("classification", pred=pred, gold=gold, ci=False)
    [dup] = run.cohort.duplicates
    assert "'d1' and 'd1 ' are one id after strip + NFC normalization" in dup.reason
    twin = write_jsonl(
        tmp_path / "gold2.jsonl",
        [{"id": "d1", "expected": "memo"}, {"id": " d1", "expected": "letter"}],
    )
    with pytest.raises(InputError, match="one id after strip"):
        assay.score("classification", pred=pred, gold=twin, ci=False)


def _rows() -> list[dict[str, Any]]:
    return [{"id": f"d{i}", "expected": "mémo"} for i in range(3)]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_w12_utf16_and_utf32_decoded_by_bom(tmp_path: Path, encoding: str) -> None:
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in _rows())
    bom = {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}.get(encoding, b"")
    path = tmp_path / "gold.jsonl"
    path.write_bytes(bom + text.encode(encoding))
    records = list(read_records(path))
    assert [getattr(r, "record", None) for r in records] == _rows()


def test_w13_gzip_read_transparently(tmp_path: Path) -> None:
    text = "".join(json.dumps(r) + "\n" for r in _rows())
    path = tmp_path / "gold.jsonl.gz"
    path.write_bytes(gzip.compress(text.encode()))
    assert [getattr(r, "record", None) for r in read_records(path)] == _rows()
    hidden = tmp_path / "gold.jsonl"  # gzip without the suffix: still read
    hidden.write_bytes(gzip.compress(text.encode()))
    assert [getattr(r, "record", None) for r in read_records(hidden)] == _rows()
    csv_gz = tmp_path / "gold.csv.gz"
    csv_gz.write_bytes(gzip.compress(b"id,expected\nd0,memo\n"))
    assert [getattr(r, "record", None) for r in read_records(csv_gz)] == [
        {"id": "d0", "expected": "memo"}
    ]


@pytest.mark.parametrize(
    ("content", "what"),
    [
        (b"PK\x03\x04" + b"\x00" * 20, "is a ZIP archive"),
        (b"BZh91AY&SY", "is a bzip2 stream"),
        (b"%PDF-1.7\n", "is a PDF document"),
        (b"\xff\xfe\x00\xd8", "not valid UTF-16"),
        (b"\x1f\x8b\x08\x00garbage", "corrupt gzip stream"),
    ],
)
def test_w14_undecodable_refused_by_name(tmp_path: Path, content: bytes, what: str) -> None:
    path = tmp_path / "pred.jsonl"
    path.write_bytes(content)
    with pytest.raises(InputError, match=what):
        list(read_records(path))


# --------------------------------------------------------------------------- W: strict JSON


def test_w_oversized_value_is_that_records_failure(tmp_path: Path) -> None:
    preds = _extraction_preds()
    big = "x" * (MAX_VALUE_CHARS + 1)
    preds[1] = json.dumps({"id": "d2", "predicted": {"document_name": big}})
    pred = _write_lines(tmp_path / "pred.jsonl", preds)
    gold = write_jsonl(tmp_path / "gold.jsonl", EXTRACTION_GOLD)
    run = assay.score("extraction", pred=pred, gold=gold, ci=False)
    assert "beyond the limit" in _failure(run, "d2")


def test_w_nan_in_one_element_of_a_json_list_file(tmp_path: Path) -> None:
    path = tmp_path / "gold.json"
    path.write_text('[{"id": "a", "x": 1}, {"id": "b", "x": NaN}, {"id": "c", "x": 2}]')
    records = list(read_records(path))
    assert [type(r).__name__ for r in records] == ["SourceRecord", "ParseFailure", "SourceRecord"]
    assert records[1].id == "b" and "(field $.x)" in records[1].reason  # type: ignore[union-attr]


def test_w_nan_in_a_json_folder_file(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text('{"x": Infinity}')
    [failure] = list(read_records(tmp_path))
    assert failure.id == "a" and "Infinity is not valid JSON" in failure.reason  # type: ignore[union-attr]


def test_w_nan_in_an_expected_ids_file(tmp_path: Path) -> None:
    from assay._io import read_expected_ids

    path = tmp_path / "ids.json"
    path.write_text('["a", NaN]')
    with pytest.raises(InputError, match=rf"{path}: invalid JSON: NaN is not valid JSON"):
        read_expected_ids(path)


def test_w_deep_yaml_front_matter_is_refused() -> None:
    deep = "a: " + "[" * 500 + "]" * 500
    with pytest.raises(Exception, match="nested deeper than 100 levels"):
        safe_yaml_load(deep)


# --------------------------------------------------------------------------- F8: every suite


def _shuffled_pair(tmp_path: Path, name: str, rows: list[Any], seed: int) -> tuple[Path, Path]:
    a = write_jsonl(tmp_path / f"{name}-a.jsonl", rows)
    shuffled = list(rows)
    random.Random(seed).shuffle(shuffled)
    return a, write_jsonl(tmp_path / f"{name}-b.jsonl", shuffled)


def test_f8_extraction_rows_in_any_order(tmp_path: Path) -> None:
    rng = random.Random(2)
    gold = [
        {"id": f"c{i}", "expected": {"document_name": f"Deal {i}", "parties": [f"Co {i}", "B"]}}
        for i in range(40)
    ]
    pred = [
        {"id": g["id"], "predicted": {"document_name": f"Deal {i if rng.random() < 0.7 else 0}"}}
        for i, g in enumerate(gold)
    ]
    ga, gb = _shuffled_pair(tmp_path, "gold", gold, 1)
    pa, pb = _shuffled_pair(tmp_path, "pred", pred, 2)
    a = assay.score("extraction", pred=pa, gold=ga, n_bootstrap_ci=200)
    b = assay.score("extraction", pred=pb, gold=gb, n_bootstrap_ci=200)
    assert _metrics_bytes(a) == _metrics_bytes(b)


def test_f8_claims_rows_in_any_order(tmp_path: Path) -> None:
    gold = [
        {
            "paper": f"p{i}",
            "claims": [
                {"slug": "c1", "claim": f"Claim one of paper {i} holds.", "role": "main"},
                {"slug": "c2", "claim": f"Paper {i} has a second claim.", "role": "support"},
            ],
        }
        for i in range(30)
    ]
    pred = [{**g, "claims": g["claims"][: 1 + i % 2]} for i, g in enumerate(gold)]
    ga, gb = _shuffled_pair(tmp_path, "gold", gold, 3)
    pa, pb = _shuffled_pair(tmp_path, "pred", pred, 4)
    a = assay.score("claims", pred=pa, gold=ga, n_bootstrap_ci=200)
    b = assay.score("claims", pred=pb, gold=gb, n_bootstrap_ci=200)
    assert _metrics_bytes(a) == _metrics_bytes(b)


def test_f8_multiclass_rows_in_any_order(tmp_path: Path) -> None:
    rng = random.Random(8)
    rows = [
        {"id": str(i), "expected": e, "predicted": e if rng.random() < 0.7 else "memo"}
        for i, e in enumerate(rng.choice(CLASSES) for _ in range(80))
    ]
    a_path, b_path = _shuffled_pair(tmp_path, "mc", rows, 5)
    a = assay.score("multiclass", pred=a_path, n_bootstrap_ci=200)
    b = assay.score("multiclass", pred=b_path, n_bootstrap_ci=200)
    assert _metrics_bytes(a) == _metrics_bytes(b)


def test_f1_nan_inside_a_json_string_prediction(tmp_path: Path) -> None:
    """A prediction holding its JSON as a string is parsed while scoring: a NaN there is
    caught by the item isolation (a non-finite row, or an exception), never the run's end."""
    preds = _extraction_preds()
    preds[3] = json.dumps({"id": "d4", "predicted": '{"document_name": NaN, "parties": [1e999]}'})
    pred = _write_lines(tmp_path / "pred.jsonl", preds)
    gold = write_jsonl(tmp_path / "gold.jsonl", EXTRACTION_GOLD)
    run = assay.score("extraction", pred=pred, gold=gold, n_bootstrap_ci=100)
    assert run.cohort.attempted == 5
    assert all(m.value is None or m.value == m.value for m in run.metrics.values())


# --------------------------------------------------------------------------- 36: strings, memory


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_36_json_string_nested_deep_is_that_records_failure(tmp_path: Path, depth: int) -> None:
    """A prediction given as JSON text nested ≥ 1,000 levels ended the run (RecursionError,
    exit 3, no artifact): the text is parsed as strictly as a file's record."""
    preds = _extraction_preds()
    deep = '{"document_name": ' + "[" * depth + "]" * depth + "}"
    preds[0] = json.dumps({"id": "d1", "predicted": deep})
    chunk = '{"parties": ' + "[" * depth + "]" * depth + "}"
    merged = [chunk, '{"document_name": "Agreement 3"}']  # the deep chunk skipped, not the run
    preds[2] = json.dumps({"id": "d3", "predicted": {"chunks": merged}})
    pred = _write_lines(tmp_path / "pred.jsonl", preds)
    gold = write_jsonl(tmp_path / "gold.jsonl", EXTRACTION_GOLD)
    out = tmp_path / "run.json"
    args = ["score", "extraction", "--pred", str(pred), "--gold", str(gold), "-o", str(out)]
    assert main([*args, "--no-store", "--no-ci", "-q"]) == 0
    run = Run.load(out)
    assert "nested deeper than 100 levels" in _failure(run, "d1")
    assert run.cohort.attempted == 5 and run.cohort.evaluated == 4


def test_36_labels_and_judge_answers_as_deep_json_text() -> None:
    """The other texts decoded later: a label given as JSON text, an LLM's answer."""
    from assay._judge.client import parse_json_object
    from assay._labels import normalize_label

    deep = "[" * 5000 + "]" * 5000
    assert normalize_label('{"label": ' + deep + "}", ["x"]) != "x"  # a miss, no raise
    with pytest.raises(ValueError, match="nested deeper than 100 levels"):
        parse_json_object('{"verdict": ' + deep + "}")


#: the child a memory test runs: assay warmed up on small files (every module loaded), then its
#: address space capped at what it holds plus ``budget`` MiB, then the command under test
_CAPPED = """
import json, os, resource, sys
from assay._cli import main
small = sys.argv[2]
assert main(["score", "classification", "--pred", small, "--gold", small, "--no-store",
             "-o", os.devnull, "--no-ci", "-q"]) == 0
vm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmSize")) << 10
cap = vm + (int(sys.argv[1]) << 20)
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
sys.exit(main(sys.argv[3:]))
"""


def _capped(tmp_path: Path, budget_mib: int, *args: str, **env: str) -> tuple[int, str]:
    """(exit code, stderr) of ``assay ARGS`` in a child whose address space may grow by at most
    ``budget_mib`` MiB beyond what a warmed-up assay holds (``resource.RLIMIT_AS``)."""
    import subprocess
    import sys

    small = write_jsonl(tmp_path / "small.jsonl", [{"id": "a", "expected": "x", "predicted": "x"}])
    variables = {**os.environ, "MALLOC_ARENA_MAX": "1", "OMP_NUM_THREADS": "1", **env}
    done = subprocess.run(
        [sys.executable, "-c", _CAPPED, str(budget_mib), str(small), *args],
        capture_output=True,
        text=True,
        env=variables,
        timeout=300,
    )
    return done.returncode, done.stderr


def _big_line_preds(path: Path, line_mib: int, *, gz: bool) -> Path:
    """Predictions d1 and d3 around a d2 whose one line is ``line_mib`` MiB, written a MiB at a
    time (gzip: one member, which decompresses to the whole line)."""
    import gzip as gzip_module

    opener: Any = gzip_module.open if gz else open
    with opener(path, "wb", **({"compresslevel": 1} if gz else {})) as f:
        f.write(b'{"id": "d1", "predicted": "yes"}\n{"id": "d2", "predicted": "')
        block = b"a" * (1 << 20)
        for _ in range(line_mib):
            f.write(block)
        f.write(b'"}\n{"id": "d3", "predicted": "no"}\n')
    return path


@pytest.mark.parametrize(("gz", "line_mib"), [(False, 64), (True, 256)])
def test_36_a_huge_line_costs_about_the_limit(tmp_path: Path, gz: bool, line_mib: int) -> None:
    """A 2 GiB line was read and decoded whole (8.4 GB peak, MemoryError under a cap), and a
    gzip input reserved 4 GiB up front. Replayed small: a 64 MiB line (and a gzip member of a
    256 MiB line) against a 1 MiB record limit, under a 48 MiB address-space budget: the line
    is that record's listed failure and the run is scored."""
    name = "pred.jsonl.gz" if gz else "pred.jsonl"
    pred = _big_line_preds(tmp_path / name, line_mib, gz=gz)
    gold = write_jsonl(
        tmp_path / "gold.jsonl",
        [
            {"id": "d1", "expected": "yes"},
            {"id": "d2", "expected": "no"},
            {"id": "d3", "expected": "no"},
        ],
    )
    out = tmp_path / "run.json"
    args = ["score", "classification", "--pred", str(pred), "--gold", str(gold), "--no-store"]
    code, stderr = _capped(
        tmp_path, 48, *args, "-o", str(out), "--no-ci", "-q", ASSAY_MAX_RECORD_BYTES="1M"
    )
    assert code == 0, stderr
    run = Run.load(out)
    reason = _failure(run, "d2")  # its id read from the line's first bytes
    length = len(b'{"id": "d2", "predicted": ""}') + (line_mib << 20)
    assert f"a line of {length:,} bytes, beyond the limit of 1,048,576" in reason
    assert run.cohort.evaluated == 2


def test_36_a_huge_json_document_is_refused_before_it_is_read(tmp_path: Path) -> None:
    pred = tmp_path / "pred.json"
    with pred.open("wb") as f:
        f.write(b'[{"id": "d1", "predicted": "')
        for _ in range(64):
            f.write(b"a" * (1 << 20))
        f.write(b'"}]')
    code, stderr = _capped(
        tmp_path,
        48,
        "score",
        "classification",
        "--pred",
        str(pred),
        "--no-store",
        "--no-ci",
        ASSAY_MAX_DOCUMENT_BYTES="8M",
    )
    assert code == 2
    assert (
        f"error: {pred}: more than 8,388,608 bytes, beyond the limit for a file read whole"
        in stderr
    )


# --------------------------------------------------------------------------- 36: torn artifacts


def test_36_concurrent_writers_of_one_output(tmp_path: Path) -> None:
    """10 writers × 20,000 items tore ``-o`` 3 times of 3 (all wrote ``PATH.tmp``), one exited
    0 meanwhile and others failed on the temporary file another had renamed. Now: one whole
    artifact, the last rename's; every process exits 0 and says either that it wrote its run
    or that another process replaced it, and which run the file holds."""
    import subprocess
    import sys

    rng = random.Random(36)
    gold = [{"id": f"d{i}", "expected": rng.choice(CLASSES)} for i in range(20_000)]
    gold_path = write_jsonl(tmp_path / "gold.jsonl", gold)
    out = tmp_path / "out" / "run.json"
    procs = []
    for k in range(4):
        pred = [{"id": g["id"], "predicted": rng.choice(CLASSES)} for g in gold]
        pred_path = write_jsonl(tmp_path / f"pred{k}.jsonl", pred)
        args = ["score", "classification", "--pred", str(pred_path), "--gold", str(gold_path)]
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "assay", *args, "-o", str(out), "--no-ci", "--no-store"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    said = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, said
    on_disk = Run.load(out)  # whole
    wrote = re.compile(r"^run ([0-9a-f]{12}) written to ", re.M)
    lost = re.compile(r"was replaced by another process after run ([0-9a-f]{12}) was written")
    owners = [m[1] for stdout, _ in said if (m := wrote.search(stdout))]
    losers = [m[1] for _, stderr in said if (m := lost.search(" ".join(stderr.split())))]
    assert len(owners) + len(losers) == 4 and on_disk.run_id in owners
    assert sorted(p.name for p in out.parent.iterdir()) == ["run.json"]  # no temporary left


# --------------------------------------------------------------------------- 36: named causes


def _score_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """(exit code, stderr with its lines joined by spaces) of ``assay score ARGS``."""
    code = main(["score", *args, "--no-store"])
    return code, " ".join(capsys.readouterr().err.split())


def test_36_gold_side_mistakes_name_file_line_field_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each printed only ``error: no usable gold records (N unreadable)``."""
    pred = _write_lines(tmp_path / "pred.jsonl", _extraction_preds())
    gold = write_jsonl(tmp_path / "gold.jsonl", EXTRACTION_GOLD)
    out = ["-o", str(tmp_path / "run.json")]
    extraction = ["extraction", "--pred", str(pred), *out]
    code, said = _score_cli(capsys, *extraction, "--gold", str(gold), "--expected-field", "expectd")
    assert code == 2
    assert (
        f"error: no usable gold records in {gold}: all 5 records could not be used: {gold}:1 and "
        "4 more: gold record has no field 'expectd' (did you mean 'expected'?)" in said
    )
    table = tmp_path / "gold_table.jsonl"  # CSV text under a JSONL name
    table.write_text("id,expected\nd1,x\n")
    code, said = _score_cli(capsys, *extraction, "--gold", str(table))
    assert code == 2 and f"{table}:1: invalid JSON: Expecting value" in said
    assert "(the file looks like CSV text, header 'id,expected': name it .csv" in said
    tsv = tmp_path / "task.tsv"  # a LegalBench TSV without ids
    tsv.write_text("index\ttext\tanswer\n1\tq\tYes\n2\tr\tNo\n")
    answers = write_jsonl(tmp_path / "answers.jsonl", [{"id": "1", "predicted": "Yes"}])
    code, said = _score_cli(capsys, "legalbench", "--pred", str(answers), "--gold", str(tsv), *out)
    assert code == 2 and (
        f"{tsv}:2 and 1 more: gold record has no id (its fields: index, text, answer; the id "
        "may be in 'index': --id-field index)" in said
    )
    folder = tmp_path / "golddir"  # a folder of JSONL gold is read, not silently empty
    folder.mkdir()
    write_jsonl(folder / "part-1.jsonl", EXTRACTION_GOLD)
    code, said = _score_cli(capsys, *extraction, "--gold", str(folder))
    assert code == 0, said
    assert Run.load(tmp_path / "run.json").cohort.evaluated == 5
    (folder / "part-1.jsonl").rename(folder / "notes.txt")
    code, said = _score_cli(capsys, *extraction, "--gold", str(folder))
    assert code == 2 and "a folder without *.json or *.jsonl files (it holds notes.txt)" in said


def test_36_careless_predictions_end_with_a_warning_and_exit_4(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A misspelled --predicted-field (every item failed) and an empty predictions file exited
    0 with a scorecard of zeros. Now a warning after the table names the cause and exit 4 says
    so to a script; the run is kept, and --allow-unusable-predictions accepts it (exit 0)."""
    gold_rows, pred_rows = _classification(tmp_path, n=40)
    gold = write_jsonl(tmp_path / "gold.jsonl", gold_rows)
    pred = write_jsonl(tmp_path / "pred.jsonl", pred_rows)
    out = tmp_path / "run.json"
    args = ["classification", "--pred", str(pred), "--gold", str(gold), "-o", str(out), "--no-ci"]
    code, said = _score_cli(capsys, *args, "--predicted-field", "predictd")
    assert code == 4
    assert (
        "warning: 40 of 40 items were not scored (40 failed, 0 missing): the numbers above "
        "measure the inputs, not the system. The run is kept; exit code 4 "
        "(--allow-unusable-predictions: 0)." in said
    )
    assert (
        f"{pred}:1 and 39 more: prediction record has no field 'predictd' (did you mean "
        "'predicted'?)" in said
    )
    assert Run.load(out).cohort.failed == 40  # kept
    assert said.endswith("(did you mean 'predicted'?)")  # the last word, after the table
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    args[2] = str(empty)
    code, said = _score_cli(capsys, *args)
    assert code == 4 and "40 missing: no prediction: no prediction records were read" in said
    code, said = _score_cli(capsys, *args, "--allow-unusable-predictions")
    assert code == 0 and "The run is kept (--allow-unusable-predictions)." in said
    half = write_jsonl(tmp_path / "half.jsonl", pred_rows[:20])  # half missing: not "most"
    args[2] = str(half)
    code, said = _score_cli(capsys, *args)
    assert code == 0 and "were not scored" not in said


def test_36_names_and_flags_say_what_was_meant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "extractoin", "--pred", "p.jsonl"]) == 2
    assert "No such suite 'extractoin'. Did you mean 'extraction'?" in capsys.readouterr().err
    assert main(["scor", "extraction"]) == 2
    assert "No such command 'scor'. Did you mean 'score'?" in capsys.readouterr().err
    assert main(["score", "zzz"]) == 2
    assert "No such suite 'zzz'. Suites: biblio, chained, claims" in capsys.readouterr().err
    for flag, value in (("--seed", "-1"), ("--n-bootstrap-ci", "0")):
        assert main(["score", "classification", "--pred", "p.jsonl", flag, value]) == 2
        assert f"Invalid value for '{flag}': {value} is not in the range" in capsys.readouterr().err
    with pytest.raises(ConfigError, match=r"stats\.seed"):
        assay.score("classification", pred="p.jsonl", seed=-1)  # before a file is read


# --------------------------------------------------------------------------- 36: console


#: an OSC that retitles the window, a CSI that clears the screen, a BEL, an 8-bit CSI
ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x9b31m"


def test_36_user_text_never_becomes_emoji_or_escape_sequences(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pred.jsonl:100`` printed as ``pred.jsonl💯`` (rich's emoji codes), and OSC/CSI bytes
    in --name reached the terminal raw. Every console, ``say``/``warn`` line and error line
    now prints user text as typed, control characters escaped."""
    gold_rows, pred_rows = _classification(tmp_path, n=120)
    gold = write_jsonl(tmp_path / "gold.jsonl", gold_rows)
    lines = [json.dumps(r) for r in pred_rows]
    lines[99] = '{"id": "doc099", "predicted": NaN}'  # a failure listed as pred.jsonl:100:
    pred = _write_lines(tmp_path / "pred.jsonl", lines)
    out = tmp_path / "run.json"
    args = ["score", "classification", "--pred", str(pred), "--gold", str(gold), "-o", str(out)]
    assert main([*args, "--name", f"evil{ESCAPES}", "--no-ci", "--no-store"]) == 0
    printed = capsys.readouterr()
    text = printed.out + printed.err
    said = " ".join(text.split())  # (long lines wrap)
    assert f"{pred}:100: invalid JSON: NaN is not valid JSON" in said and "💯" not in text
    assert not set(text) & set("\x1b\x07\x9b")  # nothing raw
    assert "evil\\x1b]0;pwned" in text and "\\x1b[2J\\x9b31m" in text  # shown escaped
    assert Run.load(out).name == f"evil{ESCAPES}"  # stored as given
    assert main(["score", "classification", "--pred", str(tmp_path / f"x{ESCAPES}.jsonl")]) == 2
    said = capsys.readouterr().err
    assert "x\\x1b]0;pwned" in said and "\x1b" not in said  # an error line too


def test_36_consoles_escape_what_they_are_handed(capsys: pytest.CaptureFixture[str]) -> None:
    from rich.table import Table
    from rich.text import Text

    from assay._cli.state import err, out, say, warn

    table = Table()
    table.add_column("name")
    table.add_row(f"a{ESCAPES}")
    out().print(table)
    out().print(Text(f"b{ESCAPES} :100: :smile:"))  # a Text built elsewhere: the last guard
    err().print(f"c{ESCAPES}")
    say(f"d{ESCAPES}")
    warn(f"e{ESCAPES}")
    printed = capsys.readouterr()
    text = printed.out + printed.err
    assert not set(text) & set("\x1b\x07\x9b") and ":100: :smile:" in text
    for mark in "abcde":  # (rich's Text drops a BEL itself)
        assert f"{mark}\\x1b]0;pwned" in text


# --------------------------------------------------------------------------- 36: LLM endpoints
# replayed against the fake OpenAI-compatible server in tests/judge/hostile_llm.py, imported
# here so they run with the battery (`-k "judge or llm or comet"` selects them)
from tests.judge.hostile_llm import (  # noqa: E402, F401
    claims_dir,
    judged_run,
    test_comet_nan_is_a_listed_failure,
    test_judge_connection_refused_stops_with_exit_2,
    test_judge_cost_unknown_without_counted_tokens,
    test_judge_endpoint_that_never_answers_times_out,
    test_judge_lying_endpoint_kept_when_allowed,
    test_judge_lying_endpoint_stops_and_a_dated_snapshot_is_the_same,
    test_judge_retries_are_bounded_across_the_run,
    test_judge_unusable_answers_are_refused_and_listed,
    test_judge_unusable_answers_kept_when_allowed,
    test_llm_matcher_connection_refused_stores_nothing,
    test_llm_matcher_cost_unknown_without_counted_tokens,
    test_llm_matcher_half_unusable_is_not_refused,
    test_llm_matcher_lying_endpoint_stops,
    test_llm_matcher_other_model_kept_when_allowed,
    test_llm_matcher_partial_outage_stops_and_stores_nothing,
    test_llm_matcher_records_the_answering_model,
    test_llm_matcher_unusable_answers_are_refused_and_listed,
    test_llm_matcher_unusable_answers_kept_when_allowed,
)
