"""Tafl: the traditional 11x11 game and the Tafl-Gild tournament rules (9x9, 11x11)."""

from core.tafl.rules import ATTACKERS, DEFENDERS, RULES_REVISION, TaflGame
from core.tafl.variants import variant, variants

__all__ = ["ATTACKERS", "DEFENDERS", "RULES_REVISION", "TaflGame", "variant", "variants"]
