"""``assay demo translation``: a small synthetic German→English test set and three systems.

Every sentence is built from a phrase table (subject, verb, object, time), so the source, two
references and each system's hypotheses are known by construction. A system translates each
phrase correctly with its own probability, else makes one of the errors MT systems make: a
synonym (right for one reference only), a dropped phrase, a wrong tense or swapped word order.
System ``a`` is the strongest, ``b`` slightly weaker, ``c`` clearly weaker; ``b`` also has one
entry that errored (``error`` set, no prediction) and one blank prediction, which exercise
seed 001's entry rules.

Files (all under ``out``): test reports ``a.json``, ``b.json``, ``c.json`` and ``run_log.json``
(= ``a`` with a report-level plugin value); sacrebleu-style text ``ref.txt``, ``ref2.txt``,
``hyp.txt`` (= ``a``), ``base.txt`` (= ``b``), ``sys1.txt`` (= ``a``), ``sys2.txt`` (= ``c``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

#: (German, English reference 1, English reference 2) per phrase slot
SUBJECTS = [
    ("Die Katze", "The cat", "The cat"),
    ("Der Nachbar", "The neighbour", "The man next door"),
    ("Meine Schwester", "My sister", "My sister"),
    ("Der Lehrer", "The teacher", "The teacher"),
    ("Das Kind", "The child", "The kid"),
    ("Unser Chef", "Our boss", "Our manager"),
    ("Die Ärztin", "The doctor", "The physician"),
    ("Der Fahrer", "The driver", "The driver"),
]
VERBS = [
    ("liest", "reads", "is reading"),
    ("kauft", "buys", "is buying"),
    ("sucht", "looks for", "is looking for"),
    ("repariert", "repairs", "fixes"),
    ("bringt", "brings", "brings"),
    ("findet", "finds", "finds"),
]
OBJECTS = [
    ("ein altes Buch", "an old book", "an old book"),
    ("den roten Wagen", "the red car", "the red car"),
    ("eine warme Jacke", "a warm jacket", "a warm coat"),
    ("das kaputte Fahrrad", "the broken bicycle", "the broken bike"),
    ("frisches Brot", "fresh bread", "fresh bread"),
    ("die neue Zeitung", "the new newspaper", "today's paper"),
    ("einen kleinen Hund", "a small dog", "a little dog"),
]
TIMES = [
    ("heute Morgen", "this morning", "this morning"),
    ("am Abend", "in the evening", "in the evening"),
    ("jeden Tag", "every day", "daily"),
    ("nach der Arbeit", "after work", "after work"),
    ("am Wochenende", "at the weekend", "on the weekend"),
]
WRONG_TENSE = {"reads": "read", "buys": "bought", "looks for": "looked for", "repairs": "repaired"}
#: per system: probability that a phrase is translated as reference 1
QUALITY = {"a": 0.86, "b": 0.80, "c": 0.62}
N_SEGMENTS = 240


Phrase = tuple[str, str, str]


def _sentences(rng: np.random.Generator, n: int) -> list[list[Phrase]]:
    """n sentences, each one phrase from every slot table."""
    return [
        [table[int(rng.integers(len(table)))] for table in (SUBJECTS, VERBS, OBJECTS, TIMES)]
        for _ in range(n)
    ]


def _join(words: list[str]) -> str:
    text = " ".join(words)
    return text[0].upper() + text[1:] + "."


def _translate(rng: np.random.Generator, parts: list[Phrase], quality: float) -> str:
    """One hypothesis: each phrase right, a synonym, dropped or mistranslated."""
    out = []
    for k, (_, ref1, ref2) in enumerate(parts):
        u = float(rng.random())
        if u < quality:
            out.append(ref1)
        elif u < quality + (1 - quality) * 0.4:
            out.append(ref2)
        elif u < quality + (1 - quality) * 0.6 and k >= 2:
            continue  # dropped
        elif k == 1:
            out.append(WRONG_TENSE.get(ref1, ref1 + "s"))
        else:
            out.append(" ".join(reversed(ref1.split())))
    if float(rng.random()) < (1 - quality) * 0.3 and len(out) == 4:
        out[2], out[3] = out[3], out[2]  # word order
    return _join(out)


def _report(entries: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"source_lang": "de", "target_lang": "en", **extra, "entries": entries}


def write_demo(out: Path) -> list[Path]:
    """Write the reports and text files described in the module docstring; return their paths."""
    rng = np.random.default_rng(2022)
    out.mkdir(parents=True, exist_ok=True)
    sentences = _sentences(rng, N_SEGMENTS)
    hyps: dict[str, list[str]] = {name: [] for name in QUALITY}
    for name, quality in QUALITY.items():
        hyps[name] = [_translate(rng, parts, quality) for parts in sentences]
    refs1 = [_join([p[1] for p in parts]) for parts in sentences]
    refs2 = [_join([p[2] for p in parts]) for parts in sentences]
    sources = [_join([p[0] for p in parts]) for parts in sentences]
    written: list[Path] = []

    def dump(name: str, data: dict[str, Any]) -> None:
        path = out / name
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)

    for name in QUALITY:
        entries: list[dict[str, Any]] = []
        for i, hyp in enumerate(hyps[name]):
            entry: dict[str, Any] = {
                "id": f"s{i + 1:03d}",
                "source": sources[i],
                "expected": [refs1[i], refs2[i]],
                "predicted": hyp,
                "error": None,
            }
            if name == "b" and i == 7:
                entry.update(predicted=None, error="timeout")
            if name == "b" and i == 11:
                entry.update(predicted="")
            entries.append(entry)
        dump(f"{name}.json", _report(entries))
        if name == "a":
            plugin = {"fluency_check": {"avg_fluency": 0.93}}
            dump("run_log.json", _report(entries, plugin_metrics=plugin))

    def lines(name: str, rows: list[str]) -> None:
        path = out / name
        path.write_text("".join(r + "\n" for r in rows), encoding="utf-8")
        written.append(path)

    lines("ref.txt", refs1)
    lines("ref2.txt", refs2)
    lines("hyp.txt", hyps["a"])
    lines("base.txt", hyps["b"])
    lines("sys1.txt", hyps["a"])
    lines("sys2.txt", hyps["c"])
    return written
