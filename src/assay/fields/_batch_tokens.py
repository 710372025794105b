"""The tokens of a batch of (predicted, expected) item lists, computed once for every kernel
that reads them (free-text token F1 and coverage tokenize the same texts)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np
from numpy.typing import NDArray

from assay.fields._text import TokenKeys, token_ids, token_keys

ListPair = tuple[Sequence[str], Sequence[str]]


@dataclass(frozen=True)
class BatchTokens:
    """The texts of every list pair, list pair by list pair, its predicted items then its
    expected ones; their tokens as integer keys (``token_keys``) with dense ids
    (``token_ids``); and each text's list pair, side and row among all the batch's texts of
    its side (list pairs in order)."""

    npred: NDArray[np.int64]
    ngold: NDArray[np.int64]
    keys: TokenKeys
    ids: NDArray[np.int64]
    #: one more than the largest id (at least 1)
    n_ids: int
    doc: NDArray[np.int64]
    is_pred: NDArray[np.bool_]
    row: NDArray[np.int64]

    @classmethod
    def of(cls, pairs: Sequence[ListPair]) -> BatchTokens:
        npred = np.fromiter((len(p) for p, _ in pairs), dtype=np.int64, count=len(pairs))
        ngold = np.fromiter((len(g) for _, g in pairs), dtype=np.int64, count=len(pairs))
        keys = token_keys(list(chain.from_iterable(chain(p, g) for p, g in pairs)))
        ids = token_ids(keys)
        sizes = npred + ngold
        doc = np.repeat(np.arange(len(pairs), dtype=np.int64), sizes)
        local = np.arange(doc.size, dtype=np.int64) - (np.cumsum(sizes) - sizes)[doc]
        is_pred = local < npred[doc]
        pred_start, gold_start = np.cumsum(npred) - npred, np.cumsum(ngold) - ngold
        row = np.where(is_pred, pred_start[doc] + local, gold_start[doc] + local - npred[doc])
        n_ids = int(ids.max(initial=-1)) + 1
        return cls(npred, ngold, keys, ids, max(n_ids, 1), doc, is_pred, row)
