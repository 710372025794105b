"""Demo runs (one session) for the report tests."""

from __future__ import annotations

import pytest

from tests.store.services import DemoRuns, make_demo_runs


@pytest.fixture(scope="session")
def demo(tmp_path_factory: pytest.TempPathFactory) -> DemoRuns:
    return make_demo_runs(tmp_path_factory.mktemp("demo"))
