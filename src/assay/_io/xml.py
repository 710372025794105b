"""Safe XML parsing for the adapters: no DTD loading, no entity expansion, no network.

External entities (XXE) are never fetched and internal ones (billion laughs) never expanded:
an entity reference stays an unexpanded node that contributes no text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from lxml import etree

__all__ = [
    "XmlError",
    "children",
    "find_all",
    "first",
    "local_name",
    "parse_xml",
    "text_of",
]

_SPACE = re.compile(r"\s+")
#: elements that are blocks in JATS or TEI: their text never runs into a neighbour's
_BLOCKS = frozenset(
    {
        "p",
        "title",
        "sec",
        "label",
        "list",
        "list-item",
        "caption",
        "td",
        "th",
        "tr",
        "div",
        "head",
        "abstract",
        "ab",
        "item",
        "note",
        "aff",
        "def",
        "term",
        "disp-quote",
    }
)


class XmlError(ValueError):
    """A file that is not well-formed XML (or empty, or not valid in its encoding)."""


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )


def parse_xml(data: bytes) -> etree._Element:
    """Parse bytes into a root element with namespaces stripped from element names.

    Raises XmlError on empty input, malformed XML or bytes invalid in the declared encoding.
    """
    if not data.strip():
        raise XmlError("empty file")
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as err:
        raise XmlError(f"not well-formed XML: {err}") from None
    except ValueError as err:  # e.g. an unsupported encoding declaration
        raise XmlError(f"not readable XML: {err}") from None
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag.startswith("{"):
            el.tag = etree.QName(el).localname
    return root


def local_name(el: etree._Element) -> str:
    """The element's name ("" for entity references and other non-element nodes)."""
    return el.tag if isinstance(el.tag, str) else ""


def children(el: etree._Element, *names: str) -> Iterator[etree._Element]:
    """Direct child elements, those named ``names`` only when given."""
    for child in el:
        name = local_name(child)
        if name and (not names or name in names):
            yield child


def find_all(el: etree._Element, *names: str) -> Iterator[etree._Element]:
    """Descendant elements named ``names``, in document order."""
    wanted = set(names)
    for node in el.iterdescendants():
        if local_name(node) in wanted:
            yield node


def first(el: etree._Element | None, *names: str) -> etree._Element | None:
    """The first descendant named one of ``names``, or None."""
    if el is None:
        return None
    return next(find_all(el, *names), None)


def _collect(el: etree._Element, out: list[str], skip: frozenset[str]) -> None:
    if el.text:
        out.append(el.text)
    for child in el:
        name = local_name(child)
        if name and name not in skip:
            block = name in _BLOCKS
            if block:
                out.append(" ")
            _collect(child, out, skip)
            if block:
                out.append(" ")
        if child.tail:
            out.append(child.tail)


def text_of(el: etree._Element | None, skip: Iterable[str] = ()) -> str:
    """The element's text with whitespace collapsed; elements named in ``skip`` are left out.

    Entity references contribute nothing (they are never expanded).
    """
    if el is None:
        return ""
    out: list[str] = []
    _collect(el, out, frozenset(skip))
    return _SPACE.sub(" ", "".join(out)).strip()
