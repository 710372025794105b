"""GROBID TEI → export, and directory conversion with failure records."""

from __future__ import annotations

import json
from pathlib import Path

from assay.suites.biblio._lib.convert import convert_dir
from assay.suites.biblio._lib.tei import tei_to_export

TEI = b"""<?xml version="1.0" encoding="UTF-8"?>
<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc>
<titleStmt><title level="a" type="main">Management of cutaneous metastases</title></titleStmt>
<sourceDesc><biblStruct><analytic>
 <author role="corresp"><persName><forename type="first">Julie</forename>
  <forename type="middle">A</forename><surname>Gehl</surname></persName>
  <email>juge@example.org</email><idno type="ORCID">0000-0002-1825-0097</idno>
  <affiliation key="aff1"><note type="raw_affiliation"><label>1</label> Dept of Oncology, Herlev
  </note><orgName>ignored when raw exists</orgName></affiliation></author>
 <author><persName><forename type="first">Tobian</forename><surname>Muir</surname></persName>
  <affiliation><orgName type="department">Surgery</orgName><address><country>UK</country>
  </address></affiliation></author>
 <author><affiliation><orgName>Affiliation-only author element</orgName></affiliation></author>
</analytic><monogr><imprint><date/></imprint></monogr>
<idno type="DOI">10.3109/0284186X.2011.573626</idno></biblStruct></sourceDesc></fileDesc>
<encodingDesc><appInfo><application version="0.7.3" ident="GROBID"/></appInfo></encodingDesc>
<profileDesc><textClass><keywords><term>skin</term><term>ECT</term></keywords></textClass>
<abstract><div><p>Background. Cutaneous metastases.</p></div></abstract></profileDesc>
</teiHeader><text><body>
<div><head>Introduction</head><p>Intro text <ref type="bibr">[1]</ref>.</p></div>
<div><head>Methods</head><p>Methods text.</p><figure><head>Fig 1</head></figure></div>
</body><back><div type="references"><listBibl>
<biblStruct xml:id="b0"><analytic><title level="a" type="main">Cutaneous metastatic disease</title>
 <author><persName><forename type="first">R</forename><surname>Schwartz</surname></persName>
 </author>
 <idno type="DOI">10.1016/0190-9622(95)90040-3</idno></analytic>
 <monogr><title level="j">J Am Acad Dermatol</title>
 <editor><persName><forename>E</forename><surname>Editor</surname></persName></editor>
 <imprint><biblScope unit="volume">33</biblScope><biblScope unit="page" from="161" to="182"/>
 <date type="published" when="1995-03"/></imprint></monogr>
 <note type="raw_reference">Schwartz RA. Cutaneous metastatic disease. 1995;33:161-82.</note>
</biblStruct>
<biblStruct xml:id="b1"><monogr><title level="m">A book title</title>
 <author><persName><surname>Rolz-Cruz</surname></persName></author><imprint><date when="2008"/>
 </imprint></monogr><ptr target="https://doi.org/10.1000/book.1"/></biblStruct>
</listBibl></div></back></text></TEI>"""


def test_tei_front_matter() -> None:
    e = tei_to_export(TEI)
    assert e["metadata"]["title"] == "Management of cutaneous metastases"
    assert e["metadata"]["doi"] == "10.3109/0284186x.2011.573626"
    assert e["metadata"]["abstract"] == "Background. Cutaneous metastases."
    assert e["metadata"]["keywords"] == ["skin", "ECT"]
    assert e["extraction"]["producer"] == "GROBID"
    assert e["extraction"]["producer_version"] == "0.7.3"
    assert e["extraction"]["converter"] == "assay.adapters.tei"


def test_tei_authors() -> None:
    authors = tei_to_export(TEI)["authors"]
    assert [a["full_name"] for a in authors] == ["Julie A Gehl", "Tobian Muir"]
    gehl, muir = authors
    assert gehl["given"] == "Julie A" and gehl["family"] == "Gehl"
    assert gehl["affiliations"] == ["Dept of Oncology, Herlev"]
    assert muir["affiliations"] == ["Surgery, UK"]
    assert gehl["email"] == "juge@example.org" and gehl["orcid"] == "0000-0002-1825-0097"
    assert [a["corresponding"] for a in authors] == [True, False]


def test_tei_references() -> None:
    r0, r1 = tei_to_export(TEI)["references"]
    assert r0["doi"] == "10.1016/0190-9622(95)90040-3"  # a DOI inside <analytic>
    assert r0["title"] == "Cutaneous metastatic disease"
    assert r0["container"] == "J Am Acad Dermatol"
    assert [a["family"] for a in r0["authors"]] == ["Schwartz"]
    assert [a["family"] for a in r0["editors"]] == ["Editor"]
    assert (r0["year"], r0["volume"], r0["pages"]) == ("1995", "33", "161-182")
    assert r0["raw"].startswith("Schwartz RA.")
    assert r1["title"] == "A book title" and r1["container"] is None
    assert r1["doi"] == "10.1000/book.1" and r1["year"] == "2008"


def test_tei_sections_unknown() -> None:
    sections = tei_to_export(TEI)["sections"]
    assert [(s["type"], s["title"]) for s in sections] == [
        ("unknown", "Introduction"),
        ("unknown", "Methods"),
    ]
    assert sections[1]["text"] == "Methods text."


def test_convert_dir_records_failures(tmp_path: Path) -> None:
    src = tmp_path / "tei"
    (src / "sub").mkdir(parents=True)
    (src / "good.tei.xml").write_bytes(TEI)
    (src / "sub" / "broken.tei.xml").write_bytes(b"<TEI><teiHeader>")
    (src / "empty.tei.xml").write_bytes(b"")
    (src / "notes.txt").write_text("ignored")
    out = tmp_path / "out"
    report = convert_dir(
        src, out, tei_to_export, patterns=("*.tei.xml",), converter="c", producer="GROBID"
    )
    assert report.converted == ("good",)
    assert {f.id for f in report.failures} == {"broken", "empty"}
    assert json.loads((out / "good.json").read_text())["metadata"]["title"]
    lines = (out / "failures.jsonl").read_text().splitlines()
    assert len(lines) == 2
    info = json.loads((out / "run_info.json").read_text())
    assert info["failed"] == 2 and info["converted"] == 1
    assert sorted(p.name for p in out.glob("*.json")) == ["good.json", "run_info.json"]
