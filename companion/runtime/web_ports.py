"""The service's parts handed to the web as its small interfaces (`web.ports`): the roll
watcher is the dice readings and the camera preview, the dice record the camera's record at
this table, the simulator the simulated table."""

from __future__ import annotations

from companion.dice_record import DiceRecord
from companion.rolls import RollWatcher
from companion.runtime.service import Health
from companion.runtime.simulator import Simulator
from web.ports import ServicePorts


def service_ports(
    health: Health, rolls: RollWatcher, record: DiceRecord, simulator: Simulator | None
) -> ServicePorts:
    return ServicePorts(
        health=health, readings=rolls, camera=rolls, record=record, simulated=simulator
    )
