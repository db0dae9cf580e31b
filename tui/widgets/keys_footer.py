"""The footer of every screen: Textual's, composed again only when the keys it shows change.
Textual's builds all its keys anew at every change of focus (its bindings_updated signal),
which was a tenth of a busy screen's drawing."""

from __future__ import annotations

from textual.widgets import Footer


class KeysFooter(Footer):
    _shown: tuple[object, ...] | None = None  # what the keys were composed from

    def keys_shown(self) -> tuple[object, ...]:
        """Everything Footer.compose reads: each active binding as the footer shows it."""
        app = self.app
        keys = tuple((key, b.action, b.description, b.show, b.group, b.tooltip, enabled, tooltip, app.get_key_display(b))
                     for key, (_, b, enabled, tooltip) in self.screen.active_bindings.items())
        return keys, self.compact, self.show_command_palette, self.combine_groups, self._bindings_ready

    async def recompose(self) -> None:
        if not self.is_attached:
            return
        shown = self.keys_shown()
        if shown == self._shown:
            return
        self._shown = shown
        await super().recompose()
