"""What a game's data needs to travel to another process or machine (a batch's workers, an AI seat's
process): the loaded data files hold read-only mappings (``types.MappingProxyType``), which pickle
refuses; here they travel as the dicts they show, and come back read-only. Imported for its effect
by every module that sends a game's data away (copyreg's table is the process's: cloudpickle, which
Dask uses, reads it too)."""

from __future__ import annotations

import copyreg
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any


def read_only(items: dict[Any, Any]) -> Mapping[Any, Any]:
    """The read-only mapping again, on the receiving side."""
    return MappingProxyType(items)


def _reduce(proxy: MappingProxyType[Any, Any]) -> tuple[Any, tuple[dict[Any, Any]]]:
    return read_only, (dict(proxy),)


copyreg.pickle(MappingProxyType, _reduce)
