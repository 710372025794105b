"""A synthetic claim-extraction round trip (seed 003): a curated claim tree and two extraction
runs that reword it the way an LLM pipeline does.

Eight papers of five curated claims each (``reference/``, the claim-tree layout: ``index.md`` and
one markdown file with YAML front matter a claim). Two extractions, written in other words:

- ``extracted-v1/`` (claim tree): the fifth claim of every paper is missed, the second claim of
  even papers is split in two, every paper has one spurious methods claim, odd papers give the
  third claim another role, and one claim file of the first paper has broken YAML;
- ``extracted-v2.jsonl`` (one claim a line): the same, but the fifth claims are found and the
  broken file is fixed — the "prompt change" whose effect ``assay claims diff`` judges.

Nothing here comes from a real paper; the figures in suites/claims/docs.md about matcher accuracy
are measured on the public claim trees instead (``benchmarks/bench_claims.py --accuracy``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml


@dataclass(frozen=True)
class _Topic:
    paper: str
    region: str
    other_region: str
    measure: str
    manipulation: str
    gene: str
    function: str
    fold: int
    minutes: int


TOPICS = (
    _Topic(
        "ames-2025-place-cells",
        "hippocampal CA1",
        "dentate gyrus",
        "place-field stability",
        "environmental enrichment",
        "Arc",
        "spatial memory",
        2,
        30,
    ),
    _Topic(
        "brandt-2025-striatal-ach",
        "dorsal striatum",
        "nucleus accumbens",
        "acetylcholine release",
        "reward omission",
        "Chat",
        "action selection",
        3,
        5,
    ),
    _Topic(
        "costa-2025-cortical-sst",
        "barrel cortex",
        "visual cortex",
        "somatostatin interneuron firing",
        "whisker deprivation",
        "Sst",
        "sensory gating",
        4,
        60,
    ),
    _Topic(
        "dias-2025-zebrafish-sleep",
        "zebrafish hypothalamus",
        "optic tectum",
        "galanin neuron activity",
        "sleep deprivation",
        "Galn",
        "sleep homeostasis",
        2,
        90,
    ),
    _Topic(
        "evans-2025-fly-olfaction",
        "fly mushroom body",
        "antennal lobe",
        "dopamine neuron calcium",
        "odor-shock pairing",
        "DopR1",
        "aversive learning",
        5,
        10,
    ),
    _Topic(
        "fujita-2025-astrocyte-glu",
        "somatosensory cortex",
        "thalamus",
        "astrocytic glutamate uptake",
        "sustained stimulation",
        "Slc1a2",
        "synaptic fidelity",
        2,
        15,
    ),
    _Topic(
        "garcia-2025-vta-stress",
        "ventral tegmental area",
        "substantia nigra",
        "dopamine neuron bursting",
        "social defeat stress",
        "Crhr1",
        "stress coping",
        3,
        45,
    ),
    _Topic(
        "haas-2025-cerebellar-timing",
        "cerebellar cortex",
        "deep cerebellar nuclei",
        "Purkinje cell complex spikes",
        "eyeblink conditioning",
        "Grid2",
        "motor timing",
        2,
        20,
    ),
)

SPURIOUS = "Animals were housed on a twelve-hour light cycle with food and water ad libitum."


def _reference(t: _Topic) -> list[dict[str, Any]]:
    """The curator's five claims: slug, claim, role, panel."""
    return [
        {
            "slug": "manipulation-increases-measure",
            "claim": f"{t.manipulation.capitalize()} increases {t.measure} in the {t.region} by "
            f"approximately {t.fold}-fold relative to matched controls, across all animals "
            "tested.",
            "role": "empirical",
            "panel": "fig1B, fig1C",
        },
        {
            "slug": "gene-required-for-increase",
            "claim": f"Conditional knockout of {t.gene} abolishes this increase while leaving "
            "baseline activity unchanged.",
            "role": "control",
            "panel": "fig2C",
        },
        {
            "slug": "increase-decays-within-minutes",
            "claim": f"The increase decays to baseline within {t.minutes} minutes after the "
            "stimulus ends.",
            "role": "empirical",
            "panel": "fig3A",
        },
        {
            "slug": "hypothesis-mechanism-supports-function",
            "claim": f"We propose that this {t.gene}-dependent mechanism is a substrate of "
            f"{t.function}.",
            "role": "hypothesis",
            "panel": "hypothesis",
        },
        {
            "slug": "effect-absent-elsewhere",
            "claim": f"No comparable effect appears in the {t.other_region}, indicating regional "
            "specificity.",
            "role": "empirical",
            "panel": "fig4D",
        },
    ]


def _rewrites(t: _Topic) -> dict[str, str]:
    """What an LLM pipeline writes for each curated claim (other words, same proposition)."""
    return {
        "manipulation-increases-measure": f"{t.manipulation.capitalize()} makes {t.measure} in "
        f"the {t.region} about {t.fold} times higher than in control animals.",
        "gene-required-for-increase": f"Knocking out {t.gene} removes the increase, though "
        "baseline activity stays normal.",
        "increase-decays-within-minutes": f"Once the stimulus stops, the increase fades back to "
        f"baseline in under {t.minutes} minutes.",
        "hypothesis-mechanism-supports-function": f"This {t.gene}-dependent mechanism may "
        f"underlie {t.function}.",
        "effect-absent-elsewhere": f"The {t.other_region} shows no comparable effect.",
    }


def _extraction(k: int, t: _Topic, *, finds_fifth: bool) -> list[dict[str, Any]]:
    refs, words = _reference(t), _rewrites(t)
    out: list[dict[str, Any]] = []
    for i, ref in enumerate(refs):
        if i == 4 and not finds_fifth:
            continue
        role = "interpretation" if (i == 2 and k % 2) else ref["role"]
        panel = None if ref["panel"] == "hypothesis" else ref["panel"]
        text = words[ref["slug"]]
        if i == 1 and k % 2 == 0:
            first, second = text.split(", ", 1)
            out.append({"slug": f"cli-{i}a", "claim": first + ".", "role": role, "panel": panel})
            out.append(
                {
                    "slug": f"cli-{i}b",
                    "claim": second[0].upper() + second[1:],
                    "role": role,
                    "panel": panel,
                }
            )
            continue
        out.append({"slug": f"cli-{i}", "claim": text, "role": role, "panel": panel})
    out.append(
        {"slug": "cli-methods", "claim": SPURIOUS, "role": "methodological", "panel": "fig1A"}
    )
    return out


def _front_matter(data: dict[str, Any]) -> str:
    return "---\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True) + "---\n"


def _write_tree(root: Path, papers: dict[str, list[dict[str, Any]]]) -> Path:
    for paper, claims in papers.items():
        d = root / paper
        d.mkdir(parents=True, exist_ok=True)
        doi = f"10.5555/demo.{paper.split('-')[0]}"
        (d / "index.md").write_text(_front_matter({"paper-slug": paper, "doi": doi}))
        for c in claims:
            front = {k: v for k, v in c.items() if v is not None}
            (d / f"{c['slug']}.md").write_text(_front_matter(front))
    return root


def write_demo(out: Path) -> list[Path]:
    """Write the demo under ``out``: ``reference/``, ``extracted-v1/``, ``extracted-v2.jsonl``
    (see the module docstring); returns those three paths. Deterministic."""
    out.mkdir(parents=True, exist_ok=True)
    reference = _write_tree(out / "reference", {t.paper: _reference(t) for t in TOPICS})
    v1 = {t.paper: _extraction(k, t, finds_fifth=False) for k, t in enumerate(TOPICS)}
    v1_root = _write_tree(out / "extracted-v1", v1)
    broken = v1_root / TOPICS[0].paper / "cli-3.md"
    broken.write_text("---\nslug: cli-3\nclaim: [This Arc-dependent mechanism\n---\n")
    rows = [
        {"paper": t.paper, **c}
        for k, t in enumerate(TOPICS)
        for c in _extraction(k, t, finds_fifth=True)
    ]
    v2 = out / "extracted-v2.jsonl"
    v2.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    return [reference, v1_root, v2]
