"""The Continue list says when a game began in the machine's own time, not UTC (issue 30)."""

from __future__ import annotations

import os
import time

import pytest

from tui.session import local_time


@pytest.fixture
def berlin() -> object:
    old = os.environ.get("TZ")
    os.environ["TZ"] = "Europe/Berlin"
    time.tzset()
    yield
    if old is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = old
    time.tzset()


def test_a_records_utc_stamp_reads_in_local_time(berlin: object) -> None:
    assert local_time("2026-11-27T03:58:40Z") == "2026-11-27 04:58"  # CET, UTC+1 in November
    assert local_time("2026-07-01T23:30:00Z") == "2026-07-02 01:30"  # CEST, UTC+2
    assert local_time("not a time") == "not a time"
