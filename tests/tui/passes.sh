#!/usr/bin/env bash
# The interface suite (tests/tui/run.sh) for several binaries at once: each pass waits on
# tmux and its replay far more than it computes, so the passes share the CPUs well. Each
# pass's output is printed whole, in order, when all are done; any failing pass fails this.
#   tests/tui/passes.sh RECORDING NVIDIA_RECORDING 'ENV... BINARY' ...
# (each pass a word: optional VAR=value assignments, then the binary; "setarch -R" is
# given as SETARCH=1, for ThreadSanitizer's address layout)
set -u
REC=$1 NVREC=$2
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
LOGS=$(mktemp -d)
trap 'rm -rf "$LOGS"' EXIT
pids=()
i=0
for pass in "$@"; do
	i=$((i + 1))
	(
		read -ra words <<<"$pass"
		prefix=()
		for w in "${words[@]}"; do
			case $w in
			SETARCH=1) prefix+=(setarch "$(uname -m)" -R) ;;
			*=*) export "${w?}" ;;
			*) bin=$w ;;
			esac
		done
		"${prefix[@]}" "$HERE/run.sh" "$bin" "$REC" "$NVREC"
	) >"$LOGS/$i" 2>&1 &
	pids+=($!)
done
rc=0
i=0
for p in "${pids[@]}"; do
	i=$((i + 1))
	wait "$p" || rc=1
	echo "== pass $i: ${*:$i:1}"
	cat "$LOGS/$i"
done
exit $rc
