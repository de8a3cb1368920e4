#!/usr/bin/env bash
# --replay REC --stacks FILE: the recording's stacks tables (tests/tui/stacks/stacks.jsonl: three
# snapshots of the same cumulative rows) written as the folded file and the flame graph a live run
# writes: the last snapshot's rows (not their sum over snapshots), the command the root, a cut
# stack's [truncated] right after it, lines of one text summed, hostile bytes escaped, each weight
# exact, bytes that are not UTF-8 as U+FFFD; --stacks - refused; a recording without stacks rows says so. No root needed.
# Usage: tests/stacks/replay.sh GPUTOP-BINARY
set -u
SUITE="stacks from a replay"
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=$1
REC=$HERE/../tui/stacks/stacks.jsonl
EXAMPLE=$HERE/../../examples/mockgpu-7.3.jsonl
if ! command -v jq >/dev/null || ! command -v xmllint >/dev/null; then
	fail "jq or xmllint is missing: run 'make deps'"
	finish
	exit
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# last_sum TABLE COLUMN: the column summed over the recording's last snapshot's rows of TABLE.
last_sum() { jq -s --arg t "$1" --arg c "$2" '[.[-1].tables[$t][][$c] // 0] | add' "$REC"; }

"$BIN" --replay "$REC" -b --stacks "$work/s.folded" >/dev/null 2>"$work/err"
check "--replay --stacks FILE: exit 0" test $? = 0
sed 's/^/       /' "$work/err"
count=$(( $(last_sum nvidia.stacks count) + $(last_sum drm_sched.stacks count) ))
check "weight count: the last snapshot's rows' counts, $count (not the 3 snapshots' sum)" \
	awk -v want="$count" '{ s += $NF } END { exit !(NR == 12 && s == want) }' "$work/s.folded"
check "the end line says what was written, from which snapshot" \
	grep -qxF "gputop-bpf: stacks '$work/s.folded': 12 stacks, weight count $count, from the last snapshot played (number 3 of the recording): 12 rows of its stacks tables (0 stacks past their 1000 rows not there)" "$work/err"
check "launches: command;[sampled];frames;leaf" \
	grep -qxF "trainer;[DWARF: 40 of 757 launches unwound];_start;main;train_step;backward;ampere_sgemm_128x64_tn 200" "$work/s.folded"
check "a launch with no frames: the leaf under the command" \
	grep -qxF "trainer;[DWARF: 40 of 757 launches unwound];cudaMemsetAsync_kernel 7" "$work/s.folded"
check "jobs: the ring the leaf" \
	grep -qxF "mockgpu-submit;_start;__libc_start_main;main;phase_b;submit_b;ioctl;[ring mockgpu comp_1.0.0] 10" "$work/s.folded"
check "a cut stack: the command first, [truncated] right after it" \
	grep -qxF "mockgpu-submit;[truncated];submit_c;ioctl;[ring mockgpu sdma0] 6" "$work/s.folded"
check "every line starts with its row's command (no [truncated] first)" \
	bash -c "! grep -q '^\[' '$work/s.folded' && test \$(grep -cE '^(trainer;|mockgpu-submit;|evil|deep;)' '$work/s.folded') = 12"
check "hostile names: no control byte left, escaped as \\xNN (comm, frames, leaf)" \
	bash -c "! LC_ALL=C grep -q '[[:cntrl:]]' '$work/s.folded' &&
		grep -qF 'evil\\x1b[2Jx;main;\\x1b]0;pwned\\x07;;AAAA' '$work/s.folded' &&
		grep -qF '[ring mockgpu gfx_0.0.0\\x1b[31m] 3' '$work/s.folded'"

# two processes of one command, one stack: one line, their counts added
jq -c '.tables["nvidia.stacks"] += [.tables["nvidia.stacks"][0] | .pid = 4243 | .count = 1]' "$REC" >"$work/twice.jsonl"
"$BIN" --replay "$work/twice.jsonl" -b --stacks "$work/twice.folded" --stacks-weight launches >/dev/null 2>&1
check "two processes' rows of one text: one line, 300 + 1 (6 lines, launches only)" \
	bash -c "grep -qxF 'trainer;[DWARF: 40 of 757 launches unwound];_start;main;train_step;forward;ampere_sgemm_128x64_nn 301' '$work/twice.folded' &&
		test \$(wc -l <'$work/twice.folded') = 6"

# the other weights: the jobs' times summed exactly
for w in gpu-time:gpu_time_ns queue-wait:queue_wait_ns; do
	"$BIN" --replay "$REC" -b --stacks "$work/$w.folded" --stacks-weight "${w%%:*}" >/dev/null 2>"$work/$w.err"
	want=$(last_sum drm_sched.stacks "${w#*:}")
	untimed=$(last_sum nvidia.stacks count) # its launches have no time (recorded without the CUPTI library)
	check "--stacks-weight ${w%%:*}: the jobs' ${w#*:} summed, $want ns; the end line says ns, and the $untimed launches without GPU time" \
		bash -c "awk -v want=$want '{ s += \$NF } END { exit !(NR == 6 && s == want) }' '$work/$w.folded' &&
			grep -qE 'weight ${w%%:*} $want ns, .*, $untimed launches without GPU time \\(run without the CUPTI library, or before it was on\\)$' '$work/$w.err'"
done

# the flame graph
"$BIN" --replay "$REC" -b --stacks "$work/s.svg" >/dev/null 2>&1
check "--stacks FILE.svg: a well-formed SVG titled with every launch and job ($count in all)" \
	bash -c "xmllint --noout '$work/s.svg' && grep -qF 'GPU work by CPU call stack: CUDA launches and scheduler jobs ($count in all)' '$work/s.svg'"
check "--stacks FILE.svg: the commands the roots, [truncated] a box under one" \
	bash -c "grep -q '<title>trainer (' '$work/s.svg' && grep -q '<title>mockgpu-submit (' '$work/s.svg' &&
		grep -q '<title>\[truncated\] (' '$work/s.svg'"

# names with bytes that are not UTF-8 (a frame, a kernel): U+FFFD in both files, each valid UTF-8
LC_ALL=C sed 's/pwned/pwn\xff\xc0ed/; s/ampere_sgemm_128x64_tn/ampere_\xe9sgemm_128x64_tn/' "$REC" >"$work/bytes.jsonl"
"$BIN" --replay "$work/bytes.jsonl" -b --stacks "$work/bytes.folded" >/dev/null 2>&1
check "bytes that are not UTF-8 in names: the folded file valid UTF-8 (iconv), U+FFFD for each" \
	bash -c "iconv -f UTF-8 -t UTF-8 '$work/bytes.folded' >/dev/null &&
		grep -qF \"pwn$(printf '\357\277\275\357\277\275')ed\" '$work/bytes.folded' &&
		grep -qF \"ampere_$(printf '\357\277\275')sgemm_128x64_tn 200\" '$work/bytes.folded'"
"$BIN" --replay "$work/bytes.jsonl" -b --stacks "$work/bytes.svg" >/dev/null 2>&1
check "bytes that are not UTF-8 in names: the flame graph parsed by xmllint (UTF-8 as it declares)" \
	xmllint --noout "$work/bytes.svg"

# batch text: each stacks row's frames on the line under it, whole ("    STACK ..."), its hostile bytes escaped
"$BIN" --replay "$REC" -b -n 3 >"$work/batch.txt" 2>/dev/null
rows=$(jq -s '[.[-1].tables["nvidia.stacks"][]?, .[-1].tables["drm_sched.stacks"][]? | select(.frames != "")] | length' "$REC")
check "batch text: under each of the last snapshot's $rows stacks rows with frames, its STACK line, whole" \
	bash -c "[ \$(awk '/^$/ { s = 0 } / \((nvidia|drm_sched)\.stacks\)$/ { s = 1 } s && /^    STACK / { n++ } END { print n + 0 }' '$work/batch.txt') -ge $rows ] &&
		grep -qE '^    STACK .*;train_step;forward$' '$work/batch.txt' && ! grep -qP '[\x00-\x08\x0b-\x1f]' '$work/batch.txt'"

# refused, and a recording without stacks rows
"$BIN" --replay "$REC" -b --stacks - >/dev/null 2>"$work/dash.err"
check "--replay with --stacks -: refused (exit 2), saying to give a FILE" \
	bash -c "test $? = 2 && grep -q 'with --replay give --stacks FILE' '$work/dash.err'"
"$BIN" --replay "$EXAMPLE" -b -n 2 --stacks "$work/none.folded" >/dev/null 2>"$work/none.err"
check "a recording made without --stacks: exit 0, an empty file, the end line says 0 stacks and why" \
	bash -c "test $? = 0 && test ! -s '$work/none.folded' &&
		grep -qE \"stacks '.*': 0 stacks, weight count 0, .*: 0 rows of its stacks tables .*; stacks tables have rows where the recording was made with --stacks$\" '$work/none.err'"
finish
