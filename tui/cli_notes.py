"""``fiefdom replay note`` and ``fiefdom replay variations``: a finished record's notes (its annex,
notation/annex.py) and the games played on from it (notation/variations.py).

Exit codes as the other replay commands: 0 done; 2 the file cannot be read or written, or a bad
argument. Every failure is one line on stderr; every note is shown through notation.wording.visible.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from notation.annex import Annex, add_note, remove_note, write_annex
from notation.files import write_whole
from notation.format import RecordError
from notation.reader import Recording
from notation.variations import variations_of
from notation.wording import count, visible
from tui.cli_replay import FILE, _fail, _read, games, replay_app
from tui.cli_support import output_path


def note_lines(recording: Recording, step: int | None = None) -> list[str]:
    """The record's notes, numbered as ``--delete`` takes them (only those on ``step`` when given):
    ``2. step 14: text``, visible."""
    notes = recording.annex.notes if recording.annex is not None else ()
    return [visible(f"{i}. step {note.step}: {note.text}")
            for i, note in enumerate(notes, 1) if step is None or note.step == step]


@replay_app.command("note")
def note_command(
    file: Path = FILE,
    text: Optional[str] = typer.Argument(None, help="The note to add.", metavar="[TEXT]", show_default=False),
    step: Optional[int] = typer.Option(
        None, "--step", "-s", help="The step the note is about (0 = the start). Default: the last step. "
                                   "Without TEXT: list only that step's notes."),
    delete: Optional[int] = typer.Option(None, "--delete", metavar="N", help="Delete note N, as the list numbers it."),
    strip: bool = typer.Option(
        False, "--strip", help="Remove every note and the analysis (a file an older fiefdom reads); "
                               "with --out, write the record without them there and leave FILE as it is."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="With --strip: where to write the record."),
    force: bool = typer.Option(False, "--force", help="Replace the --out file if it exists (never FILE itself)."),
) -> None:
    """List, add or delete the notes of a finished record, kept in FILE after its result.

    ``note FILE`` lists them (``1. step 14: text``); ``note FILE --step 14 TEXT`` adds one; ``note
    FILE --delete 1`` deletes the first listed. Notes never change the game: FILE still verifies,
    and the record's bytes stay as they were (docs/replay-format.md, section 13). A fiefdom older
    than notes refuses a file with them; ``--strip --out COPY`` writes one it reads.
    """
    if sum((text is not None, delete is not None, strip)) > 1:
        _fail("give one of TEXT, --delete or --strip")
    if out is not None and not strip:
        _fail("--out goes with --strip")
    recording = _read(file)
    if recording.annex_warning and text is None and delete is None and not strip:  # a change says it in its error
        typer.echo(visible(f"note: {file}: {recording.annex_warning}"), err=True)
    try:
        if text is not None:
            at = recording.steps if step is None else step
            annex = add_note(file, at, text, games=games(file))
            typer.echo(visible(f"{file}: a note on step {at}, {count(len(annex.notes), 'note')} in all"))
        elif delete is not None:
            annex = remove_note(file, delete - 1, games=games(file))
            typer.echo(visible(f"{file}: note {delete} deleted, {count(len(annex.notes), 'note')} left"))
        elif strip:
            _strip(file, recording, out, force)
        else:
            lines = note_lines(recording, step)
            typer.echo("\n".join(lines) if lines else "no notes" + (f" on step {step}" if step is not None else ""))
    except (RecordError, ValueError) as err:  # RecordInPlay is a RecordError
        _fail(f"{file}: {err}")
    except OSError as err:
        _fail(f"{file}: {err.strerror or err}")


def _strip(file: Path, recording: Recording, out: Path | None, force: bool) -> None:
    if out is None:
        write_annex(file, Annex(), games=games(file))
        typer.echo(visible(f"{file}: its notes and analysis removed"))
        return
    output_path(out, force, [file])
    try:
        write_whole(out, [recording.data], replace=force)
    except FileExistsError:  # it appeared meanwhile
        _fail(f"{out} exists; give --force to replace it")
    except OSError as err:
        _fail(f"{out}: {err.strerror or err}")
    typer.echo(visible(f"{out}: the record without its notes and analysis"))


@replay_app.command("variations")
def variations_command(file: Path = FILE) -> None:
    """List the games played on from FILE ("play from here") found in its folder, by the step they
    start from: ``name.fief: from step 12, 31 steps, attackers won``."""
    recording = _read(file)
    try:
        found = variations_of(file, games=games(file), recording=recording)
    except (RecordError, OSError) as err:
        _fail(f"{file}: {err}")
    typer.echo("\n".join(v.label for v in found) if found else "no variations beside it")
