"""The service's parts handed to the web as its small interfaces (`web.ports`): the roll
watcher is the dice readings and the camera preview, the dice learner the camera's record at
this table (and what the reader learnt from it), the simulator the simulated table."""

from __future__ import annotations

from companion.dice_learning import DiceLearner
from companion.rolls import RollWatcher
from companion.runtime.service import Health
from companion.runtime.simulator import Simulator
from web.ports import ServicePorts


def service_ports(
    health: Health, rolls: RollWatcher, record: DiceLearner, simulator: Simulator | None
) -> ServicePorts:
    return ServicePorts(
        health=health, readings=rolls, camera=rolls, record=record, simulated=simulator
    )
