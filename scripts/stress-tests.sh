#!/usr/bin/env bash
# Runs integration test files beside a CPU burner, to see the suite pass on a loaded machine (a
# CI runner shared with other jobs, a laptop compiling): time limits, lock waits and races behave
# differently when every process waits for a core. Independent of any CI.
#
#   scripts/stress-tests.sh [-n BURNERS] [TEST_FILE...]
#
# BURNERS busy-loop processes (default: twice the cores, or STRESS_BURNERS) run for as long as the
# tests do; with no files, the whole integration suite runs. The exit status is vitest's.
#
# Each side runs in a process group of its own (job control, set -m), so that ending it ends all
# of it: the burners, and vitest with its test processes and its database. Both are ended when
# the script ends, fails or is interrupted (trap); the burners also stop on their own once the
# script is gone, even after a `kill -9` that leaves it no chance to clean up.
set -euo pipefail
set -m

usage() {
  echo "usage: $0 [-n BURNERS] [TEST_FILE...]" >&2
  exit 2
}

burners=${STRESS_BURNERS:-$(($(nproc) * 2))}
while getopts "n:h" option; do
  case $option in
    n) burners=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[[ $burners =~ ^[0-9]+$ ]] || usage
files=("$@")
(($# > 0)) || files=(tests/integration)

cd "$(dirname "$0")/.."

burner_group=""
vitest_group=""

# Interrupted: vitest is asked to stop as on Ctrl-C (it cancels and tears its database down), then
# killed with its group if it has not stopped within 30 s.
stop_vitest() {
  kill -INT -- "-$vitest_group" 2>/dev/null || return 0
  for ((waited = 0; waited < 300; waited++)); do
    kill -0 -- "-$vitest_group" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL -- "-$vitest_group" 2>/dev/null || true
}

cleanup() {
  trap - EXIT INT TERM HUP
  [[ -n $burner_group ]] && kill -- "-$burner_group" 2>/dev/null || true
  [[ -n $vitest_group ]] && stop_vitest
  wait 2>/dev/null || true
}
trap cleanup EXIT
trap 'cleanup; exit 129' HUP
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

# A busy loop that looks every few milliseconds whether the script still runs (kill -0 is a
# builtin: no process is started), so that it cannot be orphaned.
burn() {
  local script=$1
  while kill -0 "$script" 2>/dev/null; do
    for ((i = 0; i < 20000; i++)); do :; done
  done
}

load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "stress: $burners burner(s) on $(nproc) core(s); load average before: $(load)"
# One job: its process group holds every burner.
(
  set +m
  for ((b = 0; b < burners; b++)); do burn $$ & done
  wait
) &
burner_group=$!

started=$SECONDS
# A job of its own, waited for in the background, so that a signal runs the trap at once.
node_modules/.bin/vitest run --project integration "${files[@]}" &
vitest_group=$!
status=0
wait "$vitest_group" || status=$?
vitest_group=""

echo "stress: $((SECONDS - started)) s with $burners burner(s); load average after: $(load); vitest exit status $status"
exit "$status"
