#!/usr/bin/env bash
# The shell baseline of the export benchmark: every page of leads as NDJSON with curl and jq.
#
#   LEADCTL_BASE_URL=... LEADCTL_TOKEN=... benchmarks/curl_jq_paging.sh [PAGE_SIZE]
#
# One curl per page (a new connection each time) and one jq to print the items and one to
# pick the next token. The credential goes to curl in a header file, not on its command line.
set -euo pipefail
page_size="${1:-200}"
headers="$(mktemp)"
page="$(mktemp)"
trap 'rm -f "$headers" "$page"' EXIT
chmod 600 "$headers"
printf 'Authorization: Bearer %s\nContent-Type: application/json\n' "$LEADCTL_TOKEN" > "$headers"
body="{\"pageSize\": $page_size}"
while :; do
    curl -sS --fail -H @"$headers" -d "$body" -o "$page" "$LEADCTL_BASE_URL/leads/all/my"
    jq -c '.items[]' "$page"
    token="$(jq -r '.continuationToken // empty' "$page")"
    [ -z "$token" ] && break
    body="{\"pageSize\": $page_size, \"continuationToken\": \"$token\"}"
done
