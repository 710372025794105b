"""Reproducibility signatures: one line that names what produced a number, to paste beside it.

In sacrebleu's style, ``|``-separated ``key:value`` fields after the metric names:

- a run: ``exact_match+macro_f1|task:classification|mv:1|n:120|bs:1000|seed:12345|alpha:0.05|
  resampling:multinomial|cfg:1a2b3c4d|assay:0.1.0`` — the headline metrics, the suite and its
  metrics version (``mv``), the items on the surface (``n``), the bootstrap resamples of the CIs
  (``bs``; ``bs:none`` without CIs; before it ``k``, the samples per item, for a run read with
  samples), their seed, the CI level as ``alpha``, the resampling
  scheme, the cluster field when CIs resample clusters (``cl:contract``), the first 8 hex
  digits of the effective settings' digest (``cfg``, which covers every suite option that
  changes a number), the matcher that ran when the suite records one
  (``matcher``: the claims suite's ``matcher_backend``) and the assay version;
- a paired test (``test_signature``; a comparison's is ``_compare.comparison_signature``):
  ``paired-bs|task:…|runs:<id A>,<id B>|n:<shared items>|bs:1000|seed:12345|alpha:0.05|
  p:assay|family:headline|correction:holm|assay:0.1.0``, its head the test that decided
  (``paired-ar`` with ``trials:`` for approximate randomization, ``exact`` for the exact
  sign-flip test at few units; ``delta`` with ``bs:none`` when no test ran);
- beside a corpus BLEU, chrF or TER, sacrebleu's own signature with its metric name and the
  resampling fields sacrebleu's CLI prints with ``--confidence``:
  ``BLEU|nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``.

Two numbers with equal signatures were computed the same way from inputs with the same counts;
the run id (a digest of the inputs too) pins the exact files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from assay._engine.run import Run

#: sacrebleu's metric kinds (``sacrebleu_<key>``) → how sacrebleu names the metric
_SACREBLEU_KINDS = ("sacrebleu_bleu", "sacrebleu_chrf", "sacrebleu_ter")


def fields_line(head: str, fields: Sequence[tuple[str, Any]]) -> str:
    """``head|k1:v1|k2:v2…`` (the one format of every signature)."""
    return "|".join([head, *(f"{key}:{value}" for key, value in fields)])


def run_signature(run: Run) -> str:
    """The run's signature line (see the module docstring)."""
    p = run.provenance
    stats: Mapping[str, Any] = run.settings.get("stats", {})
    headline = [name for name, m in run.metrics.items() if m.tier == "headline"]
    head = "+".join(headline or list(run.metrics)[:1] or ["none"])
    return fields_line(
        head,
        [
            ("task", run.task),
            ("mv", run.metrics_version),
            ("n", run.surface.n_items),
            *_samples(run),
            ("bs", p.n_bootstrap_ci if p.ci else "none"),
            ("seed", p.seed),
            ("alpha", p.alpha),
            ("resampling", stats.get("resampling", "multinomial")),
            *([("cl", run.units.by)] if run.units is not None and "clusters" in run.stats else []),
            ("cfg", p.config_sha256[:8]),
            *_backend(run),
            ("assay", run.assay_version),
        ],
    )


def _samples(run: Run) -> list[tuple[str, Any]]:
    """``k:<samples per item>`` for a run read with samples (``k:2-5`` when items have
    different numbers): its numbers are means over samples, not over single predictions."""
    samples = run.summaries.get("samples")
    if not isinstance(samples, Mapping):
        return []
    lo, hi = samples.get("min"), samples.get("max")
    return [("k", hi if lo == hi else f"{lo}-{hi}")]


def _backend(run: Run) -> list[tuple[str, Any]]:
    """``matcher:<backend>`` when the suite records the matcher that ran in its settings
    (``matcher_backend``, the claims suite): the digest in ``cfg`` covers it, this names it."""
    section = run.settings.get(run.task)
    backend = section.get("matcher_backend") if isinstance(section, Mapping) else None
    return [("matcher", backend)] if backend else []


def sacrebleu_signatures(run: Run) -> dict[str, str]:
    """metric name → sacrebleu's signature for each corpus BLEU/chrF/TER metric of ``run``."""
    p = run.provenance
    out: dict[str, str] = {}
    for spec in run.specs:
        line = sacrebleu_signature(spec, bs=p.n_bootstrap_ci if p.ci else None, seed=p.seed)
        if line is not None:
            out[str(spec["name"])] = line
    return out


def sacrebleu_signature(spec: Mapping[str, Any], *, bs: int | None, seed: int) -> str | None:
    """sacrebleu's signature of one metric spec (its JSON form); None for other metrics.

    The suite records sacrebleu's signature of the metric's options (``nrefs``, tokenizer,
    case …) in the spec; sacrebleu's CLI prints it after the metric's name, with ``bs`` and
    ``seed`` after ``nrefs`` when it resamples (``bs`` None: no resampling), and so does this.
    """
    kind, params = spec.get("kind"), spec.get("params") or {}
    signature = params.get("signature")
    if kind not in _SACREBLEU_KINDS or not signature:
        return None
    parts = str(signature).split("|")
    if bs is not None:
        at = 1 if parts and parts[0].startswith("nrefs:") else 0
        parts[at:at] = [f"bs:{bs}", f"seed:{seed}"]
    return "|".join([_sacrebleu_name(str(kind), params), *parts])


def _sacrebleu_name(kind: str, params: Mapping[str, Any]) -> str:
    """sacrebleu's display name: BLEU, TER, or chrF<beta> with one + per word n-gram order."""
    if kind == "sacrebleu_bleu":
        return "BLEU"
    if kind == "sacrebleu_ter":
        return "TER"
    fields = dict(part.split(":", 1) for part in str(params["signature"]).split("|") if ":" in part)
    word_order = int(fields.get("nw", 0))
    return f"chrF{params.get('beta', 2)}" + "+" * word_order


def signature_lines(run: Run) -> list[str]:
    """What a report prints under a run's table: its signature, then sacrebleu's."""
    lines = [f"signature: {run.signature or run_signature(run)}"]
    lines += [f"sacrebleu {name}: {sig}" for name, sig in sacrebleu_signatures(run).items()]
    return lines


def test_signature(
    *,
    method: str | None,
    task: str,
    who: tuple[str, Any],
    n: Any,
    n_resamples: int | None,
    seed: int,
    alpha: float,
    p_value_rule: str,
    decided: Sequence[str] = (),
    family: tuple[str, str] | None = None,
    extra: Sequence[tuple[str, Any]] = (),
) -> str:
    """The signature of a paired test (``method`` bootstrap or ar as asked; None: deltas only)
    of the runs or systems named by ``who`` on ``n`` shared items.

    The head names the test that decided (``decided``: the results' methods): ``exact`` for
    the exact sign-flip over all swaps, ``paired-ar`` with ``trials:`` and ``paired-bs`` with
    ``bs:``, joined by ``+`` when pairs at different n were decided by different tests; the
    asked ``method`` when no result says. ``family`` (name, correction) adds ``family:`` and
    ``correction:``; ``extra`` fields follow ``n`` (the clusters: ``cl:document|units:137``)."""
    fields: list[tuple[str, Any]] = [("task", task), who, ("n", n), *extra]
    heads = list(dict.fromkeys(_test_head(m) for m in decided))
    if method is None:
        heads = ["delta"]
        fields.append(("bs", "none"))
    else:
        if not heads:
            heads = ["paired-ar" if method == "ar" else "paired-bs"]
        if "paired-ar" in heads:
            ar_asked = method == "ar" and n_resamples is not None
            fields.append(("trials", n_resamples if ar_asked else _DEFAULT_TRIALS))
        if "paired-bs" in heads:
            fields.append(("bs", n_resamples))
    fields += [("seed", seed), ("alpha", alpha), ("p", p_value_rule)]
    if family is not None:
        fields += [("family", family[0]), ("correction", family[1])]
    fields.append(("assay", _version()))
    return fields_line("+".join(heads), fields)


#: approximate randomization's trials when the dispatch chose it for a bootstrap request
_DEFAULT_TRIALS = 10_000


def _test_head(method: str) -> str:
    """A result's method as a signature head: exact, paired-ar or paired-bs."""
    if method.startswith("exact"):
        return "exact"
    if method.startswith("approximate_randomization"):
        return "paired-ar"
    return "paired-bs"


def _version() -> str:
    from assay._version import __version__

    return __version__
