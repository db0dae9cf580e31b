"""Each game's notation: its text report and any export format of its own."""
