"""The WMT22 system outputs under ../shared/data/mt/wmt22 that the real-data checks read."""

from __future__ import annotations

import pytest

from tests.conftest import SHARED

WMT22 = SHARED / "data" / "mt" / "wmt22"
#: the real-data checks read WMT22 system outputs that the project does not ship
NEEDS_WMT22 = pytest.mark.skipif(
    not WMT22.is_dir(),
    reason="real-data check: the WMT22 outputs (../shared/data/mt/wmt22) are not laid beside "
    "the clone; CI lays them there",
)
