"""The Task contract is generic in its settings model, and the type holds at run time: a suite
whose ``settings_model`` is not its type argument is refused when defined, and the engine
refuses to hand a hook any settings but an instance of the task's own model."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pydantic import BaseModel

import assay
from assay._engine.item import Item
from assay._engine.registry import available_tasks
from assay._engine.task import (
    BlockSummaries,
    ItemScore,
    LoadedInputs,
    Task,
    _declared_settings,
    score_in_blocks,
    task_settings,
)
from assay._legal.labelsuite import LabelSuite
from assay._settings import RunSettings, Settings, StatsSettings
from assay.errors import ConfigError
from assay.metrics.spec import MetricSpec
from assay.suites.classification import ClassificationTask
from assay.suites.classification.settings import ClassificationSettings
from assay.suites.extraction.settings import ExtractionSettings
from assay.suites.legalbench.settings import LegalBenchSettings
from assay.suites.multiclass.settings import MulticlassSettings


class Mine(BaseModel):
    weight: float = 1.0


class MineMore(Mine):
    extra: int = 0


class Other(BaseModel):
    weight: float = 1.0  # the same field: still not the task's model


class Weighing(Task[Mine]):
    """Scores ``gold["x"] * settings.weight``; counts the hook calls it receives."""

    name: ClassVar[str] = "weighing"
    description: ClassVar[str] = "test task"
    settings_model = Mine

    def __init__(self) -> None:
        self.calls = 0

    def load(self, pred: Path, gold: tuple[Path, ...], settings: Mine) -> LoadedInputs:
        raise AssertionError("not used")

    def score_item(self, item: Item, settings: Mine) -> ItemScore:
        self.calls += 1
        return ItemScore(stats={"x": float(item.gold["x"]) * settings.weight})

    def metric_specs(self, scores: Sequence[ItemScore], settings: Mine) -> list[MetricSpec]:
        return []


def _items(n: int) -> list[Item]:
    return [Item(id=f"i{k}", gold={"x": k}, pred={}) for k in range(n)]


def test_a_hook_gets_the_tasks_own_settings_typed() -> None:
    task = Weighing()
    scores = score_in_blocks(task, _items(3), Mine(weight=2.0))
    assert [s.stats["x"] for s in scores] == [0.0, 2.0, 4.0]
    assert task_settings(task, MineMore()) == MineMore()  # a subclass of the model is one


@pytest.mark.parametrize("wrong", [Other(), ExtractionSettings()])
def test_the_engine_refuses_other_settings_before_any_hook(wrong: BaseModel) -> None:
    task = Weighing()
    with pytest.raises(ConfigError) as err:
        score_in_blocks(task, _items(3), wrong)
    assert str(err.value).startswith("task 'weighing' takes Mine settings, not ")
    assert type(wrong).__qualname__ in str(err.value)
    assert task.calls == 0  # refused, not scored as three failed items


def test_score_refuses_a_settings_section_of_another_model(
    labels_files: tuple[Path, Path],
) -> None:
    """A ``Settings`` built by hand whose classification section is another suite's model
    stops the run at once, naming both models (before, hooks cast it with a bare assert)."""
    pred, gold = labels_files
    settings = Settings(
        stats=StatsSettings(), run=RunSettings(), suites={"classification": ExtractionSettings()}
    )
    with pytest.raises(ConfigError, match=r"takes ClassificationSettings settings, not .*Extr"):
        assay.score("classification", pred=pred, gold=gold, settings=settings)


class BadPrepare(ClassificationTask):
    """A (mistyped, untyped-checked) ``prepare`` that returns another model."""

    seen: ClassVar[list[str]] = []

    def prepare(self, loaded: LoadedInputs, settings: ClassificationSettings) -> Any:
        return ExtractionSettings()

    def cohort_from_predictions(self, settings: ClassificationSettings) -> bool:
        self.seen.append(type(settings).__name__)
        return False


def test_a_prepare_returning_another_model_is_refused(labels_files: tuple[Path, Path]) -> None:
    """Refused as ``prepare`` returns, before the pairing hooks see it."""
    pred, gold = labels_files
    with pytest.raises(ConfigError, match="takes ClassificationSettings settings"):
        assay.score(BadPrepare(), pred=pred, gold=gold, spill=False)
    assert BadPrepare.seen == []


def test_a_suite_whose_model_is_not_its_type_argument_is_refused_when_defined() -> None:
    with pytest.raises(TypeError, match="settings_model is Other, but its hooks take Mine"):

        class _Wrong(Task[Mine]):  # mypy: incompatible assignment; at run time: TypeError
            name: ClassVar[str] = "wrong"
            settings_model = Other  # type: ignore[assignment]

    with pytest.raises(TypeError, match="is LegalBenchSettings, but its hooks take Multiclass"):

        class _WrongLabels(LabelSuite[MulticlassSettings]):  # through a generic base
            settings_model = LegalBenchSettings  # type: ignore[assignment]

    with pytest.raises(TypeError, match="but its hooks take Mine"):

        class _WrongSummaries(Weighing, BlockSummaries[Mine]):  # inherited, still checked
            settings_model = Other  # type: ignore[assignment]

    with pytest.raises(TypeError, match="must be a pydantic model class"):

        class _NotAModel(Task[Mine]):
            settings_model = dict  # type: ignore[assignment]

    class Refined(Weighing):  # a subclass of the declared model is fine
        settings_model = MineMore

    assert Refined.settings_model is MineMore


def test_every_registered_suite_declares_its_settings_model_as_its_type_argument() -> None:
    """The charter's shape for every suite: ``class XTask(Task[XSettings])`` (directly or
    through a generic base such as ``LabelSuite[XSettings]``), with that model as
    ``settings_model``: so no hook needs to cast its settings."""
    tasks = available_tasks()
    assert {"classification", "extraction", "translation", "legalbench"} <= set(tasks)
    for name, task in tasks.items():
        declared = _declared_settings(type(task))
        assert declared, f"{name}: {type(task).__name__} is not generic in its settings"
        assert task.settings_model in declared, name


def test_a_spec_naming_a_column_no_item_emitted_names_suite_metric_columns_and_fix() -> None:
    from assay._engine.task import check_spec_columns
    from assay.errors import UsageError
    from assay.metrics.spec import mean_metric, ratio_metric

    specs = [
        mean_metric("ok", "a"),
        ratio_metric("rate", "hits", "a"),
        ratio_metric("r2", "x", "y"),
    ]
    check_spec_columns("words", specs[:1], ["a", "a#n", "b"])  # every column emitted: silent
    with pytest.raises(UsageError) as caught:
        check_spec_columns("words", specs, ["a", "a#n"])
    message = str(caught.value)
    assert message.startswith(
        "suite 'words': unknown stats column(s): metric 'rate' names ['hits']; "
        "metric 'r2' names ['x', 'y'], which no item emitted."
    )
    assert "emit it in ItemScore.stats with 0.0 where there is nothing to count" in message
