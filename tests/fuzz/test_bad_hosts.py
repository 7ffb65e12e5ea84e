"""Base URLs whose host the resolver or httpx would choke on, through the installed leadctl
(a real resolver, unlike the in-process fuzzing): refused as usage errors, nothing sent."""

from __future__ import annotations

import pytest

from tests.support.e2e import run_leadctl

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize(
    "url",
    [
        "https://a..b.example",  # an empty label: the idna codec refuses it at lookup
        "https://" + "a" * 64 + ".example",  # a label over 63 characters
        "https://xn--.example",  # an A-label with no content
        "https://api example.test",
        "https://api.exa\tmple.test",
        "https://api.exam\u200bple.test",
    ],
)
def test_unusable_hosts_are_usage_errors(url: str) -> None:
    result = run_leadctl(
        ["--max-retries", "0", "--base-url", url, "lead-statuses", "list"],
        env={"LEADCTL_TOKEN": "sk_test_hosts_0123456789abcdef"},
    )
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith("error: invalid base URL")
    assert "Traceback" not in result.stderr
