#!/usr/bin/env bash
# The hostile corpus (issue 41), live as root: for each crafted ELF or DWARF file that
# tests/bpf/hostile-corpus.c writes (truncated headers, offsets past the end, huge counts,
# symbols outside the file, names overlong, not UTF-8 or demangling to 2^40 bytes, CFI of 4 Mi
# operations or a frame that unwinds to itself, build ids naming other files), and for mappings
# whose /proc/PID/maps path is escaped and names a FIFO or a link, or is deleted and replaced by
# a FIFO, a client of the stand-in libcuda (tests/cuda/cuda-client.c, map) maps the file and
# launches 200 times from a frame inside it, while the monitor runs -b -J --stacks. Per entry:
#  - a snapshot every interval: as many as the run's time holds, none late by a second;
#  - exit 0 within 3 s of SIGINT (as tests/bpf/exit.sh);
#  - every launch weighed in the folded file, exactly;
#  - every -J line json.loads, the folded file valid UTF-8;
#  - the symbolizing child confined while it ran (CapEff 0, Seccomp 2, NoNewPrivs 1), and
#    never ended early (the end line says nothing of it);
#  - what the monitor could not read said: the file's frame marked "[not read]"
#    (symbols/symbolizer.c), CFI refused in the end line, a name left as it is;
# and the stack copies per second of the child's CPU, from the monitor's end line.
# Last, the child made to crash twice (a test build's hook, GPUTOP_TEST_SYM_CRASH_AT) on the
# corpus's ok: the same checks pass, the end line says so.
# Usage: tests/bpf/hostile-corpus.sh CUDA_DIR CORPUS_WRITER TEST_BINARY   (root, jq, python3; the
# binary a TEST_HOOKS=1 build)
set -u
SUITE="hostile corpus"
. "$(dirname "$0")/../lib.sh"
CUDA=$(realpath "$1")
GEN=$(realpath "$2")
BIN=$(realpath "$3")
needs_root_and_jq "the corpus runs under a live --stacks monitor (CI runs as root): 'sudo make test-bpf'"
if ! command -v python3 >/dev/null; then
	skip "hostile corpus: python3 missing (it checks the JSON and UTF-8)"
	finish
	exit
fi
DELAY=0.25 DELAY_MS=250
D=$(mktemp -d)
PIDS= # the monitor and client running (never one reaped: its PID may be another's since), ended at the exit
trap 'kill -KILL $PIDS 2>/dev/null; [ -n "${KEEP:-}" ] && echo "kept $D" || rm -rf "$D"' EXIT
mkdir -p "$D/lib" "$D/bin" "$D/corpus" "$D/secret"
cp "$CUDA/libcuda.so.1" "$D/lib/" && cp "$CUDA/cuda-client" "$D/bin/"
# build-id-elsewhere claims the build id of a debug file installed here (none: zeros, a miss)
dbg=$(find /usr/lib/debug/.build-id -name '*.debug' -type f 2>/dev/null | head -1)
id=$(sed -E 's|.*/([0-9a-f]{2})/([0-9a-f]+)\.debug$|\1\2|' <<<"$dbg")
"$GEN" "$D/corpus" ${dbg:+"$id"} || { fail "the corpus writer failed"; finish; exit; }
echo "root only" >"$D/secret/file"
chmod 700 "$D/secret"
chmod -R a+rX "$D/lib" "$D/bin" "$D/corpus"

# The monitor's run on one entry: NAME FILE OFFSET [SETUP]; SETUP FILE runs once the client mapped FILE.
run() {
	local name=$1 file=$2 off=$3 setup=${4:-} mon cpid child i t0 t1 rc
	reapers_gone # the run's clock as the others': not behind the last monitor's release (tests/lib.sh)
	env ${MON_ENV:-} "$BIN" -b -J -d $DELAY --libcuda "$D/lib/libcuda.so.1" --stacks "$D/$name.folded" >"$D/$name.mon" \
		2>"$D/$name.err" &
	mon=$!
	PIDS=$mon
	first_snapshot "$D/$name.mon" # the run's clock starts there
	t0=$(date +%s%N)
	env LD_LIBRARY_PATH="$D/lib" "$D/bin/cuda-client" map "$D/$name.gate" "$D/$name.done" "$file" "$off" \
		>"$D/$name.client" &
	cpid=$!
	PIDS="$mon $cpid"
	for i in $(seq 50); do [ -s "$D/$name.client" ] && break; sleep 0.1; done
	[ -z "$setup" ] || $setup "$file"
	touch "$D/$name.gate"
	for i in $(seq 300); do grep -q launches "$D/$name.client" && break; sleep 0.1; done
	: >"$D/$name.status"
	child=$(pgrep -P $mon -x gputop-bpf-sym) && cat "/proc/$child/status" >"$D/$name.status"
	sleep 0.6 # a snapshot after the last launch
	touch "$D/$name.done"
	wait $cpid
	PIDS=$mon
	t1=$(date +%s%N)
	kill -INT $mon
	for i in $(seq 100); do kill -0 $mon 2>/dev/null || break; sleep 0.05; done
	kill -0 $mon 2>/dev/null && kill -KILL $mon # hung: the checks below fail
	wait $mon
	rc=$?
	PIDS=
	echo "$rc $((($(date +%s%N) - t1) / 1000000)) $(((t1 - t0) / 1000000)) ${t1:0:-9}.${t1: -9}" >"$D/$name.exit"
}

field() { awk -v k="$1:" '$1 == k { print $2 }' "$2"; }

# The checks every entry passes.
common() {
	local name=$1 rc ms run_ms end_s seen want gap launched weighed died
	read -r rc ms run_ms end_s <"$D/$name.exit"
	check "$name: the monitor exits 0 within 3 s of SIGINT (rc $rc, $ms ms)" test "$rc" = 0 -a "$ms" -lt 3000
	check "$name: the monitor's first snapshot within 60 s" test -s "$D/$name.mon"
	seen=$(($(wc -l <"$D/$name.mon") - 1)) # after the first, when the run's clock started
	want=$((run_ms / DELAY_MS))
	# the gaps between snapshots, and from the last one to the SIGINT (a stall at the end writes none)
	gap=$(jq -s --argjson sigint "$end_s" '[. as $s | range(1; length) | $s[.].timestamp - $s[. - 1].timestamp] +
		[$sigint - last.timestamp] | max // 99' "$D/$name.mon")
	check "$name: a snapshot every $DELAY s: $seen in the run's $run_ms ms after the first (at least $((want - 1)) of $want), the longest gap (the SIGINT's after the last included) $gap s" \
		bash -c "test $seen -ge $((want - 1)) && jq -e -n '$gap < 1' >/dev/null"
	launched=$(jq -s '[.[].launches // empty] | add // -1' "$D/$name.client")
	weighed=$(awk '{ s += $NF } END { print s + 0 }' "$D/$name.folded")
	check "$name: every launch weighed in the folded file ($weighed of $launched)" test "$weighed" = "$launched"
	check "$name: every -J line is JSON, the folded file UTF-8" python3 -c '
import json, sys
for line in open(sys.argv[1], encoding="utf-8", errors="strict"):
    json.loads(line)
open(sys.argv[2], encoding="utf-8", errors="strict").read()' "$D/$name.mon" "$D/$name.folded"
	check "$name: the child confined while it ran (CapEff $(field CapEff "$D/$name.status"), Seccomp $(field Seccomp "$D/$name.status"), NoNewPrivs $(field NoNewPrivs "$D/$name.status"))" \
		test "$(field CapEff "$D/$name.status") $(field Seccomp "$D/$name.status") $(field NoNewPrivs "$D/$name.status")" = "0000000000000000 2 1"
	died=$(grep -o 'symbolizing child ended [0-9]* times.*' "$D/$name.err")
	[ "$name" = child-crash ] ||
		check "$name: the symbolizing child never ended early (${died:-none said})" test -z "$died"
	echo "       $name: the file's frame: $(trampoline_frame "$name" | head -c 200); $(grep -h 'copies unwound\|CFI refused\|symbolizing child' "$D/$name.err" | sed 's/^gputop-bpf: //' | tr '\n' ' ')"
}

# The frame the trampoline's return address got (the one before mapped_launch).
trampoline_frame() {
	awk '{ n = split($0, f, ";"); for (i = 2; i <= n; i++) if (f[i] == "mapped_launch") print f[i - 1] }' \
		"$D/$1.folded" | sort -u
}

# copies per second of the child's CPU, from the end line ("N copies unwound in X ms of CPU")
rate() {
	sed -nE 's/.* ([0-9]+) copies unwound in ([0-9.]+) ms of CPU.*/\1 \2/p' "$D/$1.err" |
		awk '$2 > 0 { printf "%.0f", $1 / ($2 / 1000) }'
}

# What the monitor says of each entry's file: its frame (an extended regular expression).
said_of() {
	case $1 in
	ok | maps-*) echo 'hostile_ok' ;;
	trunc-* | offsets-past-end | huge-counts) echo "$1\\.so \\[not read\\]\\+0x[0-9a-f]+" ;;
	long-name) echo 'n{64,511}' ;; # cut: at most the frame's name
	not-utf8) echo $'bad\xef\xbf\xbd\xef\xbf\xbd name.*end' ;;
	mangled-bomb) echo '_Z1fP1PIS_IS_.*ES12_E' ;; # as it is: not demangled
	build-id-elsewhere) echo '.+' ;; # whatever the installed debug file has there, or nothing
	*) echo "$1\\.so\\+0x[0-9a-f]+" ;; # read, and no symbol there
	esac
}

entry() {
	local name=$1 frame
	run "$@"
	common "$name"
	frame=$(trampoline_frame "$name")
	check "$name: the file's frame says what was read of it ($(head -c 120 <<<"$frame"), ${#frame} bytes)" \
		grep -qxE "$(said_of "$name")" <<<"$frame"
}

while read -r name off; do
	entry "$name" "$D/corpus/$name.so" "$off"
	case $name in
	ok) echo "       stack copies through the child: $(rate ok) a second of its CPU" ;;
	cfi-bomb) check "cfi-bomb: its CFI refused, said at the end" grep -q "CFI refused [0-9]* times" "$D/$name.err" ;;
	esac
done <"$D/corpus/manifest"

# Mappings whose maps path is escaped ("a\012b" for the folder "a<newline>b") and names a FIFO or a
# link to a root-only file, or is deleted and made a FIFO: the file the client really mapped (the
# corpus's ok) is read through the mapping itself, its frame named.
nl=$'\n'
mkdir -p "$D/maps/a${nl}b" "$D/maps/a\\012b"
cp "$D/corpus/ok.so" "$D/maps/a${nl}b/libescaped.so"
cp "$D/corpus/ok.so" "$D/maps/libdeleted.so"
chmod -R a+rX "$D/maps"
escaped="$D/maps/a\\012b/libescaped.so"
fifo_at_escaped() { rm -f "$escaped" && mkfifo "$escaped"; }
link_at_escaped() { rm -f "$escaped" && ln -s "$D/secret/file" "$escaped"; }
fifo_at_deleted() { rm "$1" && mkfifo "$1"; }
entry maps-escaped-fifo "$D/maps/a${nl}b/libescaped.so" 0x1000 fifo_at_escaped
entry maps-escaped-link "$D/maps/a${nl}b/libescaped.so" 0x1000 link_at_escaped
entry maps-deleted-fifo "$D/maps/libdeleted.so" 0x1000 fifo_at_deleted

# The child crashing (a test build's hook) at its 2nd and 4th requests, on the corpus's ok: contained.
MON_ENV=GPUTOP_TEST_SYM_CRASH_AT=2,4 run child-crash "$D/corpus/ok.so" 0x1000
common child-crash
check "child-crash: the end line says the child ended twice, 3 started ($(grep -o 'symbolizing child ended.*' "$D/child-crash.err"))" \
	grep -q 'symbolizing child ended 2 times .*, 3 started in all' "$D/child-crash.err"
finish
