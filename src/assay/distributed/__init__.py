"""Scoring on a Dask cluster (extra ``[dask]``): partitions scored and reduced on workers."""

from assay.distributed.cluster import (
    PartitionResult,
    parse_dask_address,
    score_on_dask,
    score_partition,
)

__all__ = ["PartitionResult", "parse_dask_address", "score_on_dask", "score_partition"]
