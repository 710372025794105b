"""schema_valid (seed 000 §4): 1.0 iff the prediction parses and conforms to the schema.

With a JSON Schema in the settings it decides; without one, the implied schema of the field
types: an object, no fields the gold and the types do not know (unless allowed), arrays of
strings (or objects) for list fields, strings (numbers too for money and duration) or null for
scalars, and no list longer than ``max_list_items``.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any

from assay._fields import is_entity_list
from assay._io.readers import json_type

_NUMERIC_OK = ("money", "duration", "id")


@lru_cache(maxsize=8)
def _validator(schema_json: str) -> Any:
    import json

    import jsonschema

    schema = json.loads(schema_json)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def schema_errors(
    pred: Mapping[str, Any],
    types: Mapping[str, str],
    known: AbstractSet[str],
    *,
    json_schema: Mapping[str, Any] | None,
    allow_unknown: bool,
    max_list_items: int,
) -> list[str]:
    """Every reason the prediction is not schema-conformant, sorted; empty when it is valid."""
    import json

    if json_schema is not None:
        validator = _validator(json.dumps(json_schema, sort_keys=True))
        errors = []
        for err in validator.iter_errors(dict(pred)):
            where = "/".join(str(p) for p in err.absolute_path) or "(root)"
            errors.append(f"{where}: {err.message}")
        return sorted(errors)
    errors = []
    for name, value in pred.items():
        kind = types.get(name)
        if name not in known and not allow_unknown:
            errors.append(f"{name}: unknown field")
            continue
        if value is None or kind is None:
            continue
        if is_entity_list(kind):
            if not isinstance(value, list):
                errors.append(f"{name}: {json_type(value)} where an array was expected")
                continue
            if len(value) > max_list_items:
                errors.append(f"{name}: {len(value)} items, more than {max_list_items}")
            bad = [json_type(v) for v in value if not isinstance(v, str | dict) and v is not None]
            if bad:
                errors.append(f"{name}: array items must be strings, found {bad[0]}")
        elif isinstance(value, list | dict) or (
            not isinstance(value, str) and (kind not in _NUMERIC_OK or isinstance(value, bool))
        ):
            errors.append(f"{name}: {json_type(value)} where a string was expected")
    return sorted(errors)
