"""``edit_file``'s work: one exact replacement in a workdir file, through the safe file layer.

Small models edit a file better by naming the text to change than by writing it whole again.
The text to replace must appear exactly once; otherwise nothing is written and the error says
how often it appeared, so the model can add context or look again.
"""

from __future__ import annotations

from pathlib import Path

from agentd.errors import ToolError
from agentd.tools import workdir_fs
from agentd.tools.quota import WorkdirQuota

#: The largest file edit_file reads or writes, in bytes.
MAX_EDIT = 1024 * 1024


def edit_file(
    workdir: Path, path: str, old: str, new: str, quota: WorkdirQuota | None = None
) -> str:
    """Replace the one occurrence of ``old`` in ``path`` by ``new``; a ToolError otherwise
    (also when the result would take the workdir past ``quota``)."""
    if not old:
        raise ToolError("old is empty: give the exact text to replace (read the file first)")
    parts = workdir_fs.split(path)
    try:
        with workdir_fs.open_file(workdir, parts) as fd, open(fd, "rb", closefd=False) as fh:
            data = fh.read(MAX_EDIT + 1)
    except (FileNotFoundError, NotADirectoryError):
        raise ToolError(f"no file {path!r} in the workdir (write_file creates one)") from None
    if len(data) > MAX_EDIT:
        raise ToolError(f"{path!r} is larger than {MAX_EDIT} bytes: edit_file cannot change it")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ToolError(f"{path!r} is not UTF-8 text: edit_file cannot change it") from None
    count = text.count(old)
    if count == 0:
        raise ToolError(
            f"the text to replace is not in {path!r} (0 matches): it must match exactly, "
            "spaces and line breaks included; read the file and copy the text"
        )
    if count > 1:
        raise ToolError(
            f"the text to replace appears {count} times in {path!r}: include more of the "
            "surrounding lines so that it appears exactly once"
        )
    result = text.replace(old, new, 1).encode()
    if len(result) > MAX_EDIT:
        raise ToolError(f"the file would be larger than {MAX_EDIT} bytes")
    if quota is not None:
        quota.check_write(workdir, parts, len(result))
    workdir_fs.replace_file(workdir, parts, result)
    line = text[: text.index(old)].count("\n") + 1
    return f"replaced 1 occurrence in {path} (at line {line})"
