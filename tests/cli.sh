#!/usr/bin/env bash
# The command line keeps its word: every bad command line exits 2 with the line pointing to --help;
# -p of a PID that is not running (live) or not in a recording (replay) is said, and the run goes on.
# Live runs here are unprivileged (as nobody when this is root: no BPF is loaded), but --list's.
#   tests/cli.sh BINARY RECORDING
set -u
SUITE="command line"
. "$(dirname "$0")/lib.sh"
BIN=$1 REC=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TRY="Try 'gputop-bpf --help' for more information."

# usage ARGS...: exit 2, the reason first, then the --help line, nothing on stdout
usage() {
	local rc
	"$BIN" "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "$* : exit 2 ($rc), '$(head -1 "$TMP/err")', then the --help line" \
		bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$TMP/err') -eq 2 ] && grep -q '^gputop-bpf: ' '$TMP/err' &&
			tail -1 '$TMP/err' | grep -qxF \"$TRY\" && [ ! -s '$TMP/out' ]"
}
usage --listen abc
usage --listen 99999
usage --listen ""
usage -d 0x10
usage -d inf
usage -d nan
usage -d 1e1
usage -d 0
usage -n 0
usage -p abc
usage --bogus
usage --trace t.pftrace --duration 0x10
usage --stacks s --stacks-weight weight
usage --record r.jsonl --replay "$REC"
check "-d 0x10: the message names the accepted form" \
	bash -c "'$BIN' -d 0x10 2>&1 | grep -qF \"invalid delay '0x10': expected seconds as a decimal number (digits and one optional '.')\""

# a user without privilege runs the binary (a copy it can reach): what needs no BPF only
UBIN=$BIN
AS=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	UBIN=$TMP/gputop-bpf
	cp "$BIN" "$UBIN" && chmod 755 "$TMP" "$UBIN"
	AS=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
fi
live() { "${AS[@]}" "$UBIN" "$@"; }

# -p of a PID that is not running: as top and htop, the run goes on; unlike them, it says so
pid=999999
while [ -e "/proc/$pid" ]; do pid=$((pid + 1)); done
live -b -n 1 -d 0.05 -p "$pid" </dev/null >"$TMP/out" 2>"$TMP/err"
rc=$?
check "live -p $pid (not running): exit 0 ($rc), one line saying no process $pid is running" \
	bash -c "[ $rc -eq 0 ] && grep -qxF 'gputop-bpf: -p $pid: no process $pid is running; its rows show if one starts' '$TMP/err'"
sleep 30 &
running=$!
live -b -n 1 -d 0.05 -p "$running" </dev/null >"$TMP/out" 2>"$TMP/err"
rc=$?
kill "$running" 2>/dev/null
check "live -p $running (a running sleep, another user's): exit 0 ($rc), not said to be missing" \
	bash -c "[ $rc -eq 0 ] && ! grep -q 'no process' '$TMP/err'"
# in a replay: said once the snapshots are read, never a failure before
"$BIN" --replay "$REC" -b -p "$pid" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "--replay -p $pid (not in the recording): exit 0 ($rc), every snapshot printed, then a note" \
	bash -c "[ $rc -eq 0 ] && [ \$(grep -c '^gputop-bpf snapshot ' '$TMP/out') -eq $(grep -c . "$REC") ] &&
		grep -qxF 'gputop-bpf: -p $pid: process $pid was not seen in the recording' '$TMP/err'"
"$BIN" --replay "$REC" -b -n 2 -p "$pid" >/dev/null 2>"$TMP/err"
check "--replay -n 2 -p $pid: not seen in the snapshots played" \
	grep -qxF "gputop-bpf: -p $pid: process $pid was not seen in the snapshots played" "$TMP/err"
seen=$(jq -rs '[.[] | .tables["gpu.processes"] // [] | .[].pid] | group_by(.) | max_by(length) | .[0]' "$REC")
"$BIN" --replay "$REC" -b -p "$seen" >/dev/null 2>"$TMP/err"
check "--replay -p $seen (in the recording): no note" bash -c "! grep -q 'not seen' '$TMP/err'"

# --list -J: one JSON object, every collector and its tracepoints as --list prints them
# (as the invoking user: as root the BPF collectors list their tracepoints and probes)
"$BIN" --list -J </dev/null >"$TMP/list.json" 2>/dev/null
rc=$?
"$BIN" --list </dev/null >"$TMP/list.txt" 2>/dev/null
check "--list -J: exit 0 ($rc), one JSON object on one line" \
	bash -c "[ $rc -eq 0 ] && [ \$(wc -l <'$TMP/list.json') -eq 1 ] && [ \"\$(jq -s -r 'length, (.[0] | type)' '$TMP/list.json' | tr '\n' ' ')\" = '1 object ' ]"
check "--list -J: each collector has its name, state, description, reason, fix, detail and tracepoints" \
	test "$(jq '[.collectors[] | select(has("name") and has("state") and has("description") and has("reason") and
		has("fix") and has("detail") and (.tracepoints | type == "array"))] | length' "$TMP/list.json")" = \
	"$(grep -c '^[a-z_]*: [a-z]* - ' "$TMP/list.txt")"
check "--list -J: the collectors, states and descriptions --list prints, in its order" \
	diff <(jq -r '.collectors[] | "\(.name): \(.state) - \(.description)"' "$TMP/list.json") \
	<(grep '^[a-z_]*: [a-z]* - ' "$TMP/list.txt")
check "--list -J: the reasons --list prints" \
	diff <(jq -r '.collectors[] | select(.reason != "") | .reason' "$TMP/list.json") \
	<(sed -n 's/^  reason: //p' "$TMP/list.txt")
check "--list -J: every tracepoint and probe --list prints, with its state ($(grep -cE '^  (attached|available|missing|failed) ' "$TMP/list.txt"))" \
	diff <(jq -r '.collectors[].tracepoints[] | "\(.state) \(.group):\(.event)"' "$TMP/list.json") \
	<(awk '/^  (attached|available|missing|failed) / { print $1, $2 }' "$TMP/list.txt")

# -v: each collector's start time by stage, the total, and the quit's stages, each in ms
"$BIN" --list -v </dev/null >/dev/null 2>"$TMP/verbose.err"
check "--list -v: a start line for each of the $(grep -c '^[a-z_]*: [a-z]* - ' "$TMP/list.txt") collectors, with its stages in ms" \
	diff <(grep -E '^gputop-bpf: [a-z_]+ started in [0-9.]+ ms \(probe [0-9.]+, open [0-9.]+, attach [0-9.]+\)$' \
		"$TMP/verbose.err" | cut -d' ' -f2) <(sed -n 's/^\([a-z_]*\): [a-z]* - .*/\1/p' "$TMP/list.txt")
check "--list -v: the collectors' total and the quit's stages" \
	bash -c "grep -qE '^gputop-bpf: [0-9]+ collectors started in [0-9.]+ ms; [0-9.]+ ms since main began$' '$TMP/verbose.err' &&
		grep -qE '^gputop-bpf: stopping: poller [0-9.]+ ms, collectors [0-9.]+ ms, probes handed on [0-9.]+ ms$' '$TMP/verbose.err'"

# unprivileged --list: a collector whose kernel modules are not loaded says that, not that it needs root;
# where one is (a sysfs tree of /sys/module/gpu_sched and drm), that it needs root
if [ "$(id -u)" = 0 ] && [ ${#AS[@]} -eq 0 ]; then
	skip "unprivileged --list: root without setpriv (util-linux)"
else
	mkdir -p "$TMP/sys/module/gpu_sched" "$TMP/sys/module/drm" && chmod -R a+rX "$TMP/sys"
	live --list -J --sysfs "$TMP/sys" </dev/null >"$TMP/ulist.json" 2>/dev/null
	for cm in drm_sched:gpu_sched:root display:drm:root amdgpu:amdgpu: intel:i915,xe: nvidia:nvidia:; do
		IFS=: read -r c mods root <<<"$cm"
		reason=$(jq -r --arg c "$c" '.collectors[] | select(.name == $c) | .reason' "$TMP/ulist.json")
		fix=$(jq -r --arg c "$c" '.collectors[] | select(.name == $c) | .fix' "$TMP/ulist.json")
		if [ -n "$root" ]; then
			check "unprivileged --list: $c ($mods loaded) says it needs root: '$reason'" \
				grep -q '^it needs root or CAP_BPF' <<<"$reason"
		else
			check "unprivileged --list: $c ($mods not loaded) says so, not root: '$reason'; the fix names sudo after it" \
				bash -c "grep -qE '(module is not loaded|^neither .* is loaded)$' <<<'$reason' && ! grep -q root <<<'$reason' &&
					grep -qF \"then run 'sudo gputop-bpf'\" <<<\"$fix\""
		fi
	done
	check "unprivileged --list: irq and calls (no module of their own) say they need root" \
		test "$(jq -c '[.collectors[] | select(.name == "irq" or .name == "calls") | .reason | startswith("it needs root or CAP_BPF")]' \
			"$TMP/ulist.json")" = "[true,true]"
fi

# an empty recording is an error (exit 1, as a bad line), never a silent success
printf '\n  \n\n' >"$TMP/blank.jsonl"
for r in /dev/null "$TMP/blank.jsonl"; do
	"$BIN" --replay "$r" -b >"$TMP/out" 2>"$TMP/err"
	rc=$?
	check "--replay $r -b: exit 1 ($rc), the recording said empty, nothing printed" \
		bash -c "[ $rc -eq 1 ] && grep -qxF 'gputop-bpf: $r: the recording is empty (no snapshot in it)' '$TMP/err' && [ ! -s '$TMP/out' ]"
done
"$BIN" --replay /dev/null -b -J >"$TMP/out" 2>/dev/null
check "--replay /dev/null -b -J: the error as JSON too" \
	test "$(jq -r .error "$TMP/out")" = "/dev/null: the recording is empty (no snapshot in it)"
finish
