#!/usr/bin/env bash
# The size of a run's page and how long it takes to load: bytes of
# index.html (and puzzles.html, charts.html) plain and gzipped, of the charts, and the
# time from navigation start to the load event in headless Chromium,
# the median of 5 loads each in a new tab (TestPageLoadTime in
# cmd/batch/browser_load_test.go, with Chromium found as the browser
# tests find it: chromium, chromium-browser, google-chrome, or
# $SUDOKUBATCH_CHROME).
#
#   scripts/page-size.sh [RUN]          (default results/latest)
#   scripts/page-size.sh -sweep [RUN]   (first the default sweep into RUN, a new directory: 14 min on 2 vCPUs)
#
# The page of a run can be rebuilt by the current code without sweeping
# again: batch report RUN.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
sweep=false
if [ "${1:-}" = -sweep ]; then
  sweep=true
  shift
fi
run=${1:-results/latest}
if $sweep; then
  go run ./cmd/batch -quiet -out "$run"
fi
if [ ! -f "$run/index.html" ]; then
  echo "page-size.sh: $run/index.html: no such file (give a run directory, results/<id>)" >&2
  exit 2
fi
run=$(cd "$run" && pwd -P)
for page in index.html puzzles.html charts.html; do
  [ -f "$run/$page" ] || continue
  echo "$page: $(wc -c <"$run/$page") bytes, $(gzip -9c "$run/$page" | wc -c) gzipped"
done
SUDOKUBATCH_PAGE="$run" go test -count=1 -run '^TestPageLoadTime$' -v ./cmd/batch/ |
  sed -n 's/^ *browser_load_test.go:[0-9]*: //p'
