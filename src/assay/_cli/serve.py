"""``assay serve``: the read-only dashboard over the run store."""

from __future__ import annotations

import click

from assay._cli.resolve import store_option
from assay._cli.state import out


@click.command("serve")
@store_option
@click.option("--host", default="127.0.0.1", show_default=True, help="interface to bind")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--log", "log_requests", is_flag=True, help="log every request on stderr")
def serve_command(store: str | None, host: str, port: int, log_requests: bool) -> None:
    """Serve the dashboard (runs list, run pages, compare view, history) until Ctrl-C."""
    from assay._dashboard import make_server
    from assay._store import RunStore

    with RunStore(store, readonly=True) as st:
        server = make_server(st, host, port, quiet=not log_requests)
        bound_host, bound_port = server.server_address[:2]
        if host not in ("127.0.0.1", "localhost", "::1"):
            out().print(
                f"warning: serving on {host}: reachable from other machines", style="yellow"
            )
        out().print(
            f"assay dashboard on http://{bound_host!s}:{bound_port} ({st.display_url}); "
            "Ctrl-C stops it"
        )
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            out().print("stopped")
        finally:
            server.server_close()
