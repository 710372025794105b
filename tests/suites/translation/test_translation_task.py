"""The translation suite end to end: inputs, entry rules, bad input, COMET, plugins, CLI."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from sacrebleu.metrics import BLEU, CHRF

import assay
from assay._cli import main
from assay.errors import ConfigError, InputError
from assay.suites.translation import (
    CometUnavailable,
    TranslationTask,
    load_comet,
    report_schema,
    task,
)
from tests.conftest import write_jsonl

REFS = [f"The report number {i} was published on day {i % 7}." for i in range(40)]


def report(preds: Sequence[str | None], **meta: Any) -> dict[str, Any]:
    return {
        **meta,
        "entries": [
            {
                "id": f"s{i}",
                "source": f"Bericht {i}",
                "expected": r,
                "predicted": p,
                "error": None,
                "exact_match": p == r,
                "plugin_metrics": {"fst": {"valid": i % 2 == 0, "score": i / 40}},
            }
            for i, (r, p) in enumerate(zip(REFS, preds, strict=True))
        ],
    }


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def reports(tmp_path: Path) -> tuple[Path, Path]:
    good = [r if i % 4 else r.replace("published", "released") for i, r in enumerate(REFS)]
    bad = [r.split(" was")[0] for r in REFS]
    return write(tmp_path / "a.json", report(good)), write(tmp_path / "b.json", report(bad))


def test_report_scores_equal_sacrebleu_and_schema_accepts_it(reports: tuple[Path, Path]) -> None:
    data = json.loads(reports[0].read_text())
    jsonschema.validate(data, report_schema())
    run = assay.score("translation", pred=reports[0], ci=False, ter=False)
    hyps = [e["predicted"] for e in data["entries"]]
    assert run.metrics["corpus_chrf"].value == pytest.approx(
        CHRF(word_order=2).corpus_score(hyps, [REFS]).score, abs=1e-9
    )
    assert run.metrics["corpus_bleu"].value == pytest.approx(
        BLEU().corpus_score(hyps, [REFS]).score, abs=1e-9
    )
    assert run.metrics["exact_match_rate"].value == pytest.approx(30 / 40)
    assert run.metrics["plugin_metrics.fst.valid"].value == pytest.approx(0.5)
    assert "corpus_ter" not in run.metrics
    sig = run.summaries["sacrebleu"]["signatures"]["corpus_chrf"]
    assert sig.startswith("nrefs:1|") and "nw:2" in sig


def test_entry_rules_in_a_run(tmp_path: Path) -> None:
    data = report(list(REFS))
    data["entries"][0]["expected"] = ""
    data["entries"][1]["predicted"] = "   "
    data["entries"][1]["exact_match"] = False
    data["entries"][2]["error"] = "timeout"
    data["entries"][2]["exact_match"] = None
    run = assay.score("translation", pred=write(tmp_path / "r.json", data), ci=False)
    rules = run.summaries["entry_rules"]
    assert rules["blank_expected"] == 1 and rules["blank_prediction"] == 1
    assert rules["error_entries"] == 1
    hyps = ["EMPTY" if i == 1 else r for i, r in enumerate(REFS)][1:]
    assert run.metrics["corpus_chrf"].value == pytest.approx(
        CHRF(word_order=2).corpus_score(hyps, [REFS[1:]]).score, abs=1e-9
    )
    # 39 non-error entries counted, by the report's own flags (entry 1 is not a match)
    assert run.metrics["exact_match_rate"].value == pytest.approx(38 / 39)
    item = next(i for i in run.items if i.id == "s1")
    assert item.details["scored_as"] == "EMPTY" and "blank_prediction" in item.flags


def test_determinism_byte_identical_apart_from_generated_at(reports: tuple[Path, Path]) -> None:
    one = assay.score("translation", pred=reports[0], n_bootstrap_ci=200).to_json()
    two = assay.score("translation", pred=reports[0], n_bootstrap_ci=200).to_json()
    strip = lambda s: "\n".join(x for x in s.splitlines() if '"generated_at"' not in x)  # noqa: E731
    assert strip(one) == strip(two)


def test_text_and_jsonl_inputs_agree_with_the_report(
    tmp_path: Path, reports: tuple[Path, Path]
) -> None:
    data = json.loads(reports[0].read_text())
    hyp = tmp_path / "hyp.txt"
    ref = tmp_path / "ref.txt"
    hyp.write_text("".join(e["predicted"] + "\n" for e in data["entries"]), encoding="utf-8")
    ref.write_text("".join(r + "\n" for r in REFS), encoding="utf-8")
    rows = [
        {
            "id": e["id"],
            "source": e["source"],
            "reference": e["expected"],
            "hypothesis": e["predicted"],
        }
        for e in data["entries"]
    ]
    jsonl = write_jsonl(tmp_path / "sys.jsonl", rows)
    runs = [
        assay.score("translation", pred=p, gold=g, ci=False, ter=False)
        for p, g in ((reports[0], None), (hyp, ref), (jsonl, None))
    ]
    values = {r.metrics["corpus_chrf"].value for r in runs}
    assert len({round(v, 12) for v in values if v is not None}) == 1


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ({"items": []}, "no 'entries' list"),
        ({"entries": []}, "no entries"),
        ({"entries": {}}, "'entries' must be a list"),
        ([1, 2], "a JSON object"),
    ],
)
def test_bad_reports_name_the_file(tmp_path: Path, content: Any, match: str) -> None:
    path = write(tmp_path / "bad.json", content)
    with pytest.raises(InputError, match=match) as info:
        assay.score("translation", pred=path, ci=False)
    assert "bad.json" in str(info.value)


def test_entries_without_ids_and_bad_fields_are_listed_failures(tmp_path: Path) -> None:
    data = report(list(REFS))
    del data["entries"][3]["id"]
    data["entries"][4]["predicted"] = 42
    run = assay.score("translation", pred=write(tmp_path / "r.json", data), ci=False, ter=False)
    assert run.cohort.failed == 1
    assert "'predicted' must be a string" in run.cohort.failures[0].reason
    assert any("no 'id'" in g.reason for g in run.cohort.gold_failures)
    assert run.cohort.attempted == 39  # the id-less entry cannot be paired, and is listed


def test_duplicate_ids_with_different_references_are_an_error(tmp_path: Path) -> None:
    data = report(list(REFS))
    data["entries"][5]["id"] = "s4"
    with pytest.raises(InputError, match="duplicate gold id 's4'"):
        assay.score("translation", pred=write(tmp_path / "r.json", data), ci=False)


def test_text_files_of_different_lengths_empty_and_bad_utf8(tmp_path: Path) -> None:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a\nb\n", encoding="utf-8")
    ref.write_text("a\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"hyp.txt has 2 lines but .*ref.txt has 1"):
        assay.score("translation", pred=hyp, gold=ref, ci=False)
    ref.write_text("", encoding="utf-8")
    with pytest.raises(InputError, match="empty reference file"):
        assay.score("translation", pred=hyp, gold=ref, ci=False)
    ref.write_bytes(b"a\n\xff\n")
    with pytest.raises(InputError, match=r"ref.txt:2: invalid UTF-8"):
        assay.score("translation", pred=hyp, gold=ref, ci=False)
    ref.write_text("a\nb\n", encoding="utf-8")
    hyp.write_bytes(b"a\n\xfe\n")
    run = assay.score("translation", pred=hyp, gold=ref, ci=False, ter=False)
    assert run.cohort.failed == 1 and run.cohort.failures[0].id == "2"


# --------------------------------------------------------------------------- COMET


class FakeComet:
    model_name = "fake"

    def __init__(self) -> None:
        self.calls: list[tuple[list[str], list[str], list[str]]] = []

    def score(
        self, sources: Sequence[str], hypotheses: Sequence[str], references: Sequence[str]
    ) -> list[float]:
        self.calls.append((list(sources), list(hypotheses), list(references)))
        return [1.0 if h == r else 0.25 for h, r in zip(hypotheses, references, strict=True)]


def test_injected_comet_scorer(reports: tuple[Path, Path]) -> None:
    fake = FakeComet()
    run = assay.score(TranslationTask(comet_scorer=fake), pred=reports[0], ci=False, ter=False)
    assert len(fake.calls) == 1 and fake.calls[0][0][0] == "Bericht 0"
    assert run.metrics["comet"].value == pytest.approx((30 * 1.0 + 10 * 0.25) / 40)
    assert run.metrics["comet"].tier == "headline"
    assert run.summaries["comet"]["computed"] and run.summaries["comet"]["source"] == "computed"
    assert run.items[1].scores["comet"] == 1.0


def test_comet_absent_says_why(reports: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "comet", None)  # import comet → ImportError
    run = assay.score("translation", pred=reports[0], ci=False, ter=False)
    info = run.summaries["comet"]
    assert not info["computed"] and "unbabel-comet is not installed" in info["reason"]
    assert "comet" not in run.metrics
    with pytest.raises(ConfigError, match="not installed"):
        assay.score("translation", pred=reports[0], ci=False, comet="on")


def test_report_comet_scores_are_used(tmp_path: Path) -> None:
    data = report(list(REFS), language_pair="crk-en")
    for i, e in enumerate(data["entries"]):
        e["scores"] = {"comet": i / 100}
    run = assay.score("translation", pred=write(tmp_path / "r.json", data), ci=False, ter=False)
    assert run.metrics["comet"].value == pytest.approx(sum(range(40)) / 4000)
    info = run.summaries["comet"]
    assert info["source"] == "report"
    assert info["languages"]["crk"]["in_xlmr"] is False
    assert "'crk' is not among XLM-R's 100" in info["warnings"][0]


def test_real_loading_path_with_a_stand_in_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """load_comet resolves a model directory or the local cache and calls predict."""
    loaded: dict[str, Any] = {}

    class Output:
        def __init__(self, n: int) -> None:
            self.scores = [0.5] * n

    class Model:
        def predict(self, data: list[dict[str, str]], **kw: Any) -> Output:
            loaded["predict_kw"] = kw
            return Output(len(data))

    def load_from_checkpoint(path: str) -> Model:
        loaded["path"] = path
        return Model()

    def download_model(name: str, local_files_only: bool = False) -> str:
        if not local_files_only:
            raise AssertionError("assay must never download")
        raise FileNotFoundError(f"{name} not cached")

    fake = types.ModuleType("comet")
    fake.load_from_checkpoint = load_from_checkpoint  # type: ignore[attr-defined]
    fake.download_model = download_model  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "comet", fake)
    with pytest.raises(CometUnavailable, match="not in the local cache"):
        load_comet("Unbabel/wmt22-comet-da")
    ckpt = tmp_path / "model" / "checkpoints" / "model.ckpt"
    ckpt.parent.mkdir(parents=True)
    ckpt.write_bytes(b"")
    scorer = load_comet(str(tmp_path / "model"), batch_size=4)
    assert loaded["path"] == str(ckpt)
    assert scorer.score(["s"], ["h"], ["r"]) == [0.5]
    assert loaded["predict_kw"] == {"batch_size": 4, "gpus": 0, "progress_bar": False}


# --------------------------------------------------------------------------- CLI


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_mt_test_and_significance_cli(
    tmp_path: Path, reports: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    out_run = tmp_path / "run.json"
    code, out, err = run_cli(
        ["mt", "test", str(reports[0]), "--no-ter", "-o", str(out_run)], capsys
    )
    assert code == 0 and "corpus_chrf" in out and out_run.exists()
    assert "COMET not computed" in err
    assert " as " in out and "in sqlite" in out  # recorded in the session's temporary store
    code, out, _ = run_cli(
        ["mt", "test", str(reports[0]), "--no-ter", "-o", str(out_run), "--no-store"], capsys
    )
    assert code == 0 and "in sqlite" not in out
    cmp_path = tmp_path / "cmp.json"
    code, out, _ = run_cli(
        ["mt", "significance", str(out_run), str(reports[1]), "-o", str(cmp_path)], capsys
    )
    assert code == 0
    assert "Significance Tests (" in out and "α=0.05):" in out
    assert "Metric              candidate baseline  Δ       p-value  p-adj    Sig?" in out
    assert "family: headline, " in out and "smallest detectable Δ (power 0.8)" in out
    data = json.loads(cmp_path.read_text())
    names = {s["metric_name"] for s in data["significance"]}
    assert {"corpus_chrf", "corpus_bleu", "exact_match_rate"} <= names
    assert data["family"]["name"] == "headline" and data["family"]["correction"] == "holm"


def test_mt_compare_three_reports_keys_pairs(
    tmp_path: Path, reports: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    third = write(tmp_path / "c.json", report(list(REFS)))
    cmp_path = tmp_path / "cmp.json"
    code, _, _ = run_cli(
        ["mt", "compare", str(reports[0]), str(reports[1]), str(third), "--significance",
         "--n-bootstrap", "200", "-o", str(cmp_path)],
        capsys,
    )  # fmt: skip
    assert code == 0
    pairs = json.loads(cmp_path.read_text())["pairs"]
    assert len(pairs) == 3 and all(k.startswith("(") and ", " in k for k in pairs)


def test_mt_sacrebleu_json_with_chrf_does_not_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, base, sys1 = tmp_path / "ref.txt", tmp_path / "base.txt", tmp_path / "sys1.txt"
    ref.write_text("".join(r + "\n" for r in REFS), encoding="utf-8")
    base.write_text("".join(r + "\n" for r in REFS), encoding="utf-8")
    sys1.write_text("".join(r.split(" was")[0] + "\n" for r in REFS), encoding="utf-8")
    out_path = tmp_path / "cmp.json"
    code, out, _ = run_cli(
        ["mt", "sacrebleu", "-r", str(ref), "-i", str(base), str(sys1), "-m", "bleu,chrf",
         "--paired-bs", "--p-value", "sacrebleu", "-o", str(out_path)],
        capsys,
    )  # fmt: skip
    assert code == 0, out
    data = json.loads(out_path.read_text())
    result = {r["metric_name"]: r for r in data["significance"]["sys1.txt"]}
    assert result["corpus_chrf"]["significant"] and result["corpus_chrf"]["winner"] == "B"
    code, _, err = run_cli(
        ["mt", "sacrebleu", "-r", str(ref), "-i", str(base), str(tmp_path / "missing.txt")], capsys
    )
    assert code == 2 and "missing.txt" in err


def test_task_is_registered_and_its_command_group_lives_with_the_commands() -> None:
    """The suite imports no command line: ``assay mt`` is a line of the CLI's command table."""
    from assay._cli.app import COMMANDS

    assert assay.get_task("translation") is task
    assert task.cli_group() is None
    assert COMMANDS["mt"].load().name == "mt"


#: runs ``assay ARGS`` in a fresh interpreter, then prints whether rich was imported and
#: whether hashlib is OpenSSL's (``_hashlib`` loaded, libcrypto mapped where /proc tells)
_RICH_PROBE = """
import json, sys
from pathlib import Path
from assay._cli.app import main
code = main(sys.argv[1:])
rich = sorted(m for m in sys.modules if m.split(".")[0] == "rich")
maps = Path("/proc/self/maps")
libcrypto = "libcrypto" in maps.read_text() if maps.exists() else None
import hashlib
openssl = sys.modules.get("_hashlib") is not None
print(json.dumps({"code": code, "rich": rich, "openssl": openssl, "libcrypto": libcrypto,
                  "sha256": type(hashlib.sha256()).__module__}))
"""


def test_quiet_mt_test_never_imports_rich(tmp_path: Path) -> None:
    """``-q mt test`` prints nothing: its COMET note and warnings go through ``state.warn``,
    so rich (and the console report with its comparison models) is never loaded."""
    import subprocess

    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("".join(r + "\n" for r in REFS), encoding="utf-8")
    hyp.write_text("".join(r.split(" was")[0] + "\n" for r in REFS), encoding="utf-8")
    args = ["-q", "mt", "test", str(hyp), "-r", str(ref), "-o", str(tmp_path / "run.json")]
    args += ["--no-store", "--comet", "off", "--n-bootstrap-ci", "50"]
    res = subprocess.run(
        [sys.executable, "-c", _RICH_PROBE, *args], capture_output=True, text=True, check=True
    )
    result = json.loads(res.stdout.splitlines()[-1])
    assert result["code"] == 0, res.stderr
    assert result["rich"] == []
    assert json.loads((tmp_path / "run.json").read_text())["metrics"]["corpus_chrf"]["value"]


def test_mt_test_of_small_files_hashes_without_openssl(tmp_path: Path) -> None:
    """``mt test`` on inputs under ``MAX_INPUT_BYTES`` digests with CPython's built-in SHA-256
    (OpenSSL's libcrypto never mapped: 3.4 MiB of its peak): the same digests, run id and
    artifact as this process, whose hashlib is OpenSSL's, gives the same files."""
    import subprocess

    from assay._cli.app import main

    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("".join(r + "\n" for r in REFS), encoding="utf-8")
    hyp.write_text("".join(r.split(" was")[0] + "\n" for r in REFS), encoding="utf-8")
    args = ["-q", "mt", "test", str(hyp), "-r", str(ref), "--no-store", "--comet", "off"]
    args += ["--n-bootstrap-ci", "50"]
    res = subprocess.run(
        [sys.executable, "-c", _RICH_PROBE, *args, "-o", str(tmp_path / "builtin.json")],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    result = json.loads(res.stdout.splitlines()[-1])
    assert result["code"] == 0, res.stderr
    # CPython's own: _sha256 (3.11), _sha2 (3.12 and later)
    assert not result["openssl"] and result["sha256"] in ("_sha256", "_sha2")
    assert result["libcrypto"] in (False, None)
    import hashlib

    assert type(hashlib.sha256()).__module__ == "_hashlib"  # this process: OpenSSL's
    assert main([*args, "-o", str(tmp_path / "openssl.json")]) == 0
    a, b = (json.loads((tmp_path / f).read_text()) for f in ("builtin.json", "openssl.json"))
    for run in (a, b):
        del run["generated_at"]
    assert a == b and a["run_id"] and a["provenance"]["predictions_sha256"]


def test_mt_test_warns_of_comet_without_rich_markup(
    tmp_path: Path, reports: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Not quiet, the COMET note reaches stderr as typed (``state.warn``)."""
    code, _, err = run_cli(
        ["mt", "test", str(reports[0]), "--no-ter", "-o", str(tmp_path / "r.json"), "--no-store",
         "--comet", "off"],
        capsys,
    )  # fmt: skip
    assert code == 0 and "COMET not computed: switched off (comet: off)" in err


def test_entry_statistics_are_rows_over_shared_names(reports: tuple[Path, Path]) -> None:
    """Every entry of a batch holds its statistics as a StatsRow over the same names tuple,
    equal to the dict it stands for (and the table built from them is the run's)."""
    from assay._engine.item import new_item
    from assay.suites.translation._lib.statsrow import StatsRow
    from assay.suites.translation.settings import TranslationSettings

    items = [
        new_item(str(i), {"source": "", "references": [r]}, {"predicted": r[:20]}, None, {})
        for i, r in enumerate(REFS[:5])
    ]
    scores = task.score_batch(items, TranslationSettings())
    assert all(isinstance(s.stats, StatsRow) for s in scores)
    names = {id(s.stats._columns) for s in scores}
    assert len(names) == 1
    one = task.score_batch(items[2:3], TranslationSettings())[0].stats
    assert dict(one) == dict(scores[2].stats) and one == dict(scores[2].stats)
