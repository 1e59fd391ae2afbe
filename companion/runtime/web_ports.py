"""The service's parts handed to the web as its small interfaces (`web.ports`): the roll
watcher is the dice readings and the camera preview, the simulator the simulated table."""

from __future__ import annotations

from companion.rolls import RollWatcher
from companion.runtime.service import Health
from companion.runtime.simulator import Simulator
from web.ports import ServicePorts


def service_ports(health: Health, rolls: RollWatcher, simulator: Simulator | None) -> ServicePorts:
    return ServicePorts(health=health, readings=rolls, camera=rolls, simulated=simulator)
