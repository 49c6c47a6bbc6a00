"""One sweep per output folder at a time: :class:`FolderLock`.

The lock is an OS lock (``fcntl.flock``) on a file beside the folder, named after the
folder's *real* path (``.NAME.lock`` in its real parent), so a symlink alias of the
folder takes the same lock. Why an OS lock and not a file created with O_EXCL: the
kernel grants it atomically, and it dies with its process (a crash, SIGKILL) without
leaving a "stale" lock that the next run must guess about; an unreadable or half-written
lock file means nothing either way. The file holds the owner's pid, host and start time,
for the message a refused run prints, and is removed on release (the owner re-checks,
after locking, that the file it locked is still the one in place, so a run that opened
the file just before it was removed tries again instead of locking a ghost).

Locks are advisory: another program can still write the folder. Over NFS ``flock`` is
emulated with byte-range locks on Linux (>= 2.6.12), which the server arbitrates.
"""
from __future__ import annotations

import fcntl
import json
import os
import socket
import time


class FolderLock:
    """One sweep per output folder at a time (see the module header).

    >>> import tempfile, os
    >>> d = os.path.join(tempfile.mkdtemp(), "sweep")
    >>> with FolderLock(d) as lock:
    ...     FolderLock(d).acquire()
    Traceback (most recent call last):
    ...
    ValueError: out: ... is in use by another sweep (pid ...
    """

    def __init__(self, folder):
        self.folder = str(folder)
        real = os.path.realpath(self.folder)  # an alias (symlink) locks the same folder
        self.path = os.path.join(os.path.dirname(real), f".{os.path.basename(real)}.lock")
        self.fd = None

    @property
    def held(self) -> bool:
        return self.fd is not None

    def acquire(self):
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
        except OSError as e:
            raise OSError(f"out: cannot write to {self.folder} (cannot create "
                          f"{os.path.dirname(self.path)}: {e.strerror or e})") from None
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as e:  # read-only file system, permissions, no inodes left
                raise OSError(f"out: cannot write to {self.folder} (its lock file "
                              f"{self.path}: {e.strerror or e})") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                owner = _read_owner(fd)
                os.close(fd)
                raise ValueError(f"out: {self.folder} is in use by another sweep "
                                 f"({_describe(owner)}); wait for it to finish") from None
            except OSError as e:
                os.close(fd)
                raise OSError(f"out: cannot lock {self.path}: {e.strerror or e}") from None
            if _same_file(fd, self.path):
                break
            os.close(fd)  # the owner removed it as we opened it: lock the new one
        me = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time()}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(me).encode(), 0)
        self.fd = fd
        return self

    def release(self):
        if self.fd is None:
            return
        fd, self.fd = self.fd, None
        try:
            os.remove(self.path)  # still holding it: nobody can be between lock and check
        except OSError:
            pass
        os.close(fd)  # closing releases the OS lock

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()


def _same_file(fd, path) -> bool:
    try:
        a, b = os.fstat(fd), os.stat(path)
    except FileNotFoundError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _read_owner(fd) -> dict:
    try:
        owner = json.loads(os.pread(fd, 4096, 0) or b"{}")
    except (OSError, ValueError):
        return {}
    return owner if isinstance(owner, dict) else {}


def _describe(owner) -> str:
    if not owner.get("pid"):
        return "starting now"  # locked, its details not written yet
    since = owner.get("since")
    when = (time.strftime(", since %Y-%m-%d %H:%M:%S", time.localtime(since))
            if isinstance(since, (int, float)) else "")
    return f"pid {owner.get('pid')} on {owner.get('host')}{when}"
