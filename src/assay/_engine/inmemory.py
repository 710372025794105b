"""Records in memory as a suite's input files: what lets ``assay.score`` take lists of dicts, a
pandas DataFrame or a pyarrow Table wherever it takes a path.

Every suite reads its inputs with its own reader (field rules, parse failures counted and listed
per record), so records are not handed to the suites another way: they are written as JSONL,
one record a line, to ``predictions.jsonl`` / ``gold.jsonl`` (``gold-2.jsonl`` …) in a private
temporary folder, scored through the one flow, and the folder is named ``<records>`` in the run
(provenance, item sources, failure locations) so the artifact's bytes do not depend on where the
folder was. The digests (and the run id) are over the records' JSONL bytes: the same records
give the same run id as the same lines in a file.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from assay.errors import UsageError

#: how the temporary folder is named in the run
RECORDS = "<records>"
PathLike = str | os.PathLike[str]
#: records in memory: dicts, or a pandas DataFrame / pyarrow Table (duck-typed)
Records = Sequence[Mapping[str, Any]] | Any


def is_path(value: Any) -> bool:
    return isinstance(value, str | os.PathLike)


def as_records(value: Any, argument: str) -> list[Mapping[str, Any]] | None:
    """``value`` as a list of records, or None when it is a path (or a sequence of paths).

    Accepted: a sequence of mappings, a pandas DataFrame (``to_dict("records")``) or a pyarrow
    Table (``to_pylist()``); anything else is a UsageError naming ``argument``.
    """
    if value is None or is_path(value):
        return None
    if hasattr(value, "to_pylist") and hasattr(value, "schema"):  # pyarrow.Table
        value = value.to_pylist()
    elif hasattr(value, "to_dict") and hasattr(value, "columns"):  # pandas.DataFrame
        value = value.to_dict("records")
    if isinstance(value, Mapping) or not isinstance(value, Sequence):
        raise UsageError(
            f"{argument} must be a path, a list of records (dicts), a pandas DataFrame or a "
            f"pyarrow Table, not {type(value).__name__}"
        )
    if all(is_path(v) for v in value):
        return None  # several paths, or none (``gold=()``: the gold is in the predictions)
    for i, record in enumerate(value):
        if not isinstance(record, Mapping):
            raise UsageError(
                f"{argument}[{i}] must be a record (a dict), not {type(record).__name__}"
            )
    return list(value)


def _plain(value: Any) -> Any:
    """JSON-ready: numpy / pandas scalars as Python values, NaN (a missing cell) as null."""
    if hasattr(value, "item") and callable(value.item) and not isinstance(value, list | dict):
        with suppress(TypeError, ValueError):
            value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist"):
        return _plain(value.tolist())
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def _write(path: Path, records: Sequence[Mapping[str, Any]], argument: str) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for i, record in enumerate(records):
            try:
                line = json.dumps(_plain(record), ensure_ascii=False, allow_nan=False)
            except (TypeError, ValueError) as err:
                raise UsageError(f"{argument}[{i}]: not representable as JSON: {err}") from None
            fh.write(line + "\n")
    return path


@contextmanager
def input_files(pred: Any, gold: Any) -> Iterator[tuple[Path, tuple[Path, ...], Path | None]]:
    """(prediction path, gold paths, the temporary folder or None) for ``pred`` and ``gold``
    given as paths or records; the folder is removed on exit."""
    pred_records = as_records(pred, "predictions")
    gold_records = as_records(gold, "gold")
    if pred_records is None and gold_records is None:
        if pred is None:
            raise UsageError("give predictions (a path or records)")
        yield Path(pred), _paths(gold), None
        return
    folder = Path(tempfile.mkdtemp(prefix="assay-records-"))
    try:
        if pred_records is not None:
            pred_path = _write(folder / "predictions.jsonl", pred_records, "predictions")
        else:
            if pred is None:
                raise UsageError("give predictions (a path or records)")
            pred_path = Path(pred)
        if gold_records is not None:
            gold_paths: tuple[Path, ...] = (_write(folder / "gold.jsonl", gold_records, "gold"),)
        else:
            gold_paths = _paths(gold)
        yield pred_path, gold_paths, folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _paths(value: Any) -> tuple[Path, ...]:
    if value is None:
        return ()
    if is_path(value):
        return (Path(value),)
    return tuple(Path(v) for v in value)


def relabel(text: str, folder: Path) -> str:
    """``text`` (a run's JSON) with the temporary folder named ``<records>``."""
    for form in {str(folder), folder.as_posix()}:
        text = text.replace(json.dumps(form + os.sep)[1:-1], RECORDS + "/")
        text = text.replace(json.dumps(form)[1:-1], RECORDS)
    return text
