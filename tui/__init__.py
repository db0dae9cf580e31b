"""The only layer that draws or prints: the typer CLI and (later) the Textual app."""
