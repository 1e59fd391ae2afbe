"""The composition root: the only place that knows every layer.

It builds the running companion from its parts: the core (games, dice reader, Table, store,
profile) from `companion`, the drivers and fakes from `hardware`, the pages from `web`, and the
calibration tool attached to the host page. Nothing else in `companion` imports the web, the
hardware, their libraries or `calibration`; `tests/table/test_core_imports.py` checks it.

- `service`: settings -> hardware + table + web server, and the main loop (`companion run`).
- `simulator`: the simulated table's hands (buttons, dice throws, the camera's plug).
- `web_ports`: the service's parts as the small interfaces the web asks for.
- `run_cli`: the `companion run` subcommand.
"""
