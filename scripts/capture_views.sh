#!/bin/sh
# Plain-text screen captures of the terminal views (`numbers status`, `automations runs
# --run`), taken in a real 120x50 tmux pane against a fresh sandbox, for issue notes and
# reviews. Usage: scripts/capture_views.sh [DIR]   (default: ./captures)
set -eu
dir=${1:-captures}
mkdir -p "$dir"
CAPTURE_VIEWS_DIR=$(cd "$dir" && pwd) uv run pytest -q -p no:cacheprovider \
    tests/e2e/test_terminal_views.py
ls -1 "$dir"/capture_*.txt
