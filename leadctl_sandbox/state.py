"""The sandbox's state: its database, signing secret and demo identities, seeded on first use."""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from leadctl_sandbox import db, keys
from leadctl_sandbox.errors import SandboxError

STATE_DIR_NAME = "sandbox"
# Files a reset removes; the state dir itself goes only when nothing else is in it.
STATE_FILES = (db.DB_FILE, db.DB_FILE + "-wal", db.DB_FILE + "-shm", db.DB_FILE + "-journal")


def default_state_dir(env: Mapping[str, str]) -> Path:
    return data_dir(env) / STATE_DIR_NAME


def data_dir(env: Mapping[str, str]) -> Path:
    """leadctl's data dir: LEADCTL_DATA_DIR, else the platform's user data dir."""
    override = env.get("LEADCTL_DATA_DIR", "")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("leadctl", appauthor=False))


# Plain classes, not dataclasses: every `-p sandbox` command defines them again at its start,
# and a dataclass costs five times as much to define (issue 32). Neither has a repr: both
# hold secrets.
class DemoCredentials:
    __slots__ = ("org", "read_only_user", "sources", "user")

    def __init__(
        self, org: str, user: str, read_only_user: str, sources: dict[str, str] | None = None
    ) -> None:
        self.org, self.user, self.read_only_user = org, user, read_only_user
        self.sources = dict(sources or {})

    def to_json(self) -> dict[str, object]:
        return {
            "org": self.org,
            "user": self.user,
            "readOnlyUser": self.read_only_user,
            "sources": dict(self.sources),
        }


class SandboxState:
    def __init__(
        self,
        *,
        conn: sqlite3.Connection,
        secret: bytes,
        path: Path | None,
        seed: int,
        seeded_now: bool,
    ) -> None:
        self.conn, self.secret, self.path = conn, secret, path
        self.seed, self.seeded_now = seed, seeded_now

    def meta(self, key: str) -> str:
        value = db.get_meta(self.conn, key)
        if value is None:
            raise SandboxError(
                f"the sandbox state lacks {key!r}; `leadctl sandbox reset` starts over"
            )
        return value

    @property
    def org_id(self) -> str:
        return self.meta("demo_org_id")

    def org_key(self) -> str:
        return keys.demo_org_key(self.secret, self.org_id)

    def credentials(self) -> DemoCredentials:
        """The demo organization's credentials; source keys only while not rotated."""
        org_id = self.org_id
        rows = self.conn.execute(
            "SELECT id FROM sources WHERE org_id = ? AND key_seeded = 1 ORDER BY created_at, id",
            (org_id,),
        ).fetchall()
        return DemoCredentials(
            org=self.org_key(),
            user=keys.mint_user_token(
                self.secret, user_id=self.meta("demo_user_id"), org_id=org_id, roles=("Owner",)
            ),
            read_only_user=keys.mint_user_token(
                self.secret,
                user_id=self.meta("demo_read_only_user_id"),
                org_id=org_id,
                roles=("ReadOnly",),
            ),
            sources={row["id"]: keys.demo_source_key(self.secret, row["id"]) for row in rows},
        )

    def close(self) -> None:
        self.conn.close()


def open_state(path: Path | None, *, seed: int | None = None) -> SandboxState:
    """Open (and on first use create and seed) the state at ``path``, or in memory for None.

    A state that cannot be read (not a database, a file where the dir should be, written by
    another version) is one line naming `sandbox reset`, never a traceback.
    """
    where = "in memory" if path is None else f"at {path.parent}"
    try:
        conn = db.connect(path)
    except (OSError, sqlite3.Error) as error:
        raise _unusable(where, str(error)) from None
    try:
        # Here, not at the top: `sandbox reset` needs this module, never the handlers.
        from leadctl_sandbox.lead_collection import create_sort_indexes

        _check_version(conn, where)
        db.create_schema(conn)
        create_sort_indexes(conn)
        seeded_now = False
        with db.transaction(conn, immediate=True):
            if db.get_meta(conn, "seeded_at") is None:
                # Only a first start pays for loading the seeder.
                from leadctl_sandbox.seed import seed_demo_data
                from leadctl_sandbox.times import utcnow

                chosen = seed if seed is not None else secrets.randbelow(2**31)
                secret = secrets.token_bytes(32)
                now = utcnow()
                db.set_meta(conn, "schema_version", db.SCHEMA_VERSION)
                db.set_meta(conn, "secret", secret.hex())
                db.set_meta(conn, "seed", str(chosen))
                seed_demo_data(conn, seed=chosen, now=now, secret=secret)
                db.set_meta(conn, "seeded_at", now.isoformat())
                seeded_now = True
        _check_version(conn, where)
        state = SandboxState(
            conn=conn,
            secret=bytes.fromhex(db.get_meta(conn, "secret") or ""),
            path=path,
            seed=int(db.get_meta(conn, "seed") or 0),
            seeded_now=seeded_now,
        )
        if len(state.secret) < 16:
            raise _unusable(where, "its signing secret is missing")
        state.org_key()  # every later request needs the demo organization
    except SandboxError:
        conn.close()
        raise
    except (sqlite3.Error, ValueError) as error:
        conn.close()
        raise _unusable(where, str(error)) from None
    return state


def _check_version(conn: sqlite3.Connection, where: str) -> None:
    """Before the schema is touched: a state of another version may not fit this one's."""
    has_meta = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
    ).fetchone()
    version = db.get_meta(conn, "schema_version") if has_meta else None
    if version is not None and version != db.SCHEMA_VERSION:
        raise _unusable(where, f"made by another leadctl version, schema {version}")


def _unusable(where: str, why: str) -> SandboxError:
    return SandboxError(
        f"cannot use the sandbox state {where} ({why}); `leadctl sandbox reset` starts over"
    )
