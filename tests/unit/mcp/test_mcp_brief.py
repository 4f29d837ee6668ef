"""MCP answer heads: what the client already has is left out (pure)."""

from __future__ import annotations

from pagelens.actions.executor import Feedback
from pagelens.actions.spec import Action
from pagelens.mcp.brief import NO_SIGNAL, action_head, relative_url, signal_note
from pagelens.signals.detector import Signal

_FORM = "form state changed (a field's value or selection)"


def _fb(action: Action, message: str, changes: tuple[str, ...], **detail: object) -> Feedback:
    return Feedback(action, True, "done", message, changes, detail=detail)


def test_a_read_back_fill_is_the_read_back_alone() -> None:
    a = Action("fill", {"id": "23", "text": "Tariq"})
    fb = _fb(a, f'{a.render()}: done. Changes: {_FORM}. [23] now contains "Tariq".', (_FORM,), value="Tariq")
    assert action_head(fb, view_follows=False) == 'done. [23] now contains "Tariq".'


def test_a_url_change_is_the_new_path_and_the_title_goes_with_a_view() -> None:
    a = Action("click", {"id": "5"})
    changes = ("URL changed: http://127.0.0.1:8000/a?x=1 → http://127.0.0.1:8000/product/p1", "title is now 'P1'")
    fb = _fb(a, f"{a.render()}: done. Changes: {'; '.join(changes)}. At the click point: a (clickable).", changes)
    assert action_head(fb, view_follows=True) == "done. now at /product/p1. At the click point: a (clickable)."
    assert "title is now 'P1'" in action_head(fb, view_follows=False)  # no view: the title is news
    assert relative_url("http://127.0.0.1:9/x", "http://127.0.0.1:8000/a") == "http://127.0.0.1:9/x"  # another origin


def test_a_form_change_without_read_back_is_kept() -> None:
    a = Action("click", {"id": "7"})
    fb = _fb(a, f"{a.render()}: done. Changes: {_FORM}.", (_FORM,))
    assert action_head(fb, view_follows=False) == f"done. {_FORM}."


def test_signal_leads_the_feedback_states_are_not_repeated() -> None:
    a = Action("click", {"id": "5"})
    fb = _fb(a, "x", ("URL changed: http://127.0.0.1/a → http://127.0.0.1/b",))
    url, widget = Signal("url", "http://127.0.0.1/a -> http://127.0.0.1/b"), Signal("new_widget", "menu 'M'")
    assert signal_note((url,), fb) == ""
    assert signal_note((url, widget), fb) == "Signals: New interactive content appeared."
    assert signal_note((Signal("action_failure", "click -> failed: x"),), fb) == ""
    assert signal_note((), fb) == NO_SIGNAL
    assert signal_note((url,)) == "Signals: The page changed address."  # without the feedback: all leads


def test_a_fill_whose_enter_moved_to_another_address_does_not_read_the_old_field_back() -> None:
    a = Action("fill", {"id": "9", "text": "garden hose", "enter": True})
    url = "URL changed: http://127.0.0.1:8000/ → http://127.0.0.1:8000/catalog?q=garden+hose"
    fb = _fb(a, f'{a.render()}: done. Changes: {url}; {_FORM}. [9] now contains "garden hose". Pressed Enter.',
             (url, _FORM), value="garden hose", requested="garden hose", enter=True)
    assert action_head(fb, view_follows=True) == "done. now at /catalog?q=garden+hose. Pressed Enter."
    stay = _fb(a, f'{a.render()}: done. Changes: {_FORM}. [9] now contains "garden hose". Pressed Enter.',
               (_FORM,), value="garden hose", requested="garden hose", enter=True)
    assert '[9] now contains "garden hose"' in action_head(stay, view_follows=True)  # same page: the field is news
    cut = _fb(a, f'{a.render()}: done. Changes: {url}. [9] now contains "garden" (6 characters), not the 11 '
                 'characters given: the field changed or limited the input. Pressed Enter.',
              (url,), value="garden", requested="garden hose", enter=True)
    assert "now contains" in action_head(cut, view_follows=True)  # not what was typed: said
