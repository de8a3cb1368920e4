#!/usr/bin/env bash
# The interactive interface, driven headless under tmux with --replay (no root, no
# BPF): keys are sent, the screen is captured, and what a person would see is
# checked.   Usage: tests/tui/run.sh BINARY RECORDING [NVIDIA_RECORDING]
set -u
SUITE="tui tests"
. "$(dirname "$0")/../lib.sh"
BIN=$(realpath "$1")
REC=$(realpath "$2")
NVREC=$(realpath "${3:-/nonexistent}" 2>/dev/null)
if ! command -v tmux >/dev/null; then
	skip "tmux missing: run 'make deps'"
	finish; exit
fi
TMP=$(mktemp -d)
SESSIONS=0
T=
# Every session gets its own server socket: a new session on a socket whose server
# is still exiting fails with "server exited unexpectedly".
kill_all() { for s in "$TMP"/tmux.*.sock; do [ -S "$s" ] && tmux -S "$s" kill-server 2>/dev/null; done; }
trap 'kill_all; rm -rf "$TMP"' EXIT
export XDG_CONFIG_HOME=$TMP/config LANG=C.UTF-8 TERM=xterm-256color
unset NO_COLOR

# start COLS ROWS ARGS...: the binary in a fresh session (in the folder $CWD if set); its exit status
# lands in $TMP/exit.
start() {
	local cols=$1 rows=$2
	shift 2
	[ -n "$T" ] && $T kill-server 2>/dev/null
	SESSIONS=$((SESSIONS + 1))
	T="tmux -S $TMP/tmux.$SESSIONS.sock"
	rm -f "$TMP/exit" "$TMP/stty"
	$T -f /dev/null new-session -d -s t -x "$cols" -y "$rows" \
		"${CWD:+cd $CWD; }stty -a > $TMP/stty.before; $BIN $*; echo \$? > $TMP/exit; stty -a > $TMP/stty; sleep 30"
	$T set-option -t t remain-on-exit on >/dev/null
}
screen() { $T capture-pane -p -t t; }
keys() { $T send-keys -t t "$@"; sleep 0.4; }
# step_to N: a replay at -d 60 (a snapshot a minute) stepped from its first snapshot to snapshot N (n, N - 1 times)
step_to() { for _ in $(seq 2 "$1"); do $T send-keys -t t n; sleep 0.05; done; }
# replay_at W H RECORDING N: the recording at -d 60 in a WxH terminal, on its snapshot N
replay_at() { start "$1" "$2" --replay "$3" -d 60; until_shows "REPLAY" 5; step_to "$4"; sleep 0.5; }
# until TEXT [SECONDS]: waits until the screen shows TEXT.
until_shows() {
	local end=$((SECONDS + ${2:-10}))
	while [ $SECONDS -lt $end ]; do
		screen | grep -qF -- "$1" && settle && return 0
		sleep 0.2
	done
	return 1
}
# until two captures 0.1 s apart agree (at most 2 s): a frame reaches tmux in several writes, and a capture
# between them sees its top half (CI of stop 30: the header there, the device lines not yet)
settle() {
	local a b i
	a=$(screen)
	for i in $(seq 20); do
		sleep 0.1
		b=$(screen)
		[ "$a" = "$b" ] && return 0
		a=$b
	done
	return 0
}
shows() { screen | grep -qF -- "$1"; }
words_whole() {
	local text=$1 scr w
	scr=$($T capture-pane -p -t t | tr -s ' \n' '  ')
	for w in $text; do grep -qF -- "$w" <<<"$scr" || { echo "missing or cut: $w"; return 1; }; done
}
# A container's line in the tree view ("▾ CGROUP  (N process...)") with pid among the N lines below it.
in_group() {
	screen | awk -v h="▾ $1  ($2 process" -v pid="$3" -v n="$2" \
		'index($0, h) { on = n; next } on > 0 { if ($1 == pid) found = 1; on-- } END { exit !found }'
}
line_of() { screen | grep -nF -- "$1" | head -1 | cut -d: -f1; }
before() { local a b; a=$(line_of "$1"); b=$(line_of "$2"); [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]; }

# The recording's snapshot N, as the screen should show it after N - 1 steps.
N=21
SNAP=$(sed -n "${N}p" "$REC")
# Recordings before format 3 kept rings and processes outside "tables".
RINGS='(.tables["drm_sched.rings"] // .rings)'
PROCS='(.tables["drm_sched.processes"] // .processes)'
gfx_done=$(jq -r "$RINGS[] | select(.name == \"gfx_0.0.0\") | .completed_total" <<<"$SNAP")
sdma_done=$(jq -r "$RINGS[] | select(.name == \"sdma0\") | .completed_total" <<<"$SNAP")
pid=$(jq -r "$PROCS | sort_by(-.gpu_pct) | .[0].pid" <<<"$SNAP")

echo "== main screen and drill-down (120x36, stepping to snapshot $N)"
start 120 36 --replay "$REC" -d 60
check "first snapshot drawn with the header" until_shows "REPLAY"
step_to $N
sleep 0.5
check "ring table: gfx_0.0.0 row with its $gfx_done completed jobs" \
	bash -c "$T capture-pane -p -t t | grep -E ' gfx_0\.0\.0 .* $gfx_done ' >/dev/null"
check "ring table: sdma0 row with its $sdma_done completed jobs" \
	bash -c "$T capture-pane -p -t t | grep -E ' sdma0 .* $sdma_done ' >/dev/null"
check "process table: PID $pid, mockgpu-submit" \
	bash -c "$T capture-pane -p -t t | grep -E ' $pid mockgpu-submit ' >/dev/null"
check "sparklines drawn (block elements)" bash -c "$T capture-pane -p -t t | grep -q '[▁▂▃▄▅▆▇█]'"
mock_jobs=$(jq -r '[.tables["drm_sched.rings"][] | select(.dev == "mockgpu") | .completed_per_s] | add | . * 10 | round / 10 | tostring | if test("\\.") then . else . + ".0" end' <<<"$SNAP")
check "rings that name no DRM card: a line of their own with their jobs done ($mock_jobs/s), not lost" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ mockgpu +\(no DRM card: its scheduler.s rings\)  done/s $mock_jobs\$'"

mem_total=$(jq -r '.tables["memory.devices"][] | select(.dev == "mockdrm") | .total_bytes' <<<"$SNAP")
check "side pane MEMORY: mockdrm's region with its total ($mem_total bytes)" \
	bash -c "$T capture-pane -p -t t | grep -E 'mockdrm +memory +$(numfmt --to=iec-i --format=%.1f "$mem_total" | sed 's/\([KMG]\)i/\1iB/')' >/dev/null"
check "key bar at the bottom" bash -c "$T capture-pane -p -t t | tail -1 | grep -q 'F10Quit'"
check "side panes: their columns titled over them, and what the sparkline draws" \
	bash -c "$T capture-pane -p -t t | grep -qE '│CRTC +HZ +JITTER HZ history' && $T capture-pane -p -t t | grep -qE '│DEVICE +REGION +TOTAL'"

check "the sorted column's title has its arrow: completed jobs/s (DONE/S), largest first" shows "▼DONE/S"
keys s
check "s on the Overview: the processes' sort menu, as F6 (htop's), not the rings' that had the keys" \
	bash -c "$T capture-pane -p -t t | grep -q 'Sort Processes by' && ! $T capture-pane -p -t t | grep -q 'Sort Rings by'"
keys Escape
keys Left
keys s
check "s after Left chose the rings: the rings' sort menu" shows "Sort Rings by"
check "the sort menu: the columns on screen by their titles and meaning, the sorted one marked" \
	bash -c "$T capture-pane -p -t t | grep -qE '▼ DONE/S +jobs completed per second' && ! $T capture-pane -p -t t | grep -qE 'completed_per_s|exec_ns.max|EXEC HIST'"
keys Home
for _ in 1 2 3 4 5 6 7 8 9; do $T send-keys -t t Up; done
keys Enter
check "sort by RING: comp_1.0.0 above gfx_0.0.0 above sdma0, the arrow up" \
	bash -c "$(declare -f screen line_of before); T='$T'; before ' comp_1.0.0 ' ' gfx_0.0.0 ' && before ' gfx_0.0.0 ' ' sdma0 ' && $T capture-pane -p -t t | grep -q ' RING▲ '"
keys r
check "r reverses: sdma0 above comp_1.0.0, the arrow down" \
	bash -c "$(declare -f screen line_of before); T='$T'; before ' sdma0 ' ' comp_1.0.0 ' && $T capture-pane -p -t t | grep -q ' RING▼ '"
keys r
keys '>'
check "> sorts by the next column on screen (QUEUE; DEVICE is not drawn at this width), its arrow beside the full title" \
	bash -c "$T capture-pane -p -t t | grep -q 'Rings sorted by QUEUE' && $T capture-pane -p -t t | grep -qE ' [▲▼]QUEUE INFL '"
keys '>'
check "> again: INFL, a title as wide as its column: its column a cell wider for the arrow, a space before it" \
	bash -c "$T capture-pane -p -t t | grep -q 'Rings sorted by INFL' && $T capture-pane -p -t t | grep -qE ' QUEUE [▲▼]INFL '"
keys '>'
keys '>'
keys '>'
check "> to WAIT p50 between two titles as wide as theirs: its title whole, a space on both sides" \
	bash -c "$T capture-pane -p -t t | grep -q 'Rings sorted by WAIT p50' && $T capture-pane -p -t t | grep -qE ' BUSY% [▲▼]WAIT p50 WAIT p99 '"
keys '<'
keys '<'
keys '<'
keys '<'
keys '<'
keys '<'
check "< stops at the first column on screen (RING), never an undrawn one (DEVICE)" \
	bash -c "$T capture-pane -p -t t | grep -q 'Rings sorted by RING' && ! $T capture-pane -p -t t | grep -q DEVICE.*JOBS"
keys '>'
keys '>'
keys '>'
check "> three times: back to DONE/S, the default (W below saves the order the later sections start with)" \
	shows "Rings sorted by DONE/S"
keys Right
keys M
check "M on the processes: by their GPU memory" shows "Processes sorted by GPU MEM"
keys P
check "P: by GPU %" shows "Processes sorted by GPU%"
keys Left
keys M
check "M on the rings: they have no memory column, and it says so" shows "M (memory): Rings has no such column"

keys /
keys s d m a
keys Enter
check "filter 'sdma': sdma0 shown" shows " sdma0 "
check "filter 'sdma': gfx_0.0.0 hidden" bash -c "! $T capture-pane -p -t t | grep -q ' gfx_0.0.0 '"
check "filter named in the header" shows "filter: sdma"
keys Enter
check "Enter opens the ring pane" shows "Ring sdma0 on mockgpu"
check "ring pane: histograms" shows "Queue wait since start"
check "ring pane: processes on the ring" shows "Processes on this ring"
keys Escape
check "Esc goes back to the table" shows "Rings (1 of 3 match \"sdma\")"
keys Escape
check "Esc again clears the filter" shows "Rings (3)"

keys Right
keys Enter
check "Enter on a process opens its pane" shows "mockgpu-submit   (Esc goes back)"
check "process pane: its rings" shows "Its rings"
check "process pane: the scheduler's view of it, merged and as the source says" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ *Over all sources:  GPUS mockgpu  GPU% [0-9.]+' && $T capture-pane -p -t t | grep -qE '^ *DRM scheduler:  SUBM/S [0-9.]+  GPU% '"
keys Escape
GP=$("$BIN" --replay "$REC" -b -J -n "$N" | tail -1 | jq -c '.tables["gpu.processes"]')
GPT=$(jq -c 'map(.cg = (.cgroup // "" | if . == "" then "cgroup unknown" else . end))' <<<"$GP")
tree_cg=$(jq -r 'group_by(.cg) | max_by(length) | .[0].cg' <<<"$GPT")
tree_n=$(jq -r --arg cg "$tree_cg" 'map(select(.cg == $cg)) | length' <<<"$GPT")
tree_pid=$(jq -r --arg cg "$tree_cg" 'map(select(.cg == $cg)) | .[0].pid' <<<"$GPT")
keys t
check "t: the tree, the processes under their container ($tree_cg: $tree_n, pid $tree_pid below it)" \
	in_group "$tree_cg" "$tree_n" "$tree_pid"
keys t
check "t again: the flat list, no container lines" bash -c "! $T capture-pane -p -t t | grep -qF '▾ '"

keys 2
check "2: AMD pane: amdgpu attached without an AMD GPU, nothing fired, and it says so" \
	bash -c "$T capture-pane -p -t t | grep -q 'amdgpu: no event yet (they fire with an AMD GPU at work)' && $T capture-pane -p -t t | grep -q 'No amdgpu submission or job since the start.'"
keys Tab
check "Tab: Intel pane" shows "Intel   (Tab or 1-8"
keys Tab
check "Tab: NVIDIA pane says not available, with the reason" \
	bash -c "$T capture-pane -p -t t | grep -q 'The nvidia collector was not available on the recorded machine.' && $T capture-pane -p -t t | grep -q 'Reason:'"
keys 1
check "1: back to the overview" shows "Rings (3)"

keys -
check "-: faster refresh, shown in the header" shows "every 30s"
keys +
check "+: slower refresh" shows "every 60s"
keys BTab
check "Shift-Tab: the GPU time pane (the last)" shows "GPU time   (Tab or 1-8"
keys 1
ring_names=$(screen | sed -n '/^ RING[▲▼ ]/,/^ Processes/p' | sed '1d;$d' | awk '{ print $1 }')
keys Left
keys End
keys Enter
check "End, Enter: the last ring's pane ($(tail -1 <<<"$ring_names"))" shows "Ring $(tail -1 <<<"$ring_names") on"
keys Escape
keys Home
keys Enter
check "Home, Enter: the first ring's pane ($(head -1 <<<"$ring_names"))" shows "Ring $(head -1 <<<"$ring_names") on"
keys Escape
keys C-l
check "Ctrl-L redraws (still the overview)" shows "Rings (3)"
keys ?
check "?: the help too" shows "next colour theme"
keys Escape
keys h
check "h: help overlay lists the keys" bash -c "$T capture-pane -p -t t | grep -q 'Keys' && $T capture-pane -p -t t | grep -q 'next colour theme'"
check "h: the help lists the panes from their declarations, with their keys" \
	shows "1-8             Overview, AMD, Intel, NVIDIA, Display, Memory, Calls, GPU"
check "the help at 120 columns: every word of its lines whole, wrapped beside its key" \
	words_whole "send a signal to the selected process (TERM, KILL ...), live only each GPU's block expanded (engines, fan, clocks, PCIe) or one line"
keys x
check "any key closes the help" bash -c "! $T capture-pane -p -t t | grep -q 'next colour theme'"

before_colors=$($T capture-pane -e -p -t t | md5sum)
keys t
check "t on a table without processes: the tree is for process tables, and it says so" \
	shows "has no processes with containers; select a process table"
keys C
check "C: theme light named in the header" shows "theme light"
check "C: the colours changed" bash -c "[ \"\$($T capture-pane -e -p -t t | md5sum)\" != '$before_colors' ]"
keys W
check "W saves the settings" test -f "$XDG_CONFIG_HOME/gputop-bpf/config"
check "saved settings name the theme" grep -qx 'theme = light' "$XDG_CONFIG_HOME/gputop-bpf/config"

DN=30
echo "== the ring pane and the process pane (snapshots 25, 40, 79)"
# ends LABEL...: the sparklines so labelled (the label on a chart's top row, its rows below it up to
# the next label) start and end in one column (one width, one time axis)
ends() {
	local l e end lead prev= prevlead=
	for l in "$@"; do
		e=$(screen | grep -m1 -E "^ $l  " | sed 's/ *$//')
		[ -n "$e" ] || { echo "no line $l"; return 1; }
		end=0
		while IFS= read -r c; do # characters, not bytes: the glyphs are UTF-8
			c=${c%"${c##*[! ]}"}
			[ ${#c} -le "$end" ] || end=${#c}
		done < <(screen | awk -v l=" $l  " 'found && /^ [^ ]/ { exit } index($0, l) == 1 { found = 1 } found')
		lead=$(cut -c12- <<<"$e" | sed 's/[^ ].*//')
		[ -z "$prev" ] || [ "$end" -eq "$prev" ] || { echo "$l ends at $end, not $prev"; return 1; }
		[ -z "$prevlead" ] || [ "${#lead}" -eq "$prevlead" ] || { echo "$l starts at ${#lead}, not $prevlead"; return 1; }
		prev=$end prevlead=${#lead}
	done
}
# still: waits until the screen has not changed for a second (the steps sent all taken), at most 10 s.
still() {
	local a b end=$((SECONDS + 10))
	a=$(screen)
	while [ $SECONDS -lt $end ]; do
		sleep 1
		b=$(screen)
		[ "$a" = "$b" ] && return 0
		a=$b
	done
}
start 120 40 --replay "$REC" -d 60
until_shows "REPLAY" 5
step_to 25
still
keys Enter
check "ring pane, snapshot 25: its processes' GPU % add up to more than busy %, and a line says why" \
	until_shows "GPU %: time with one of its jobs running; jobs of several processes run at once"
check "ring pane: its four sparklines end in one column" ends "done/s" "exec p50" "wait p50" "busy %"
keys Escape
start 80 24 --replay "$REC" -d 60
until_shows "REPLAY" 5
step_to 40
still
keys Enter
exec_max=$(screen | grep -m1 '^ execution, all' | grep -oE 'max +[0-9.]+[num]?s' | awk '{ print $2 }')
check "ring pane, snapshot 40: the execution histogram ends at the exact max ($exec_max), not above it" \
	bash -c "$T capture-pane -p -t t | grep -A1 '^ Execution since start' | grep -qE ' $exec_max  [0-9]+ jobs'"
keys Escape
keys Right
keys Enter
check "process pane: GPU % and GPU mem sparklines end in one column" ends "GPU %" "GPU mem"
keys Escape
for _ in $(seq 41 79); do $T send-keys -t t n; sleep 0.05; done
still
keys Left
keys Enter
check "ring pane, snapshot 79: no process on the ring now, and it says so" \
	bash -c "$T capture-pane -p -t t | grep -A1 'Processes on this ring' | grep -q 'None now: its [0-9]* jobs since the start'"
check "ring pane, snapshot 79: its sparklines one width, the intervals without a job dotted, not left out" \
	ends "done/s" "exec p50" "wait p50" "busy %"

echo "== overlays (F6, F2) at 80x24: nothing of the screen beside their box"
# box_alone TITLE: on the lines the box titled TITLE spans, nothing but blanks left and right of it.
box_alone() {
	screen | python3 -c '
import sys
lines, title = sys.stdin.read().split("\n"), sys.argv[1]
top = next((i for i, l in enumerate(lines) if "┌─ " + title in l), None)
if top is None: sys.exit("no box " + title)
x = lines[top].index("┌")
end = lines[top].index("┐")
for l in lines[top:]:
    if l[:x].strip() or l[end + 1:].strip(): sys.exit("beside the box: " + repr(l))
    if l[x:x + 1] == "└": sys.exit(0)
sys.exit("no bottom")' "$1"
}
replay_at 80 24 "$REC" 40
keys F6
check "F6 at 80x24: the sort menu (the processes', as htop's F6) alone on its lines, no cut word of the tables beside it" \
	box_alone "Sort Processes by"
keys Escape
keys Right
keys F2
check "F2 at 80x24: the setup screen alone on its lines" box_alone "Setup (F2)"
keys Escape
keys 2
check "80x24 AMD pane: an empty table's text beside its title where it fits whole, one line" \
	bash -c "$T capture-pane -p -t t | grep -qxE ' amdgpu rings \(0\)  No amdgpu submission or job since the start\. *'"
check "80x24 AMD pane: all six tables on the screen (empty ones take a line or two)" \
	bash -c "$T capture-pane -p -t t | grep -qF 'AMD compute processes (KFD) (0)' && ! $T capture-pane -p -t t | grep -q 'more table'"
$T resize-window -t t -x 80 -y 22
sleep 0.5
check "80x22 AMD pane: the table below the screen named, and the key that reaches it" \
	shows "1 more table below: → AMD compute processes (KFD)"
for _ in 1 2 3 4 5; do $T send-keys -t t Right; sleep 0.1; done
sleep 0.3
check "Right to the last table: the one above named, and the key back to it" \
	shows "1 more table above: ← amdgpu rings"
$T resize-window -t t -x 80 -y 24
sleep 0.3
keys 1
start 120 40 --replay "$REC" -d 60
until_shows "REPLAY" 5
step_to 21
until_shows " gfx_0.0.0 " 5
keys F2
check "F2 at 120 columns: DEVICE is on but not drawn on Rings, and the setup says so; RING, drawn, is its key" \
	bash -c "$T capture-pane -p -t t | grep -qE '\[x\] DEVICE +\(no room at 120 columns\)' && $T capture-pane -p -t t | grep -qE '\[x\] RING .*\(its key: always\)' && ! $T capture-pane -p -t t | grep -qE '\[x\] DONE/S +\(no room'"
keys Escape
replay_at 220 50 "$REC" 21
keys Right
keys F2
check "F2 at 220 columns: a column left out because no row has a value says so, not 'no room'" \
	bash -c "$T capture-pane -p -t t | grep -qE '\[x\] LAUNCH/S +\(no values yet\) CUDA' && ! $T capture-pane -p -t t | grep -q 'no room at 220'"
keys Escape

echo "== the Display pane: collector tables in the shared widget (80x24, snapshot $DN)"
DSNAP=$(sed -n "${DN}p" "$REC")
flip_pid=$(jq -r '.tables["display.clients"] | map(select(.comm == "vblank-client")) | sort_by(-.delivered_total) | .[0].pid' <<<"$DSNAP")
flip_missed=$(jq -r ".tables[\"display.clients\"][] | select(.pid == $flip_pid) | .missed_total" <<<"$DSNAP")
nclients=$(jq -r '.tables["display.clients"] | length' <<<"$DSNAP")
vkms_card=$(jq -r '.devices[] | select(.bus_id == "vkms") | .name' <<<"$DSNAP")
start 80 24 --replay "$REC" -d 60
check "80x24: first snapshot drawn" until_shows "REPLAY"
step_to $DN
sleep 0.5
check "80x24: the header ends with a whole part, not cut mid-word" \
	bash -c "$T capture-pane -p -t t | head -1 | sed 's/ *\$//' | grep -qE '(REPLAY [^ ]+|every [0-9.]+s|up [0-9:]{8}|\\)|[0-9]+ missing|[0-9.]+s|[0-9]%|MiB)\$'"
check "80x24: the display side pane lists CRTC 0 at 60.00 Hz" \
	bash -c "$T capture-pane -p -t t | grep -E 'DISPLAY' -A1 | grep -qE '(CRTC 0 +HZ 60\.00| 0 +60\.00 )'"
keys Enter
ring=$(screen | sed -nE 's/^ Ring ([^ ]+) on .*/\1/p' | head -1)
waits=$(jq -r ".tables[\"drm_sched.rings\"][] | select(.name == \"$ring\") | .wait_ns_total.count" <<<"$DSNAP")
check "80x24 ring pane ($ring): the queue waits in one line on a log scale, both ends and all $waits jobs" \
	bash -c "$T capture-pane -p -t t | grep -A1 '^ Queue wait since start (jobs)' | grep -qE '^ +[0-9.]+(ns|us|ms) [▁▂▃▄▅▆▇█]{8,} [0-9.]+(ns|us|ms|s)  $waits jobs, log scale\$'"
check "80x24 ring pane: its counts in whole parts (the declared dependencies on a line of their own)" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ (declared dependencies [0-9]+|.*   declared dependencies [0-9]+)\$'"
keys Escape
keys 5
check "5: the Display pane with its CRTC table" shows "CRTCs (1)"
check "Display pane: the CRTC row: pipe 0 on $vkms_card (vkms) at 60.00 Hz" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ +0 $vkms_card +60\.00 '"
check "Display pane: $nclients clients, as in snapshot $DN" shows "Display clients ($nclients)"
check "Display pane: the flipping client $flip_pid with its $flip_missed missed frames" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ +$flip_pid vblank-client +$vkms_card +0 +[0-9.]+ +$flip_missed '"
check "Display pane: the kernel's own client, its device unknown (-)" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ +0 \\[kernel\\] +- +0 '"
check "Display pane: unknown latency shown as -, not 0" \
	bash -c "$T capture-pane -p -t t | grep -E '\\[kernel\\]' | grep -qE ' - +- *\$'"
keys Right
keys /
keys v b l a n k
keys Enter
check "filter 'vblank': only the vblank-client rows" \
	bash -c "$T capture-pane -p -t t | grep -q 'vblank-client' && ! $T capture-pane -p -t t | grep -q 'kernel\\]'"
keys Escape
check "Esc clears the filter" shows "[kernel]"
keys s
check "s: the sort menu lists the clients table's columns" shows "Sort Display clients by"
keys Home
keys Down
keys Enter
check "sort by COMM: [kernel] above vblank-client" \
	bash -c "$(declare -f screen line_of before); T='$T'; before '[kernel]' 'vblank-client'"
keys r
check "r reverses: vblank-client above [kernel]" \
	bash -c "$(declare -f screen line_of before); T='$T'; before 'vblank-client' '[kernel]'"
keys Home
keys Enter
check "Enter: the row view lists every column, drill-down ones too" \
	bash -c "$T capture-pane -p -t t | grep -q 'delivered_total' && $T capture-pane -p -t t | grep -q 'queued_p99_ns'"
row_pid=$(screen | sed -n 's/^.*│ pid  *\([0-9]*\) .*/\1/p' | head -1)
row_total=$(jq -r ".tables[\"display.clients\"][] | select(.pid == ${row_pid:-999999}) | .delivered_total" <<<"$DSNAP")
check "row view: PID ${row_pid:-?}'s events since start, as recorded (${row_total:-?})" \
	bash -c "[ -n '$row_total' ] && $T capture-pane -p -t t | grep -qE 'delivered_total +$row_total '"
check "row view: nothing cut inside the frame (meanings wrap at words, no …)" \
	bash -c "$T capture-pane -p -t t | grep -q '│ delivered_total ' && ! $T capture-pane -p -t t | grep -E '^ *│.*│ *\$' | grep -q '…'"
keys x
check "any key closes the row view" bash -c "! $T capture-pane -p -t t | grep -q 'delivered_total'"
keys 1
$T kill-server 2>/dev/null

MN=31
echo "== the Memory pane (160x48, snapshot $MN)"
MSNAP=$(sed -n "${MN}p" "$REC")
M='.tables["memory.processes"]'
nmp=$(jq -r "$M | length" <<<"$MSNAP")
holder=$(jq -r "$M[] | select(.comm == \"drm-holder\") | .pid" <<<"$MSNAP")
holder_cg=$(jq -r "$M[] | select(.comm == \"drm-holder\") | .cgroup" <<<"$MSNAP")
runner=$(jq -r "[$M[] | select(.render_pct > 1)][0].pid" <<<"$MSNAP")
runner_busy=$(jq -r "$M[] | select(.pid == $runner) | .render_pct * 10 | round / 10" <<<"$MSNAP")
dev_busy=$(jq -r '.tables["memory.device_engines"][] | select(.dev == "mockdrm" and .class == "3d") | .busy_pct | round' <<<"$MSNAP")
ncg=$(jq -r '.tables["memory.containers"] | length' <<<"$MSNAP")
start 160 48 --replay "$REC" -d 60
check "160x48: first snapshot drawn" until_shows "REPLAY"
step_to $MN
sleep 0.5
sdma_top=$(head -n "$MN" "$REC" | jq -s '[.[] | .tables["drm_sched.rings"][]? | select(.name == "sdma0") | .busy_pct] | max | round')
check "rings' sparkline: busy % on its 0-100 scale, so sdma0 (at most ${sdma_top}% busy) draws no full cell" \
	bash -c "$T capture-pane -p -t t | grep -qE 'BUSY% history' && [ $sdma_top -lt 87 ] && ! $T capture-pane -p -t t | grep -E '^ sdma0 ' | grep -q '█'"
check "overview: mockdrm's block: its memory, then its 3d engine as a bar at ${dev_busy}%" \
	bash -c "$T capture-pane -p -t t | grep -A1 -E 'mockdrm .*MEM [0-9.]+MiB\$' | tail -1 | grep -E '^ {10,}3d \[.{6}\] ${dev_busy}%' >/dev/null"
runner_gpu=$(jq -r "[.tables[\"memory.clients\"][] | select(.pid == $runner) | .busy_pct] | add | if . > 100 then 100 else . end | . * 10 | round / 10" <<<"$MSNAP")
check "overview: one process table: drm-load ($runner) from fdinfo on card1 (mockdrm), GPU ${runner_gpu}% of its clients' busy" \
	bash -c "$T capture-pane -p -t t | grep -E '^ +$runner drm-load +card1 +${runner_gpu} ' >/dev/null"
keys e
check "e: one line per GPU, the engine after the memory" \
	bash -c "$T capture-pane -p -t t | grep -E 'mockdrm .*MEM [0-9.]+MiB +3d ${dev_busy}%\$' >/dev/null"
keys e
keys 6
check "6: the Memory pane" shows "Memory   (Tab or 1-8"
check "Memory pane: $nmp processes" shows "GPU memory and engines by process ($nmp)"
check "Memory pane: devices above processes above clients above regions" \
	bash -c "[ \$($T capture-pane -p -t t | grep -nE '^ (GPU memory \\(|GPU memory and engines by process|DRM clients|Client memory by region)' | cut -d: -f1 | sort -n | tr '\n' ' ' | wc -w) -eq 4 ]"
check "Memory pane: drm-holder $holder in $holder_cg with 1.2MiB" \
	bash -c "$T capture-pane -p -t t | grep -E ' $holder drm-holder +$holder_cg +1 +1\\.2MiB' >/dev/null"
check "Memory pane: process $runner busy on 3D ${runner_busy}%" \
	bash -c "$T capture-pane -p -t t | grep -E ' $runner drm-load .* $runner_busy ' >/dev/null"
keys g
check "g: grouped by cgroup / container ($ncg)" shows "GPU memory and engines by cgroup / container ($ncg)"
check "g: the $holder_cg row with its one process" \
	bash -c "$T capture-pane -p -t t | grep -E '^ $holder_cg +1 +1 +1\\.2MiB' >/dev/null"
keys g
check "g again: by process" shows "GPU memory and engines by process ($nmp)"
keys Right / d r m - h o l d e r Enter
keys Enter
check "Enter on a process: its pane" shows "Process $holder drm-holder   cgroup $holder_cg   (Esc goes back)"
check "process pane: its client, held by 2 processes (the forked child)" shows "on mockdrm (mockdrm), held by 2 processes"
check "process pane: the client's region in the regions' columns, its engine on a line of its own" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ +memory +1\\.2MiB' && $T capture-pane -p -t t | grep -qE '^   engines busy: render [0-9.]+%'"
check "process pane: video %, never measured here, says so rather than a bare label" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ video % +- \\(no value known yet\\)'"
keys Escape
check "Esc: back to the Memory pane, the filter said in its title" shows "GPU memory and engines by process (1 of $nmp match \"drm-holder\")"
many=$(jq -r '[.tables["memory.clients"][] | .pid] | group_by(.) | max_by(length) | "\(.[0]) \(length)"' <<<"$MSNAP")
start 80 24 --replay "$REC" -d 60
until_shows "REPLAY" 5
step_to $MN
keys 6
keys Right / "${many% *}" Enter
keys Enter
check "80x24 process pane of ${many% *}: the clients that do not fit are counted (of ${many#* }), not left out silently" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ [0-9]+ more of its ${many#* } clients \(the DRM clients table lists all\)'"
$T kill-server 2>/dev/null

echo "== a collector this machine cannot have, at 80x24 and 200x24: named on the one line of what is absent"
reason="no gpu_scheduler tracepoints: the gpu_sched module is not loaded (no driver using the DRM GPU scheduler is active)"
head -3 "$REC" | jq -c --arg r "$reason" '.tables["drm_sched.rings"] = [] | .tables["drm_sched.processes"] = [] |
	.collectors |= map(if .name == "drm_sched" then .state = "unavailable" | .reason = $r | .fix = "load a driver built on drm_sched (amdgpu, xe, nouveau, v3d, panfrost, etnaviv ...)" else . end)' \
	>"$TMP/unavailable.jsonl"
start 80 24 --replay "$TMP/unavailable.jsonl" -d 60
until_shows "REPLAY" 5
sleep 0.5
# a source the machine lacks (not privilege): no Rings pane; the one line of what is absent names it
check "80 columns, no gpu_sched module: the Overview names the DRM scheduler on its one line, and has no Rings pane" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ Not here: DRM scheduler, GPU interrupt lines' && ! $T capture-pane -p -t t | grep -q 'Rings ('"
check "said once: nothing else on the Overview repeats it" \
	bash -c "[ \$($T capture-pane -p -t t | grep -cE 'gpu_scheduler|DRM scheduler|drm_sched') -eq 1 ] && ! $T capture-pane -p -t t | grep -qF '(above)'"
start 200 24 --replay "$TMP/unavailable.jsonl" -d 60
until_shows "REPLAY" 5
check "200 columns: the line whole, and where to see why (the recording's file named as given)" \
	bash -c "$T capture-pane -p -t t | grep -qxF ' Not here: DRM scheduler, GPU interrupt lines; see why: gputop-bpf --replay $TMP/unavailable.jsonl -b' ||
		$T capture-pane -p -t t | grep -qxE ' Not here: DRM scheduler, GPU interrupt lines; see why: gputop-bpf --replay $TMP/unavailable.jsonl -b +'"
$T kill-server 2>/dev/null

echo "== GPU sensors on the device lines (examples/sysfs-fixtures.jsonl: the fixture trees recorded)"
SYSREC=$(realpath "$(dirname "$0")/../../examples/sysfs-fixtures.jsonl")
SNAP1=$(head -1 "$SYSREC")
sensor() { jq -r --arg d "$1" --arg k "$2" '.tables["sensors.gpus"][] | select(.dev == $d) | .[$k] | if . == null then "-" else (. + 0.5 | floor | tostring) end' <<<"$SNAP1"; }
busy0=$(sensor card0 busy_pct) temp0=$(sensor card0 temp_c) power0=$(sensor card0 power_w) mhz0=$(sensor card0 gfx_mhz)
start 80 24 --replay "$SYSREC" -d 60
until_shows "REPLAY" 5
sleep 0.3
check "80x24: card0 (amdgpu) shows VRAM with a bar, busy ${busy0}%, ${temp0}°C" \
	bash -c "$T capture-pane -p -t t | grep -E '^ card0 +amdgpu +0000:03:00.0 +VRAM \[.{6}\] [0-9.]+GiB/16.0GiB  busy ${busy0}%  ${temp0}°C' >/dev/null"
check "80x24: card2 (xe) shows its VRAM size, used unknown, and its clock" \
	bash -c "$T capture-pane -p -t t | grep -E '^ card2 +xe +0000:04:00.0 +VRAM -/12.0GiB  55°C  gclk 2100MHz' >/dev/null"
check "80x24: every device line ends with a whole part (a unit, not a cut number or bar)" \
	bash -c "[ \$($T capture-pane -p -t t | sed -n '3,5p' | grep -cE '(°C|W|MHz|RPM|%|iB|reported\)|/s [0-9.]+[kM]?)\$') -eq 3 ]"
# no DRM client here (no fdinfo total): the MEMORY box shows what the driver's sysfs says is used
vram0=$(jq -r '.tables["memory.devices"][] | select(.region == "vram") | .used_bytes' <<<"$SNAP1" | awk '{ printf "%.1fGiB", $1 / 1073741824 }')
check "80x24 MEMORY box without fdinfo: card0's vram used as sysfs says ($vram0), not a column of '-'" \
	bash -c "$T capture-pane -p -t t | grep -qE '^│DEVICE +REGION +USED +USED%' && $T capture-pane -p -t t | grep -qE '^│0000:03:00.0 +vram +$vram0 '"
keys 2
check "80x24, AMD pane: the reason said once at the top, its tables point there" \
	bash -c "[ \$($T capture-pane -p -t t | grep -c 'the amdgpu module is not loaded') = 1 ] && $T capture-pane -p -t t | grep -q 'amdgpu unavailable (above)'"
for _ in 1 2 3 4 5; do $T send-keys -t t Right; sleep 0.1; done
kfd_pid=$(jq -r '.tables["kfd.processes"][0].pid' <<<"$SNAP1")
check "80x24, AMD pane: the focused KFD table shows with its process $kfd_pid, the tables above it giving way" \
	bash -c "$T capture-pane -p -t t | grep -q 'AMD compute processes (KFD) (1)  <Enter>' && $T capture-pane -p -t t | grep -qE '^ +$kfd_pid '"
keys 1
for cols in 84 88 96 104; do # where a part would be cut at other places
	start $cols 24 --replay "$SYSREC" -d 60
	until_shows "REPLAY" 5
	sleep 0.3
	check "${cols}x24: every device line ends with a whole part" \
		bash -c "[ \$($T capture-pane -p -t t | sed -n '3,5p' | grep -cE '(°C|W|MHz|RPM|%|iB|reported\)|/s [0-9.]+[kM]?)\$') -eq 3 ]"
done
start 120 40 --replay "$SYSREC" -d 60
until_shows "REPLAY" 5
keys 6
check "120x40 Memory: GPU memory's history is of USED%, which the regions report, not of TOTAL, which none does" \
	bash -c "$T capture-pane -p -t t | grep -E '^ DEVICE.* USED% history' >/dev/null && $T capture-pane -p -t t | grep -E '^ 0000:03:00.0  vram .* [0-9]+\.[0-9] +[▁▂▃▄▅▆▇█]+\$' >/dev/null"
start 170 48 --replay "$SYSREC" -d 60
until_shows "REPLAY" 5
sleep 0.3
check "170x48: card0 shows power over its cap (${power0}/250W) and its clock (gclk ${mhz0}MHz), then vis and GTT" \
	bash -c "$T capture-pane -p -t t | grep -E '^ card0 .* ${temp0}°C  ${power0}/250W  gclk ${mhz0}MHz  vis \[.{6}\] 256.0MiB/256.0MiB  GTT ' >/dev/null"
check "170x48: card1 (i915, no hwmon, no ring, no interrupt line) shows only what it has: its clock, no 0 done/s" \
	bash -c "$T capture-pane -p -t t | grep -E '^ card1 +i915 +0000:00:02.0 +\(no memory reported\)  gclk 1300MHz\$' >/dev/null"
start 160 48 --replay "$SYSREC" -d 60
until_shows "REPLAY" 5
check "overview: one process table: the ROCm process (4242) on card0 with the KFD's 1.0GiB and 2 queues" \
	bash -c "$T capture-pane -p -t t | grep -E '^ +4242 .* card0 +- +1\.0GiB +2 kfd ' >/dev/null"
keys 2
check "2: the AMD pane lists the ROCm process from the KFD with its VRAM (1.0GiB)" \
	bash -c "$T capture-pane -p -t t | grep -E '^ +4242 .*0000:03:00.0 .* 1\.0GiB ' >/dev/null"
# no GPU at all in a recording: the Overview says so and why (the recorded reason), whole, at 80 and 160
# columns; not which recording to try (one is playing: live, it names one)
head -2 "$SYSREC" | jq -c '.devices = [] | .tables["sensors.gpus"] = [] | .tables["memory.devices"] = [] |
	.collectors |= map(if .name == "devices" then .state = "unavailable" | .reason = "no GPU driver loaded (no /sys/class/drm, no /proc/driver/nvidia/gpus)" else . end)' \
	>"$TMP/nogpu.jsonl"
for cols in 80 160; do
	start $cols 24 --replay "$TMP/nogpu.jsonl" -d 60
	# the last pane drawn, not the header: a capture between the terminal's writes saw half a screen (CI, stop 30)
	until_shows "Processes (0)" 5
	check "${cols}x24, no GPU in the recording: says so and why, to its last word, no recording to try" \
		bash -c "$T capture-pane -p -t t | tr -s ' \n' '  ' | grep -qE 'No GPU in the recording.s device list: no GPU driver loaded \(no /sys/class/drm, no /proc/driver/nvidia/gpus\)\. (Rings \(|Not here: )' && ! $T capture-pane -p -t t | grep -q 'Try a recording'"
done
# live with no GPU (--sysfs and --procfs trees without one): says so, why, and which recording to play
mkdir -p "$TMP/nogpu-sys" "$TMP/nogpu-proc"
for cols in 80 160; do
	start $cols 24 --sysfs "$TMP/nogpu-sys" --procfs "$TMP/nogpu-proc"
	until_shows "Processes (0)" 20
	# (at 80 columns the reason, which names the trees' long paths, may give way: the hint stays whole)
	why='No supported GPU here: no GPU driver loaded .*'
	[ $cols = 80 ] && why='No supported GPU here(: no GPU driver loaded .*|\. Try )'
	check "${cols}x24 live, no GPU: says so$([ $cols = 80 ] || echo ", why,") and which recording to play, to its last word" \
		bash -c "$T capture-pane -p -t t | tr -s ' \n' '  ' | grep -qE '${why}gputop-bpf --replay [^ ]*/sysfs-fixtures\.jsonl( | .* scheduler\)\. )(Rings \(|Not here: )'"
	$T kill-server 2>/dev/null
done
# installed (PREFIX/bin/gputop-bpf beside PREFIX/share/gputop-bpf/examples, make install's layout): the
# hint names the installed recordings, not the source tree's
mkdir -p "$TMP/prefix/bin" "$TMP/prefix/share/gputop-bpf/examples"
cp "$BIN" "$TMP/prefix/bin/gputop-bpf"
B=$BIN
BIN=$TMP/prefix/bin/gputop-bpf
start 160 24 --sysfs "$TMP/nogpu-sys" --procfs "$TMP/nogpu-proc"
BIN=$B
until_shows "Processes (0)" 20
check "installed under a PREFIX, no GPU: the hint plays PREFIX/share/gputop-bpf/examples/sysfs-fixtures.jsonl" \
	bash -c "$T capture-pane -p -t t | tr -s ' \n' '  ' | grep -qF -- '--replay $TMP/prefix/share/gputop-bpf/examples/sysfs-fixtures.jsonl'"
# the same, as an unprivileged start records it: the BPF collectors unavailable for want of privilege
head -2 "$SYSREC" | jq -c '.collectors |= map(if (.name | IN("drm_sched", "irq", "display", "calls")) then .state = "unavailable" |
	.reason = "it needs root or CAP_BPF, CAP_PERFMON, CAP_DAC_READ_SEARCH and CAP_SYS_ADMIN (it loads BPF programs)" else . end)' \
	>"$TMP/unprivileged.jsonl"
start 120 30 --replay "$TMP/unprivileged.jsonl" -d 60
until_shows "REPLAY" 5
check "unprivileged: the header says once what root adds" \
	bash -c "$T capture-pane -p -t t | head -1 | grep -qF '| no privilege: 4 collectors need root (sudo)'"
for cols in 120 80; do
	[ "$cols" = 80 ] && start 80 24 --replay "$TMP/unprivileged.jsonl" -d 60 && until_shows "REPLAY" 5
	check "${cols} columns, unprivileged: the Rings line gives the reason with its fix, whole: it needs root: sudo gputop-bpf" \
		bash -c "$T capture-pane -p -t t | grep -A1 '^ Rings (0)' | grep -qE '^  drm_sched unavailable: it needs root: sudo gputop-bpf( |;|\$)'"
done
$T kill-server 2>/dev/null

echo "== signals from the interface (F9, k): live, on the fixture trees"
# The KFD fixture's ROCm process renamed to a real sleep of the user the monitor runs as (nobody
# when this is root: the monitor starts without privilege), and a copy for a sleep of root's.
TREES=$(mktemp -d) # not under $TMP: nobody must reach it
chmod 755 "$TREES" && "$(dirname "$0")/../fixtures/sysfs/make-trees.sh" "$TREES" >/dev/null
AS=
[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && AS="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all"
$AS sleep 300 &
VICTIM=$!
sleep 300 &
ROOTS=$!
K=$TREES/mixed/class/kfd/kfd/proc
cp -r "$K/4242" "$K/$ROOTS" && mv "$K/4242" "$K/$VICTIM"
chmod -R a+rX "$TREES"
select_pid() { # the focused process table's row of PID $1
	local top at
	for _ in $(seq 10); do $T send-keys -t t Up; done
	top=$($T capture-pane -p -t t | grep -nE '^ +PID COMM +GPUS' | cut -d: -f1)
	at=$($T capture-pane -p -t t | grep -nE "^ +$1 " | cut -d: -f1)
	for _ in $(seq 1 $((at - top - 1))); do $T send-keys -t t Down; done
	sleep 0.3
}
B=$BIN
BIN="$AS $B"
start 160 40 --sysfs "$TREES/mixed" -d 1
BIN=$B
until_shows "$VICTIM sleep" 20
check "live on the trees: the KFD's processes, sleeps of this machine ($VICTIM, $ROOTS)" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ +$VICTIM sleep +card0 ' && $T capture-pane -p -t t | grep -qE '^ +$ROOTS sleep +card0 '"
keys Right
select_pid "$VICTIM"
keys F9
check "F9: the signal menu names the process, TERM first" \
	bash -c "$T capture-pane -p -t t | grep -q 'Signal $VICTIM' && $T capture-pane -p -t t | grep -qE '15 TERM +ask it to end'"
keys Enter
check "Enter: asks to confirm, naming the signal and the process" shows "SIGTERM to $VICTIM? y sends, other keys cancel"
keys y
sleep 0.5
check "y: SIGTERM sent, said, and the process ended" \
	bash -c "$T capture-pane -p -t t | grep -q 'SIGTERM sent to $VICTIM (sleep)' && ! kill -0 $VICTIM 2>/dev/null"
if [ -n "$AS" ]; then
	select_pid "$ROOTS"
	keys k
	keys Down
	keys Enter
	keys y
	check "k on root's process, as nobody: refused with the reason, the process alive" \
		bash -c "$T capture-pane -p -t t | grep -q 'not allowed to signal $ROOTS (sleep): another user' && kill -0 $ROOTS"
else
	skip "signals refused for another user's process: needs root to start one of root's"
fi
keys F9
keys Escape
check "Esc closes the menu, nothing sent" bash -c "! $T capture-pane -p -t t | grep -q 'Signal ' && kill -0 $ROOTS"
kill $ROOTS $VICTIM 2>/dev/null
# --record: the header says it records, and which file; the stacks key c where no nvidia collector runs
RECD=$(mktemp -d) # not under $TMP: nobody writes the recording
chmod 1777 "$RECD"
BIN="$AS $B"
start 140 30 --sysfs "$TREES/mixed" -d 1 --record "$RECD/live.jsonl"
BIN=$B
check "--record: the header says REC and the file's name while it records" until_shows "| LIVE | REC live.jsonl |" 20
check "... and the file has the snapshots" bash -c "sleep 1; [ \$(grep -c . '$RECD/live.jsonl') -ge 1 ]"
keys S
check "S live without the nvidia collector: no 'Press c' (c cannot start stacks here), --stacks named instead" \
	bash -c "$(declare -f screen shows); T='$T'; shows 'Start gputop-bpf with --stacks FILE' && ! shows 'Press c'"
keys Escape
keys c
check "c there: the status line says why not (the nvidia collector is not running)" \
	shows "c: no stacks: the nvidia collector is not running"
$T kill-server 2>/dev/null
rm -rf "$RECD"
rm -rf "$TREES"
start 120 30 --replay "$REC" -d 60
until_shows "REPLAY" 5
keys Right
keys F9
check "F9 in a replay: refused, and why" shows "no signals in a replay: its processes are not on this machine"
keys c
check "c in a replay: no stack capture, and why (the recording has the stacks it was made with)" \
	shows "c: no stack capture in a replay: a recording has the stacks it was made with"

echo "== clicks: pane tabs, the key bar, column titles"
# xterm's SGR mouse reports, as a terminal sends a click (press and release) at a column and row (1-based)
click() { $T send-keys -t t -l $'\e[<0;'"$1;$2M"; $T send-keys -t t -l $'\e[<0;'"$1;$2m"; sleep 0.4; }
col_of() { screen | sed -n "${2}p" | grep -bo -- "$1" | head -1 | cut -d: -f1; }
B=$BIN
BIN="env TERM=xterm-256color $B"
start 120 36 --replay "$REC" -d 60
BIN=$B
until_shows "REPLAY" 5
step_to $N
sleep 0.5
click $(($(col_of " 4 NVIDIA" 2) + 2)) 2
check "a click on the tab '4 NVIDIA' shows that pane" shows "NVIDIA   (Tab or 1-8"
click $(($(col_of " 1 Overview" 2) + 2)) 2
ring_row=$(line_of " RING ")
click $(($(col_of "RING" "$ring_row") + 2)) "$ring_row"
check "a click on a column title sorts by it" shows "Rings sorted by RING"
click 2 36
check "a click on F1Help in the key bar opens the help" shows "next colour theme"
keys x
check "a replay's key bar offers no F9Kill (no signals in a replay)" bash -c "! $T capture-pane -p -t t | tail -1 | grep -q 'F9Kill'"
click $(($(col_of "TabPanes" 36) + 2)) 36
check "a click on TabPanes, where the bar draws it without F9Kill, goes to the next pane" shows "AMD   (Tab or 1-8"
keys 1

echo "== the help at 80 columns"
start 80 30 --replay "$REC" -d 60
until_shows "REPLAY" 5
keys h
check "80x30: long help lines wrap beside their key, every word whole" \
	words_whole "open the selected row (a ring, a process: its pane; else its fields, arrows scroll) each GPU's block expanded (engines, fan, clocks, PCIe) or one line"
start 80 24 --replay "$REC" -d 60
until_shows "REPLAY" 5
keys h
check "80x24: what does not fit is not cut, the help says it scrolls" \
	bash -c "$(declare -f words_whole); T='$T'; words_whole 'Esc, Backspace back F10 Shift-Tab' && $T capture-pane -p -t t | grep -q 'Down/PgDn scroll, any other key closes'"
keys NPage
keys End
check "80x24: PgDn, End scroll the help to its last lines: the keys that did not fit, +/-, C, W, Ctrl-L, mouse, vi_keys" \
	bash -c "$(declare -f words_whole); T='$T'; words_whole 'Ctrl-L mouse vi_keys + (=), - slower / faster C W F9' && $T capture-pane -p -t t | grep -q 'Up/PgUp scroll, any other key closes'"
# (the last page may leave its last row blank: a key of two rows does not fit in one)
check "80x24: the scroll line counts screen lines (a wrapped key's rows too): A-B of B, as many as the box shows" \
	bash -c "$T capture-pane -p -t t | awk '/┌─ Keys/ { top = NR } match(\$0, /lines [0-9]+-[0-9]+ of [0-9]+/) { split(substr(\$0, RSTART + 6, RLENGTH - 6), a, /[- ]/); shown = a[2] - a[1] + 1; ok = a[2] == a[4] && (shown == NR - top - 1 || shown == NR - top - 2) } END { exit !ok }'"
keys Escape
check "80x24: Esc closes the help" bash -c "! $T capture-pane -p -t t | grep -q 'any other key closes'"
replay_at 50 12 "$REC" 2
keys h
check "50x12: the help's scroll line whole (no key name cut at the border)" \
	bash -c "$T capture-pane -p -t t | grep -qE '^│ lines [0-9]+-[0-9]+ of [0-9]+(: Down/PgDn scroll(, any other key closes)?)? *│\$'"
keys Escape

replay_at 50 12 "$REC" $N
check "50x12 (the smallest): rows under both tables, and the key bar ends with a whole item" \
	bash -c "$T capture-pane -p -t t | grep -A1 '^ RING ' | tail -1 | grep -q 'gfx_0.0.0' && $T capture-pane -p -t t | grep -A1 ' PID COMM' | tail -1 | grep -qE '^ +[0-9]+ ' && $T capture-pane -p -t t | tail -1 | grep -qE '(Help|Filter|Sort|Pause|Delay|Kill|Panes|Open|Save|Quit) *\$'"

echo "== + and - through the range of -d, and at its ends"
start 100 30 --replay "$REC" -d 60
until_shows "REPLAY" 5
keys +
keys +
keys +
check "+ steps up to 3600 s, the end of -d's range" shows "every 3600s"
keys +
check "+ at 3600 s: the status line says it is the slowest, not silent" \
	shows "played every 3600 s already, the slowest (+ and - step between 0.05 and 3600 s)"
keys space
for _ in $(seq 14); do $T send-keys -t t -; sleep 0.05; done
sleep 0.4
check "- down to 0.05 s, then at the end: the status line says it is the fastest" \
	bash -c "$T capture-pane -p -t t | head -1 | grep -q 'every 0.05s' && $T capture-pane -p -t t | grep -q 'played every 0.05 s already, the fastest'"

echo "== a replay's place in the header"
total=$(grep -c '[^[:space:]]' "$REC")
replay_at 80 24 "$REC" 12
check "80x24: the header says the replay's place, snapshot 12/$total" \
	bash -c "$T capture-pane -p -t t | head -1 | grep -qF '| snapshot 12/$total '"
if [ -f "$NVREC" ]; then
	replay_at 80 24 "$NVREC" 12
	check "80x24 on the H100 recording: snapshot 12/$(grep -c '[^[:space:]]' "$NVREC") in the header beside the loss count" \
		bash -c "$T capture-pane -p -t t | head -1 | grep -qE '\| snapshot 12/$(grep -c '[^[:space:]]' "$NVREC") \| [0-9]+ events? lost'"
fi

echo "== 80x24: hints and a collector's text whole"
if [ -f "$NVREC" ]; then
	replay_at 80 24 "$NVREC" 21
	keys 4
	check "80x24, NVIDIA pane: the hidden tables' hint whole (where they are, their counts and the key, no title cut)" \
		bash -c "$T capture-pane -p -t t | sed -n 3p | grep -qE 'tables: 1 empty, 2 below →\$'"
	check "the man page shows that hint as the screen does at 80 columns: counts and the key, no titles" \
		bash -c "sed 's/\\\\(->/→/g' man/gputop-bpf.8 | tr '\n' ' ' | grep -qE '\"tables: [0-9]+ empty, [0-9]+ below →\"'"
	# an empty table gives its rows up to one with rows: GPU kernels drawn, the empty Xid table not, and
	# the hint says where each is (MIG devices empty, between; Xid errors and Driver functions below)
	check "80x24, NVIDIA pane, H100 snapshot 21: GPU kernels drawn with its rows, not the empty Xid errors; nothing called below that is not" \
		bash -c "$T capture-pane -p -t t | grep -qF 'GPU kernels (CUDA launches) (3)' && ! $T capture-pane -p -t t | grep -qF 'Xid errors (0)' &&
			! $T capture-pane -p -t t | grep -qF 'MIG devices (0)'"
	keys 5
	check "80x24, Display unavailable: its whole text wrapped onto the free lines, nothing cut" \
		bash -c "$(declare -f words_whole); T='$T'; words_whole 'gaps; per client events, delivery latency and missed frames.' && ! $T capture-pane -p -t t | grep -q '…'"
	start 140 24 --replay "$NVREC" -d 60
	until_shows "REPLAY" 5
	step_to 21
	sleep 0.5
	keys 4
	check "140x24, NVIDIA pane: the hint names each table where it is: 'MIG devices' empty, not drawn; Xid errors and Driver functions below" \
		bash -c "$T capture-pane -p -t t | grep -qF '1 table empty, not drawn: MIG devices; 2 more tables below: → Xid errors, Driver functions'"
	replay_at 120 40 "$NVREC" 21
	keys 4
	# a replay's --list hint is the recorder's machine's: --list here describes this one
	check "120x40, NVIDIA pane of a replay: Driver functions' hint names the recording's machine's --list, not this one's" \
		bash -c "$T capture-pane -p -t t | grep -qF \"No nvidia.ko function probed: --list on the recording's machine says why\""
	# a recording made before the CUDA processes kept a name: PID 707 is '?' there, nvidia-smi in calls.ioctls
	check "120x40, NVIDIA pane, H100 snapshot 21: CUDA processes name PID 707 nvidia-smi (as its ioctls do), not '?'" \
		bash -c "[ \$(sed -n 21p '$NVREC' | jq -r '.tables[\"nvidia.processes\"][] | select(.pid == 707) | .comm') = '?' ] &&
			$T capture-pane -p -t t | grep -qE '^ +707 nvidia-smi +[0-9]' && ! $T capture-pane -p -t t | grep -qE '^ +707 \? '"
fi

echo "== jobs done on rings, jobs submitted by processes: each titled for what it counts"
replay_at 220 40 "$REC" $N
check "220x40: the rings count jobs done (DONE/S), the processes jobs submitted (SUBM/S); no JOBS/S that means either" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ RING .* [▲▼ ]DONE/S ' && $T capture-pane -p -t t | grep -qE '^ +PID COMM .* SUBM/S ' && ! $T capture-pane -p -t t | grep -q 'JOBS/S'"
keys Right
keys s
check "the processes' sort menu: SUBM/S, jobs submitted per second" \
	bash -c "$T capture-pane -p -t t | grep -qE ' SUBM/S +DRM scheduler jobs submitted per second'"
keys Escape
keys Enter
check "a process's pane: SUBM/S over all sources, and the scheduler's SUBM/S beside its DONE/S" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ *Over all sources: .* SUBM/S [0-9.]+' && $T capture-pane -p -t t | grep -qE '^ *DRM scheduler:  SUBM/S [0-9.]+ .* DONE/S [0-9.]+'"
check "batch text of the three recordings: no column titled JOBS/S (xe queues' jobs pushed: PUSH/S)" \
	bash -c "for r in '$REC' '$NVREC' '$(realpath "$(dirname "$0")/../fixtures/synthetic-amd-intel.jsonl")'; do [ -f \"\$r\" ] || continue; '$BIN' --replay \"\$r\" -b -n 3 2>/dev/null | grep -q 'JOBS/S' && exit 1; done; '$BIN' --replay '$(realpath "$(dirname "$0")/../fixtures/synthetic-amd-intel.jsonl")' -b -n 1 2>/dev/null | grep -q ' PUSH/S '"
check "the man page names both, each with its meaning" \
	bash -c "tr '\n' ' ' <man/gputop-bpf.8 | grep -qF 'jobs completed per second (DONE/S)' && tr '\n' ' ' <man/gputop-bpf.8 | grep -qF 'jobs submitted per second (SUBM/S'"

replay_at 120 40 "$REC" $N
check "the mock GPU's device line: its rings' jobs done per second (done/s), not a bare jobs/s" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ mockgpu .*  done/s [0-9.]+\$'"
keys Enter
check "ring pane: done/s for the ring, subm/s and 'submitted' for its processes, no bare jobs/s" \
	bash -c "$T capture-pane -p -t t | grep -qE ' [0-9.]+ done/s ' && $T capture-pane -p -t t | grep -qE '^ +[0-9]+ mockgpu-submit +[0-9.]+ subm/s .* [0-9]+ submitted' && ! $T capture-pane -p -t t | grep -q 'jobs/s'"
keys Escape

echo "== sparklines with their scale, byte rates with their unit"
replay_at 80 24 "$REC" $N
keys 6
check "80x24 Memory pane: a sparkline too narrow for 'TOTAL hist.' has no title, not its column's again ('▼TOTAL TOTAL')" \
	bash -c "$T capture-pane -p -t t | grep -qE 'REGION .*▼TOTAL' && ! $T capture-pane -p -t t | grep -qE 'TOTAL +TOTAL *\$'"
replay_at 120 40 "$REC" $N
keys Enter
check "ring pane: each sparkline with its scale and unit (0-MAX), busy % on 0-100%" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ done/s +0-[0-9.]+k? +[▁▂▃▄▅▆▇█]' && $T capture-pane -p -t t | grep -qE '^ exec p50 +0-[0-9.]+(ns|us|ms|s) +[▁▂▃▄▅▆▇█]' && $T capture-pane -p -t t | grep -qE '^ busy % +0-100% +[▁▂▃▄▅▆▇█]'"
keys Escape
keys 6
check "Memory pane: dTOTAL/S values in bytes per second (0B/s), not a size" \
	bash -c "$T capture-pane -p -t t | grep -qE ' dTOTAL/S ' && $T capture-pane -p -t t | grep -qE '^ +[0-9]+ drm-holder .* -?[0-9.]+(B|KiB|MiB|GiB)/s '"

echo "== table sparklines right-aligned"
replay_at 220 40 "$REC" $N
check "220x40: the rings' sparklines end in one column, the newest samples lined up" \
	bash -c "$T capture-pane -p -t t | python3 -c '
import sys, re
ends = {re.search(\"[▁▂▃▄▅▆▇█](?!.*[▁▂▃▄▅▆▇█])\", l.split(\"│\")[0]).end() for l in sys.stdin if re.match(r\" (gfx_0\.0\.0|comp_1\.0\.0|sdma0) \", l)}
sys.exit(len(ends) != 1)'"

echo "== a ring filter keeps the processes on that ring"
gfx_pids=$(jq -r '[.tables["drm_sched.process_rings"][] | select(.name | test("gfx")) | .pid] | unique | .[]' <<<"$SNAP")
replay_at 120 36 "$REC" $N
keys /
keys g f x Enter
check "/gfx: the processes with jobs on gfx_0.0.0 stay ($(echo $gfx_pids)), matched by their rings" \
	bash -c "[ -n '$gfx_pids' ] && $T capture-pane -p -t t | grep -qF 'Processes ($(wc -w <<<"$gfx_pids") of ' && for p in $gfx_pids; do $T capture-pane -p -t t | grep -qE \"^ +\$p mockgpu-submit \" || exit 1; done"
keys Escape

echo "== empty tables take the rows their text needs"
if [ -f "$NVREC" ]; then
	replay_at 80 24 "$NVREC" 47
	for pane in 4 6; do
		keys $pane
		check "80x24, H100 snapshot 47, pane $pane: tables left out only when no two blank lines are left (an empty table takes its title, its text and one blank line)" \
			bash -c "$T capture-pane -p -t t | sed -n '3,22p' | awk '/^ *\$/ { if (++b >= 2) twice = 1; next } { b = 0 } /more tables? below/ { more = 1 } END { exit twice && more }'"
	done
	keys g
	check "80x24, H100 snapshot 47, Memory pane of NVML's tables: g says there is nothing to group, not 'grouped by cgroup'" \
		bash -c "$T capture-pane -p -t t | grep -qF 'nothing to group here' && ! $T capture-pane -p -t t | grep -qF 'grouped by'"
	check "80x24, H100 snapshot 47, Memory pane: NVML's two tables (GPUs, processes per GPU), none left out" \
		bash -c "$T capture-pane -p -t t | grep -q '^ Processes per GPU (NVML) (0)' && ! $T capture-pane -p -t t | grep -q 'more table'"
	# no DRM memory source on an NVIDIA machine: the Memory screen shows what NVML has, per GPU and per
	# process, and says on one line which source is absent, not "memory unavailable" four times
	for size in 80x24 120x40 200x60; do
		replay_at "${size%x*}" "${size#*x}" "$NVREC" 21
		keys 6
		check "$size, H100 snapshot 21, Memory pane: one line says the DRM memory source is absent; NVML's 620.8MiB of 79.6GiB on GPU 0, python3's 612.0MiB" \
			bash -c "[ \$($T capture-pane -p -t t | grep -cE 'unavailable|No DRM memory source') -eq 1 ] &&
				$T capture-pane -p -t t | grep -qE '^ No DRM memory source \(fdinfo, sysfs\): no DRM device' &&
				$T capture-pane -p -t t | grep -qE '^ +0 NVIDIA H100 80GB HBM3 .* 620\.8MiB +79\.6GiB ' &&
				$T capture-pane -p -t t | grep -qE '^ +0 +534 python3 +612\.0MiB '"
	done
fi

echo "== a steady device line"
if [ -f "$NVREC" ]; then
	replay_at 80 24 "$NVREC" 9
	: >"$TMP/devline"
	for _ in $(seq 9 31); do
		$T send-keys -t t n
		sleep 0.25
		# which readings the line has
		$T capture-pane -p -t t | sed -n 3p | awk '{ print /busy [0-9]+%/, /[0-9]°C/, /[0-9]W/, /MHz/, /IRQ/ }' >>"$TMP/devline"
	done
	check "80x24, H100 snapshots 10-32: the device line keeps one layout (power, clock and temperature neither come nor go)" \
		bash -c "grep -q '^1 1 ' '$TMP/devline' && [ \$(sort -u '$TMP/devline' | wc -l) -eq 1 ] || { sort '$TMP/devline' | uniq -c >&2; exit 1; }"
fi

echo "== side boxes under the tables take the free rows"
if [ -f "$NVREC" ]; then
	replay_at 100 30 "$REC" 40
	check "100x30, the mock recording: the side boxes' right borders whole on every row (a column that ends at the border leaves it)" \
		bash -c "[ \$($T capture-pane -p -t t | grep -c '┐┌') -ge 1 ] && ! $T capture-pane -p -t t | sed -n '/┐┌/,/┘└/p' | grep -v '┐┌\|┘└' | grep -qvE '^│.*││.*│\$'"
fi
nlast=$(grep -c '[^[:space:]]' "$REC")
replay_at 80 24 "$REC" "$nlast"
check "80x24, the mock recording's last snapshot: all three rings shown (the empty process table gives up its rows), none cut" \
	bash -c "$T capture-pane -p -t t | grep -q '^ sdma0 ' && ! $T capture-pane -p -t t | grep -q 'rows 1-2 of 3'"
# The Overview fitted to an NVIDIA machine (issue 39): what it lacks (no DRM scheduler, no display
# driver, GPU interrupt lines that never fired) on one line; python3's row; NVML's memory in the box.
if [ -f "$NVREC" ]; then
	for size in 80x24 120x40 200x60; do
		replay_at "${size%x*}" "${size#*x}" "$NVREC" 21
		$T capture-pane -p -t t >"$TMP/nv-$size.txt"
		check "$size, H100 snapshot 21: one line says what is absent, and nothing else says 'unavailable'" \
			bash -c "[ \$(grep -cE 'unavailable|Not here' '$TMP/nv-$size.txt') -eq 1 ] &&
				grep -qE '^ Not here: DRM scheduler, interrupts \(8 lines, none fired\), display' '$TMP/nv-$size.txt'"
		check "$size, H100 snapshot 21: python3's row with its GPUS, GPU %, memory and launches" \
			grep -qE '^ +534 python3 +nvidia0 +[0-9]+\.[0-9] +612\.0MiB +[0-9]+\.[0-9]k? ' "$TMP/nv-$size.txt"
		check "$size, H100 snapshot 21: the memory box shows NVML's 620.8MiB of 79.6GiB, and python3's 612.0MiB" \
			bash -c "grep -qF 'MEMORY (NVML)' '$TMP/nv-$size.txt' && grep -qE '│ +0 620\.8MiB +79\.6GiB ' '$TMP/nv-$size.txt' &&
				grep -qE '│ +534 +0 612\.0MiB python3 ' '$TMP/nv-$size.txt'"
		check "$size, H100 snapshot 21: the GPU history draws use, memory and power" \
			bash -c "grep -qF 'GPU history (NVML)' '$TMP/nv-$size.txt' && grep -qE '^ GPU0 use% .*0-100%' '$TMP/nv-$size.txt' &&
				grep -qE '^ GPU0 memory .*0-[0-9.]+[KMG]iB' '$TMP/nv-$size.txt' && grep -qE '^ GPU0 power W' '$TMP/nv-$size.txt'"
	done
	# content rows: between the header (2) and the status and key lines (2); a row carries data
	# when something but spaces and box lines is on it
	got=$(sed -n '3,22p' "$TMP/nv-80x24.txt" | sed 's/[│┌┐└┘─ ]//g' | grep -c .)
	check "80x24, H100 snapshot 21: at least 80 % of the Overview's 20 content rows carry data ($got)" test "$got" -ge 16
	# two H100s: a process on both lists them by whole names and a count, never "nvidia0,nvid…"; the
	# GPU history says how many GPUs it shows where not all fit
	NV2=$(dirname "$NVREC")/nvidia-h100x2.jsonl
	if [ -f "$NV2" ]; then
		# a process's view at 80x24: every line of its second device's block, the sparklines giving
		# their rows up (they used to keep two rows and drop the block's last line)
		replay_at 80 24 "$NV2" 17
		keys Enter
		check "80x24, two H100s, python3's view: CUDA DEV 1's last line there (SYNCS 2  SYNC T 514.3us  NVML MEM 612.0MiB)" \
			bash -c "$T capture-pane -p -t t | grep -qE '^ SYNCS 2  SYNC T 514\.3us  NVML MEM 612\.0MiB'"
		replay_at 80 24 "$NV2" 20
		check "80x24, two H100s: python3's GPUS 'nvidia0,nvidia1' (or 'nvidia0 +1'), no name cut" \
			bash -c "$T capture-pane -p -t t | grep -qE '^ +3549 python3 +nvidia0(,nvidia1| \+1) ' && ! $T capture-pane -p -t t | grep -q 'nvid…'"
		# the side boxes keep no row they do not use: MEMORY (NVML) as tall as its GPUs (its processes
		# have no room), the rows it leaves to the GPU history, both GPUs there
		check "80x24, two H100s: both GPUs' history (6 rows), the MEMORY box without a blank row" \
			bash -c "[ \$($T capture-pane -p -t t | grep -cE '^ GPU[01] (use%|memory|power W) ') -eq 6 ] &&
				! $T capture-pane -p -t t | grep -q 'of 2 GPUs' && ! $T capture-pane -p -t t | grep -qE '^│ +│\$'"
		replay_at 80 19 "$NV2" 20
		check "80x19, two H100s: the GPU history says it shows 1 of 2 GPUs" \
			shows "GPU history (NVML): 1 of 2 GPUs (a taller terminal shows all)"
		# the NVIDIA pane: the tables with rows get the rows first (the empty MIG devices gives its
		# up), and the last table drawn has no blank line after it
		replay_at 80 24 "$NV2" 21
		keys 4
		until_shows "Processes per GPU (NVML) (2)" 5
		check "80x24, two H100s, NVIDIA pane at snapshot 21: every table with rows drawn (GPUs, NVML's and CUDA processes, GPU kernels), not the empty MIG devices; no blank line at the foot" \
			bash -c "for t in 'NVIDIA GPUs (2)' 'Processes per GPU (NVML) (2)' 'CUDA processes (1)' 'GPU kernels (CUDA launches) (3)'; do
					$T capture-pane -p -t t | grep -qF \"\$t\" || exit 1; done &&
				! $T capture-pane -p -t t | grep -qF 'MIG devices (0)' && $T capture-pane -p -t t | sed -n 22p | grep -q '[^ ]'"
		replay_at 120 40 "$NV2" 20
		check "120x40, two H100s: both GPUs' history, use, memory and power each" \
			bash -c "[ \$($T capture-pane -p -t t | grep -cE '^ GPU[01] (use%|memory|power W) ') -eq 6 ]"
		check "120x40, two H100s: the MEMORY box's sparklines titled 'history' where 'MEM USED history' does not fit" \
			bash -c "$T capture-pane -p -t t | grep -qE '│GPU MEM USED MEM TOTAL +MEM% +history│'"
		check "120x40, two H100s: the MEMORY box as tall as its rows (one blank line, between GPUs and processes)" \
			bash -c "$T capture-pane -p -t t | grep -A1 -E '│ +3549 +1 612\.0MiB python3 +│\$' | tail -1 | grep -qE '└─+┘\$' &&
				[ \$($T capture-pane -p -t t | grep -cE '│ +│\$') -eq 1 ]"
		# 60x15: one device line, the other counted; its memory whole or not at all; the side
		# box that has no room named
		replay_at 60 15 "$NV2" 20
		check "60x15, two H100s: nvidia0's line ends '+1 more', its memory whole, the MEMORY box named as without room" \
			bash -c "$T capture-pane -p -t t | grep -qE '^ nvidia0 .*620\.8MiB/79\.6GiB +\+1 more\$' &&
				$T capture-pane -p -t t | grep -qF 'no room for MEMORY'"
		# the process view at 80x24 with two GPUs: what has no room is said on its last line, not dropped
		replay_at 80 24 "$NV2" 20
		keys Enter
		check "80x24, two H100s, the process view: the hint, note and charts left out said on its last line" \
			bash -c "$T capture-pane -p -t t | grep -qxE ' Not shown( \(a taller terminal shows them\))?: how to have its GPU time, the GPU MEM note, its charts\. *'"
		# snapshot 21: the second device's block has no room whole: left out and said, not cut at the bottom
		replay_at 80 24 "$NV2" 21
		keys Enter
		check "80x24, two H100s, snapshot 21: CUDA DEV 1's block whole or not at all, and the view says more is left" \
			bash -c "$T capture-pane -p -t t | grep -qE '^ (More in a taller terminal\.|Not shown)' &&
				{ ! $T capture-pane -p -t t | grep -q 'CUDA DEV 1' || $T capture-pane -p -t t | grep -A3 'CUDA DEV 1' | grep -q 'NVML MEM'; }"
		replay_at 60 15 "$NV2" 20
		check "60x15 header: where the replay is kept, the version given way ($(screen | head -1))" \
			bash -c "$T capture-pane -p -t t | head -1 | grep -qxE ' gputop-bpf \| REPLAY nvidia-h100x2\.jsonl \| snapshot 20/[0-9]+ *'"
		# the row view at 60 columns: each meaning under its value, the bus id whole, the last line whole
		keys 4 Enter
		check "60x15, a GPU's row view: the bus id whole, its meaning under it, the field count line whole" \
			bash -c "$T capture-pane -p -t t | grep -qE '^ │ bus_id +00000000:00:06\.0 +│' &&
				$T capture-pane -p -t t | grep -qE '^ │   PCI address \(as Xid reports\) +│' &&
				$T capture-pane -p -t t | grep -qE '^ │ fields 1-[0-9]+ of 22 ↓  arrows, PgUp/PgDn scroll +│'"
	fi
	# a CUDA process without the CUPTI library: its view says how to have its GPU time, the path whole
	replay_at 120 40 "$(dirname "$NVREC")/nvidia-h200.jsonl" 20
	keys Enter
	check "120x40, H200, python3's view: 'GPU time (pane 8): not measured. Start it with CUDA_INJECTION64_PATH=...so'" \
		bash -c "$T capture-pane -p -t t | grep -qE '^ GPU time \(pane 8\): not measured\. Start it with CUDA_INJECTION64_PATH=/[^ ]+/libgputop-cupti\.so *\$'"
	# ... and with GPU time (its nvidia.gpu_busy row put in): that row in its view, no hint
	jq -c '.tables["nvidia.gpu_busy"] = [{"pid": 924, "comm": "python3", "cuda_device": 0, "kernel_ns_total": 1000000,
		"copy_ns_total": 0, "busy_ns_total": 1000000, "busy_pct": 50, "kernel_share_pct": 100, "disordered_total": 0}]' \
		"$(dirname "$NVREC")/nvidia-h200.jsonl" >"$TMP/h200-gpu-time.jsonl"
	replay_at 120 40 "$TMP/h200-gpu-time.jsonl" 20
	keys Enter
	check "120x40, H200 with GPU time: python3's view has its 'GPU time (CUPTI)' row, no hint to start it with the library" \
		bash -c "$T capture-pane -p -t t | grep -qE '^ GPU time \(CUPTI\):  DEV 0  KERNELS 1\.00ms' && ! $T capture-pane -p -t t | grep -q 'not measured'"
	# the H200 recording made with this code (tests/gpu/record-example.sh): an unmodified PyTorch
	# training loop, snapshot 40: python3 at 98 % with 1.2GiB and 18.1k launches/s
	H200=$(dirname "$NVREC")/nvidia-h200.jsonl
	for size in 80x24 120x40 200x60; do
		[ -f "$H200" ] || break
		replay_at "${size%x*}" "${size#*x}" "$H200" 40
		$T capture-pane -p -t t >"$TMP/h200-$size.txt"
		check "$size, H200 snapshot 40: one line says what is absent; python3 98.0 % 1.2GiB 18.1k launches/s; NVML's 1.2GiB of 140.4GiB" \
			bash -c "[ \$(grep -cE 'unavailable|Not here' '$TMP/h200-$size.txt') -eq 1 ] &&
				grep -qE '^ +924 python3 +nvidia0 +98\.0 +1\.2GiB +18\.1k ' '$TMP/h200-$size.txt' &&
				grep -qE '│ +0 +1\.2GiB +140\.4GiB ' '$TMP/h200-$size.txt'"
	done
	# one process, one GPU: the rows the tables leave go to the GPU's temperature, memory bandwidth and
	# clock history, not to blank rows under its use, memory and power
	if [ -f "$TMP/h200-80x24.txt" ]; then
		got=$(sed -n '3,22p' "$TMP/h200-80x24.txt" | sed 's/[│┌┐└┘─ ]//g' | grep -c .)
		check "80x24, H200 snapshot 40: at least 80 % of the Overview's 20 content rows carry data ($got), the GPU's temperature and clock history among them" \
			bash -c "[ $got -ge 16 ] && grep -qE '^ GPU0 temp C +0-48 ' '$TMP/h200-80x24.txt' && grep -qE '^ GPU0 gfx MHz +0-1980 ' '$TMP/h200-80x24.txt'"
	fi
	# larger terminals: the GPU's charts grow into the rows the tables leave (nvtop's habit), so the
	# left column (beside the side boxes) is not left blank below the tables
	for size in 120x40 200x60; do
		[ -f "$TMP/h200-$size.txt" ] || break
		cols=${size%x*} rows=${size#*x}
		left=$((cols - (cols / 3 < 48 ? cols / 3 : 48)))
		got=$(sed -n "3,$((rows - 2))p" "$TMP/h200-$size.txt" | cut -c1-$left | grep -c '[^ ]')
		check "$size, H200 snapshot 40: the left column's content rows carry data ($got of $((rows - 4))), the charts taller" \
			bash -c "[ $got -ge $(((rows - 4) * 9 / 10)) ]"
	done
	# t: the tree's container lines count in the rows the process table gets, not its processes alone
	if [ -f "$H200" ]; then
		replay_at 120 40 "$H200" 41
		keys t
		check "120x40, H200 snapshot 41, t: the container's line and python3 under it, nothing scrolled out" \
			bash -c "$T capture-pane -p -t t | grep -qE '^  ▾ /process_api/' && $T capture-pane -p -t t | grep -qE '^ +924 python3 ' &&
				! $T capture-pane -p -t t | grep -qE 'Processes \(1\).* lines [0-9]+-[0-9]+ of'"
	fi
	# a sparkline's title names its own column where the whole does not fit, never "history" alone
	# beside another column's title (120x40, NVIDIA GPUs: "GFX MHz history" read as the clock's)
	replay_at 120 40 "$NVREC" 41
	keys 4
	check "120x40, H100 NVIDIA GPUs: the sparkline titled 'UTIL% hist.', not 'GFX MHz history'" \
		bash -c "$T capture-pane -p -t t | grep -qE ' GFX MHz UTIL% hist\.\$' && ! $T capture-pane -p -t t | grep -q 'GFX MHz history'"
	# a status line longer than the terminal: on two lines (the key bar's row), cut at words, never mid-word
	if [ -f "$H200" ]; then
		replay_at 80 24 "$H200" 41
		keys c
		check "80x24, c in a replay: its message whole on the status line and the key bar's row, cut at a word" \
			bash -c "$T capture-pane -p -t t | tail -2 | tr -s ' \n' '  ' | grep -qxE ' ?c: no stack capture in a replay: a recording has the stacks it was made with \(--stacks FILE while recording\) ?' && ! $T capture-pane -p -t t | grep -qF 'F1Help'"
		# a kernel's name past 255 bytes: cut to its column with an ellipsis, not at byte 255 unmarked
		replay_at 200 60 "$H200" 41
		keys 4
		check "200x60, H200 GPU kernels: the multi-tensor multiplies kernel's long name ends in an ellipsis at its column, not mid-word at byte 255" \
			bash -c "$T capture-pane -p -t t | grep -E '^ +924 python3 .*multiplies<float>' | grep -qE '…multiplies<float>.*… +[0-9]+ ' &&
				! $T capture-pane -p -t t | grep -qE '\(anonymous nam +[0-9]'"
	fi
	# the CONTAINER column: the cgroup's 32-hex id cut to 12, as docker shows ids
	replay_at 220 60 "$NVREC" 21
	check "220x60, H100: CONTAINER shows /process_api/4b8bac99558e (12 hex), not the whole id" \
		bash -c "$T capture-pane -p -t t | grep -qE '^ +534 python3 .* /process_api/4b8bac99558e ' && ! $T capture-pane -p -t t | grep -qF '4b8bac99558e25'"
	# 52 columns: the tabs whole (the rest by their keys), the Stacks view's header words whole
	SREC=$(dirname "$NVREC")/nvidia-stacks-h100.jsonl
	if [ -f "$SREC" ]; then
		replay_at 52 20 "$SREC" 30
		check "52x20: the tabs whole, those left out by their keys ('5-8')" \
			bash -c "$T capture-pane -p -t t | sed -n 2p | grep -qxE '  1 Overview   2 AMD   3 Intel   4 NVIDIA   5-8 *'"
		keys S
		check "52x20 Stacks: its title and column header end at whole words (no '(Esc g', no '(line 1 of')" \
			bash -c "$T capture-pane -p -t t | grep -qxE ' Stacks: CPU call stacks of process python3 460 *' &&
				$T capture-pane -p -t t | grep -qxE ' INCL launches SELF launches  CALL TREE *' && ! $T capture-pane -p -t t | grep -q '…'"
	fi
	# a kernel's name gets the room a sparkline leaves beyond its short title, the title kept
	if [ -f "$SREC" ]; then
		replay_at 120 40 "$SREC" 30
		keys 4
		check "120x40 kernels: the names widened to 50 cells and the history titled 'LAUNCH/S hist.'" \
			bash -c "$T capture-pane -p -t t | grep -qE '^ +PID COMM +KERNEL {40,}HANDLES .*LAUNCH/S hist\.'"
		# a recording older than the gpu_time collector: said as that, not as a collector unavailable;
		# a title too long for 60 columns without its source's parenthesis, never cut
		replay_at 60 15 "$SREC" 8
		keys 8
		check "60x15 GPU time pane on a recording without its collector: 'This recording has no gpu_time collector', no 'Reason:'" \
			bash -c "$(declare -f words_whole); T='$T'; words_whole 'This recording has no gpu_time collector (the gputop-bpf that made it had none).' && ! $T capture-pane -p -t t | grep -q 'Reason:'"
		check "60x15 GPU time pane: 'GPU time per process (0)', its title without '(CUPTI, through ...)', not cut" \
			bash -c "$T capture-pane -p -t t | grep -qx ' GPU time per process (0) *'"
	fi
	# no history drawn where its title's short form ('TOTAL hist.') has no room: untitled it reads as TOTAL's
	replay_at 80 24 "$REC" 20
	keys 6
	check "80x24, Memory pane: the client regions' table draws no history it cannot title ($(screen | grep -m1 'CLIENT REGION'))" \
		bash -c "$T capture-pane -p -t t | grep -qE '^ DEVICE +CLIENT REGION +PID COMM +▼TOTAL *\$' &&
			$T capture-pane -p -t t | grep -qE '^ mockdrm +6 memory +[0-9]+ drm-holder +[0-9.]+[KM]iB *\$'"
	replay_at 60 15 "$REC" 40
	check "60x15, the mock recording: the devices left out counted ('+3 more'), MEMORY and DISPLAY named as without room" \
		bash -c "$T capture-pane -p -t t | grep -qE '^ card0 .* \+3 more\$' && $T capture-pane -p -t t | grep -qF 'no room for MEMORY, DISPLAY'"
	keys Enter
	check "60x15, a ring's view: its process row under 'Processes on this ring', not a heading alone" \
		bash -c "$T capture-pane -p -t t | grep -A1 '^ Processes on this ring' | grep -qE '^ +[0-9]+ mockgpu-submit +[0-9.]+ subm/s'"
	# the ring's jobs its listed processes do not account for are said, not left to the reader's sum
	replay_at 80 24 "$REC" 20
	keys Enter
	ring_q=$(sed -n 20p "$REC" | jq '[.tables["drm_sched.rings"][] | select(.name == "gfx_0.0.0")][0].queued_total')
	ring_l=$(sed -n 20p "$REC" | jq '[.tables["drm_sched.process_rings"][] | select(.name == "gfx_0.0.0") | .jobs_total] | add')
	check "80x24 ring view: 'and $((ring_q - ring_l)) jobs of processes not listed now' ($ring_q queued, $ring_l of those listed)" \
		shows "and $((ring_q - ring_l)) jobs of processes not listed now (exited or stopped submitting)"
	replay_at 60 15 "$REC" 20
	keys Right Enter
	check "60x15, a process's rings: columns whole or left out, header and row alike (no 'EX' of 'EXEC p50')" \
		bash -c "$T capture-pane -p -t t | grep -qxE ' RING +DEVICE +SUBM/S +GPU% +JOBS *' &&
			$T capture-pane -p -t t | grep -qxE ' gfx_0\.0\.0 +mockgpu +[0-9.]+ +[0-9.]+ +[0-9]+ *'"
fi

replay_at 80 24 "$REC" 2
keys 9
check "9 with eight panes: the status line says there is no such pane, not silence" shows "9: no such pane (1-8, Tab)"
# 80 columns: the eight tabs whole without their padding, two spaces apart; a click finds them there
check "80x24: all eight tabs whole, unpadded ($(screen | sed -n 2p | sed 's/ *$//'))" \
	bash -c "$T capture-pane -p -t t | sed -n 2p | grep -qxE ' 1 Overview  2 AMD  3 Intel  4 NVIDIA  5 Display  6 Memory  7 Calls  8 GPU time *'"
B=$BIN
BIN="env TERM=xterm-256color $B" # mouse reports, as in the clicks above
replay_at 80 24 "$REC" 2
BIN=$B
click $(($(col_of "8 GPU time" 2) + 2)) 2
check "80x24: a click on the unpadded tab '8 GPU time' shows that pane" \
	bash -c "$T capture-pane -p -t t | grep -q '^ GPU time   (Tab or 1-8'"
check "80x24, 8 on a recording without GPU time: its tables say the recording has none" \
	bash -c "$T capture-pane -p -t t | grep -q 'This recording has no nvidia.gpu_busy table'"

replay_at 80 24 "$REC" $N
keys 4
check "80x24, NVIDIA pane on a machine without it: its reason, fix and what it shows whole, before its tables" \
	bash -c "$(declare -f words_whole); T='$T'; words_whole 'memory and utilisation per GPU, memory per MIG device (NVML).' && ! $T capture-pane -p -t t | grep -q '…' && $T capture-pane -p -t t | grep -q '^ NVIDIA GPUs (0)'"
keys 1

echo "== batch text: columns sized to their cells, every row in line"
"$BIN" --replay "$REC" -b -n 21 --programs 2>/dev/null | awk '/^gputop-bpf snapshot 21 /,0' >"$TMP/batch21.txt"
check "--programs: every table's rows as wide as its header (a long program or tracepoint name used to push the rest out)" \
	awk 'function done() { if (n > 1 && bad) fails++; n = 0; bad = 0 }
		/^$/ { done(); next } / \([a-z_]+\.[a-z_]+\)$/ { done(); inb = 1; next }
		inb && !/^  / { if (n++ == 0) w = length($0); else if (length($0) != w) bad = 1 }
		END { done(); exit fails > 0 }' "$TMP/batch21.txt"
check "--programs: the long tracepoint's row is there, in line" \
	bash -c "grep -q 'gpu_scheduler:drm_sched_job_unschedulable' '$TMP/batch21.txt' && grep -q '(self.programs)' '$TMP/batch21.txt'"
gfx_rate=$(jq -r '.tables["drm_sched.rings"][] | select(.name == "gfx_0.0.0") | .completed_per_s' <<<"$SNAP" | xargs printf '%.1f')
check "numbers and their titles right-aligned: DONE/S ends where $gfx_rate ends" \
	bash -c "h=\$(grep -m1 '^RING ' '$TMP/batch21.txt'); r=\$(grep -m1 '^gfx_0.0.0 ' '$TMP/batch21.txt'); h=\${h%%DONE/S*}DONE/S; r=\${r%%$gfx_rate*}$gfx_rate; [ \${#h} -eq \${#r} ]"
check "without --programs: no self.programs table in batch text (JSON keeps it)" \
	bash -c "! '$BIN' --replay '$REC' -b -n 2 2>/dev/null | grep -q '(self.programs)' && '$BIN' --replay '$REC' -b -J -n 2 2>/dev/null | tail -1 | jq -e '.tables[\"self.programs\"] | length > 0' >/dev/null"

echo "== a replay's pace, its end, its losses; -p"
lost_at=$(jq -s 'to_entries | map(select([.value.collectors[].drops // {} | to_entries[].value] | add > 0)) | .[0].key + 1' "$REC")
lost=$(sed -n "${lost_at}p" "$REC" | jq -r '[.collectors[] | .name as $c | .drops // {} | to_entries[] | select(.value > 0) | {c: $c, k: .key, n: .value}] | max_by(.n) | "\(.c) \(.k)"')
XDG_CONFIG_HOME=$TMP/pacecfg start 200 30 --replay "$REC"
until_shows "REPLAY" 5
check "replay at its own pace: the header says the recording's interval, not a refresh of ours" \
	bash -c "$T capture-pane -p -t t | head -1 | grep -qE '\| recorded every 0\.5[0-9]?s \|' && ! $T capture-pane -p -t t | head -1 | grep -q '| every '"
check "the header's cost of gputop-bpf: each number labelled (CPU, RSS, BPF), in a replay the recorder's, not 'self'" \
	bash -c "$T capture-pane -p -t t | head -1 | grep -qE '\| recorder [0-9.]+% CPU RSS [0-9.]+MiB, BPF [0-9.]+% \|' && ! $T capture-pane -p -t t | head -1 | grep -qF '| self'"
keys -
check "- in a replay: a step faster than the recorded pace in use (0.5 s to 0.25 s), shown beside the recording's" \
	bash -c "$T capture-pane -p -t t | head -1 | grep -qE '\| every 0\.25s, recorded 0\.5[0-9]?s \|' && $T capture-pane -p -t t | grep -q 'played every 0.25 s'"
keys W
check "W in a replay keeps the live refresh (1 s), not the replay's pace" grep -qx 'delay = 1' "$TMP/pacecfg/gputop-bpf/config"
keys space
step_to "$lost_at"
sleep 0.5
check "events lost: how many and where ($lost), in the header" \
	bash -c "$T capture-pane -p -t t | head -1 | grep -qE '\| [0-9]+ events? lost \((most: )?$lost\) \|'"
replay_at 80 24 "$REC" "$lost_at"
check "events lost at 80 columns: the count at least, where the whole part has no room" \
	bash -c "$T capture-pane -p -t t | head -1 | grep -qE '\| [0-9]+ events? lost( \(|\$| \|)'"
start 120 30 --replay "$REC" -d 0.05
until_shows "ENDED" 15
keys Down
check "the end of a replay lasts: ENDED in the header, the status line says it after another key" \
	bash -c "$T capture-pane -p -t t | head -1 | grep -q 'ENDED' && $T capture-pane -p -t t | grep -q 'end of the recording: q quits'"
start 120 30 --replay "$REC" -d 60
until_shows "REPLAY" 5
keys space
for _ in $(seq "$(wc -l < "$REC")"); do $T send-keys -t t n; sleep 0.03; done
sleep 1
check "paused, n past the end: ENDED in the header (not PAUSED), the status line says the end" \
	bash -c "$T capture-pane -p -t t | head -1 | grep -q ENDED && $T capture-pane -p -t t | grep -q 'end of the recording: q quits'"
keys n
check "n after the end: says it has ended, not 'Paused'" \
	bash -c "$T capture-pane -p -t t | grep -q 'the recording has ended: no snapshot after this one' && ! $T capture-pane -p -t t | grep -q 'Paused:'"
keys space
check "space after the end: still ENDED, says there is nothing to resume" \
	bash -c "$T capture-pane -p -t t | head -1 | grep -q ENDED && $T capture-pane -p -t t | grep -q 'nothing to resume'"
keys space
check "space again: still ENDED, not PAUSED" \
	bash -c "$T capture-pane -p -t t | head -1 | grep -q ENDED && ! $T capture-pane -p -t t | head -1 | grep -q PAUSED"
exited=$("$BIN" --replay "$REC" -b -J | jq -s '([.[] | .tables["gpu.processes"] // [] | .[].pid] | unique) - ([.[-1].tables["gpu.processes"] // [] | .[].pid]) | length')
check "the empty process table at the end says how many processes had rows and left ($exited), not that none ran" \
	shows "None now: $exited processes had rows here earlier and have exited or stopped."
start 120 30 --replay "$REC" -p 99999 -d 60
until_shows "REPLAY" 5
check "-p 99999: the empty process table says it is filtered, not that nothing ran" \
	shows "No row of process 99999 (-p 99999 shows only its rows)."
check "-p 99999: the header says the filter is on" bash -c "$T capture-pane -p -t t | head -1 | grep -qF '| -p 99999: its rows only |'"

echo "== setup (F2): panes and columns, saved by W"
XDG_CONFIG_HOME=$TMP/setupcfg start 200 40 --replay "$REC" -d 60
until_shows "REPLAY" 5
step_to $N
until_shows "WAIT p50" 5
keys F2
check "F2: the setup screen lists the panes and the focused table's columns" \
	bash -c "$T capture-pane -p -t t | grep -qF '[x] interrupts  the INTERRUPTS side pane' && $T capture-pane -p -t t | grep -qF '[x] WAIT p50    queue wait'"
# the rings' columns follow the six panes: RING, DEVICE, QUEUE, INFL, DONE/S, BUSY%, WAIT p50
for _ in $(seq 12); do $T send-keys -t t Down; done
keys Space
check "Space on a column: unchecked" shows "[ ] WAIT p50    queue wait"
for _ in $(seq 9); do $T send-keys -t t Up; done
keys Space
keys W
keys Escape
check "the hidden column is gone from the rings, the others stay" \
	bash -c "! $T capture-pane -p -t t | grep -qF 'WAIT p50' && $T capture-pane -p -t t | grep -qF 'WAIT p99'"
check "the INTERRUPTS pane switched off is gone" bash -c "! $T capture-pane -p -t t | grep -qF 'INTERRUPTS'"
check "W in the setup saved both (hidden_columns, panes)" \
	bash -c "grep -qx 'hidden_columns = drm_sched.rings.wait_ns.p50' '$TMP/setupcfg/gputop-bpf/config' && grep -qx 'panes = devices,rings,memory,display,processes' '$TMP/setupcfg/gputop-bpf/config'"
XDG_CONFIG_HOME=$TMP/setupcfg start 200 40 --replay "$REC" -d 60
until_shows "REPLAY" 5
step_to $N
until_shows "WAIT p99" 5
check "started again: the saved setup applies" \
	bash -c "! $T capture-pane -p -t t | grep -qF 'WAIT p50' && ! $T capture-pane -p -t t | grep -qF 'INTERRUPTS'"
keys Right
keys r
keys W
check "r on the processes, then W: their own order saved (process_reverse), the rings' kept" \
	bash -c "grep -qx 'process_reverse = yes' '$TMP/setupcfg/gputop-bpf/config' && grep -qx 'reverse = no' '$TMP/setupcfg/gputop-bpf/config'"
XDG_CONFIG_HOME=$TMP/setupcfg start 200 40 --replay "$REC" -d 60
until_shows "REPLAY" 5
step_to $N
until_shows "GPU%" 5
check "started again: the processes smallest GPU% first (▲), the rings largest first (▼)" \
	bash -c "$T capture-pane -p -t t | grep -qF '▲GPU%' && $T capture-pane -p -t t | grep -qF '▼DONE/S'"

echo "== htop's keys on the Overview: the process table, though the rings have the keys at the start"
for k in F6 P M N I t k F9; do
	replay_at 120 36 "$REC" $N
	keys "$k"
	case $k in
	F6) check "F6: the processes' sort menu, not the rings'" shows "Sort Processes by" ;;
	P) check "P: the processes sorted by GPU% (as htop's P by CPU%)" shows "Processes sorted by GPU%" ;;
	M) check "M: the processes sorted by GPU MEM" shows "Processes sorted by GPU MEM" ;;
	N) check "N: the processes sorted by PID" shows "Processes sorted by PID" ;;
	I) check "I (htop's invert): the processes' order reversed, their arrow up" \
		bash -c "$T capture-pane -p -t t | grep -q 'Processes: order reversed' && $T capture-pane -p -t t | grep -qF '▲GPU%'" ;;
	t) check "t: the processes' tree, not 'select a process table'" shows "tree: processes under their container" ;;
	*) keys Enter
		check "$k in a replay: no signal, and the keys went to the processes (Enter opens a process, not a ring)" \
			bash -c "$T capture-pane -p -t t | grep -q '(Esc goes back)' && ! $T capture-pane -p -t t | grep -q '^ Ring '" ;;
	esac
done
XDG_CONFIG_HOME=$TMP/hidecfg start 120 36 --replay "$REC" -d 60
until_shows "REPLAY" 5
step_to $N
until_shows "Rings (3)" 5
keys F2 Down Space Escape
check "F2 hides the rings: the processes have the keys (s sorts them)" \
	bash -c "! $T capture-pane -p -t t | grep -q 'Rings (3)' && $T send-keys -t t s && sleep 0.4 && $T capture-pane -p -t t | grep -q 'Sort Processes by'"
keys Escape
keys Left
check "Left toward the hidden rings: says why, the keys stay on the processes" \
	shows "Rings: hidden (F2 setup shows it); the keys stay where they are"

echo "== htop's and nvtop's keys: Z freezes, \\ filters, F12 saves; the others say what to use"
XDG_CONFIG_HOME=$TMP/habitcfg start 120 36 --replay "$REC" -d 0.2
until_shows "gfx_0.0.0" 10
keys Z
check "Z (htop's freeze): paused, the header says so" bash -c "$T capture-pane -p -t t | head -1 | grep -q 'PAUSED'"
frozen=$(screen | head -1)
sleep 1
check "Z: the data frozen (the replay's place stays)" bash -c "[ \"\$($T capture-pane -p -t t | head -1)\" = '$frozen' ]"
keys Z
check "Z again: it plays on" bash -c "$T capture-pane -p -t t | head -1 | grep -q 'REPLAY'"
keys Space
keys -l '\'
check "\\ (htop's filter): the filter prompt" shows "Filter (name, device, comm or PID"
keys Escape
keys F12
check "F12 (nvtop's save): the settings saved" \
	bash -c "$T capture-pane -p -t t | grep -q 'settings saved to' && test -f '$TMP/habitcfg/gputop-bpf/config'"
for k in u H K F7 F; do
	keys "$k"
	check "$k: not in gputop-bpf, and what to use instead (not 'no such key')" \
		bash -c "$T capture-pane -p -t t | grep -qE '^ $k \\(htop: [^)]*\\): not in gputop-bpf[;,] .*use ' && ! $T capture-pane -p -t t | grep -q 'no such key'"
done
$T kill-server 2>/dev/null

echo "== pause, resize, quit (live-speed replay)"
start 120 36 --replay "$REC" -d 0.2
until_shows "gfx_0.0.0" 10
keys Space
check "space pauses: PAUSED in the header" shows "PAUSED"
frozen=$(screen)
sleep 1.2
check "paused: the data stays frozen" bash -c "[ \"\$($T capture-pane -p -t t)\" = \"\$(cat <<'X'
$frozen
X
)\" ]"
keys n
check "n steps one snapshot while paused" bash -c "[ \"\$($T capture-pane -p -t t)\" != \"\$(cat <<'X'
$frozen
X
)\" ]"
keys Space
$T resize-window -t t -x 40 -y 10
sleep 0.6
check "40x10: says the terminal is too small" shows "Terminal too small: 40x10"
$T resize-window -t t -x 200 -y 60
sleep 0.6
check "200x60: the wide layout with its side boxes" shows "─ MEMORY ─"
check "200x60: the rings are back" shows "gfx_0.0.0"
keys F10
sleep 0.5
check "F10 quits with status 0" grep -qx 0 "$TMP/exit"
check "the terminal is restored (echo and icanon back)" \
	bash -c "grep -qw icanon $TMP/stty && grep -qw echo $TMP/stty && ! grep -qw -- -echo $TMP/stty"

echo "== recordings of other formats"
# every quantile at most its row's exact maximum, in replay too (the recording has rows where
# the interpolated p99 passed the max the kernel measured: Display INT p99, fence-wait p50/p99)
over_max='[.[] | .tables[] | .[]? | objects | . as $r | to_entries[] | select(.key | test("p50|p90|p99")) |
	(.key | sub("p50|p90|p99"; "max")) as $m | select(($r[$m] | type) == "number" and (.value | type) == "number" and .value > $r[$m])] | length'
# two snapshots of a recording made before quantiles were clamped at the source (0.2.0 of 2026-11-22)
OVER=$(realpath "$(dirname "$0")/../fixtures/quantiles-over-max-0.2.0.jsonl")
was=$(jq -s "$over_max" "$OVER")
check "replay: no quantile above its row's exact maximum ($was values in the recording were)" \
	bash -c "[ '$was' -gt 0 ] && $BIN --replay '$OVER' -b -J 2>/dev/null | jq -e -s '$over_max == 0' >/dev/null"
# its Display row has mean = max (every interval alike) and p50 16.25ms: no quantile is below
# max - (max - mean) / q, so every one is the max
check "replay: every interval equal (mean = max 16665600ns): INT p50 and p99 are 16665600ns" \
	bash -c "$BIN --replay '$OVER' -b -J 2>/dev/null | jq -e -s 'all(.[].tables[\"display.crtcs\"][]; .interval_mean_ns == .interval_max_ns and .interval_p50_ns == 16665600 and .interval_p99_ns == 16665600)' >/dev/null"
OLD=$(realpath "$(dirname "$0")/../fixtures/format1-0.1.0.jsonl")
check "a 0.1.0 recording (format 1) replays in batch: 3 snapshots with its rings" \
	bash -c "'$BIN' --replay '$OLD' -b -J | jq -e -s 'length == 3 and all(.tables[\"drm_sched.rings\"] | length == 3)' >/dev/null"
check "a 0.1.0 recording: its interrupt lines replay into the irq table" \
	bash -c "'$BIN' --replay '$OLD' -b -J | jq -e -s 'all(.tables[\"irq.lines\"] | type == \"array\")' >/dev/null"
OLD2=$(realpath "$(dirname "$0")/../fixtures/format2-0.2.0-dev.jsonl")
check "a format-2 recording replays: its rings, processes and display tables" \
	bash -c "'$BIN' --replay '$OLD2' -b -J | jq -e -s 'length == 2 and all(.tables | (.[\"drm_sched.rings\"] | length == 3) and (.[\"drm_sched.processes\"] | length > 0) and (.[\"display.crtcs\"] | length == 1))' >/dev/null"
sed 's/"version":"[^"]*"/"version":"9.1.0","format":7/' "$OLD" >"$TMP/future.jsonl"
"$BIN" --replay "$TMP/future.jsonl" -b >/dev/null 2>"$TMP/future.err"
check "a recording of a newer format: exit 1" test $? -eq 1
check "... and one line naming the format and the version that made it" \
	bash -c "[ \$(wc -l <'$TMP/future.err') = 1 ] && grep -q 'format 7, made by gputop-bpf 9.1.0' '$TMP/future.err'"
cat "$TMP/future.err"

echo "== NVIDIA pane (${3:-no recording given})"
if [ -f "$NVREC" ]; then
	# the snapshot where the CUDA process held the most device memory
	NV=$(jq -s 'to_entries | max_by([.value.tables["nvidia.processes"][]? | select(.comm == "python3") | .mem_bytes] | max // 0) | .key + 1' "$NVREC")
	NVSNAP=$(sed -n "${NV}p" "$NVREC")
	nvpid=$(jq '.tables["nvidia.processes"][] | select(.comm == "python3") | .pid' <<<"$NVSNAP")
	nvl=$(jq '.tables["nvidia.processes"][] | select(.comm == "python3") | .launches_total' <<<"$NVSNAP")
	gib() { awk '{ if ($1 >= 1073741824) printf "%.1fGiB", $1 / 1073741824; else printf "%.1fMiB", $1 / 1048576 }'; }
	nvmem=$(jq '.tables["nvidia.processes"][] | select(.comm == "python3") | .mem_bytes' <<<"$NVSNAP" | gib)
	gpumem=$(jq '.tables["nvidia.gpus"][0].mem_used_bytes' <<<"$NVSNAP" | gib)
	replay_at 160 40 "$NVREC" "$NV"
	check "overview: the NVIDIA GPU's line shows NVML's memory (${gpumem} used of 79.6GiB), use, temperature, power of its limit, clock" \
		bash -c "$T capture-pane -p -t t | grep -E '^ nvidia0 .*VRAM \[.{6}\] ${gpumem}/79\.6GiB  busy [0-9]+%  [0-9]+°C  [0-9]+/700W  gclk [0-9]+MHz' >/dev/null"
	ovtx=$(screen | grep -oE 'PCIe tx [0-9.]+[KMGT]?i?B/s' | head -1 | cut -d' ' -f3)
	nvq=$(jq -r --argjson pid "$nvpid" '.tables["nvidia.gpu_processes"][]? | select(.pid == $pid) | .mem_bytes' <<<"$NVSNAP" | gib)
	check "overview: one process table: python3 ($nvpid) on nvidia0 with NVML's ${nvq}, not the CUDA calls' ${nvmem}" \
		bash -c "$T capture-pane -p -t t | grep -E '^ +$nvpid python3 +nvidia0 +[0-9.]+ +${nvq} ' >/dev/null"
	keys Right
	for _ in 1 2 3 4 5 6 7 8; do $T send-keys -t t Up; done
	row=$(($($T capture-pane -p -t t | grep -nE '^ +PID COMM +GPUS' | cut -d: -f1)))
	for _ in $(seq 1 $(($($T capture-pane -p -t t | grep -nE "^ +$nvpid python3 " | cut -d: -f1) - row - 1))); do $T send-keys -t t Down; done
	keys Enter
	check "Enter on it: every source that sees it, NVML and the CUDA calls" \
		bash -c "$T capture-pane -p -t t | grep -q 'Process $nvpid python3   (Esc goes back)' && $T capture-pane -p -t t | grep -qE '^ *NVML:  GPU 0  GPU MEM ${nvq}' && $T capture-pane -p -t t | grep -qE '^ *CUDA calls:  LAUNCH/S '"
	keys Escape
	keys Left
	keys 4
	check "4: the NVIDIA pane, its collector's detail" shows "nvidia: libcuda from loader cache"
	check "NVIDIA pane: the GPU from NVML" shows "NVIDIA H100 80GB HBM3"
	keys Enter
	check "row view: values whole (the name, the bus id) and with their units (°C, W, and PCIe ${ovtx:-?} as the GPU block says it)" \
		bash -c "$T capture-pane -p -t t | grep -qE '│ name +NVIDIA H100 80GB HBM3 ' && $T capture-pane -p -t t | grep -qE '│ bus_id +00000000:00:06.0 ' && $T capture-pane -p -t t | grep -qE '│ temp_c +[0-9]+ °C ' && $T capture-pane -p -t t | grep -qE '│ power_cap_w +700.0 W ' && [ -n '$ovtx' ] && $T capture-pane -p -t t | grep -qE '│ pcie_tx_bytes_per_s +$ovtx '"
	check "row view: mem_used_bytes' meaning whole, wrapped at a word where narrow" \
		bash -c "$T capture-pane -p -t t | grep -A1 '│ mem_used_bytes ' | tr -s ' ' | tr '\n' ' ' | grep -qE 'in use \(all [│ ]*processes\)'"
	keys x
	check "NVIDIA pane: process $nvpid (python3) with its $nvl launches and ${nvmem} of device memory" \
		bash -c "$T capture-pane -p -t t | grep -E '^ +$nvpid python3 .* $nvl .* ${nvmem} ' >/dev/null"
	check "NVIDIA pane: NVML's view of process $nvpid on GPU 0 (${nvq})" \
		bash -c "$T capture-pane -p -t t | grep -E '^ +0 +$nvpid python3 +${nvq} ' >/dev/null"
	check "NVIDIA pane: GPUs above NVML's processes above the CUDA processes above the Xid log" \
		bash -c "$(declare -f line_of before screen); T='$T'; before 'NVIDIA GPUs' 'Processes per GPU' && before 'Processes per GPU' 'CUDA processes' && before 'CUDA processes' 'Xid errors'"
	check "NVIDIA pane: no Xid in this recording, and it says so" shows "No Xid error since start."
	check "header: no Xid alert without Xids" bash -c "! $T capture-pane -p -t t | head -1 | grep -q Xid"
	cuda_pids=$(jq -r '.tables["self.process"][0].pid as $me | [.tables["nvidia.processes"][].pid | select(. != $me)] |
	map(tostring) | join(" ")' <<<"$NVSNAP") # the recorder's own row is left out of a replay
	# the first snapshot where python3's GPU% is unknown after it was known twice: the newest two samples unknown
	gone=$(jq -r '[.tables["gpu.processes"][]? | select(.comm == "python3") | .gpu_pct] | .[0] // "x"' "$NVREC" |
		awk '$1 == "x" && p == "x" && pp != "x" && pp != "" { print NR; exit } { pp = p; p = $1 }')
	replay_at 80 24 "$NVREC" "$gone"
	check "80x24 Overview, snapshot $gone: python3's GPU% history ends in dots for its unknown samples, not an old value" \
		bash -c "$T capture-pane -p -t t | grep -qE '^ +[0-9]+ python3 .*[▁▂▃▄▅▆▇█]··\$'"
	X2=$(dirname "$NVREC")/nvidia-h100x2.jsonl
	replay_at 120 40 "$X2" 20
	keys Enter
	check "h100x2 120x40: the rings not available, the processes filled after the start: the keys on them (Enter opens one)" \
		bash -c "$T capture-pane -p -t t | grep -q '(Esc goes back)' && ! $T capture-pane -p -t t | grep -q 'Rings is not available here'"
	keys Escape
	keys Left
	keys 4
	keys 1
	keys Enter
	check "h100x2 120x40: Left to the rings, then 4 and 1: the pane re-entered starts on the processes again" \
		bash -c "$T capture-pane -p -t t | grep -q '(Esc goes back)' && ! $T capture-pane -p -t t | grep -q 'Rings is not available here'"
	keys Escape
	keys Left
	check "h100x2 120x40: Left toward the rings, not drawn here (no DRM scheduler): says so, the keys stay" \
		shows "Rings: not on this machine; the keys stay where they are"
	keys Enter
	check "h100x2 120x40: ... Enter still opens the selected process, never the rings not drawn" \
		bash -c "$T capture-pane -p -t t | grep -q '(Esc goes back)' && ! $T capture-pane -p -t t | grep -q 'Rings is not available here'"
	keys Escape
	start 80 24 --replay "$NVREC" -d 60
	until_shows "REPLAY" 5
	step_to "$NV"
	keys 4
	check "80x24 NVIDIA GPUs sorted by GPU, a title as wide as its column and the first: the arrow in its own cell" \
		bash -c "$T capture-pane -p -t t | grep -qE '^ ▲GPU NAME '"
	for _ in 1 2 3; do $T send-keys -t t Right; sleep 0.1; done
	ncuda=$(wc -w <<<"$cuda_pids")
	check "80x24 NVIDIA pane: the focused CUDA table gets the rows left over, its processes ($cuda_pids) whole, or says which of them it shows" \
		bash -c "shown=0; for p in $cuda_pids; do $T capture-pane -p -t t | grep -qE \"^ +\$p \" && shown=\$((shown + 1)); done
			[ \$shown = $ncuda ] || $T capture-pane -p -t t | grep -qE \"^ CUDA processes \\($ncuda\\) .* rows 1-\$shown of $ncuda ↓\$\""
	keys Enter
	check "80x24 row view of a CUDA process: where its fields are (1-N of all), the last not yet shown" \
		bash -c "$T capture-pane -p -t t | grep -qE '│ fields 1-[0-9]+ of [0-9]+ ↓ ' && ! $T capture-pane -p -t t | grep -q 'ioctl_errors_total'"
	keys End
	check "End scrolls the row view to its last field (ioctl_errors_total), the view still open" \
		bash -c "$T capture-pane -p -t t | grep -q '│ ioctl_errors_total ' && $T capture-pane -p -t t | grep -qE 'fields [0-9]+-([0-9]+) of \\1 ↑'"
	keys Up
	keys Home
	check "Up and Home scroll back, the first field (pid) shown again" \
		bash -c "$T capture-pane -p -t t | grep -qE '│ pid +[0-9]+ ' && $T capture-pane -p -t t | grep -q 'fields 1-'"
	keys x
	check "another key closes the row view" bash -c "! $T capture-pane -p -t t | grep -q 'fields 1-'"
	start 220 60 --replay "$NVREC" -d 60
	until_shows "REPLAY" 5
	step_to "$NV"
	nvcg=$(jq -r '.tables["nvidia.processes"][] | select(.comm == "python3") | .cgroup' <<<"$NVSNAP")
	nvshort=$(sed -E 's#/([0-9a-f]{12})[0-9a-f]{20,}#/\1#' <<<"$nvcg")
	check "220x60 Overview: the container column widened into the spare room, $nvshort whole (its id at 12 hex)" \
		until_shows " $nvshort "
	keys 4
	check "220x60 NVIDIA pane: the CGROUP column of the CUDA processes whole too" \
		bash -c "$T capture-pane -p -t t | grep -qE ' python3 +${nvcg//\//\\/} +[0-9]'"
	for _ in 1 2 3; do $T send-keys -t t Right; sleep 0.1; done
	keys Enter
	check "220x60 row view: as wide as its descriptions need (wider than 122 columns), a description whole" \
		bash -c "$T capture-pane -p -t t | grep -qE '│ cgroup .*its cgroup, or runtime:id of its container \\(docker, containerd, podman, cri-o\\) +│' && [ \$($T capture-pane -p -t t | grep -m1 '─ CUDA processes ─' | sed 's/ *\$//' | wc -m) -gt 130 ]"
	keys Escape
	# the values before their meanings: a GPU kernel's long name whole in its row view at 220 columns
	kname=$(jq -r '[.tables["nvidia.kernels"][].kernel | select(test("FillFunctor"))][0] // ""' <<<"$NVSNAP")
	$T send-keys -t t Right
	keys /
	$T send-keys -t t -l FillFunctor
	keys Enter
	keys Enter
	check "220x60 row view of a GPU kernel: its ${#kname}-character name whole (the meaning cut, not the value)" \
		bash -c "[ ${#kname} -gt 100 ] && $T capture-pane -p -t t | grep -m1 '│ kernel ' | grep -qF ' ${kname} the GPU kernel'"
	keys Escape
	keys Escape
	replay_at 120 40 "$NVREC" "$NV"
	check "no drm_sched here: the Overview's keys start on the processes, which have rows, not on the empty rings" \
		bash -c "$T capture-pane -p -t t | grep -q 'Processes ([0-9]*)  <Enter> opens the selected row'"
	keys Left
	keys s
	check "s after Left: the rings are not drawn (Not here: DRM scheduler), the processes keep the keys: their sort menu" \
		bash -c "$T capture-pane -p -t t | grep -q 'Sort Processes by' && ! $T capture-pane -p -t t | grep -q 'Sort Rings by'"
	keys Escape
	keys 4
	keys Right
	keys Enter
	check "Enter on the empty MIG devices table says so" shows "Enter: MIG devices has no row now"
	keys 7
	keys Left
	keys Enter
	check "Enter on the empty Fence waits table says so" shows "Enter: Fence waits has no row now"
	# rows equal in the sort column by their totals, then PID: the Calls pane's ioctls at 0.0/s
	replay_at 120 40 "$NVREC" 20
	keys 7
	check "Calls pane, rows at 0.0 CALLS/S: by their CALLS, the larger first (python3's 226 above 1-call rows), then by PID" \
		bash -c "$T capture-pane -p -t t | awk 'match(\$0, / 0\\.0 +[0-9]+ +[0-9.]+ /) { split(substr(\$0, RSTART, RLENGTH), f, / +/); n++
			if (n > 1 && (f[3] > c || (f[3] == c && \$1 < p))) bad = 1; c = f[3]; p = \$1 } END { exit bad || n < 5 }'"
	# One Xid added to that snapshot: a synthetic recording, and named so.
	jq -c '.tables["nvidia.xids"] = [{seq: 1, time: "2026-11-22 17:00:00", dev: "0000:00:06.0", xid: 79,
		msg: "GPU has fallen off the bus.", users: "python3[4242]", pid: 77, comm: "irq/45-nvidia"}]' <<<"$NVSNAP" >"$TMP/nvidia-xid-synthetic.jsonl"
	start 160 40 --replay "$TMP/nvidia-xid-synthetic.jsonl" -d 60
	check "an Xid: the header says so on the main screen" until_shows "1 Xid error, last Xid 79 on 0000:00:06.0"
	keys 4
	check "an Xid: the NVIDIA pane's log shows it with its message" \
		bash -c "$T capture-pane -p -t t | grep -E ' 1 +2026-11-22 17:00:00 +0000:00:06.0 +79 +GPU has fallen off the bus.* python3\[4242\]' >/dev/null"
else
	skip "NVIDIA pane: no NVIDIA recording given"
fi

echo "== AMD and Intel panes (tests/fixtures/synthetic-amd-intel.jsonl: SYNTHETIC rows, no such GPU here)"
SYN=$(realpath "$(dirname "$0")/../fixtures/synthetic-amd-intel.jsonl")
start 170 60 --replay "$SYN" -d 60
until_shows "REPLAY" 5
keys 2
check "2: the AMD pane, its collector's detail" shows "amdgpu: SYNTHETIC: 2 rings; VRAM evictions 3.0 MiB/s"
check "AMD pane: ring gfx_0.0.0 with its submissions per second, total and latency" \
	bash -c "$T capture-pane -p -t t | grep -E '^ +gfx_0\.0\.0 +120\.0 +1200 +2 .* 41\.0us' >/dev/null"
check "AMD pane: the VRAM -> GTT migration with its rate in bytes" \
	bash -c "$T capture-pane -p -t t | grep -E '^ +VRAM +GTT +12\.0 +3\.0MiB' >/dev/null"
check "AMD pane: interrupt vectors named (GRBM_CP, CP end of pipe)" \
	bash -c "$T capture-pane -p -t t | grep -E 'GRBM_CP +CP end of pipe' >/dev/null"
check "AMD pane: rings above migrations above processes" \
	bash -c "$(declare -f line_of before screen); T='$T'; before 'amdgpu rings' 'Buffer migrations' && before 'Buffer migrations' 'amdgpu buffers per process'"
keys 3
check "3: the Intel pane, its collector's detail" shows "intel: SYNTHETIC: i915 and xe"
check "Intel pane: engine rcs0 of card0 with its requests per second" \
	bash -c "$T capture-pane -p -t t | grep -E '^ +0 +rcs0 +300\.0 +3000 ' >/dev/null"
check "Intel pane: vkcube's wait share" bash -c "$T capture-pane -p -t t | grep -E '^ +5151 vkcube .*37\.5' >/dev/null"
check "Intel pane: xe exec queue 17 (render) and the shrinker table" \
	bash -c "$T capture-pane -p -t t | grep -E '^ +0 +17 +render +90\.0' >/dev/null && $T capture-pane -p -t t | grep -q 'i915 memory pressure'"
$T kill-server 2>/dev/null

echo "== the GPU time pane (tests/fixtures/cupti-gpu-time.jsonl: the CUPTI library on the STAND-IN libcupti)"
GTREC=$(realpath "$(dirname "$0")/../fixtures/cupti-gpu-time.jsonl")
GT=$(wc -l <"$GTREC")
replay_at 80 24 "$GTREC" "$GT"
keys 8
# 80 columns: the counts and times before the kernel's name (a name is never all a row shows); the
# empty text of its collector, not of the nvidia collector its tables' names begin with
check "80x24, GPU time pane: each kernel's count, GPU time and name; copies and sets; no 'nvidia unavailable'" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ +[0-9]+ cupti-client +1 kernel +500 +999\.5us ns::kernel_b\(int\) *\$' &&
		$T capture-pane -p -t t | grep -qE '^ +[0-9]+ cupti-client +0 memcpy +50 +15\.0us ' &&
		! $T capture-pane -p -t t | grep -q 'nvidia unavailable'"
check "80x24, GPU time pane: busy time per process and device (KERNELS, COPIES, BUSY)" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ +[0-9]+ cupti-client +0 +2\.00ms +20\.0us +2\.02ms '"


echo "== a CUDA process on two devices (tests/fixtures/cuda-two-devices.jsonl: STAND-IN libcuda and NVML)"
CUREC=$(realpath "$(dirname "$0")/../fixtures/cuda-two-devices.jsonl")
# the last snapshot with every client's three device rows
CU=$(jq -s '[to_entries[] | select((.value.tables["nvidia.process_gpus"] // []) | length == 6) | .key + 1] | last' "$CUREC")
CUSNAP=$(sed -n "${CU}p" "$CUREC")
cupid=$(jq '[.tables["nvidia.process_gpus"][].pid] | min' <<<"$CUSNAP")
# "CUDA DEV d  GPU g  BUS b ... LAUNCHES n" of device d of cupid, as the drill-down writes it
dev_line() {
	jq -r --argjson pid "$cupid" --arg d "$1" '.tables["nvidia.process_gpus"][] | select(.pid == $pid and .cuda_device == $d) |
		"CUDA DEV \(.cuda_device)  " + (if .gpu == null then "" else "GPU \(.gpu)  BUS \(.bus_id)  GPU FROM \(.gpu_from)  " end) +
		"LAUNCH/S 0.0  LAUNCHES \(.launches_total)  GRAPHS \(.graph_launches_total)"' <<<"$CUSNAP"
}
replay_at 160 40 "$CUREC" "$CU"
check "overview: cuda-client ($cupid) on the GPUs its CUDA devices are on (bus ids: the recording has no device list)" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ +$cupid cuda-client +00000000:3B:'"
for _ in 1 2 3 4 5 6 7 8; do $T send-keys -t t Up; done
row=$(($($T capture-pane -p -t t | grep -nE '^ +PID COMM +GPUS' | cut -d: -f1)))
for _ in $(seq 1 $(($($T capture-pane -p -t t | grep -nE "^ +$cupid cuda-client " | cut -d: -f1) - row - 1))); do $T send-keys -t t Down; done
keys Enter
check "Enter on it: its drill-down" shows "Process $cupid cuda-client   (Esc goes back)"
for d in 0 1 unknown; do
	want=$(dev_line $d)
	check "drill-down: its calls on CUDA device $d ($want)" bash -c "$T capture-pane -p -t t | grep -qF 'CUDA on device:  $want'"
done
keys Escape
$T kill-server 2>/dev/null

echo "== G: a GPU's processes, then the next GPU's, and back (examples/nvidia-h100x2.jsonl: two H100s)"
GREC=$(realpath "$(dirname "$0")/../../examples/nvidia-h100x2.jsonl")
# the first snapshot with a process whose CUDA calls are on both GPUs
GN=$(jq -s '[to_entries[] | select([.value.tables["nvidia.process_gpus"][]? | .gpu] | index(0) and index(1)) | .key + 1] | first' "$GREC")
GSNAP=$(sed -n "${GN}p" "$GREC")
gpid=$(jq '[.tables["nvidia.process_gpus"][] | select(.gpu == 1) | .pid] | min' <<<"$GSNAP")
gbus() { jq -r --arg d "$1" '.devices[] | select(.name == $d) | .bus_id' <<<"$GSNAP"; }
# "PID COMM  CUDA_DEV GPU BUS ... LAUNCHES" of gpid's row on NVML's GPU $1, as its table writes it (LAUNCH/S between)
cuda_row() {
	jq -r --argjson pid "$gpid" --argjson g "$1" '.tables["nvidia.process_gpus"][] | select(.pid == $pid and .gpu == $g) |
		"^ +\(.pid) \(.comm) +\(.cuda_device) +\(.gpu) +\(.bus_id) +[0-9.]+ +\(.launches_total) "' <<<"$GSNAP"
}
# NVML's memory of gpid on GPU $1, as the tables write bytes (612.0MiB)
nvml_mem() {
	jq -r --argjson pid "$gpid" --argjson g "$1" '.tables["nvidia.gpu_processes"][] | select(.pid == $pid and .gpu == $g) | .mem_bytes' <<<"$GSNAP" |
		numfmt --to=iec-i --format=%.1f | sed 's/\([KMG]\)i/\1iB/'
}
replay_at 160 40 "$GREC" "$GN"
keys G
check "G on the Overview: the first GPU's drill-down (nvidia0, its bus $(gbus nvidia0))" \
	shows "GPU nvidia0  nvidia $(gbus nvidia0)   (G: the next GPU, Esc goes back)"
check "nvidia0: the CUDA calls on it only, $gpid's on GPU 0 ($(cuda_row 0))" \
	bash -c "$T capture-pane -p -t t | grep -qE '$(cuda_row 0)' && ! $T capture-pane -p -t t | grep -qE '$(cuda_row 1)'"
keys G
check "G again: the next GPU (nvidia1, $(gbus nvidia1))" shows "GPU nvidia1  nvidia $(gbus nvidia1)   (G: the next GPU, Esc goes back)"
check "nvidia1: $gpid's calls on GPU 1 ($(cuda_row 1)), not those on GPU 0" \
	bash -c "$T capture-pane -p -t t | grep -qE '$(cuda_row 1)' && ! $T capture-pane -p -t t | grep -qE '$(cuda_row 0)'"
check "nvidia1: NVML's process $gpid with its memory there ($(nvml_mem 1)), and as NVML MEM beside its calls' DEVMEM" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ +1 +$gpid [a-z0-9]+ +$(nvml_mem 1) ' &&
		$T capture-pane -p -t t | grep -qE '$(cuda_row 1).* $(nvml_mem 1) '"
keys Escape
check "Esc: back to the Overview (its GPU lines, no drill-down)" \
	bash -c "$T capture-pane -p -t t | grep -qE '^ nvidia1 +nvidia $(gbus nvidia1) ' && ! $T capture-pane -p -t t | grep -q 'G: the next GPU'"
$T kill-server 2>/dev/null

echo "== G on a recording without nvidia.process_gpus, at its end: the table said missing, one GPU's processes counted"
if [ ! -f "$NVREC" ]; then
	skip "no NVIDIA recording given"
elif jq -se 'any(.[]; .tables | has("nvidia.process_gpus"))' "$NVREC" >/dev/null; then
	skip "$(basename "$NVREC") has an nvidia.process_gpus table: nothing missing to say"
else
	ran0=$(jq -s '[.[] | .tables["gpu.processes"] // [] | .[] | select((.gpus // "") | split(",") | index("nvidia0")) | .pid] | unique | length' "$NVREC")
	all=$(jq -s '[.[] | .tables["gpu.processes"] // [] | .[].pid] | unique | length' "$NVREC")
	replay_at 200 60 "$NVREC" "$(grep -c . "$NVREC")"
	keys G
	check "200x60: the recording has no nvidia.process_gpus table, said so, not 'No CUDA launch ...'" \
		bash -c "$T capture-pane -p -t t | grep -qF 'This recording has no nvidia.process_gpus table' && ! $T capture-pane -p -t t | grep -q 'No CUDA launch'"
	check "... its empty process table: the $ran0 processes that ran on nvidia0, not all $all" \
		bash -c "$T capture-pane -p -t t | grep -A1 '^ Processes (0)' | grep -qF 'None now: $ran0 processes had rows here earlier'"
	replay_at 80 24 "$NVREC" "$(grep -c . "$NVREC")"
	keys G
	check "80x24: the same texts, no word cut" \
		bash -c "$(declare -f words_whole); T='$T'; words_whole 'This recording has no nvidia.process_gpus table (the gputop-bpf that made it wrote none): it cannot say what happened here. None now: $ran0 processes had rows here earlier and have exited or stopped.'"
	$T kill-server 2>/dev/null
fi

echo "== Calls pane (the recording: drm-load's jobs on mockdrm wait on their fences)"
CN=$(jq -s 'to_entries | map(select([.value.tables["calls.fence_waits"][]? | select(.comm == "drm-load")] | length > 0)) | .[5].key + 1' "$REC")
CSNAP=$(sed -n "${CN}p" "$REC")
cpid=$(jq '.tables["calls.fence_waits"][] | select(.comm == "drm-load") | .pid' <<<"$CSNAP")
cwaits=$(jq '.tables["calls.fence_waits"][] | select(.comm == "drm-load") | .waits_total' <<<"$CSNAP")
ccalls=$(jq '.tables["calls.ioctls"][] | select(.pid == '"${cpid:-0}"' and .command == "mockdrm+0x00") | .calls_total' <<<"$CSNAP")
replay_at 160 48 "$REC" "$CN"
keys 7
check "7: the Calls pane, fence waits above ioctls" \
	bash -c "$(declare -f line_of before screen); T='$T'; before 'Fence waits' 'GPU ioctls'"
check "Calls pane: drm-load ($cpid) waited $cwaits times on mockdrm fences" \
	bash -c "$T capture-pane -p -t t | grep -E '^ +$cpid drm-load +mockdrm .* $cwaits ' >/dev/null"
check "Calls pane: its job ioctls named mockdrm+0x00, $ccalls of them" \
	bash -c "$T capture-pane -p -t t | grep -E '^ +$cpid drm-load .*mockdrm\+0x00 .* $ccalls ' >/dev/null"
$T kill-server 2>/dev/null
# more rows than fit: the title says which are shown and that there are more
nio=$(jq '.tables["calls.ioctls"] | length' <<<"$CSNAP")
replay_at 100 24 "$REC" "$CN"
keys 7
check "Calls pane at 100x24: GPU ioctls ($nio rows) says 'rows 1-N of $nio ↓' at the right of its title" \
	bash -c "$T capture-pane -p -t t | grep -E '^ GPU ioctls \\($nio\\) +rows 1-[0-9]+ of $nio ↓$' >/dev/null"
keys Right End
check "... focused and at its end (End): 'rows K-$nio of $nio ↑', its last row shown" \
	bash -c "$T capture-pane -p -t t | grep -E '^ GPU ioctls \\($nio\\)  <Enter> opens the selected row +rows [0-9]+-$nio of $nio ↑$' >/dev/null"
$T kill-server 2>/dev/null

echo "== memory after its clients exited (the recording's last snapshot with no memory rows)"
ME=$(jq -s '[to_entries[] | select((.value.tables["memory.devices"] // []) | length == 0) | .key] | last + 1' "$REC")
mgone=$(jq -s ".[:$ME - 1] | [.[] | .tables[\"memory.clients\"] // [] | length] | max" "$REC")
replay_at 120 40 "$REC" "$ME"
check "snapshot $ME, the Overview's MEMORY side pane: its row gone, as pane 6 says, not 'No GPU memory reported'" \
	bash -c "$(declare -f screen); T='$T'; screen | grep -qF '│None now: the 1 row shown' && ! screen | grep -qF 'No GPU memory reported'"
keys 6
check "snapshot $ME, pane 6: the devices' table says its row is gone, not that no memory is reported" \
	bash -c "$(declare -f screen); T='$T'; screen | grep -qF 'None now: the 1 row shown here earlier is gone.' && ! screen | grep -qF 'No GPU memory reported'"
check "... and the clients' table that its rows (up to $mgone at once) are gone, not that no driver reports fdinfo" \
	bash -c "$(declare -f screen); T='$T'; screen | grep -qE 'None now: the [0-9]+ rows shown here earlier are gone\.' && ! screen | grep -qF 'No DRM client reports'"
$T kill-server 2>/dev/null

echo "== side panes at 80x24: one line (snapshot 40), or rows and +N more where they have rows"
S40=$(sed -n 40p "$REC")
stot=$(jq -r '.tables["memory.devices"][0] | "\(.dev)  \(.region)  TOTAL \(.total_bytes / 1048576 * 10 | round / 10)MiB"' <<<"$S40")
replay_at 80 24 "$REC" 40
check "MEMORY at 80x24: '$stot' (the device's total beside its region's name, not only its name)" shows "│$stot "
$T kill-server 2>/dev/null
if [ -f "$NVREC" ]; then
	# the H100's snapshot 30 with 5 of its 8 lines fired (the recording's never did): the quiet
	# ones are counted, not listed; the box under the tables takes the rows they leave
	sed -n 30p "$NVREC" | jq -c '.tables["irq.lines"] |= (to_entries | map(if .key < 5 then
		.value.total = (1000 + .key) | .value.per_s = (10 + .key) else . end) | map(.value))' >"$TMP/irq5.jsonl"
	replay_at 80 20 "$TMP/irq5.jsonl" 1
	shown=$(screen | awk -F'│' '$4 ~ /^ +[0-9]+ +[0-9.]+ /' | wc -l)
	check "INTERRUPTS at 80x20: $shown of the 5 lines that fired under IRQ and IRQ/S, then '+$((5 - shown)) more, 3 never fired'" \
		bash -c "$(declare -f screen); T='$T'; [ $shown -ge 1 ] && [ $shown -lt 5 ] && screen | grep -qE '││  IRQ +IRQ/S' && screen | grep -qE '││\+$((5 - shown)) more, 3 never fired +│'"
	replay_at 80 30 "$TMP/irq5.jsonl" 1
	check "INTERRUPTS at 80x30: the 5 lines that fired (45 43 48 46 44), none of the 3 quiet ones, then '+3 never fired'" \
		bash -c "$(declare -f screen); T='$T'; [ \"\$(screen | awk -F'│' '\$4 ~ /^ +[0-9]+ +[0-9.]+ / { split(\$4, f, \" +\"); printf \"%s \", f[2] }')\" = '45 43 48 46 44 ' ] && screen | grep -qE '││\+3 never fired +│'"
	$T kill-server 2>/dev/null
fi

echo "== memory (a synthetic snapshot: the recording's snapshot $N with memory.devices rows added)"
jq -c '.tables["memory.devices"] = [{dev: "vkms", region: "vram", driver: "vkms", clients: 2, total_bytes: 3145728,
	resident_bytes: 2097152, used_bytes: 1048576, size_bytes: 2147483648, used_pct: 0.05},
	{dev: "vkms", region: "gtt", driver: "vkms", clients: 1, resident_bytes: 4096}]' <<<"$SNAP" >"$TMP/memory-synthetic.jsonl"
start 120 36 --replay "$TMP/memory-synthetic.jsonl" -d 60
check "memory: the device line shows VRAM used/size from sysfs with a bar, and GTT from the clients" \
	bash -c "sleep 1; $T capture-pane -p -t t | grep -E 'VRAM \\[.{1,18}\\] 1\\.0MiB/2\\.0GiB  GTT 4\\.0KiB' >/dev/null"
check "memory: a device without memory rows says so" shows "  (no memory reported)"
check "memory: the MEMORY side pane lists the device's regions with the clients' total" \
	bash -c "$T capture-pane -p -t t | grep -E '│vkms +vram +3.0MiB' >/dev/null"

echo "== files the user names"
cp "$REC" "$TMP/own.jsonl"
"$BIN" --replay "$TMP/own.jsonl" -b -n 1 -o "$TMP/own.jsonl" 2>"$TMP/err"
rc=$?
check "--replay R -o R: refused (exit 1, says why), the recording left whole" \
	bash -c "[ $rc -eq 1 ] && grep -q 'names the recording being replayed' '$TMP/err' && cmp -s '$REC' '$TMP/own.jsonl'"
"$BIN" --replay "$REC" -b -n 2 -o /dev/full 2>"$TMP/err"
rc=$?
check "-o on a full disk (/dev/full): exit 1 and 'No space left on device'" \
	bash -c "[ $rc -eq 1 ] && grep -q 'No space left on device' '$TMP/err'"
"$BIN" --replay "$TMP/missing.jsonl" -b -n 1 -o "$TMP/kept.txt" 2>/dev/null
check "a replay that cannot start creates no -o file" test ! -e "$TMP/kept.txt"
mkdir -p "$TMP/dircfg/gputop-bpf/config"
XDG_CONFIG_HOME=$TMP/dircfg start 100 30 --replay "$REC" -d 60
check "a config path that is a directory: said, not ignored" until_shows "gputop-bpf/config: is a directory"
mkdir -p "$TMP/bigcfg/gputop-bpf"
{ echo "theme = light"; head -c 70000 /dev/zero | tr '\0' '#'; echo; } >"$TMP/bigcfg/gputop-bpf/config"
XDG_CONFIG_HOME=$TMP/bigcfg start 100 30 --replay "$REC" -d 60
check "a config over 64 KiB: said (not cut silently at some length)" until_shows "larger than 64 KiB"
long=$TMP/$(printf 'd%.0s' $(seq 90))
mkdir -p "$long"
cp themes/light.theme "$long/my-long.theme"
start 120 30 --replay "$REC" -d 60 --theme "$long/my-long.theme"
check "a theme path of $(( ${#long} + 14 )) bytes loads (paths were cut at 63)" until_shows "theme my-long"
start 160 30 --replay "$REC" -d 60 --theme "$TMP/$(printf 'x%.0s' $(seq 600)).theme"
check "a theme path over 511 bytes: said, the default theme kept" until_shows "longer than 511 bytes"
$T kill-server 2>/dev/null

echo "== bad input"
# an empty recording at a terminal: said before the interface opens, exit 1 as with -b, no screen to quit
start 100 24 --replay /dev/null
for _ in $(seq 50); do [ -s "$TMP/exit" ] && break; sleep 0.1; done
check "--replay /dev/null at a terminal: exit 1 ($(cat "$TMP/exit" 2>/dev/null)), the recording said empty, no interface" \
	bash -c "[ \"\$(cat '$TMP/exit' 2>/dev/null)\" = 1 ] && $T capture-pane -p -t t | grep -qxF 'gputop-bpf: /dev/null: the recording is empty (no snapshot in it)' &&
		! $T capture-pane -p -t t | grep -q 'F1Help'"
# -p of a process the recording never shows: the replay plays, and its end says so
start 120 30 --replay "$REC" -d 0.05 -p 4194304
check "--replay -p 4194304: played to the end, which says the process was not seen in it" \
	until_shows "end of the recording: process 4194304 (-p) was not seen in it; q quits" 30
$T kill-server 2>/dev/null
start_s=$(date +%s%N)
timeout 20 "$BIN" --replay /dev/zero -b -n 1 >/dev/null 2>"$TMP/zero.err"
rc=$? ms=$((($(date +%s%N) - start_s) / 1000000))
check "--replay /dev/zero: ends at once with exit 1 and the reason ($ms ms: $(head -c 80 "$TMP/zero.err"))" \
	bash -c "[ $rc -eq 1 ] && grep -q 'a NUL byte: not a recording' '$TMP/zero.err' && [ $ms -lt 5000 ]"
# Lines are parsed two at a time (recording/replay.c) and must come out in the recording's order: large
# lines (5,000 processes) between small ones, so that a later line is often parsed first; a bad
# line ends the replay there, after every line before it and with none after it.
python3 - "$SNAP" "$TMP/order.jsonl" <<'PY'
import json, sys
s, out = json.loads(sys.argv[1]), open(sys.argv[2], "w")
proc = s["tables"]["drm_sched.processes"][0]
for i in range(1, 45):
    if i == 37:
        out.write('{"host": {"hostname": "not JSON\n')
        continue
    t = dict(s, tables=dict(s["tables"]), host=dict(s["host"], hostname=f"h{i}"))
    if i % 2:
        t["tables"]["drm_sched.processes"] = [dict(proc, pid=1000 + k) for k in range(5000)]
    out.write(json.dumps(t) + "\n")
PY
for run in 1 2 3; do
	"$BIN" --replay "$TMP/order.jsonl" -b -J 2>/dev/null | jq -r '.host.hostname // .error' | tr '\n' ' '
	echo "exit=${PIPESTATUS[0]}"
done >"$TMP/order.txt"
check "replay: lines parsed at once come out in the recording's order, up to a bad line (3 runs)" \
	test "$(sort -u "$TMP/order.txt")" = "$(printf 'h%s ' $(seq 36))$TMP/order.jsonl:37: not JSON: lexical error: invalid character inside string. exit=1"
# A process name chosen to attack the terminal: OSC 52 (sets the clipboard) ended by BEL, a CSI
# that clears the screen, and a wide-character name, in batch text.
jq -c '.tables["drm_sched.processes"][0].comm = "\u001b]52;c;aGk=\u0007x\u009b2J" | .host.hostname = "\u001b]0;pwned\u0007" |
	.tables["drm_sched.processes"][1].comm = "\u001b[2J\u9032\u7a0b"' <<<"$SNAP" >"$TMP/hostile.jsonl"
LANG=C.UTF-8 "$BIN" --replay "$TMP/hostile.jsonl" -b -n 1 >"$TMP/hostile.txt" 2>&1
check "batch text: no ESC, BEL or C1 CSI of a hostile process or host name reaches the terminal" \
	bash -c "! LC_ALL=C grep -q \$'[\\x1b\\x07]\\|\\xc2\\x9b' '$TMP/hostile.txt'"
check "batch text: the names shown with '?' for each control character" \
	bash -c "grep -qF '?]52;c;aGk=?x?2J' '$TMP/hostile.txt' && grep -qF '?[2J進程' '$TMP/hostile.txt'"
cat >"$TMP/cells.py" <<'PY'
import sys, unicodedata
def cells(t): return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in t)
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
h = next(i for i, l in enumerate(lines) if l.split()[:3] == ["PID", "COMM", "SUBM/S"])
end = lines[h].index("GPU%") - 1  # jobs/s, right-aligned, ends where the next column starts
rows = []
for l in lines[h + 1:]:
    if not l.strip(): break
    rows.append(l)
if len(rows) < 2: sys.exit("fewer than 2 process rows")
for l in rows:  # the third token (jobs/s) ends where its title does
    toks, pos = l.split(), 0
    for t in toks[:3]: pos = l.index(t, pos) + len(t)
    if cells(l[:pos]) != end: sys.exit(f"misaligned: {l!r}")
PY
check "batch text: the wide name padded by cells: the next column where its title is" \
	python3 "$TMP/cells.py" "$TMP/hostile.txt"
# The same names on screen, a ring's wide name too: cut by cells, so the side pane's border
# stays in one column on every row (it used to shift right by the extra cells).
jq -c '.tables["drm_sched.rings"][0].name = "\u9032\u7a0b\u9032\u7a0b\u9032\u7a0b\u9032\u7a0b\u9032\u7a0bX" |
	.tables["drm_sched.processes"][1].comm = "\u001b[2J\u9032\u7a0b\u9032\u7a0b\u9032\u7a0b\u9032\u7a0b"' \
	"$TMP/hostile.jsonl" >"$TMP/wide.jsonl"
start 130 36 --replay "$TMP/wide.jsonl" -d 60
until_shows "REPLAY" 5
sleep 0.5
screen >"$TMP/wide.screen"
cat >"$TMP/border.py" <<'PY'
import sys, unicodedata
def cells(t): return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in t)
cols = {cells(l[:l.index("\u2502")]) for l in open(sys.argv[1], encoding="utf-8") if "\u2502" in l}
if len(cols) != 1: sys.exit(f"the border is at columns {sorted(cols)}")
PY
check "interface: wide and control characters in ring and process names keep the side pane's border in one column" \
	bash -c "grep -q '進程' '$TMP/wide.screen' && python3 '$TMP/border.py' '$TMP/wide.screen'"
$T kill-server 2>/dev/null
printf 'theme = light\nbogus line\n' >"$XDG_CONFIG_HOME/gputop-bpf/config"
start 120 30 --replay "$REC" -d 60 # the theme named where the tabs leave room
check "a bad config line is named by file and line, and it still starts" \
	until_shows "config:2: expected key = value"
check "the good lines still apply" shows "theme light"
head -5 "$REC" >"$TMP/cut.jsonl"
sed -n 6p "$REC" | head -c 300 >>"$TMP/cut.jsonl"
start 100 30 --replay "$TMP/cut.jsonl" -d 0.1
check "a truncated recording plays, then names the line" until_shows "cut.jsonl:6: not JSON"
$T kill-server 2>/dev/null
start 100 30 --replay "$REC" --theme monochrome -d 60
until_shows "REPLAY" 5
check "monochrome theme: no colour escapes" bash -c "! $T capture-pane -e -p -t t | grep -qE $'\\e\\\\[[0-9;]*(3[0-7]|38;5);'"
step_to $N
sleep 0.5
check "monochrome: the column titles underlined, the selected row in reverse, told apart" \
	bash -c "$T capture-pane -e -p -t t | grep -F 'RING ' | grep -qE $'\\e\\\\[[0-9;]*4m *RING ' && $T capture-pane -e -p -t t | grep -F 'gfx_0.0.0' | grep -qE $'\\e\\\\[7m *gfx_0' && ! $T capture-pane -e -p -t t | grep -F 'RING ' | grep -qE $'\\e\\\\[[0-9;]*7m *RING '"
rm -f "$XDG_CONFIG_HOME/gputop-bpf/config"
start 100 30 --replay "$REC" -d 60
until_shows "REPLAY" 5
pkill -TERM -f "^$BIN --replay $REC -d 60"
sleep 0.8
check "SIGTERM: exits 0 and restores the terminal" bash -c "grep -qx 0 $TMP/exit && grep -qw icanon $TMP/stty"
echo "== T: the next 10 s of the recording's snapshots captured to a Perfetto trace file"
mkdir -p "$TMP/capture"
CWD=$TMP/capture replay_at 120 30 "$REC" 10
keys T
check "T: the status line says what it captures, and to which file" \
	shows "capturing 10 s of the recording's counters to gputop-bpf-"
for _ in $(seq 40); do # 0.5 s snapshots: 10 s is 20 of them
	shows "capture written" && break
	$T send-keys -t t n
	sleep 0.2
done
check "T: 20 snapshots on, the status line says what it wrote" \
	until_shows "capture written: gputop-bpf-" 5
said=$(screen | grep -o 'capture written: gputop-bpf-[0-9-]*\.pftrace: [0-9]* samples, 0 jobs, 0 display events, [0-9]* bytes')
cap=$(ls "$TMP"/capture/gputop-bpf-*.pftrace 2>/dev/null | head -1)
check "T: the file it named is there, its size as said ($said)" \
	test -n "$cap" -a -n "$said" -a "$(basename "$cap"): $(sed 's/.*samples, 0 jobs, 0 display events, //; s/ bytes$//' <<<"$said")" = \
	"$(sed 's/^capture written: //; s/: [0-9]* samples.*//' <<<"$said"): $(stat -c %s "$cap" 2>/dev/null)"
if command -v protoc >/dev/null; then
	. "$(dirname "$0")/../perfetto/decode.sh"
	check "T: protoc decodes it; its counter samples as many as said" test \
		"$(decode "$cap" | grep -c 'type: TYPE_COUNTER')" = "$(sed 's/.*pftrace: \([0-9]*\) samples.*/\1/' <<<"$said")"
else
	skip "T: protoc is missing: the capture is not decoded ('make deps')"
fi
keys T
check "T again: a second capture starts (the first is over)" \
	bash -c "$(declare -f screen); T='$T'; screen | grep -q \"^ capturing 10 s of the recording's counters to gputop-bpf-\""
keys T
check "T while one runs: says so" shows "already capturing 10 s"
$T kill-server 2>/dev/null
echo "== the walk at 80x24, 120x40, 220x60 (issue 25): names told apart, prose whole, blocks whole, lists that say there is more"
# The KERNEL cells of the GPU kernels table, as drawn: two kernels whose names share their start must not read the same.
kernel_cells() {
	screen | awk '/^ GPU kernels/ { on = 1; next } on && /^ +PID COMM/ { x = index($0, "KERNEL"); w = index($0, "HANDLES") - x; next }
		on && x && /^ +[0-9]+ / { print substr($0, x, w) } on && /^ *$/ { exit }'
}
if [ -f "$NVREC" ]; then
	for size in "120 40" "220 60"; do
		replay_at ${size% *} ${size#* } "$NVREC" 20
		keys 4
		nk=$(kernel_cells | wc -l)
		check "${size/ /x} NVIDIA pane: the $nk kernels' names cut so that none reads as another's ($(kernel_cells | sort | uniq -d | head -1))" \
			bash -c "[ $nk -ge 3 ] && [ -z \"\$($(declare -f screen kernel_cells); T='$T'; kernel_cells | sort | uniq -d)\" ]"
		check "${size/ /x} NVIDIA pane: where two names share their start, each shows where they differ" \
			bash -c "$(declare -f screen); T='$T'; screen | grep -q 'FillFunctor' && screen | grep -q 'CUDAFunctorOnSelf_add'"
	done
	# cuBLAS's kernels differ twice (nn/tn near the start, split_k near the end): four names, four texts
	SREC=$(dirname "$NVREC")/nvidia-stacks-h100.jsonl
	for size in "120 40"; do
		[ -f "$SREC" ] || break
		replay_at ${size% *} ${size#* } "$SREC" 8
		keys 4
		nk=$(kernel_cells | wc -l)
		check "${size/ /x} stacks recording: its $nk kernels' names none read as another's ($(kernel_cells | sort | uniq -d | head -1))" \
			bash -c "[ $nk -ge 3 ] && [ -z \"\$($(declare -f screen kernel_cells); T='$T'; kernel_cells | sort | uniq -d)\" ]"
	done
	replay_at 80 24 "$NVREC" 20
	keys 4
	for _ in 1 2 3; do keys Right; done
	keys F2
	items=$(( 6 + $(sed -n 20p "$NVREC" | jq '[.tables["nvidia.processes"][0] | keys[]] | length') ))
	check "80x24 F2 on CUDA processes: a list longer than the box says how many more below, on its border" \
		bash -c "$(declare -f screen); T='$T'; screen | grep -qE '^ +└─+ ↓ [0-9]+ more ─+┘' && ! screen | grep -q '↑'"
	keys End
	check "80x24 F2 at its end: how many above, none below" \
		bash -c "$(declare -f screen); T='$T'; screen | grep -qE '^ +┌─ Setup \(F2\) ─+ ↑ [0-9]+ more ─+┐' && ! screen | grep -q '↓ [0-9]* more'"
	check "80x24 F2: the descriptions wrapped at words, none cut with an ellipsis" \
		bash -c "$(declare -f screen); T='$T'; ! screen | grep -q '…' && screen | tr -s ' │\n' ' ' | grep -qF 'cuMemCreate) and has not freed by a call; what a context'\''s end frees is not seen here'"
	for size in "80 24" "120 40" "220 60"; do
		replay_at ${size% *} ${size#* } "$NVREC" 20
		keys Right
		keys F6
		check "${size/ /x} F6 on the processes: the meanings wrapped at words, none cut with an ellipsis" \
			bash -c "$(declare -f words_whole); T='$T'; words_whole \"per GPU the largest of fdinfo's resident, NVML's and the KFD's VRAM (they may count the same buffers), summed over its GPUs; where none reports it, CUDA's tracked allocations, at most what NVML says the GPUs hold\" && ! $T capture-pane -p -t t | grep -q '…'"
	done
	$T kill-server 2>/dev/null
else
	skip "the NVIDIA recording was not given: its kernel names and its long setup list are not walked"
fi
replay_at 80 24 "$REC" 40
check "80x24 Overview: the side boxes' text whole sentences, no ellipsis" \
	bash -c "$(declare -f screen); T='$T'; ! screen | grep -q '…'"
keys F2
check "80x24 F2 on Rings: the DEVICE description wrapped whole, no ellipsis" \
	bash -c "$(declare -f words_whole); T='$T'; words_whole \"the scheduler's device (\\\"\\\" when the kernel does not say) (its key: where it fits)\" && ! $T capture-pane -p -t t | grep -q '…'"
keys Escape
keys End
keys Enter
ring=$(screen | sed -n 's/^ Ring \([^ ]*\) on .*/\1/p')
empty=$(sed -n 40p "$REC" | jq -r --arg r "$ring" '.tables["drm_sched.rings"][] | select(.name == $r) | .completed_total')
check "80x24 ring pane of $ring, no process on it now: its text wrapped whole, not cut" \
	bash -c "$(declare -f words_whole); T='$T'; words_whole \"None now: its $empty jobs since the start came from processes that have exited or stopped submitting.\" && ! $T capture-pane -p -t t | grep -q '…'"
$T kill-server 2>/dev/null
MANY=$(sed -n 31p "$REC" | jq -r '[.tables["memory.clients"][] | .pid] | group_by(.) | max_by(length) | "\(.[0]) \(length)"')
for size in "80 24" "120 40"; do
	replay_at ${size% *} ${size#* } "$REC" 31
	keys 6
	keys Right / "${MANY% *}" Enter
	keys Enter
	screen >"$TMP/blocks.screen"
	shown=$(grep -cE '^ client [0-9]+ on ' "$TMP/blocks.screen")
	check "${size/ /x} process pane of ${MANY% *}: its heading wrapped whole" \
		bash -c "$(declare -f words_whole); T='$T'; words_whole 'Its DRM clients (a client shared with other processes counts for the lowest PID)'"
	check "${size/ /x} process pane of ${MANY% *}: each of its $shown client blocks whole (its region and its engine line)" \
		awk '/^ client [0-9]+ on / { if (open) exit 1; open = 2; next } open && /^   (memory|engines busy:) / { open--; next }
			open { exit 1 } END { exit open != 0 }' "$TMP/blocks.screen"
	if [ "$shown" -lt "${MANY#* }" ]; then
		check "${size/ /x} process pane: '$((${MANY#* } - shown)) more of its ${MANY#* } clients', the blocks not drawn" \
			grep -qF "$((${MANY#* } - shown)) more of its ${MANY#* } clients" "$TMP/blocks.screen"
	fi
	$T kill-server 2>/dev/null
done
calls_said=$(sed -n 40p "$REC" | jq -r '.collectors[] | select(.name == "calls") | .detail')
replay_at 120 40 "$REC" 40
keys 7
check "Calls pane: the recording's calls status is what the calls collector now says ('$calls_said': devices, the gate)" \
	bash -c "$(declare -f screen); T='$T'; screen | grep -qxE ' calls: ioctls on (DRM and NVIDIA devices|DRM devices|NVIDIA devices|GPU devices \\(none yet\\)) and fence waits; (on|idle: no GPU file open|[0-9]+ GPU files? open|always on: .*) *'"
$T kill-server 2>/dev/null
lost_in=$(sed -n 21p "$REC" | jq -r '[.collectors[] | .name as $c | (.drops // {} | to_entries[] | {c: $c, n: .value})] | max_by(.n) | select(.n > 0) | .c')
if [ -n "$lost_in" ]; then
	replay_at 80 24 "$REC" 21
	check "80x24: events lost name their collector ($lost_in) where the kind has no room, not a bare count" \
		bash -c "$(declare -f screen); T='$T'; screen | head -1 | grep -qE '\| [0-9]+ events? lost \((most: )?$lost_in\)'"
	$T kill-server 2>/dev/null
else
	skip "the recording's snapshot 21 lost nothing: the header's short loss is not walked"
fi
if [ -f "$NVREC" ]; then
	replay_at 80 24 "$NVREC" 20
	keys 4
	for _ in 1 2 3 4 5; do keys Right; done
	check "80x24 NVIDIA pane, its sixth table: the tables above and below said whole beside the pane's title, no ellipsis" \
		bash -c "$(declare -f screen); T='$T'; screen | grep -E '^ NVIDIA +\(Tab' | grep -qE '([0-9]+ more tables? above: ←; ([0-9]+ tables? empty, not drawn; )?[0-9]+ more tables? below: →|tables: [0-9]+ above ←, ([0-9]+ empty, )?[0-9]+ below →) *\$'"
	# at 60x15 the key hint gives way: the tables below are said beside the pane's name
	replay_at 60 15 "$NVREC" 20
	keys 4
	check "60x15 NVIDIA pane: the tables not drawn said beside its name ($(screen | grep -m1 '^ NVIDIA'))" \
		bash -c "$(declare -f screen); T='$T'; screen | grep -qE '^ NVIDIA  .*[0-9]+ (more tables? below: →|below →)'"
	# the column the rows are sorted by stays where the others do not all fit; the call's name before its device
	keys 7
	check "60x15 Calls: the ioctls' header keeps COMMAND and the sorted CALLS/S ($(screen | grep -m1 'PID COMM'))" \
		bash -c "$(declare -f screen); T='$T'; screen | grep -qE '^ +PID COMM +COMMAND .*▼CALLS/S'"
	$T kill-server 2>/dev/null
fi
replay_at 80 24 "$REC" 40
keys G
check "80x24 G on card0 (vgem, not NVIDIA): the GPU view's note wrapped whole, not cut mid-word; no NVIDIA table said missing" \
	bash -c "$(declare -f words_whole); T='$T'; words_whole \"The processes the DRM scheduler, fdinfo and KFD see on it (Display and Calls list their own).\" &&
		! $T capture-pane -p -t t | grep -qE 'nvidia\.(gpu_processes|process_gpus)'"
# a GPU with no process in the merged table: said of that GPU, not of every GPU ("No process uses a GPU ...")
keys G G
check "80x24 G G on card2 (vkms): its empty process table says none on card2, not that no process uses a GPU" \
	bash -c "$T capture-pane -p -t t | grep -q '^GPU card2 \|^ GPU card2 ' && $T capture-pane -p -t t | grep -q 'None on card2 since the start.' &&
		! $T capture-pane -p -t t | grep -q 'No process uses a GPU'"
# G goes through every line of the device list: the DRM cards, then the scheduler's device with no card (mockgpu)
mockgpu_pids=$(sed -n 21p "$REC" | jq -r '[.tables["gpu.processes"][] | select(.gpus == "mockgpu") | .pid] | sort | map(tostring) | join(" ")')
replay_at 120 30 "$REC" 21
keys G
keys G
keys G
keys G
check "120x30 G four times: card0, card1, card2, then mockgpu (no DRM card) with its processes ($mockgpu_pids)" \
	bash -c "$T capture-pane -p -t t | grep -qF \"GPU mockgpu  - (no DRM card: its scheduler's rings)\" && [ -n '$mockgpu_pids' ] &&
		for p in $mockgpu_pids; do $T capture-pane -p -t t | grep -qE \"^ +\$p mockgpu-submit +mockgpu \" || exit 1; done"
keys G
check "G a fifth time: back to the first, card0" shows "GPU card0  faux_driver vgem"
$T kill-server 2>/dev/null
# The help at 80x24, paged: the 'self' entry whole on the page that shows it (its last row was on no page).
replay_at 80 24 "$REC" 40
keys h
cut=
for page in 1 2 3; do
	if screen | grep -qF "header 'self'"; then
		words_whole "what gputop-bpf costs: its CPU and memory, and its BPF programs' run time (per program: JSON self.programs)" >/dev/null || cut=$page
	fi
	keys NPage
done
check "80x24 help: the 'self' entry whole on the page that shows it, not cut after 'its BPF'${cut:+ (page $cut)}" test -z "$cut"
$T kill-server 2>/dev/null
echo "== S: the Stacks view (tests/tui/stacks/stacks.jsonl: a FIXTURE of the stacks tables, hostile rows among them)"
SF=$(realpath "$(dirname "$0")/stacks/stacks.jsonl")
SC="python3 $(realpath "$(dirname "$0")/stacks/check_tree.py")"
tree() { screen | $SC "$@"; }
ring_jobs() { # the fixture's sum of a weight over its job rows on ring $1 ("DEV NAME")
	jq -r --arg l "$1" "[.tables[\"drm_sched.stacks\"][] | select(.leaf == \$l) | .$2] | add" <<<"$(tail -1 "$SF")"
}
replay_at 120 40 "$SF" 3
keys S # the ring table has the keys: its first ring's job stacks
ring=$(screen | sed -n 's/.* CPU call stacks of the jobs on ring \(.*\)   (Esc goes back).*/\1/p')
check "S on a ring: the Stacks view of its jobs ($ring)" test -n "$ring"
check "S on $ring: its jobs in all, the fixture's sum over its rows ($(ring_jobs "$ring" count))" \
	shows "Weight: jobs ($(ring_jobs "$ring" count) in all)"
check "S on $ring: the process open, its first frame closed (2 lines)" shows "(line 1 of 2)"
keys Down Enter
check "Enter opens the selected frame (▾ _start, 3 lines)" bash -c "$(declare -f screen shows); T='$T'; shows '▾ _start' && shows '(line 2 of 3)'"
keys Left
check "Left closes it (▸ _start)" bash -c "$(declare -f screen shows); T='$T'; shows '▸ _start' && shows '(line 2 of 2)'"
keys Right Right
check "Right opens it, Right again selects its first child" shows "(line 3 of 3)"
keys '*'
check "*: every node open; inclusive = self + children's, on every open node" tree sums
check "* on $ring: only its job stacks (no other ring, no launch)" \
	bash -c "$(declare -f screen); T='$T'; ! screen | grep -qE 'comp_1\.0\.0|sdma0|trainer|sgemm'"
keys w
gpu=$(ring_jobs "$ring" gpu_time_ns)
check "w: the weight is GPU time, $gpu ns in all, said in ms" shows "Weight: GPU time ($(awk -v n="$gpu" 'BEGIN { printf "%.3f", n / 1e6 }') ms in all)"
check "w: GPU time sums too" tree sums
check "w: the status line says what the weight weighs" shows "Weight: GPU time: jobs' run to done; CUDA kernels' start to end"
keys w
check "w again: queue wait" bash -c "$(declare -f screen shows); T='$T'; shows 'Weight: queue wait (' && shows 'INCL queue wait'"
keys w
check "w again: back to jobs (the weights this ring's rows have: jobs, GPU time, queue wait)" \
	shows "(w: the next of jobs, GPU time, queue wait)"
keys S
check "S in the view: all processes, the weight kept (jobs)" \
	bash -c "$(declare -f screen shows); T='$T'; shows 'CPU call stacks of all processes' && shows 'Weight: jobs ('"
check "all processes by jobs: each process's jobs, the fixture's sums" tree roots "$SF"
check "by jobs, all still open (*): sums hold, the hostile rows' escapes shown as ? (evil?[2Jx 6666)" \
	bash -c "$(declare -f screen shows); T='$T'; shows 'evil?[2Jx 6666' && shows '▾ pwned?' && $SC sums < <(screen)"
check "the screen's first line intact after the hostile names (no escape reached the terminal)" \
	bash -c "$(declare -f screen); T='$T'; screen | head -1 | grep -q '^ gputop-bpf '"
keys w w w
check "w, w, w: launches (757 in all), after GPU time and queue wait: the weights go round" \
	shows "Weight: launches (757 in all)"
check "all processes by launches: each process's launches, the fixture's sums" tree roots "$SF"
check "all open by launches: inclusive = self + children's" tree sums
check "the sampled note shown" shows "Sampled: DWARF: 40 of 757 launches unwound"
keys '*'
check "* again: closed but the processes (▸ _start, no kernel shown)" \
	bash -c "$(declare -f screen shows); T='$T'; shows '▸ _start' && ! shows 'ampere_sgemm'"
keys w w
check "all processes by GPU time: each process's GPU time, the fixture's sums" tree roots "$SF"
check "by GPU time: inclusive = self + children's" tree sums
keys Escape
check "Esc goes back to where S was pressed (the Overview)" bash -c "$(declare -f screen shows); T='$T'; ! shows 'CPU call stacks'"
keys Enter S
check "S in a ring's drill-down: that ring's stacks" shows "CPU call stacks of the jobs on ring"
keys Escape
check "Esc from there: back to the ring's drill-down" shows "(Esc goes back)"
$T kill-server 2>/dev/null
for size in "80 24" "220 60"; do
	replay_at ${size% *} ${size#* } "$SF" 3
	keys S S '*'
	check "${size/ /x} all open: every name whole, or cut with an ellipsis where it differs; no mid-word junk" tree names "$SF"
	check "${size/ /x}: the heading and keys whole" \
		bash -c "$(declare -f words_whole); T='$T'; words_whole 'Stacks: CPU call stacks of all processes Weight: launches (757 in all) Sampled: DWARF: 40 of 757 launches unwound Enter, Right, Left: open, close'"
	keys w
	check "${size/ /x} by jobs, all open: names whole or cut with an ellipsis; sums hold" \
		bash -c "$(declare -f screen); T='$T'; screen | $SC names '$SF' && screen | $SC sums"
	$T kill-server 2>/dev/null
done
# / in the view: the stacks with a frame (or leaf, or process) that has the text, their sum the fixture's
sgemm=$(jq -r '[.tables[] | .[]? | objects | select(.source == "launch" and ((.frames + ";" + .leaf) | test("sgemm"; "i"))) | .count] | add' <<<"$(tail -1 "$SF")")
replay_at 120 40 "$SF" 3
keys S S '*'
keys /
$T send-keys -t t -l SGEMM
sleep 0.4
check "/ in the Stacks view: the filter as it is typed, under the title" \
	shows "Filter (a frame, leaf or COMM PID; Enter keeps, Esc clears): SGEMM_"
keys Enter
check "/SGEMM: only the stacks through an sgemm frame ($sgemm launches, the fixture's, trainer's too), the paths to them kept, the rest hidden" \
	bash -c "$(declare -f screen shows); T='$T'; shows 'Filter: SGEMM   (/ edits, Esc clears)' && shows 'Weight: launches ($sgemm in all)' &&
		screen | grep -qE '^ +$sgemm +0 .*▾ trainer 4242' && shows 'ampere_sgemm_128x64_nn' && shows 'ampere_sgemm_128x64_tn' &&
		shows '▾ train_step' && ! shows 'reduce_kernel' && ! shows 'mockgpu-submit'"
check "/SGEMM: inclusive = self + children's" tree sums
keys / BSpace BSpace BSpace BSpace BSpace
$T send-keys -t t -l zzz
keys Enter
check "/zzz: nothing matches, and it says so" shows 'No stack has a frame, leaf or process matching "zzz". Esc clears the filter.'
keys Escape
check "Esc clears the filter: every launch again (757), the view still open" \
	bash -c "$(declare -f screen shows); T='$T'; shows 'Weight: launches (757 in all)' && ! shows 'Filter:'"
keys Escape
check "Esc again goes back" bash -c "$(declare -f screen shows); T='$T'; ! shows 'CPU call stacks'"
$T kill-server 2>/dev/null
replay_at 80 24 "$REC" 40
keys S
check "S on a recording without stacks tables: says so, and how to have them (--stacks FILE)" \
	bash -c "$(declare -f words_whole); T='$T'; words_whole 'This recording has no stacks: it was made without the stack capture. Record with --stacks FILE'"
$T kill-server 2>/dev/null
replay_at 120 40 "$SF" 3
keys Right S
check "S on a process without stacks: says so, and that S shows all" \
	bash -c "$(declare -f screen shows); T='$T'; shows 'has made no CUDA launch or scheduler job with a stack' && shows 'S shows all processes'"
$T kill-server 2>/dev/null
replay_at 120 40 "$SF" 1 # process 206 exits before snapshot 3
keys Right
keys / 2 0 6 Enter
keys Enter
keys S
check "S in process 206's drill-down: its stacks only, its jobs the fixture's sum (70)" \
	bash -c "$(declare -f screen shows); T='$T'; shows 'CPU call stacks of process mockgpu-submit 206' && shows 'Weight: jobs (70 in all)' && ! shows 'mockgpu-submit 212' && screen | $SC roots '$SF'"
keys Escape
check "Esc from there: back to the process's drill-down" shows "Process 206 mockgpu-submit"
$T kill-server 2>/dev/null
# a recording the monitor made (tests/gpu/evidence/h100-stacks-tables/): every launch in the tree,
# two stacks that symbolized alike one row (a replay once kept one of them: 10800 of 10801)
HS=$(realpath "$(dirname "$0")/../../examples/nvidia-stacks-h100.jsonl")
replay_at 120 40 "$HS" "$(grep -c . "$HS")"
keys S
check "S on the H100 stacks recording: its 10801 launches in all, under python3; one weight, no w hint" \
	bash -c "$(declare -f screen shows); T='$T'; shows 'Weight: launches (10801 in all)' && shows '▾ python3 460' && ! shows '(w: the next'"
$T kill-server 2>/dev/null
# cuBLAS's four sm80_xmma_gemm_* leaves differ twice, far in (nn/tn, execute_/execute_split_k_):
# at 80 columns each is cut to show both places, four lines four texts
replay_at 80 24 "$HS" "$(grep -c . "$HS")"
keys S '*' End
leaves=$($T capture-pane -p -t t | grep -o 'sm80_xm.*' | sed 's/ *$//')
check "80x24 Stacks, the four cuBLAS leaves: cut where they differ, four distinct texts ($(tr '\n' '|' <<<"$leaves"))" \
	bash -c "[ \$(grep -c . <<<'$leaves') -eq 4 ] && [ \$(sort -u <<<'$leaves' | grep -c .) -eq 4 ]"
$T kill-server 2>/dev/null
if [ -n "${TSAN_REPORTS:-}" ]; then # a ThreadSanitizer build (make test-tui): its reports, one file each
	check "ThreadSanitizer: no data race or lock misuse in any run of this suite ($(ls "$TSAN_REPORTS" | wc -l) reports)" \
		test -z "$(ls "$TSAN_REPORTS")"
	for f in "$TSAN_REPORTS"/*; do [ -f "$f" ] && head -30 "$f"; done
fi
finish
