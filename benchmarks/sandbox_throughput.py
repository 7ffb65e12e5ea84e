"""Requests per second the sandbox sustains for POST /leads/all/my (pageSize 100).

    uv run python benchmarks/sandbox_throughput.py [--duration 10] [--concurrency 4]

Starts ``python -m leadctl sandbox serve --memory`` as its own process (as users run it),
then keeps ``--concurrency`` keep-alive clients busy for ``--duration`` seconds, each reading
the first page of leads, and prints the rate and latency percentiles. Client and server share
the machine, so the number is a floor for the server alone.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import httpx


def start_server() -> tuple[subprocess.Popen[bytes], str, str]:
    env = dict(os.environ, LEADCTL_DATA_DIR=tempfile.mkdtemp(prefix="leadctl-bench-"))
    serve = ["serve", "--memory", "--port", "0", "--seed", "1", "--print-json"]
    process = subprocess.Popen(
        [sys.executable, "-m", "leadctl", "sandbox", *serve],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert process.stdout is not None
    ready = json.loads(process.stdout.readline())
    return process, ready["baseUrl"], ready["credentials"]["org"]


def worker(
    base_url: str, key: str, page_size: int, deadline: float, latencies: list[float]
) -> None:
    body = {"pageSize": page_size}
    headers = {"Authorization": f"Bearer {key}"}
    with httpx.Client(base_url=base_url, headers=headers, timeout=30) as client:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            response = client.post("/leads/all/my", json=body)
            response.raise_for_status()
            assert len(response.json()["items"]) == page_size
            latencies.append(time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--page-size", type=int, default=100)
    args = parser.parse_args()
    process, base_url, key = start_server()
    try:
        worker(base_url, key, args.page_size, time.perf_counter() + 1.0, [])  # warm up
        latencies: list[float] = []
        started = time.perf_counter()
        deadline = started + args.duration
        threads = [
            threading.Thread(
                target=worker, args=(base_url, key, args.page_size, deadline, latencies)
            )
            for _ in range(args.concurrency)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
    finally:
        process.terminate()
        process.wait(10)
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p95 = latencies[int(len(latencies) * 0.95)] * 1000
    print(
        f"POST /leads/all/my pageSize={args.page_size}: {len(latencies) / elapsed:.0f} req/s "
        f"({len(latencies)} requests in {elapsed:.1f} s, {args.concurrency} clients, "
        f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, {os.cpu_count()} CPUs)"
    )


if __name__ == "__main__":
    main()
