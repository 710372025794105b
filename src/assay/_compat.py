"""Old import paths (assay 0.1's tree, before the layers got their folders) for one version.

``import assay.core.run`` still works: it warns (``DeprecationWarning``, naming the new path)
and returns the module that now lives at ``assay._engine.run``, the same object, so patches and
``isinstance`` checks keep working. :data:`MOVED` is the whole table; a path not in it was never
public. The finder is installed by ``import assay`` and costs nothing until an old path is
imported: the finder and the loaders are plain classes with the import protocol's methods, not
subclasses of ``importlib.abc``'s, whose import (``importlib.resources``, ``pathlib``…) would be
two thirds of ``import assay``'s instructions.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import FrameType, ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the import protocol's classes, for mypy; at run time plain objects
    from importlib.abc import Loader as _Loader
    from importlib.abc import MetaPathFinder as _Finder
else:
    _Loader = _Finder = object

#: old module path → where it lives now
MOVED: dict[str, str] = {
    "assay.adapters": "assay.suites.biblio",
    "assay.adapters.convert": "assay.suites.biblio._lib.convert",
    "assay.adapters.grobid": "assay.suites.biblio._lib.grobid",
    "assay.adapters.jats": "assay.suites.biblio._lib.jats",
    "assay.adapters.tei": "assay.suites.biblio._lib.tei",
    "assay.adapters.xml": "assay._io.xml",
    "assay.analytics": "assay._analytics",
    "assay.analytics.ab": "assay._analytics.ab",
    "assay.analytics.ablation": "assay._analytics.ablation",
    "assay.analytics.calibration": "assay._analytics.calibration",
    "assay.analytics.corpus": "assay._analytics.corpus",
    "assay.analytics.cost": "assay._analytics.cost",
    "assay.analytics.escalation": "assay._analytics.escalation",
    "assay.analytics.exemplars": "assay._analytics.exemplars",
    "assay.analytics.failures": "assay._analytics.failures",
    "assay.analytics.jsonl": "assay._analytics.jsonl",
    "assay.analytics.memo": "assay._analytics.memo",
    "assay.analytics.montecarlo": "assay._analytics.montecarlo",
    "assay.analytics.noise": "assay._analytics.noise",
    "assay.analytics.output": "assay._analytics.output",
    "assay.analytics.robustness": "assay._analytics.robustness",
    "assay.analytics.surface": "assay._analytics.surface",
    "assay.cli": "assay._cli",
    "assay.cli._analytics_common": "assay._cli._analytics_common",
    "assay.cli.ab": "assay._cli.ab",
    "assay.cli.allocator": "assay._cli.allocator",
    "assay.cli.analytics": "assay._cli.analytics",
    "assay.cli.app": "assay._cli.app",
    "assay.cli.calibration": "assay._cli.calibration",
    "assay.cli.compare": "assay._cli.compare",
    "assay.cli.cost": "assay._cli.cost",
    "assay.cli.demo": "assay._cli.demo",
    "assay.cli.gate": "assay._cli.gate",
    "assay.cli.hashing": "assay._cli.hashing",
    "assay.cli.lazy": "assay._cli.lazy",
    "assay.cli.montecarlo": "assay._cli.montecarlo",
    "assay.cli.noise": "assay._cli.noise",
    "assay.cli.report": "assay._cli.report",
    "assay.cli.resolve": "assay._cli.resolve",
    "assay.cli.runs": "assay._cli.runs",
    "assay.cli.score": "assay._cli.score",
    "assay.cli.serve": "assay._cli.serve",
    "assay.cli.state": "assay._cli.state",
    "assay.cli.tasks": "assay._cli.tasks",
    "assay.compare": "assay._compare",
    "assay.compare.comparison": "assay._compare.comparison",
    "assay.compare.gate": "assay._compare.gate",
    "assay.core": "assay._engine",
    "assay.core.artifact": "assay._engine.artifact",
    "assay.core.cohort": "assay._engine.cohort",
    "assay.core.inmemory": "assay._engine.inmemory",
    "assay.core.item": "assay._engine.item",
    "assay.core.keys": "assay._engine.keys",
    "assay.core.listlike": "assay._io.listlike",
    "assay.core.outofcore": "assay._engine.outofcore",
    "assay.core.provenance": "assay._engine.provenance",
    "assay.core.records": "assay._engine.records",
    "assay.core.registry": "assay._engine.registry",
    "assay.core.run": "assay._engine.run",
    "assay.core.scorecard": "assay._engine.scorecard",
    "assay.core.scoring": "assay._engine.scoring",
    "assay.core.signature": "assay._engine.signature",
    "assay.core.spill": "assay._engine.spill",
    "assay.core.task": "assay._engine.task",
    "assay.dashboard": "assay._dashboard",
    "assay.dashboard.server": "assay._dashboard.server",
    "assay.dashboard.views": "assay._dashboard.views",
    "assay.dashboard.workers": "assay._dashboard.workers",
    "assay.distributed": "assay._engine.dask",
    "assay.distributed.cluster": "assay._engine.dask",
    "assay.examples": "assay.suites.classification.examples",
    "assay.examples.analytics": "assay._cli.analytics_demo",
    "assay.examples.biblio": "assay.suites.biblio.examples",
    "assay.examples.claims": "assay.suites.claims.examples",
    "assay.examples.classification": "assay.suites.classification.examples",
    "assay.examples.doc_classification": "assay.suites.classification.examples",
    "assay.examples.extraction": "assay.suites.extraction.examples",
    "assay.examples.legal": "assay._cli.legal",
    "assay.examples.scale": "assay.suites.classification.examples",
    "assay.examples.translation": "assay.suites.translation.examples",
    "assay.fields": "assay._fields",
    "assay.fields._batch_tokens": "assay._fields._batch_tokens",
    "assay.fields._order": "assay._fields._order",
    "assay.fields._text": "assay._fields._text",
    "assay.fields.batched": "assay._fields.batched",
    "assay.fields.containment": "assay._fields.containment",
    "assay.fields.dates": "assay._fields.dates",
    "assay.fields.display": "assay._fields.display",
    "assay.fields.durations": "assay._fields.durations",
    "assay.fields.embedding": "assay._fields.embedding",
    "assay.fields.entity_list": "assay._fields.entity_list",
    "assay.fields.free_text": "assay._fields.free_text",
    "assay.fields.ids": "assay._fields.ids",
    "assay.fields.money": "assay._fields.money",
    "assay.fields.names": "assay._fields.names",
    "assay.fields.result": "assay._fields.result",
    "assay.fields.settings": "assay._fields.settings",
    "assay.fields.types": "assay._fields.types",
    "assay.io": "assay._io",
    "assay.io.compact": "assay._io.compact",
    "assay.io.decoding": "assay._io.decoding",
    "assay.io.idlists": "assay._io.idlists",
    "assay.io.paths": "assay._io.paths",
    "assay.io.readers": "assay._io.readers",
    "assay.io.records": "assay._io.records",
    "assay.io.safe_yaml": "assay._io.safe_yaml",
    "assay.io.strict": "assay._io.strict",
    "assay.judge": "assay._judge",
    "assay.judge.cache": "assay._judge.cache",
    "assay.judge.client": "assay._judge.client",
    "assay.judge.errors": "assay._judge.errors",
    "assay.judge.ledger": "assay._judge.ledger",
    "assay.judge.pricing": "assay._judge.pricing",
    "assay.judge.prompts": "assay._judge.prompts",
    "assay.judge.settings": "assay._judge.settings",
    "assay.labels": "assay._labels",
    "assay.labels.confusion": "assay._labels.confusion",
    "assay.labels.equivalences": "assay._labels.equivalences",
    "assay.labels.failure_modes": "assay._labels.failure_modes",
    "assay.labels.normalize": "assay._labels.normalize",
    "assay.labels.subtypes": "assay._labels.subtypes",
    "assay.matching": "assay._matching",
    "assay.matching.greedy": "assay._matching.greedy",
    "assay.matching.optimal": "assay._matching.optimal",
    "assay.report": "assay._report",
    "assay.report.comparison_text": "assay._report.comparison_text",
    "assay.report.console": "assay._report.console",
    "assay.report.html": "assay._report.html",
    "assay.report.plain": "assay._report.plain",
    "assay.report.ranking": "assay._report.ranking",
    "assay.report.svg": "assay._report.svg",
    "assay.settings": "assay._settings",
    "assay.settings.loader": "assay._settings.loader",
    "assay.settings.model": "assay._settings.model",
    "assay.settings.sources": "assay._settings.sources",
    "assay.store": "assay._store",
    "assay.store.codec": "assay._store.codec",
    "assay.store.schema": "assay._store.schema",
    "assay.store.store": "assay._store.store",
    "assay.store.url": "assay._store.url",
    "assay.tasks": "assay.suites",
    "assay.tasks.biblio": "assay.suites.biblio",
    "assay.tasks.biblio.bibr_writer": "assay.suites.biblio._lib.bibr_writer",
    "assay.tasks.biblio.cli": "assay._cli.biblio",
    "assay.tasks.biblio.dialects": "assay.suites.biblio._lib.dialects",
    "assay.tasks.biblio.export": "assay.suites.biblio._lib.export",
    "assay.tasks.biblio.front": "assay.suites.biblio._lib.front",
    "assay.tasks.biblio.metrics": "assay.suites.biblio.metrics",
    "assay.tasks.biblio.names": "assay.suites.biblio._lib.names",
    "assay.tasks.biblio.normalize": "assay.suites.biblio._lib.normalize",
    "assay.tasks.biblio.references": "assay.suites.biblio._lib.references",
    "assay.tasks.biblio.report": "assay.suites.biblio._lib.report",
    "assay.tasks.biblio.sections": "assay.suites.biblio._lib.sections",
    "assay.tasks.biblio.settings": "assay.suites.biblio.settings",
    "assay.tasks.biblio.similarity": "assay.suites.biblio._lib.similarity",
    "assay.tasks.biblio.task": "assay.suites.biblio.task",
    "assay.tasks.chained": "assay.suites.chained",
    "assay.tasks.chained.ablation": "assay.suites.chained._lib.ablation",
    "assay.tasks.chained.settings": "assay.suites.chained.settings",
    "assay.tasks.chained.task": "assay.suites.chained.task",
    "assay.tasks.claims": "assay.suites.claims",
    "assay.tasks.claims.align": "assay.suites.claims._lib.align",
    "assay.tasks.claims.cli": "assay._cli.claims",
    "assay.tasks.claims.diff": "assay.suites.claims._lib.diff",
    "assay.tasks.claims.llm_matcher": "assay.suites.claims._lib.llm_matcher",
    "assay.tasks.claims.loading": "assay.suites.claims._lib.loading",
    "assay.tasks.claims.matcher": "assay.suites.claims._lib.matcher",
    "assay.tasks.claims.metrics": "assay.suites.claims.metrics",
    "assay.tasks.claims.model": "assay.suites.claims._lib.model",
    "assay.tasks.claims.panels": "assay.suites.claims._lib.panels",
    "assay.tasks.claims.roles": "assay.suites.claims._lib.roles",
    "assay.tasks.claims.roundtrip": "assay.suites.claims._lib.roundtrip",
    "assay.tasks.claims.semantic": "assay.suites.claims._lib.semantic",
    "assay.tasks.claims.settings": "assay.suites.claims.settings",
    "assay.tasks.claims.similarity": "assay.suites.claims._lib.similarity",
    "assay.tasks.claims.task": "assay.suites.claims.task",
    "assay.tasks.classification": "assay.suites.classification",
    "assay.tasks.classification.labels": "assay._labels.normalize",
    "assay.tasks.classification.settings": "assay.suites.classification.settings",
    "assay.tasks.classification.task": "assay.suites.classification.task",
    "assay.tasks.contracteval": "assay.suites.contracteval",
    "assay.tasks.contracteval.cli": "assay._cli.legal",
    "assay.tasks.contracteval.settings": "assay.suites.contracteval.settings",
    "assay.tasks.contracteval.task": "assay.suites.contracteval.task",
    "assay.tasks.docclass": "assay.suites.docclass",
    "assay.tasks.docclass.settings": "assay.suites.docclass.settings",
    "assay.tasks.docclass.task": "assay.suites.docclass.task",
    "assay.tasks.extraction": "assay.suites.extraction",
    "assay.tasks.extraction.audit": "assay.suites.extraction._lib.audit",
    "assay.tasks.extraction.batch": "assay.suites.extraction._lib.batch",
    "assay.tasks.extraction.chunks": "assay.suites.extraction._lib.chunks",
    "assay.tasks.extraction.cli": "assay._cli.extraction",
    "assay.tasks.extraction.diagnostics": "assay.suites.extraction._lib.diagnostics",
    "assay.tasks.extraction.judge": "assay.suites.extraction._lib.judge",
    "assay.tasks.extraction.metrics": "assay.suites.extraction.metrics",
    "assay.tasks.extraction.misses": "assay.suites.extraction._lib.misses",
    "assay.tasks.extraction.rescue_study": "assay.suites.extraction._lib.rescue_study",
    "assay.tasks.extraction.rows": "assay.suites.extraction._lib.rows",
    "assay.tasks.extraction.schema": "assay.suites.extraction._lib.schema",
    "assay.tasks.extraction.settings": "assay.suites.extraction.settings",
    "assay.tasks.extraction.sources": "assay.suites.extraction._lib.sources",
    "assay.tasks.extraction.task": "assay.suites.extraction.task",
    "assay.tasks.legal": "assay._legal",
    "assay.tasks.legal.answers": "assay._legal.answers",
    "assay.tasks.legal.chained": "assay.suites.chained",
    "assay.tasks.legal.contracteval": "assay._legal.contracteval",
    "assay.tasks.legal.cuad_rows": "assay.suites.contracteval._lib.cuad_rows",
    "assay.tasks.legal.dispatch": "assay._legal.dispatch",
    "assay.tasks.legal.hierarchical": "assay._legal.hierarchical",
    "assay.tasks.legal.labelscore": "assay._legal.labelscore",
    "assay.tasks.legal.labelsuite": "assay._legal.labelsuite",
    "assay.tasks.legal.mapping": "assay.suites.contracteval._lib.mapping",
    "assay.tasks.legal.records": "assay._legal.records",
    "assay.tasks.legalbench": "assay.suites.legalbench",
    "assay.tasks.legalbench.settings": "assay.suites.legalbench.settings",
    "assay.tasks.legalbench.task": "assay.suites.legalbench.task",
    "assay.tasks.maud": "assay.suites.maud",
    "assay.tasks.maud.settings": "assay.suites.maud.settings",
    "assay.tasks.maud.task": "assay.suites.maud.task",
    "assay.tasks.multiclass": "assay.suites.multiclass",
    "assay.tasks.multiclass.settings": "assay.suites.multiclass.settings",
    "assay.tasks.multiclass.task": "assay.suites.multiclass.task",
    "assay.tasks.subtype": "assay.suites.subtype",
    "assay.tasks.subtype.settings": "assay.suites.subtype.settings",
    "assay.tasks.subtype.task": "assay.suites.subtype.task",
    "assay.tasks.translation": "assay.suites.translation",
    "assay.tasks.translation.api": "assay.suites.translation._lib.api",
    "assay.tasks.translation.cli": "assay._cli.mt",
    "assay.tasks.translation.comet": "assay.suites.translation._lib.comet",
    "assay.tasks.translation.entries": "assay.suites.translation._lib.entries",
    "assay.tasks.translation.inputs": "assay.suites.translation._lib.inputs",
    "assay.tasks.translation.kinds": "assay.metrics.corpus.kinds",
    "assay.tasks.translation.languages": "assay.suites.translation._lib.languages",
    "assay.tasks.translation.ngrams": "assay.metrics.corpus.ngrams",
    "assay.tasks.translation.options": "assay.metrics.corpus.options",
    "assay.tasks.translation.plugins": "assay.suites.translation._lib.plugins",
    "assay.tasks.translation.segment_stats": "assay.metrics.corpus.segment_stats",
    "assay.tasks.translation.segments": "assay.suites.translation._lib.segments",
    "assay.tasks.translation.settings": "assay.suites.translation.settings",
    "assay.tasks.translation.statsrow": "assay.suites.translation._lib.statsrow",
    "assay.tasks.translation.sufficient": "assay.metrics.corpus.sufficient",
    "assay.tasks.translation.systems": "assay.suites.translation._lib.systems",
    "assay.tasks.translation.task": "assay.suites.translation.task",
    "assay.tasks.translation.ter": "assay.metrics.corpus.ter",
    "assay.tasks.translation.tokenize13a": "assay.metrics.corpus.tokenize13a",
    "assay.text": "assay._text",
    "assay.text.normalize": "assay._text.normalize",
    "assay.text.tokenize": "assay._text.tokenize",
}


class _Alias(_Loader):
    """Loads an old path as the module at its new one."""

    def __init__(self, new: str) -> None:
        self.new = new
        self.spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} moved to {self.new}; the old path goes in the next version",
            DeprecationWarning,
            stacklevel=_caller_level(),
        )
        module = importlib.import_module(self.new)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run (the module at the new path is loaded): only its own ``__spec__``,
        which the import system replaced by the old path's, is put back."""
        module.__spec__ = self.spec


class _Forwarding(_Loader):
    """An old package whose names now live in one module (``assay.examples``): a package of
    the old name reading its attributes from that module, so that its old submodules
    (``assay.examples.legal``) still import."""

    def __init__(self, new: str) -> None:
        self.new = new

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        warnings.warn(
            f"{spec.name} moved to {self.new}; the old path goes in the next version",
            DeprecationWarning,
            stacklevel=_caller_level(),
        )
        return None  # the default: a new module of the old name

    def exec_module(self, module: ModuleType) -> None:
        target = importlib.import_module(self.new)

        def forward(name: str) -> object:
            return getattr(target, name)

        module.__getattr__ = forward  # type: ignore[method-assign]


def _was_package(name: str) -> bool:
    """True when old modules lived under ``name``."""
    prefix = name + "."
    return any(key.startswith(prefix) for key in MOVED)


class _OldPaths(_Finder):
    """Finds the modules of :data:`MOVED` under their old names."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        locations = getattr(importlib.import_module(new), "__path__", None)
        if locations is None and _was_package(fullname):
            spec = importlib.machinery.ModuleSpec(fullname, _Forwarding(new), is_package=True)
            spec.submodule_search_locations = []
            return spec
        spec = importlib.machinery.ModuleSpec(fullname, _Alias(new))
        spec.submodule_search_locations = locations
        return spec


def _caller_level() -> int:
    """``warnings.warn``'s stack level of the importing line: frames of the import system do
    not count (``warn`` skips them itself), this module's do."""
    frame: FrameType | None = sys._getframe(2)  # the loader's create_module is level 1
    level = 1
    while frame is not None:
        name = frame.f_code.co_filename
        if not ("importlib" in name and "_bootstrap" in name):
            level += 1
            if frame.f_globals.get("__name__") != __name__:
                break
        frame = frame.f_back
    return level


def install() -> None:
    """Put the old-path finder first on ``sys.meta_path`` (once): before the path finder,
    which would otherwise load a second copy of a module from its old package's ``__path__``."""
    if not any(isinstance(f, _OldPaths) for f in sys.meta_path):
        sys.meta_path.insert(0, _OldPaths())
