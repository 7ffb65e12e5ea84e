"""A file's stamp: what tells that it was rewritten since it was last read.

Inode, size and both times: leadctl writes its files by atomic rename (a new inode), an
editor may write in place (new size or mtime; ctime even when the mtime is put back). The
start-up memo of the profiles' store keys and the help cache both key on it, so they
agree on when the config changed.
"""

from __future__ import annotations

import os


def file_stamp(stat: os.stat_result) -> str:
    return f"{stat.st_ino} {stat.st_size} {stat.st_mtime_ns} {stat.st_ctime_ns}"
