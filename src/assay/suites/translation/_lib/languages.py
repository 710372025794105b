"""XLM-R's training languages: COMET models built on XLM-R are unreliable outside them.

The 100 CC-100 languages of XLM-R (Conneau et al., 2020) by ISO 639-1 code; the seven script
variants (romanized Bengali, Hindi, Tamil, Telugu and Urdu, Zawgyi Burmese, traditional
Chinese) share a code with their language, so 93 codes cover all 100.
"""

from __future__ import annotations

XLMR_LANGUAGES: dict[str, str] = {
    "af": "Afrikaans", "am": "Amharic", "ar": "Arabic", "as": "Assamese",
    "az": "Azerbaijani", "be": "Belarusian", "bg": "Bulgarian", "bn": "Bengali",
    "br": "Breton", "bs": "Bosnian", "ca": "Catalan", "cs": "Czech", "cy": "Welsh",
    "da": "Danish", "de": "German", "el": "Greek", "en": "English", "eo": "Esperanto",
    "es": "Spanish", "et": "Estonian", "eu": "Basque", "fa": "Persian", "fi": "Finnish",
    "fr": "French", "fy": "Western Frisian", "ga": "Irish", "gd": "Scottish Gaelic",
    "gl": "Galician", "gu": "Gujarati", "ha": "Hausa", "he": "Hebrew", "hi": "Hindi",
    "hr": "Croatian", "hu": "Hungarian", "hy": "Armenian", "id": "Indonesian",
    "is": "Icelandic", "it": "Italian", "ja": "Japanese", "jv": "Javanese",
    "ka": "Georgian", "kk": "Kazakh", "km": "Khmer", "kn": "Kannada", "ko": "Korean",
    "ku": "Kurdish (Kurmanji)", "ky": "Kyrgyz", "la": "Latin", "lo": "Lao",
    "lt": "Lithuanian", "lv": "Latvian", "mg": "Malagasy", "mk": "Macedonian",
    "ml": "Malayalam", "mn": "Mongolian", "mr": "Marathi", "ms": "Malay", "my": "Burmese",
    "ne": "Nepali", "nl": "Dutch", "no": "Norwegian", "om": "Oromo", "or": "Oriya",
    "pa": "Punjabi", "pl": "Polish", "ps": "Pashto", "pt": "Portuguese", "ro": "Romanian",
    "ru": "Russian", "sa": "Sanskrit", "sd": "Sindhi", "si": "Sinhala", "sk": "Slovak",
    "sl": "Slovenian", "so": "Somali", "sq": "Albanian", "sr": "Serbian",
    "su": "Sundanese", "sv": "Swedish", "sw": "Swahili", "ta": "Tamil", "te": "Telugu",
    "th": "Thai", "tl": "Filipino", "tr": "Turkish", "ug": "Uyghur", "uk": "Ukrainian",
    "ur": "Urdu", "uz": "Uzbek", "vi": "Vietnamese", "xh": "Xhosa", "yi": "Yiddish",
    "zh": "Chinese",
}  # fmt: skip

#: codes people use for the same languages (ISO 639-2/3, legacy and regional forms)
_ALIASES = {
    "nb": "no", "nn": "no", "iw": "he", "in": "id", "ji": "yi", "fil": "tl", "jw": "jv",
    "zho": "zh", "cmn": "zh", "eng": "en", "deu": "de", "ger": "de", "ces": "cs",
    "cze": "cs", "fra": "fr", "fre": "fr", "spa": "es", "rus": "ru", "jpn": "ja",
}  # fmt: skip


def base_code(code: str) -> str:
    """'pt-BR' → 'pt', 'zh_Hant' → 'zh', 'nob' stays 'nob'; aliases resolved."""
    base = code.strip().replace("_", "-").split("-")[0].lower()
    return _ALIASES.get(base, base)


def in_xlmr(code: str) -> bool:
    """True when the language is one of XLM-R's training languages."""
    return base_code(code) in XLMR_LANGUAGES


def low_resource_warnings(source_lang: str | None, target_lang: str | None) -> list[str]:
    """One warning per side whose language XLM-R (and so COMET) was not trained on."""
    out = []
    for side, code in (("source", source_lang), ("target", target_lang)):
        if code and not in_xlmr(code):
            out.append(
                f"{side} language {code!r} is not among XLM-R's 100 training languages: "
                "COMET scores for it are unreliable (low-resource)"
            )
    return out
