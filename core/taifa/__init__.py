"""Taifa: the card-driven map wargame of 11th-century Iberia (taifa-en.txt), and its El Cid scenario."""
