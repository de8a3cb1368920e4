#!/usr/bin/env bash
# The symbolizing child (issue 41, symbols/sym_child.h), live as root with the stand-in libcuda's
# clients (tests/cuda/cuda-client.c) under --stacks:
#  1. while the monitor runs, its child gputop-bpf-sym exists and is confined: no capability
#     (CapEff, CapPrm, CapBnd 0), Seccomp 2, NoNewPrivs 1, user nobody, descriptors 0-3 only, no
#     shared mapping left from the fork; the folded file has every launch on its exact chain;
#  2. a test build's hook (GPUTOP_TEST_SYM_CRASH_AT) makes the child abort at its 2nd and 5th
#     requests: the monitor exits 0, says the child ended twice and the requests it owed were shown
#     unknown, started a third, and the folded file still weighs every launch, nearly all on their
#     symbolized chains.
# Usage: tests/bpf/sym-child.sh CUDA_DIR TEST_BINARY   (root, jq; the binary a TEST_HOOKS=1 build)
set -u
SUITE="symbolizing child"
. "$(dirname "$0")/../lib.sh"
CUDA=$(realpath "$1")
BIN=$(realpath "$2")
needs_root_and_jq "the symbolizing child runs under a live --stacks monitor (CI runs as root): 'sudo make test-bpf'"
PROCS=3
D=$(mktemp -d)
trap 'pkill -f "$D/" 2>/dev/null; rm -rf "$D"' EXIT
mkdir -p "$D/lib" "$D/bin"
cp "$CUDA/libcuda.so.1" "$D/lib/" && cp "$CUDA/cuda-client" "$D/bin/" && chmod -R a+rX "$D"

# run NAME [ENV...]: the monitor with --stacks, clients at a gate, the gate opened once it reads;
# the child's /proc status, fds and maps kept while the clients linger.
run() {
	local name=$1 mon i child=
	shift
	env "$@" "$BIN" -b -J -d 0.5 --libcuda "$D/lib/libcuda.so.1" --stacks "$D/$name.folded" >"$D/$name.mon" \
		2>"$D/$name.err" &
	mon=$!
	first_snapshot "$D/$name.mon"
	env LD_LIBRARY_PATH="$D/lib" "$D/bin/cuda-client" $PROCS "$D/$name.gate" "$D/$name.done" >"$D/$name.client" &
	local cpid=$!
	sleep 1
	touch "$D/$name.gate"
	for i in $(seq 100); do [ "$(wc -l <"$D/$name.client")" -ge $PROCS ] && break; sleep 0.1; done
	for i in $(seq 50); do child=$(pgrep -P $mon -x gputop-bpf-sym) && break; sleep 0.1; done
	if [ -n "$child" ]; then
		cat "/proc/$child/status" >"$D/$name.status"
		for f in /proc/$child/fd/*; do echo "${f##*/} $(readlink "$f")"; done >"$D/$name.fds"
		cat "/proc/$child/maps" >"$D/$name.maps"
	fi
	sleep "${HOLD:-1.2}" # a snapshot with every client done (HOLD: longer)
	touch "$D/$name.done"
	wait $cpid
	kill -INT $mon
	wait $mon
	echo $? >"$D/$name.exit"
}

field() { awk -v k="$1:" '$1 == k { print $2 }' "$2"; }

run plain
check "the child existed while the monitor ran (pgrep -P MONITOR -x gputop-bpf-sym)" test -s "$D/plain.status"
for k in CapEff CapPrm CapBnd CapAmb; do
	check "the child's $k is 0 ($(field $k "$D/plain.status"))" test "$(field $k "$D/plain.status")" = 0000000000000000
done
check "the child's Seccomp is 2, a filter ($(field Seccomp "$D/plain.status"))" test "$(field Seccomp "$D/plain.status")" = 2
check "the child's NoNewPrivs is 1 ($(field NoNewPrivs "$D/plain.status"))" test "$(field NoNewPrivs "$D/plain.status")" = 1
check "the child runs as nobody (Uid $(field Uid "$D/plain.status"))" test "$(field Uid "$D/plain.status")" = 65534
check "the child holds /dev/null as 0-2, its channel as 3, else only the clients' files the monitor passed ($(tr '\n' ' ' <"$D/plain.fds"))" \
	awk -v lib="$D/" '($1 <= 2 && $2 != "/dev/null") || ($1 == 3 && $2 !~ /^socket:/) || ($1 > 3 && index($2, lib) != 1 && $2 !~ /^\/(usr\/)?lib/) { bad++ } END { exit bad > 0 || NR < 4 }' "$D/plain.fds"
check "the child kept no shared mapping from the fork (BPF maps, ring buffers)" \
	awk '$2 ~ /s$/ { bad++ } END { exit bad > 0 }' "$D/plain.maps"
launched=$(jq -s '[.[].launches] | add' "$D/plain.client")
check "--stacks through the child: exit 0, every launch ($launched) on a main;child;phase_(a|b);cuLaunchKernel chain" \
	bash -c "test \"\$(cat $D/plain.exit)\" = 0 && awk -v want=$launched '/;main;child;phase_[ab];cuLaunchKernel/ { s += \$NF } END { exit s != want }' $D/plain.folded"
check "no line says the child ended" bash -c "! grep -q 'symbolizing child ended' $D/plain.err"

run crash GPUTOP_TEST_SYM_CRASH_AT=2,5
said=$(grep 'symbolizing child ended' "$D/crash.err")
check "a crashing child: the monitor exits 0 ($(cat "$D/crash.exit"))" test "$(cat "$D/crash.exit")" = 0
check "a crashing child: the end line says it ended twice, 3 started, and what it owed went unknown ($said)" \
	grep -qE "the symbolizing child ended 2 times \(the last: it ended, (by signal [0-9]+ \([A-Za-z ]+\)|exit status [0-9]+)\), 3 started in all; [0-9]+ frames and [0-9]+ stack copies it owed shown \[unknown\]" <<<"$said"
owed=$(sed -E 's/.*in all; ([0-9]+) frames and ([0-9]+) stack copies.*/\1 + \2/' <<<"$said")
check "a crashing child: the two requests it owed counted (frames + stack copies = $owed)" test "$((owed))" = 2
launched=$(jq -s '[.[].launches] | add' "$D/crash.client")
check "a crashing child: the folded file still weighs every launch ($launched)" \
	awk -v want="$launched" '{ s += $NF } END { exit s != want }' "$D/crash.folded"
check "a crashing child: restarted, nearly every launch on its symbolized chain (at most 2 lines differ)" \
	awk '!/;main;child;phase_[ab];cuLaunchKernel/ { bad++ } END { exit bad > 2 }' "$D/crash.folded"
# (a sanitizer build's child reports its crash and exits 1 rather than dying by the signal)
# 2b. a child that hangs (spins) at its 3rd request: killed at the 5 s deadline by the monitor (which
# has given up CAP_KILL by then: the child's saved user is still the monitor's), the run goes on, and
# the snapshots keep coming meanwhile: the monitor waits for it within its budget only
start=$(date +%s)
HOLD=6.5 run hang GPUTOP_TEST_SYM_HANG_AT=3 # past the deadline: the child killed while the monitor runs
took=$(($(date +%s) - start))
said=$(grep 'symbolizing child ended' "$D/hang.err")
check "a hanging child: killed after 5 s, the monitor exits 0 in $took s ($said)" \
	bash -c "test \"\$(cat $D/hang.exit)\" = 0 && test $took -lt 30 && grep -q 'ended 1 times (the last: no answer within 5 s (killed)' <<<'$said'"
launched=$(jq -s '[.[].launches] | add' "$D/hang.client")
check "a hanging child: the folded file still weighs every launch ($launched)" \
	awk -v want="$launched" '{ s += $NF } END { exit s != want }' "$D/hang.folded"
# while it hangs, the poller waits for it within its budget only: a snapshot still comes about every 0.5 s
gap=$(jq -s '[.[].timestamp] | [range(1; length) as $i | .[$i] - .[$i - 1]] | max' "$D/hang.mon")
check "a hanging child: the snapshots kept coming, the longest gap ${gap} s (under 1 s; -d 0.5)" \
	awk -v g="$gap" 'BEGIN { exit !(g + 0 > 0 && g + 0 < 1) }'
check "a hanging child: the requests made while it owed an answer were not asked, and said so ($said)" \
	grep -qE "; [1-9][0-9]* requests made while it was late not asked" <<<"$said"
# the frames shown [unknown] while it hung (5 s: ten snapshots' stacks) were asked again of the next child
check "a hanging child: its late frames asked again, every launch on its symbolized chain (at most 2 lines differ)" \
	awk '!/;main;child;phase_[ab];cuLaunchKernel/ { bad++; print "       " $0 } END { exit bad > 2 }' "$D/hang.folded"
# 3. the NVIDIA collector's read of libcuda's symbols (to place its uprobes) goes through the child too:
# the child crashing at that first request leaves no function probed, said so, and the monitor lives
env GPUTOP_TEST_SYM_CRASH_AT=1 "$BIN" -b -J -d 0.3 -n 2 --libcuda "$D/lib/libcuda.so.1" >"$D/elf.mon" 2>"$D/elf.err"
check "libcuda's symbols read by the child: its crash there leaves no uprobe, the reason said, exit 0 ($?)" \
	jq -e -s '.[-1].collectors[] | select(.name == "nvidia") | .reason == "libcuda'"'"'s symbols could not be read (the symbolizing child ended)" and
		(.tracepoints[] | select(.event == "cuLaunchKernel") | .note | test("could not be read"))' "$D/elf.mon"
check "libcuda's symbols read by the child: the end line says it ended once ($(grep -o 'symbolizing child ended.*' "$D/elf.err"))" \
	grep -qE "symbolizing child ended 1 times .*, 1 started in all" "$D/elf.err"
finish
