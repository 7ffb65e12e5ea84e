"""Imported contracts per profile under the cache dir, and the index lookup at start-up."""

from __future__ import annotations

import json
from pathlib import Path

from leadctl.contract.loading import Loaded
from leadctl.contract.store import (
    INDEX_FILE,
    active_index,
    key_dir,
    key_for_base_url,
    remove,
    save,
    stored_keys,
)
from tests.generated.contracts import widgets


def test_contracts_are_kept_per_service_whatever_the_profile() -> None:
    key = key_for_base_url("https://API.example.com:443/v1/")
    assert key == key_for_base_url("https://api.example.com/v1")
    assert key.startswith("api.example.com_v1-")
    assert key != key_for_base_url("https://api.example.com/v2")
    assert key != key_for_base_url("http://127.0.0.1:8080")


def test_without_imports_the_bundled_index_is_used_and_no_profile_is_asked(
    cache_dir: Path,
) -> None:
    env = {"LEADCTL_CACHE_DIR": str(cache_dir)}

    def profile() -> str:
        raise AssertionError("the profile is needed only when a contract was imported")

    found = active_index(env, profile)
    assert found.key is None
    assert found.index["contract"]["source"] == "bundled"


def test_the_sandboxs_contract_alone_asks_no_profile_unless_it_may_be_the_sandbox(
    cache_dir: Path,
) -> None:
    env = {"LEADCTL_CACHE_DIR": str(cache_dir)}
    raw = json.dumps(widgets()).encode()
    save(
        env, "sandbox", Loaded(raw, widgets()), source="s.json", imported_at="2026-01-01T00:00:00Z"
    )

    def profile() -> str:
        raise AssertionError("only the sandbox profile could use the sandbox's contract")

    assert active_index(env, profile).key is None
    assert active_index(env, lambda: "sandbox", maybe_sandbox=True).key == "sandbox"


def test_save_then_load_per_profile(cache_dir: Path) -> None:
    env = {"LEADCTL_CACHE_DIR": str(cache_dir)}
    raw = json.dumps(widgets()).encode()
    saved = save(
        env, "staging", Loaded(raw, widgets()), source="w.json", imported_at="2026-01-01T00:00:00Z"
    )
    assert stored_keys(env) == ["staging"]
    directory = key_dir(env, "staging")
    assert (directory.stat().st_mode & 0o777) == 0o700
    assert (saved.schemas_path.stat().st_mode & 0o777) == 0o600
    assert saved.contract_path.read_bytes() == raw
    loaded = active_index(env, lambda: "staging")
    assert loaded.key == "staging" and loaded.index == saved.index
    assert active_index(env, lambda: "default").key is None
    assert remove(env, "staging") is True and remove(env, "staging") is False


def test_a_new_import_replaces_the_old_files(cache_dir: Path) -> None:
    env = {"LEADCTL_CACHE_DIR": str(cache_dir)}
    first = save(env, "p", Loaded(b"{}", widgets()), source="a", imported_at=None)
    changed = widgets()
    changed["info"]["version"] = "3.0"
    second = save(
        env, "p", Loaded(json.dumps(changed).encode(), changed), source="b", imported_at=None
    )
    assert not first.schemas_path.parent.exists()
    assert second.schemas_path.exists()


def test_an_index_of_another_leadctl_version_is_rebuilt(cache_dir: Path) -> None:
    env = {"LEADCTL_CACHE_DIR": str(cache_dir)}
    save(
        env,
        "p",
        Loaded(json.dumps(widgets()).encode(), widgets()),
        source="w.json",
        imported_at=None,
    )
    index_path = key_dir(env, "p") / INDEX_FILE
    old = json.loads(index_path.read_text())
    old["leadctl"] = "0.0.1"
    old["operations"] = []
    index_path.write_text(json.dumps(old))
    found = active_index(env, lambda: "p")
    assert found.problem is None
    assert len(found.index["operations"]) == 10
    assert json.loads(index_path.read_text())["leadctl"] != "0.0.1"
    assert found.index["contract"]["source"] == "w.json"


def test_an_unusable_import_falls_back_to_the_bundled_contract_with_a_reason(
    cache_dir: Path,
) -> None:
    env = {"LEADCTL_CACHE_DIR": str(cache_dir)}
    save(
        env,
        "p",
        Loaded(json.dumps(widgets()).encode(), widgets()),
        source="w.json",
        imported_at=None,
    )
    (key_dir(env, "p") / INDEX_FILE).write_text("{not json")
    found = active_index(env, lambda: "p")
    assert found.key is None
    assert found.problem is not None and "'p'" in found.problem
