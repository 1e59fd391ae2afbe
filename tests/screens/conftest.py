"""The table's buttons and OLED for whole games played from the panel alone."""

from __future__ import annotations

import pytest

from .panelrig import Rig


@pytest.fixture
def rig(tmp_path):
    rig = Rig(tmp_path)
    yield rig
    rig.close()
