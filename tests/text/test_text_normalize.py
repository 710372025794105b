"""Tests for assay._text.normalize: Latin accents stripped, other scripts' marks kept."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay._text import normalize_text, strip_latin_diacritics
from assay._text.normalize import _SCAN_RANGES

# Text rich in the cases that matter: Latin/Greek/Cyrillic bases, combining marks, compatibility
# characters, case-folding specials; mixed with arbitrary code points.
_TRICKY = (
    "aAeEiIoOuUyYzZıİßẞſǅǰ"
    "ÅåÆæØøŁłĐđŒœ"
    "αΑιΙσςΣΐΰᾳᾼͺ"
    "иИйЙёЁ"
    "कि्ँ"
    "مَ"
    "שָׁ"
    "\u0300\u0301\u0302\u0303\u0306\u0307\u0308\u030a\u030c\u0323\u0327\u0328\u0338\u0340"
    "\u0342\u0343\u0344\u0345\u034f\u0653\u05b8\u093c\u0e31\u0e48\u3099\u309a\u20dd\ufe0f"
    "ﬁﬀＡｚ①℃™ｶﾞ゛㌀Ω℡ǈ<=> _-.\t"
)
_texts = st.text(alphabet=st.sampled_from(_TRICKY) | st.characters(), max_size=30)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Ångström", "angstrom"),
        ("ﬁ", "fi"),
        ("ＡＢＣ", "abc"),
        ("Straße", "strasse"),
        ("", ""),
        ("Hello, World 42!", "hello, world 42!"),
        # Vietnamese: stacked marks all go; đ has no decomposition and stays.
        ("Tiếng Việt", "tieng viet"),
        ("Đường phố", "đuong pho"),
        # Polish: ł has no canonical decomposition, so it stays ł.
        ("Łódź Żółć", "łodz zołc"),
        ("Gdańsk, Kraków", "gdansk, krakow"),
        # German.
        ("Müller Größe ÄÖÜ", "muller grosse aou"),
        # French: œ and æ are ligature letters, not decompositions, so they stay.
        ("Élève naïve garçon cœur", "eleve naive garcon cœur"),
        # Czech.
        ("Příliš žluťoučký kůň úpěl ďábelské ódy", "prilis zlutoucky kun upel dabelske ody"),
        # Turkish dotted capital I folds to i + dot above, and the dot is stripped.
        ("İstanbul", "istanbul"),
        # Compatibility forms.
        ("℃ ① ™", "°c 1 tm"),
        ("ｶﾞ", "ガ"),
    ],
)
def test_normalize_text_examples(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # Greek tonos is not Latin: kept (and recomposed by NFC).
        ("Ελληνικά", "ελληνικά"),
        ("Ά", "ά"),
        # Cyrillic й keeps its breve, ё its diaeresis.
        ("Йод ёж", "йод ёж"),
        # Devanagari vowel signs, virama and candrabindu are kept.
        ("हिन्दी चाँद", "हिन्दी चाँद"),
        # Arabic harakat and Hebrew points are kept.
        ("مَدْرَسَة", "مَدْرَسَة"),
        ("שָׁלוֹם", "שָׁלוֹם"),
    ],
)
def test_normalize_text_keeps_non_latin_marks(raw: str, expected: str) -> None:
    assert normalize_text(raw) == expected


def test_strip_latin_diacritics_keeps_case_and_other_scripts() -> None:
    assert strip_latin_diacritics("Ångström Ελληνικά Йод") == "Angstrom Ελληνικά Йод"
    assert strip_latin_diacritics("Łódź") == "Łodz"
    assert strip_latin_diacritics("") == ""


def test_marks_without_a_latin_base_are_kept() -> None:
    # A mark at the start, or after a space or digit, has no Latin base and is kept.
    assert strip_latin_diacritics("\u0301a") == "\u0301a"
    assert strip_latin_diacritics("1\u0301 a\u0301") == "1\u0301 a"


def test_strip_latin_diacritics_recomposes_kept_marks() -> None:
    # Half-width ｶ + ﾞ becomes ガ; Cyrillic а + combining breve becomes ӑ (U+04D1).
    assert strip_latin_diacritics("ｶﾞ кра\u0306") == "ガ кр\u04d1"


def test_scan_ranges_cover_all_selected_code_points() -> None:
    # The character sets are built by scanning only _SCAN_RANGES; every mark and every
    # LATIN-named code point in the Unicode database must lie inside them.
    covered = {cp for r in _SCAN_RANGES for cp in r}
    for cp in range(sys.maxunicode + 1):
        if cp in covered:
            continue
        ch = chr(cp)
        assert not unicodedata.combining(ch), hex(cp)
        assert not unicodedata.category(ch).startswith("M"), hex(cp)
        assert not unicodedata.name(ch, "").startswith("LATIN"), hex(cp)


def test_normalize_text_idempotent_on_every_code_point() -> None:
    # Planes 0-3 and 14 hold every assigned non-private code point; the rest would only
    # triple the run time.
    for cp in [*range(0xD800), *range(0xE000, 0x40000), *range(0xE0000, 0xE1000)]:
        once = normalize_text(chr(cp))
        assert normalize_text(once) == once, hex(cp)


@given(_texts)
def test_normalize_text_idempotent(text: str) -> None:
    once = normalize_text(text)
    assert normalize_text(once) == once


def _reference_strip(text: str) -> str:
    """The rule, one character at a time: drop combining marks whose base is LATIN ..."""
    kept: list[str] = []
    base = ""
    for ch in unicodedata.normalize("NFKD", text):
        if not unicodedata.combining(ch):
            base = ch
        elif base and unicodedata.name(base, "").startswith("LATIN"):
            continue
        kept.append(ch)
    return unicodedata.normalize("NFC", "".join(kept))


@given(_texts)
def test_strip_latin_diacritics_matches_reference(text: str) -> None:
    assert strip_latin_diacritics(text) == _reference_strip(text)


@given(_texts)
def test_strip_latin_diacritics_idempotent(text: str) -> None:
    once = strip_latin_diacritics(text)
    assert strip_latin_diacritics(once) == once


@given(_texts)
def test_normalize_text_output_is_nfc(text: str) -> None:
    out = normalize_text(text)
    assert unicodedata.is_normalized("NFC", out)


@given(st.text(alphabet=st.characters(codec="ascii")))
def test_normalize_text_ascii_is_lower(text: str) -> None:
    assert normalize_text(text) == text.lower()
