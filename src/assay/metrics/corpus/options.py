"""sacrebleu 2.x's BLEU, chrF and TER options, preprocessing and signatures, without sacrebleu.

sacrebleu's package ``__init__`` imports every metric, its dataset tables, lxml, portalocker,
tabulate and colorama (~14.5 MiB of resident memory, 0.13 s), and Python runs a package's
``__init__`` before any of its submodules. The default path of ``mt test``, ``score translation``
and ``mt sacrebleu`` therefore preprocesses with these classes instead, written from sacrebleu's
documented behaviour (facts, not its code) and checked against it by differential tests
(``tests/suites/translation/test_translation_options.py``):

* chrF/chrF++: lowercasing when asked; words for the word n-grams are the whitespace-split
  tokens, a token longer than one character losing one trailing punctuation mark into a token
  of its own, else one leading one (``(hi)`` → ``(hi``, ``)``);
* BLEU: lowercasing when asked, trailing whitespace stripped, then the tokenizer: ``13a``
  (:func:`assay.metrics.corpus.tokenize13a.tokenize_13a`) or ``none``;
* TER (tercom defaults): lowercased unless case-sensitive, whitespace runs collapsed.

Options this module does not implement (the other BLEU tokenizers — ``intl``, ``char``, ``zh``,
``ja-mecab``, ``ko-mecab``, ``spm``, ``flores*`` — and TER's ``normalized``/``no_punct``) are
handed to sacrebleu's own objects, imported only then (:meth:`BleuOptions.fallback`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from assay.metrics.corpus.tokenize13a import tokenize_13a

#: chrF's punctuation: the ASCII punctuation characters (Popović's chrF++ word splitter)
CHRF_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
#: BLEU tokenizers implemented here (the others are sacrebleu's, imported on use)
NATIVE_TOKENIZERS = frozenset({"13a", "none"})
#: sacrebleu's BLEU smoothing methods and their default values (None: no value)
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1.0, "exp": None}


def sacrebleu_version() -> str:
    """The installed sacrebleu's version (its distribution metadata: no import of the package)."""
    from importlib.metadata import version

    return version("sacrebleu")


def signature_line(n_refs: int, fields: list[tuple[str, Any]]) -> str:
    """sacrebleu's long signature: ``nrefs:…`` (``var`` for -1), the metric's fields in order,
    ``version:…`` last; booleans as yes/no."""
    pairs = [("nrefs", "var" if n_refs == -1 else n_refs), *fields]
    pairs.append(("version", sacrebleu_version()))
    out = []
    for key, value in pairs:
        if isinstance(value, bool):
            value = "yes" if value else "no"
        out.append(f"{key}:{value}")
    return "|".join(out)


@dataclass(frozen=True)
class ChrfOptions:
    """sacrebleu ``CHRF``'s options (word_order 2 is chrF++)."""

    char_order: int = 6
    word_order: int = 0
    beta: int = 2
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    @property
    def order(self) -> int:
        return self.char_order + self.word_order

    def preprocess(self, sent: str) -> str:
        return sent.lower() if self.lowercase else sent

    def words(self, sent: str) -> list[str]:
        """The word n-grams' tokens: punctuation split off each token's end, else its start."""
        out: list[str] = []
        for w in sent.split():
            if len(w) > 1 and w[-1] in CHRF_PUNCTUATION:
                out += (w[:-1], w[-1])
            elif len(w) > 1 and w[0] in CHRF_PUNCTUATION:
                out += (w[0], w[1:])
            else:
                out.append(w)
        return out

    def signature(self, n_refs: int) -> str:
        return signature_line(
            n_refs,
            [
                ("case", "lc" if self.lowercase else "mixed"),
                ("eff", not self.eps_smoothing),
                ("nc", self.char_order),
                ("nw", self.word_order),
                ("space", self.whitespace),
            ],
        )


@dataclass(frozen=True)
class BleuOptions:
    """sacrebleu ``BLEU``'s options."""

    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: float | None = None
    effective_order: bool = False
    max_ngram_order: int = 4

    def __post_init__(self) -> None:
        if self.smooth_method not in SMOOTH_DEFAULTS:
            raise ValueError(f"unknown BLEU smooth_method {self.smooth_method!r}")
        if self.tokenize not in NATIVE_TOKENIZERS:
            self.fallback()  # sacrebleu's own error for an unknown tokenizer, at once

    def fallback(self) -> Any:
        """sacrebleu's ``BLEU`` with these options, for the tokenizers not implemented here."""
        return _sacrebleu_bleu(
            self.tokenize, self.lowercase, self.smooth_method, self.smooth_value,
            self.effective_order, self.max_ngram_order,
        )  # fmt: skip

    def preprocess(self, sent: str) -> str:
        """Lowercase when asked, strip the end, tokenize (what BLEU n-grams are counted on)."""
        if self.tokenize not in NATIVE_TOKENIZERS:
            return str(self.fallback()._preprocess_segment(sent))
        if self.lowercase:
            sent = sent.lower()
        sent = sent.rstrip()
        if self.tokenize == "13a":
            return tokenize_13a(sent)
        return sent

    def tokenizer_signature(self) -> str:
        if self.tokenize in NATIVE_TOKENIZERS:
            return self.tokenize
        return str(self.fallback().tokenizer_signature)

    def signature(self, n_refs: int) -> str:
        smooth = self.smooth_method
        default = SMOOTH_DEFAULTS[smooth]
        if default is not None:
            value = self.smooth_value if self.smooth_value is not None else default
            smooth += f"[{value:.2f}]"
        return signature_line(
            n_refs,
            [
                ("case", "lc" if self.lowercase else "mixed"),
                ("eff", self.effective_order),
                ("tok", self.tokenizer_signature()),
                ("smooth", smooth),
            ],
        )


@dataclass(frozen=True)
class TerOptions:
    """sacrebleu ``TER``'s options (tercom tokenization)."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    @property
    def native(self) -> bool:
        """Whether :meth:`preprocess` runs here (``normalized``/``no_punct`` are sacrebleu's)."""
        return not (self.normalized or self.no_punct)

    @cached_property
    def _fallback_tokenizer(self) -> Any:
        from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

        return TercomTokenizer(
            normalized=self.normalized,
            no_punct=self.no_punct,
            asian_support=self.asian_support,
            case_sensitive=self.case_sensitive,
        )

    def preprocess(self, sent: str) -> str:
        """The end stripped, lowercased unless case-sensitive, whitespace runs made one space."""
        sent = sent.rstrip()
        if not self.native:
            return str(self._fallback_tokenizer(sent))
        if not self.case_sensitive:
            sent = sent.lower()
        return " ".join(sent.split())

    def signature(self, n_refs: int) -> str:
        return signature_line(
            n_refs,
            [
                ("case", "mixed" if self.case_sensitive else "lc"),
                ("tok", "tercom"),
                ("norm", self.normalized),
                ("punct", not self.no_punct),
                ("asian", self.asian_support),
            ],
        )


@lru_cache(maxsize=16)
def _sacrebleu_bleu(
    tokenize: str,
    lowercase: bool,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    max_ngram_order: int,
) -> Any:
    from sacrebleu.metrics.bleu import BLEU

    return BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=effective_order,
        max_ngram_order=max_ngram_order,
    )
