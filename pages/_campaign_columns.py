"""The DA campaign page's column mapping for a file of judgments whose column names do not say which holds what
(UI only: :func:`core.humaneval.column_names` lists the columns, :func:`core.humaneval.guess_roles` preselects)."""

from __future__ import annotations

from core import humaneval as he
from pages._scaffold import cached_upload


@cached_upload
def file_columns(_data: bytes, sha1: str, name: str):
    """The file's column names, cached by its SHA-1 (``_data`` is not hashed: a file may run to tens of MB)."""
    return he.column_names(_data, name)


#: The column mapping's roles, as :func:`core.humaneval.read_scores` names them, with their labels.
MAPPED_ROLES = (("system", "System column"), ("item", "Segment column"), ("score", "Score column"))
NO_RATER = "(no rater column)"


def column_mapping(side, data: bytes, sha1: str, name: str) -> tuple:
    """Which columns hold the system, segment, score and rater, for a file whose roles cannot be told from its
    column names (``sha1``: the file's digest); returns ``(role, column)`` pairs for :func:`read`."""
    names = file_columns(data, sha1, name)
    guessed = he.guess_roles(names)
    box = side.expander("Columns: which hold what", expanded=True)
    box.caption("The file's column names do not say which holds what: choose them (guesses preselected).")
    pick = {}
    for k, (role, label) in enumerate(MAPPED_ROLES):
        index = names.index(guessed[role]) if role in guessed else min(k, len(names) - 1)
        pick[role] = box.selectbox(label, names, index=index, key=f"he_col_{role}")
    raters = [NO_RATER] + names
    rater = box.selectbox("Rater column", raters, index=raters.index(guessed["rater"]) if "rater" in guessed else 0,
                          key="he_col_rater", help="Who gave each judgment (annotator, worker, user id), if the file "
                          "says: rater variance is then split from the residual.")
    if rater != NO_RATER:
        pick["rater"] = rater
    return tuple(pick.items())
