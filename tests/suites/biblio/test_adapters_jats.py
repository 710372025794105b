"""JATS → gold export: the main abstract, direct-child authors with collaborations,
affiliations through xref, references of every citation kind with their DOIs."""

from __future__ import annotations

from assay.suites.biblio._lib.jats import jats_to_export, section_type

ARTICLE = b"""<?xml version="1.0"?>
<article xmlns:xlink="http://www.w3.org/1999/xlink"><front><article-meta>
<article-id pub-id-type="doi">10.7554/eLife.00013</article-id>
<title-group><article-title>A bacterial sulfonolipid<xref ref-type="fn" rid="f1">*</xref>
triggers rosettes</article-title></title-group>
<contrib-group>
 <contrib contrib-type="author" corresp="yes"><name><surname>Alegado</surname>
  <given-names>Rosanna A</given-names></name><xref ref-type="aff" rid="aff1"/>
  <email>ra@example.org</email>
  <contrib-id contrib-id-type="orcid">http://orcid.org/0000-0002-1825-0097</contrib-id></contrib>
 <contrib contrib-type="author"><collab>The Consortium
  <contrib-group><contrib><name><surname>Member</surname><given-names>One</given-names></name>
  </contrib><contrib><name><surname>Member</surname><given-names>Two</given-names></name></contrib>
  </contrib-group></collab></contrib>
 <contrib contrib-type="author"><name><surname>King</surname><given-names>Nicole</given-names>
  </name><xref ref-type="aff" rid="aff1 aff2"/></contrib>
 <contrib contrib-type="editor"><name><surname>Editor</surname><given-names>E</given-names></name>
 </contrib>
</contrib-group>
<aff id="aff1"><label>1</label>Department of Biology, Berkeley, United States</aff>
<aff id="aff2"><sup>2</sup> Howard Hughes Medical Institute, Chevy Chase, United States</aff>
<abstract abstract-type="teaser"><p>Not this one.</p></abstract>
<abstract><title>Abstract</title><sec><title>Background</title><p>First part.</p></sec>
 <sec><title>Results</title><p>Second part.</p></sec></abstract>
<abstract abstract-type="executive-summary"><p>The digest, not the abstract.</p></abstract>
<kwd-group kwd-group-type="author-keywords"><kwd>choanoflagellate</kwd><kwd>rosette</kwd>
</kwd-group>
<kwd-group kwd-group-type="research-organism"><kwd>None</kwd></kwd-group>
</article-meta></front>
<body><p>Loose opening text.</p>
<sec sec-type="intro"><title>Introduction</title><p>Intro text.</p>
 <fig><caption><p>Figure caption</p></caption></fig></sec>
<sec><title>Materials and methods</title><p>Methods text.</p></sec></body>
<back><ref-list>
<ref id="r1"><element-citation publication-type="journal"><person-group person-group-type="author">
 <name><surname>Ahmed</surname><given-names>I</given-names></name></person-group>
 <person-group person-group-type="editor"><name><surname>Ed</surname><given-names>X</given-names>
 </name></person-group>
 <year>2007</year><article-title>A boron-tolerant bacterium</article-title>
 <source>Int J Syst Evol Microbiol</source><volume>57</volume><fpage>986</fpage><lpage>992</lpage>
 <pub-id pub-id-type="doi">10.1099/ijs.0.64728-0</pub-id></element-citation></ref>
<ref id="r2"><label>2</label><mixed-citation publication-type="journal"><string-name>
 <surname>Smith</surname> <given-names>J</given-names></string-name>. <article-title>Title two
 </article-title>. <source>Nature</source> <year>2010</year>; <volume>4</volume>:<fpage>1</fpage>.
 <ext-link ext-link-type="uri" xlink:href="https://doi.org/10.1038/nature.2">doi</ext-link>
 </mixed-citation></ref>
<ref id="r3"><citation citation-type="book"><name><surname>Agosta</surname></name>
 <source>Chemical communication</source><year>1992</year></citation></ref>
</ref-list></back></article>"""


def test_front_matter() -> None:
    e = jats_to_export(ARTICLE)
    m = e["metadata"]
    assert m["title"] == "A bacterial sulfonolipid triggers rosettes"
    assert m["doi"] == "10.7554/elife.00013"
    assert m["abstract"] == "Background First part. Results Second part."
    assert m["keywords"] == ["choanoflagellate", "rosette"]
    assert e["extraction"]["producer"] == "JATS"


def test_authors_direct_children_with_collab() -> None:
    authors = jats_to_export(ARTICLE)["authors"]
    assert [a["full_name"] for a in authors] == [
        "Rosanna A Alegado",
        "The Consortium",
        "Nicole King",
    ]
    first, _, king = authors
    assert first["given"] == "Rosanna A" and first["family"] == "Alegado"
    assert first["affiliations"] == ["Department of Biology, Berkeley, United States"]
    assert king["affiliations"][1] == "Howard Hughes Medical Institute, Chevy Chase, United States"
    assert first["email"] == "ra@example.org"
    assert first["orcid"] == "http://orcid.org/0000-0002-1825-0097"
    assert [a["corresponding"] for a in authors] == [True, False, False]


def test_references() -> None:
    refs = jats_to_export(ARTICLE)["references"]
    assert len(refs) == 3
    r1, r2, r3 = refs
    assert r1["doi"] == "10.1099/ijs.0.64728-0" and r1["pages"] == "986-992"
    assert [a["family"] for a in r1["authors"]] == ["Ahmed"]
    assert [a["family"] for a in r1["editors"]] == ["Ed"]
    assert r1["raw"] is None
    assert r2["doi"] == "10.1038/nature.2"
    assert r2["raw"] is not None and r2["raw"].startswith("Smith J. Title two")
    assert r3["title"] == "Chemical communication" and r3["container"] is None


def test_sections() -> None:
    sections = jats_to_export(ARTICLE)["sections"]
    assert [(s["type"], s["title"]) for s in sections] == [
        ("body", None),
        ("introduction", "Introduction"),
        ("methods", "Materials and methods"),
    ]
    assert sections[1]["text"] == "Intro text."


def test_section_type() -> None:
    assert section_type("Results and discussion") == "results"
    assert section_type("", "materials|methods") == "methods"
    assert section_type("Ideas") == "other"
