#!/usr/bin/env bash
# The batch text and -J of a replay say what the interface says (model/table_seen.c): a table
# empty now after rows says so, never that nothing happened; -p keeps one process's rows in every
# table with a PID and says it is on; the recorder's own cost is said to be the recorder's, and its
# own rows in an older recording are left out.
#   tests/replay/text.sh BINARY RECORDING
set -u
SUITE="replay text"
. "$(dirname "$0")/../lib.sh"
BIN=$1 REC=$2
if ! command -v jq >/dev/null; then
	fail "jq is missing: run 'make deps'"
	finish
	exit
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$BIN" --replay "$REC" -b >"$TMP/text" || fail "--replay -b exits 0"
"$BIN" --replay "$REC" -b -J >"$TMP/json" || fail "--replay -b -J exits 0"
last=$(wc -l <"$REC")
# the last snapshot's text, each table's title line and the line after it
awk -v s="gputop-bpf snapshot $last " 'index($0, s) == 1 { on = 1 } on' "$TMP/text" >"$TMP/last"
# tables empty in the last snapshot that had rows before it (jq: the recording's own figures)
gone=$(jq -rs '(.[-1].tables | to_entries | map(select(.value | length == 0)) | map(.key)) as $empty |
	[.[:-1][] | .tables | to_entries[] | select(.value | length > 0) | .key] | unique |
	map(select(. as $k | $empty | index($k))) | .[]' "$REC")
check "the recording's last snapshot has tables emptied after rows ($(wc -w <<<"$gone"))" test -n "$gone"
for t in $gone; do
	said=$(grep -A1 -F "($t)" "$TMP/last" | sed -n 2p)
	if [[ $said == "  None now: "* ]]; then pass "$t, empty at the end: $said"; else fail "$t at the end says: $said"; fi
done
n=$(jq -s '[.[] | .tables["calls.ioctls"] // [] | .[].pid] | unique | length' "$REC")
check "calls.ioctls at the end: the $n processes that made ioctls, not 'No ioctl ... since the start'" \
	grep -qxF "  None now: $n processes had rows here earlier and have exited or stopped." \
	<(grep -A1 -F "(calls.ioctls)" "$TMP/last")
check "-J: \"empty\" says the same of calls.ioctls at the end" \
	test "$(tail -1 "$TMP/json" | jq -r '.empty["calls.ioctls"]')" = \
	"None now: $n processes had rows here earlier and have exited or stopped."
check "-J: \"empty\" names only the tables without a row" \
	test "$(tail -1 "$TMP/json" | jq '[.empty | keys_unsorted[]] == [.tables | to_entries[] | select(.value | length == 0) | .key]')" = true
check "-J replays: $last snapshots read back" \
	test "$("$BIN" --replay "$TMP/json" -b -J | wc -l)" -eq "$last"
check "self.process in a replay: titled as the recorder's figures" \
	grep -qF "gputop-bpf itself: the recorder's figures, not this replay's (self.process)" "$TMP/last"

# -p: a process with DRM clients; every table with a PID column has its rows only
pid=$(jq -rs '[.[] | .tables["memory.clients"] // [] | .[].pid] | group_by(.) | max_by(length) | .[0]' "$REC")
"$BIN" --replay "$REC" -b -J -p "$pid" >"$TMP/pjson"
others=$(jq -s --argjson p "$pid" '[.[] | .tables | to_entries[] | select(.key != "self.process" and
	.key != "nvidia.xids") | .value[] | select(has("pid") and .pid != $p)] | length' "$TMP/pjson")
mine=$(jq -s --argjson p "$pid" '[.[] | .tables["memory.clients"][] | select(.pid == $p)] | length' "$TMP/pjson")
check "-p $pid: no row of another process in any table with a PID ($others), its clients kept ($mine rows)" \
	test "$others" -eq 0 -a "$mine" -gt 0
check "-p $pid: the text's header line says it is on" \
	bash -c "'$BIN' --replay '$REC' -b -n 1 -p $pid | head -1 | grep -qF -- '-p $pid: its rows only, in tables with a PID'"

# a recording made before the monitor left its own calls out (examples/nvidia-h100.jsonl: its
# recorder's ioctls and CUDA row): a replay shows none of the recorder's rows, in any table
OLD="$(dirname "$0")/../../examples/nvidia-h100.jsonl"
me=$(jq -s '.[-1].tables["self.process"][0].pid' "$OLD")
held=$(jq -s --argjson p "$me" '[.[] | .tables | to_entries[] | select(.key | startswith("self.") | not) |
	.value[] | select(.pid? == $p)] | length' "$OLD")
"$BIN" --replay "$OLD" -b -J >"$TMP/old.json"
shown=$(jq -s --argjson p "$me" '[.[] | .tables | to_entries[] | select(.key | startswith("self.") | not) |
	.value[] | select(.pid? == $p)] | length' "$TMP/old.json")
check "nvidia-h100.jsonl: its recorder ($me) has rows in it ($held): the check below can fail" test "$held" -gt 0
check "nvidia-h100.jsonl replayed: no row of its recorder ($me) outside self.* ($shown)" test "$shown" -eq 0

# kernel names longer than a cell's 255 bytes (up to 4095): whole in the batch text, as in -J
H200="$(dirname "$0")/../../examples/nvidia-h200.jsonl"
"$BIN" --replay "$H200" -b -J -n 41 2>/dev/null | tail -1 | jq -r '.tables["nvidia.kernels"][].kernel' >"$TMP/knames"
"$BIN" --replay "$H200" -b -n 41 >"$TMP/ktext"
long=$(awk 'length($0) > 255' "$TMP/knames" | wc -l) whole=0
while IFS= read -r k; do grep -qF -- "$k" "$TMP/ktext" && whole=$((whole + 1)); done <"$TMP/knames"
check "nvidia-h200.jsonl snapshot 41: every kernel name whole in the batch text ($whole of $(wc -l <"$TMP/knames"), $long past 255 bytes)" \
	test "$long" -gt 0 -a "$whole" -eq "$(wc -l <"$TMP/knames")"
# a process gone when a collector looked ("?" in every table of a snapshot) named by the snapshots
# before it, the processes' table derived again with the name: the recording's snapshots 21 and 22,
# pid P's comm "?" throughout the second
P=$(sed -n 21p "$REC" | jq -r '.tables["drm_sched.processes"][0].pid')
name=$(sed -n 21p "$REC" | jq -r '.tables["drm_sched.processes"][0].comm')
{
	sed -n 21p "$REC"
	sed -n 22p "$REC" | jq -c --argjson p "$P" 'walk(if type == "object" and .pid? == $p and has("comm") then .comm = "?" else . end)'
} >"$TMP/unnamed.jsonl"
got=$("$BIN" --replay "$TMP/unnamed.jsonl" -b -J | tail -1 | jq -r --argjson p "$P" '[.tables | to_entries[] | .value[]? |
	select(type == "object" and .pid? == $p and has("comm")) | .comm] | unique | join(",")')
check "pid $P, \"?\" in every table of a snapshot: named $name by the snapshot before it in each ($got)" test "$got" = "$name"
# NVIDIA ioctls in a recording made before their names (nvidia-h200.jsonl: "nvidia 0x2a" on nvidiactl)
# named in the replay as the calls collector names them now, the others kept by number
"$BIN" --replay "$H200" -b -J -n 20 2>/dev/null | tail -1 >"$TMP/ioctls.json"
recorded=$(sed -n 20p "$H200" | jq -r '[.tables["calls.ioctls"][] | select(.device == "nvidiactl" and .command == "nvidia 0x2a")] | length')
check "nvidia-h200.jsonl snapshot 20: nvidiactl's 0x2a, recorded 'nvidia 0x2a' ($recorded rows), replayed as 'nvidia RM_CONTROL'" \
	bash -c "[ $recorded -gt 0 ] && jq -e '[.tables[\"calls.ioctls\"][] | select(.device == \"nvidiactl\" and .cmd % 256 == 42) | .command] |
		length > 0 and all(. == \"nvidia RM_CONTROL\")' '$TMP/ioctls.json'"
# UVM's commands (no ioctl type) the recorder put on nvidia0 (named by minor alone): on nvidia-uvm, named
uvm=$(sed -n 20p "$H200" | jq -r '[.tables["calls.ioctls"][] | select(.device == "nvidia0" and .cmd == 33)] | length')
check "nvidia-h200.jsonl snapshot 20: UVM's 33, recorded on nvidia0 ($uvm rows), replayed as 'uvm MAP_EXTERNAL_ALLOCATION' on nvidia-uvm" \
	bash -c "[ $uvm -gt 0 ] && jq -e '[.tables[\"calls.ioctls\"][] | select(.cmd == 33)] | length > 0 and
		all(.device == \"nvidia-uvm\" and .command == \"uvm MAP_EXTERNAL_ALLOCATION\")' '$TMP/ioctls.json' &&
		! jq -e '[.tables[\"calls.ioctls\"][] | select(.device == \"nvidia0\" and .cmd < 2048)] | length > 0' '$TMP/ioctls.json'"
finish
