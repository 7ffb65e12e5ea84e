"""The roots a bundle file holds are read once a process, and again when the file changes."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import certifi
import pytest

from leadctl.errors import UsageError
from leadctl.http.client import tls_verification


def test_one_bundle_is_parsed_once_for_every_client_of_a_process(tmp_path: Path) -> None:
    bundle = tmp_path / "roots.pem"
    shutil.copyfile(certifi.where(), bundle)
    env = {"SSL_CERT_FILE": str(bundle)}
    # Each client (a refresh, a download, a redirect) asks again; parsing costs ~30 ms.
    assert tls_verification(None, env) is tls_verification(None, env)
    assert tls_verification(str(bundle), {}) is tls_verification(None, env)


def test_a_bundle_changed_since_it_was_read_is_read_again(tmp_path: Path) -> None:
    bundle = tmp_path / "roots.pem"
    shutil.copyfile(certifi.where(), bundle)
    env = {"SSL_CERT_FILE": str(bundle)}
    first = tls_verification(None, env)
    bundle.write_text("not a certificate\n", encoding="utf-8")
    with pytest.raises(UsageError, match="holds no PEM certificate"):
        tls_verification(None, env)
    shutil.copyfile(certifi.where(), bundle)
    os.utime(bundle, ns=(1, 1))  # same size as the first copy: the time tells it apart
    assert tls_verification(None, env) is not first


def test_a_missing_bundle_is_reported_each_time_not_remembered(tmp_path: Path) -> None:
    bundle = tmp_path / "later.pem"
    env = {"SSL_CERT_FILE": str(bundle)}
    with pytest.raises(UsageError, match=f"SSL_CERT_FILE={bundle}"):
        tls_verification(None, env)
    shutil.copyfile(certifi.where(), bundle)
    assert tls_verification(None, env) is tls_verification(None, env)
