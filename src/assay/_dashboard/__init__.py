"""The dashboard: a read-only local web server over the run store (``assay serve``)."""

from assay._dashboard.server import DashboardServer, make_server, serve_in_thread
from assay._dashboard.views import (
    Page,
    compare_page,
    history_page,
    run_page,
    runs_page,
    surface_key,
    surface_refusals,
    vs_best,
)

__all__ = [
    "DashboardServer",
    "Page",
    "compare_page",
    "history_page",
    "make_server",
    "run_page",
    "runs_page",
    "serve_in_thread",
    "surface_key",
    "surface_refusals",
    "vs_best",
]
