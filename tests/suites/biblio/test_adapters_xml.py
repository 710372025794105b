"""Safe XML parsing: XXE and billion-laughs payloads do nothing; bad files fail cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay._io.xml import XmlError, parse_xml, text_of
from assay.suites.biblio._lib.jats import jats_to_export
from assay.suites.biblio._lib.tei import tei_to_export

XXE = b"""<?xml version="1.0"?>
<!DOCTYPE article [<!ENTITY xxe SYSTEM "file:///etc/hostname">
<!ENTITY net SYSTEM "http://127.0.0.1:9/never">]>
<article><front><article-meta><title-group>
<article-title>Safe &xxe;&net; title</article-title></title-group></article-meta></front>
</article>"""

LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE article [<!ENTITY a "lol"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
<!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">]>
<article><front><article-meta><title-group><article-title>&f;</article-title>
</title-group></article-meta></front></article>"""


def test_xxe_reads_no_file_and_no_network() -> None:
    hostname = Path("/etc/hostname").read_text().strip() if Path("/etc/hostname").exists() else ""
    export = jats_to_export(XXE)
    title = export["metadata"]["title"]
    assert title == "Safe title"
    if hostname:
        assert hostname not in title


def test_billion_laughs_does_not_expand() -> None:
    """libxml2 refuses the amplification outright (a per-file failure); were it to parse, the
    entity would stay unexpanded and contribute no text."""
    try:
        export = jats_to_export(LAUGHS)
    except XmlError as err:
        assert "amplification" in str(err) or "entity" in str(err).lower()
        return
    assert export["metadata"]["title"] is None
    assert "lol" not in str(export)


def test_xxe_in_tei() -> None:
    tei = XXE.replace(
        b"<article><front><article-meta><title-group>",
        b"<TEI><teiHeader><fileDesc><titleStmt><title>",
    ).replace(
        b"<article-title>Safe &xxe;&net; title</article-title></title-group></article-meta>"
        b"</front>\n</article>",
        b"Safe &xxe; title</title></titleStmt></fileDesc></teiHeader></TEI>",
    )
    assert tei_to_export(tei)["metadata"]["title"] == "Safe title"


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "empty"),
        (b"   \n", "empty"),
        (b"<article><front>", "not well-formed"),
        (b'<?xml version="1.0" encoding="UTF-8"?><article>\xff\xfe</article>', "not well-formed"),
    ],
)
def test_bad_files_raise_xml_error(data: bytes, reason: str) -> None:
    with pytest.raises(XmlError, match=reason):
        parse_xml(data)


def test_wrong_document_kind() -> None:
    with pytest.raises(XmlError, match="not a JATS article"):
        jats_to_export(b"<TEI><teiHeader/></TEI>")
    with pytest.raises(XmlError, match="not a GROBID TEI"):
        tei_to_export(b"<article><front/></article>")


def test_text_of_skips_and_collapses() -> None:
    root = parse_xml(b"<p>One <label>1</label>two\n\n <b>three</b></p>")
    assert text_of(root, skip=("label",)) == "One two three"
