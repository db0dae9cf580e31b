"""fiefdom's command line (typer)."""
import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Play, record and review medieval tabletop games.")


def main() -> None:
    app()
