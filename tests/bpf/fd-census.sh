#!/usr/bin/env bash
# The memory collector's two ways of finding a character device's open files (BPF task-file
# iterator, /proc walk) find exactly the same (pid, fd) set, here with PROCS processes holding
# FDS descriptors of /dev/null (major 1) each; and what each costs.
# Usage: tests/bpf/fd-census.sh FD_CENSUS [PROCS] [FDS] [BINARY]   (root; skips loudly without)
# With BINARY (gputop-bpf), also the monitor's own CPU at a 1 s refresh while they exist.
set -u
SUITE="fd census tests"
. "$(dirname "$0")/../lib.sh"
TOOL=$1 PROCS=${2:-200} FDS=${3:-50} BIN=${4:-}
if [ "$(id -u)" != 0 ]; then
	skip "the task-file iterator needs root: run 'sudo make test-bpf'"
	finish
	exit
fi
PIDS=()
cleanup() { [ ${#PIDS[@]} -gt 0 ] && kill "${PIDS[@]}" 2>/dev/null; wait 2>/dev/null; }
trap cleanup EXIT
for _ in $(seq "$PROCS"); do
	bash -c 'for i in $(seq 3 $((2 + '"$FDS"'))); do eval "exec $i</dev/null"; done; exec sleep 600' &
	PIDS+=($!)
done
sleep 1
# the comparison on these processes: the machine's others open and close /dev/null between the takes
# (CI of stop 30: 8 files apart while builds ran)
printf '%s\n' "${PIDS[@]}" >"/tmp/fd-census.$$.pids"
before=$("$TOOL" 1 3 "/tmp/fd-census.$$.pids")
echo "       $PROCS processes x $FDS fds of /dev/null: $before"
check "the iterator loaded" jq -e '.iterator == "BPF task-file iterator"' <<<"$before"
check "iterator and /proc walk found the same (pid, fd) set of these processes" jq -e '.same' <<<"$before"
check "at least the $((PROCS * FDS)) files held" jq -e --argjson n $((PROCS * FDS)) '.iterator_files >= $n' <<<"$before"
kill "${PIDS[@]:0:10}" 2>/dev/null
wait "${PIDS[@]:0:10}" 2>/dev/null
printf '%s\n' "${PIDS[@]:10}" >"/tmp/fd-census.$$.pids"
after=$("$TOOL" 1 1 "/tmp/fd-census.$$.pids")
rm -f "/tmp/fd-census.$$.pids"
echo "       10 of them gone: $after"
check "10 processes gone: both ways agree, and about $((10 * FDS)) files fewer (other processes open and close /dev/null too)" \
	jq -e --argjson was "$(jq .iterator_files <<<"$before")" --argjson d $((10 * FDS)) \
	'.same and .iterator_files <= $was - $d * 0.9' <<<"$after"
if [ -n "$BIN" ]; then
	"$BIN" -b -J -n 6 -d 1 >"/tmp/fd-census.$$.json"
	echo "       gputop-bpf at 1 s with them: CPU % per interval $(jq -s -c '[.[1:][].tables["self.process"][0].cpu_pct | . * 100 | round / 100]' "/tmp/fd-census.$$.json"); memory collector: $(jq -s -r '.[-1].collectors[] | select(.name == "memory") | if .detail == "" then .reason else .detail end' "/tmp/fd-census.$$.json")"
	rm -f "/tmp/fd-census.$$.json"
fi
finish
