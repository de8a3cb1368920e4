#!/usr/bin/env bash
# The Perfetto writer's traces decoded by protoc against trace.proto (Perfetto's published names
# and field numbers): every field known, the decoded text as expected (example.txt), and what it
# means checked one by one: overlapping jobs on lanes, the flow, interning, names made UTF-8,
# counters; then a storm into the smallest limit: within it, every drop counted in the note;
# then gputop-bpf's own --trace of the example recording, its samples against its JSON.
# Usage: tests/perfetto/run.sh EXAMPLE-BINARY GPUTOP-BINARY
set -u
SUITE="perfetto decode"
. "$(dirname "$0")/../lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=$1 GPUTOP=$2
ROOT=$(cd "$HERE/../.." && pwd)
if ! command -v protoc >/dev/null; then
	skip "protoc is missing: the decode test needs Debian's protobuf-compiler ('make deps')"
	finish
	exit
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$HERE/decode.sh"
# fields AWK-PROGRAM: awk over the flattened lines (tab-separated: packet, field, value).
fields() { awk -F'\t' "$@" "$work/flat"; }
# field FIELD [VALUE]: the values (with VALUE: the packets) of a flattened field, in order.
field() { fields -v f="$1" -v v="${2-}" '$2 == f && (v == "" ? 1 : $3 == v) { print (v == "" ? $3 : $1) }'; }
# in_packet PACKET FIELD: the packet's values of the field.
in_packet() { fields -v p="$1" -v f="$2" '$1 == p && $2 == f { print $3 }'; }

check "the example writes its trace" "$BIN" "$work/example.pftrace"
check "protoc decodes it as perfetto.protos.Trace" bash -c "$(declare -f decode); PFDIR='$PFDIR' decode '$work/example.pftrace' >'$work/text'"
flat <"$work/text" >"$work/flat"
check "every field is one of trace.proto's (none shown by number)" bash -c "! grep -qE '^ *[0-9]+(:| \{)' '$work/text'"
check "the decoded text is tests/perfetto/example.txt" diff -u "$HERE/example.txt" "$work/text"

# Jobs A (1000-2000), B (1500-3000), C (2500-3500) on ring track 11: B overlaps A on another lane.
mapfile -t begins < <(field track_event.type TYPE_SLICE_BEGIN)
mapfile -t ends < <(field track_event.type TYPE_SLICE_END)
check "3 slice begins and 3 ends" test "${#begins[@]}.${#ends[@]}" = "3.3"
ua=$(in_packet "${begins[0]}" track_event.track_uuid)
ub=$(in_packet "${begins[1]}" track_event.track_uuid)
uc=$(in_packet "${begins[2]}" track_event.track_uuid)
check "A and C on one lane, B (overlapping A) on another" test -n "$ua" -a "$ua" = "$uc" -a "$ua" != "$ub"
check "the ends close A, B, C's lanes in order" test \
	"$(for p in "${ends[@]}"; do in_packet "$p" track_event.track_uuid; done | tr '\n' ' ')" = "$ua $ub $ua "
for u in "$ua" "$ub"; do
	p=$(field track_descriptor.uuid "$u")
	check "lane track $u is described once, a child of the ring's track 11" \
		test "$(wc -w <<<"$p").$(in_packet "$p" track_descriptor.parent_uuid)" = "1.11"
done
check "lane names: lane 0 and lane 1" test "$(field track_descriptor.name | grep -c '^"lane [01]"$')" = 2
check "flow 7 leaves job A and ends at job C" test \
	"$(field track_event.flow_ids 7).$(field track_event.terminating_flow_ids 7)" = "${begins[0]}.${begins[2]}"

# Interning: each name once, defined in or before the first packet that uses it.
check "event names interned once each: job 1, ioctl 2, vblank 3" test \
	"$(field interned_data.event_names.name | tr '\n' ' ')" = '"job" "ioctl" "vblank" '
check "annotation names interned once each: seqno, client, delta_ns" test \
	"$(field interned_data.debug_annotation_names.name | tr '\n' ' ')" = \
	'"seqno" "client" "delta_ns" '
# (protoc shows a packet's interned_data after its track_event: field 12 after 11)
check "every name_iid used is defined in that packet or before" fields '
	$2 == "interned_data.event_names.iid" && !($3 in ev) { ev[$3] = $1 }
	$2 == "interned_data.debug_annotation_names.iid" && !($3 in an) { an[$3] = $1 }
	$2 == "track_event.name_iid" { n++; use_ev[n] = $3; at_ev[n] = $1 }
	$2 == "track_event.debug_annotations.name_iid" { m++; use_an[m] = $3; at_an[m] = $1 }
	END { for (i = 1; i <= n; i++) if (!(use_ev[i] in ev) || ev[use_ev[i]] > at_ev[i]) exit 1
	      for (i = 1; i <= m; i++) if (!(use_an[i] in an) || an[use_an[i]] > at_an[i]) exit 1
	      exit !(n && m) }'
check "job A's annotations: seqno 12, client \"glxgears\", delta_ns -5" test \
	"$(in_packet "${begins[0]}" track_event.debug_annotations.uint_value) $(in_packet "${begins[0]}" \
	track_event.debug_annotations.string_value) $(in_packet "${begins[0]}" track_event.debug_annotations.int_value)" \
	= '12 "glxgears" -5'
check "the first packet clears the incremental state" test "$(in_packet 1 sequence_flags)" = 1
check "every event with an interned name needs the incremental state" fields '
	$2 == "track_event.name_iid" { use[$1] = 1 } $2 == "sequence_flags" { f[$1] = $3 }
	END { for (p in use) if (f[p] != 2) exit 1 }'

# Names others chose: invalid UTF-8 replaced by U+FFFD (\357\277\275), cut to 255 bytes.
check "process 4242 is \"glxgears\", its thread 4243 \"glxgears:cs0\"" bash -c "
	grep -qxP '[0-9]+\ttrack_descriptor.process.process_name\t\"glxgears\"' '$work/flat' &&
	grep -qxP '[0-9]+\ttrack_descriptor.thread.thread_name\t\"glxgears:cs0\"' '$work/flat'"
check "a process name's invalid bytes each become U+FFFD" \
	grep -qP 'process_name\t"bad\\357\\277\\275\\357\\277\\275name"$' "$work/flat"
check "a surrogate (ED A0 80) becomes U+FFFD per byte" \
	grep -qP 'track_descriptor.name\t"crtc-0 (\\357\\277\\275){3}"$' "$work/flat"
# 255 bytes read ("w", C3, "(", 252 x) make 257 written: cut at a character, to 255
check "a 399-byte thread name is cut to 255 bytes, its bad byte replaced" \
	grep -qP 'thread_name\t"w\\357\\277\\275\(x{250}"$' "$work/flat"

check "VRAM counter track in bytes: 1048576 then 4294967296" test \
	"$(field track_descriptor.counter.unit) $(field track_event.counter_value | tr '\n' ' ')" = \
	"UNIT_SIZE_BYTES 1048576 4294967296 "
check "busy counter: the double 12.5" test "$(field track_event.double_counter_value)" = 12.5
check "no note where nothing was dropped" bash -c "! grep -q 'did not fit' '$work/text'"

# A storm of 10000 instants (and 3 lost before the writer) into the smallest limit.
out=$("$BIN" "$work/storm.pftrace" storm)
written=$(sed -n 's/^storm: \([0-9]*\) written, \([0-9]*\) over the limit, 3 lost$/\1/p' <<<"$out")
dropped=$(sed -n 's/^storm: \([0-9]*\) written, \([0-9]*\) over the limit, 3 lost$/\2/p' <<<"$out")
size=$(stat -c %s "$work/storm.pftrace")
echo "       storm: $written written, $dropped over the limit, 3 lost, $size bytes"
check "the storm stays within its limit (2048 bytes)" test "$size" -le 2048 -a "$size" -gt 1024
check "every instant was written or over the limit; 3 more counted lost" test "$((written + dropped))" = 10000
check "protoc decodes the storm" bash -c "$(declare -f decode); PFDIR='$PFDIR' decode '$work/storm.pftrace' >'$work/storm.text'"
flat <"$work/storm.text" >"$work/flat"
last=$(tail -1 "$work/flat" | cut -f1)
note_name=$(in_packet "$last" interned_data.event_names.name)
note_iid=$(in_packet "$last" interned_data.event_names.iid)
note="$dropped events did not fit the size limit (2048 bytes); 3 events lost in a full buffer before the writer"
check "the last packet is the note, each loss by its reason: \"$note\" (interned, iid $note_iid)" test \
	"$note_name $note_iid" = "\"$note\" $(in_packet "$last" track_event.name_iid)"
check "the note is on the gputop-bpf track" test "$(in_packet "$last" track_event.track_uuid)" = \
	"$(field track_descriptor.uuid | tail -1)" -a "$(field track_descriptor.name | tail -1)" = '"gputop-bpf"'
check "the note's annotations: over_limit $dropped, limit_bytes 2048, lost 3, dropped 0, stacks_lost 0" test \
	"$(in_packet "$last" track_event.debug_annotations.uint_value | tr '\n' ' ')" = "$dropped 2048 3 0 0 "
check "the storm's instants in the file: $written" test "$(field track_event.type TYPE_INSTANT | wc -l)" = "$((written + 1))"

# GPU jobs (output/trace_jobs.h) as jobs.sh reads them: per ring, and the flow's two ends.
check "the example writes its jobs" "$BIN" "$work/jobs.pftrace" jobs
"$HERE/jobs.sh" "$work/jobs.pftrace" >"$work/jobs.txt"
check "jobs.sh: 4 jobs on gpu0 gfx, 1 on gpu0 comp" test \
	"$(grep ^ring "$work/jobs.txt" | sort | tr '\t\n' ' |')" = "ring gpu0 comp 1|ring gpu0 gfx 4|"
check "jobs.sh: one flow, from \"dep 8\" to \"app 7\", both on gfx" test \
	"$(grep ^flow "$work/jobs.txt" | cut -f1-5 | tr '\t' ' ')" = "flow app 7 gpu0 gfx dep 8 gpu0 gfx"
decode "$work/jobs.pftrace" >"$work/text.jobs"
flat <"$work/text.jobs" >"$work/flat"
check "slice names: each process's \"comm pid\", \"running\", \"job\" for none known; the note" test \
	"$(field interned_data.event_names.name | head -4 | tr '\n' ' ')" = '"dep 8" "running" "app 7" "job" '
# Their CPU stacks (output/trace_stacks.h) as stacks.sh reads them: interned callstacks.
"$HERE/stacks.sh" "$work/jobs.pftrace" >"$work/stacks.txt"
app_stack="app 7	gpu0 gfx	main;submit;ioctl;drm_ioctl_[k];amdgpu_cs_ioctl_[k]"
check "stacks.sh: app's 3 jobs carry their stack, root first, kernel frames KIND_KERNEL" test \
	"$(grep -v '^[a-z]' "$work/stacks.txt" | cut -f2- | uniq -c | sed 's/^ *//')" = "3 $app_stack"
check "stacks.sh: 2 callstacks (2 stack ids), their 5 frames interned once" test \
	"$(grep -E '^(callstacks|frames)' "$work/stacks.txt" | tr '\t\n' '  ')" = "callstacks 2 frames 5 "
check "dep's stack could not be read: its job without it, in the note" grep -q \
	'"1 events without their stacks"' "$work/text.jobs"

# The display (output/trace_display.h) as display.sh reads it: instants per CRTC and per client.
check "the example writes its display events" "$BIN" "$work/display.pftrace" display
"$HERE/display.sh" "$work/display.pftrace" | sort >"$work/display.txt"
check "display.sh: 6 vblanks on CRTC 0 (1000-6000 ns, seq steps of 1), 2 on CRTC 1" test \
	"$(grep ^vblank "$work/display.txt" | tr '\t\n' ' |')" = "vblank CRTC 0 vblanks 6 1000 6000 0 5 5000|vblank CRTC 1 vblanks 2 1500 5500 0 1 4000|"
check "display.sh: flipper (pid 9) 4 deliveries, 1 late after 2 missed frames; 1 to no process" test \
	"$(grep ^delivery "$work/display.txt" | tr '\t\n' ' |')" = "delivery 0 - vblank events, CRTC 1 1 0 0|delivery 9 flipper vblank events, CRTC 0 4 1 2|"
decode "$work/display.pftrace" | flat >"$work/flat"
check "display instants' names: vblank, delivered, delivered late (interned once each)" test \
	"$(field interned_data.event_names.name | tr '\n' ' ')" = '"vblank" "delivered" "delivered late" '
check "the client's track is under its process's (pid 9, flipper)" test \
	"$(field track_descriptor.process.process_name)" = '"flipper"'

# GPU ioctls and fence waits (output/trace_calls.h) as calls.sh reads them: per thread.
check "the example writes its calls" "$BIN" "$work/calls.pftrace" calls
"$HERE/calls.sh" "$work/calls.pftrace" | sort >"$work/calls.txt"
check "calls.sh: app:gl (7/8) 3 AMDGPU_CS (1 failed), 1 GET_CAP; 2 amdgpu fence waits; worker 1 mockdrm" test \
	"$(grep -E '^(ioctl|wait)' "$work/calls.txt" | tr '\t\n' ' |')" = "ioctl 7 8 app app:gl AMDGPU_CS 3 1|ioctl 7 8 app app:gl GET_CAP 1 0|wait 7 8 app app:gl amdgpu 2|wait 7 9 app worker mockdrm 1|"
check "calls.sh: worker's CUDA launches by name (2 kernel_a(), 1 not named, 1 graph); app:gl's 1 sync" test \
	"$(grep -E '^(launch|sync)' "$work/calls.txt" | tr '\t\n' ' |')" = "launch 7 9 app worker graph launch 1|launch 7 9 app worker kernel_a() 2|launch 7 9 app worker launch 1|sync 7 8 app app:gl - 1|"
check "stacks.sh: worker's 2 kernel_a() launches carry main;train;cuLaunchKernel (1 callstack)" test \
	"$("$HERE/stacks.sh" "$work/calls.pftrace" | sed 's/^[0-9]*\t//' | tr '\t\n' '  ')" = \
	"kernel_a() worker main;train;cuLaunchKernel kernel_a() worker main;train;cuLaunchKernel callstacks 1 frames 3 "
decode "$work/calls.pftrace" | flat >"$work/flat"
check "one process track (app, pid 7), two thread tracks under it, a fence-wait track each, app:gl's CUDA syncs" test \
	"$(field track_descriptor.process.process_name | tr '\n' ' ')|$(field track_descriptor.thread.thread_name | tr '\n' ' ')|$(field track_descriptor.name | tr '\n' ' ')" = \
	'"app" |"app:gl" "worker" |"fence waits" "fence waits" "CUDA syncs" '

# --trace on a replay: headless, then with -J; every sample the JSON's value on its track.
REC=$ROOT/examples/mockgpu-7.3.jsonl
"$GPUTOP" --replay "$REC" --trace "$work/alone.pftrace" --duration 5 >"$work/alone.out" 2>"$work/alone.err"
check "--trace alone exits 0" test $? = 0
check "--trace alone prints no snapshot" test ! -s "$work/alone.out"
check "--trace says what it wrote on stderr, its size the file's" grep -q "^gputop-bpf: trace '.*alone.pftrace': [1-9][0-9]* samples, 0 jobs, 0 vblanks, 0 display events (0 missed frames), 0 ioctls, 0 fence waits, 0 CUDA launches, 0 CUDA syncs written, $(stat -c %s "$work/alone.pftrace") bytes$" "$work/alone.err"
check "--trace with nothing lost says nothing more" test "$(wc -l <"$work/alone.err")" = 1
"$GPUTOP" --replay "$REC" --trace "$work/replay.pftrace" --duration 5 -J >"$work/replay.json" 2>/dev/null
check "with -J the snapshots are printed too" test "$(wc -l <"$work/replay.json")" -gt 0
check "the same trace with or without -J" cmp "$work/alone.pftrace" "$work/replay.pftrace"
# --duration 5: the snapshots until the first that ends 5 s after the first one's interval began
check "--duration 5 stops at the first snapshot 5 s in" jq -se '(.[0].uptime_s - .[0].interval_s) as $s |
	(.[-1].uptime_s - $s >= 5) and (.[-2].uptime_s - $s < 5)' "$work/replay.json"
check "protoc decodes the replay's trace" bash -c "$(declare -f decode); PFDIR='$PFDIR' decode '$work/replay.pftrace' >'$work/replay.text'"
check "every field of it is one of trace.proto's" bash -c "! grep -qE '^ *[0-9]+(:| \{)' '$work/replay.text'"
flat <"$work/replay.text" >"$work/flat"
# "GPU dev|track|value" per sample, in time order per track, from the trace and from the JSON
fields '$2 == "track_descriptor.uuid" { u = $3 } $2 == "track_descriptor.name" { name[u] = $3 }
	$2 == "track_descriptor.parent_uuid" { parent[u] = $3 }
	$2 == "track_event.track_uuid" { t = $3 }
	$2 ~ /counter_value$/ { gsub(/"/, "", name[t]); p = name[parent[t]]; gsub(/"/, "", p)
		print p "|" name[t] "|" $3 }' | sort -t'|' -k1,2 -s >"$work/got"
jq -r '.tables as $t |
	($t["drm_sched.rings"][]? | (["queue_depth", "queue depth"], ["in_flight", "jobs in flight"],
		["busy_pct", "busy %"]) as [$k, $l] | select(.[$k] != null) |
		"GPU \(.dev)|\(.name) \($l)|\(.[$k])"),
	($t["memory.devices"][]? | (["total_bytes", "bytes"], ["used_bytes", "used bytes"]) as [$k, $l] |
		select(.[$k] != null) | "GPU \(.dev)|\(.region) \($l)|\(.[$k])"),
	($t["memory.device_engines"][]? | select(.busy_pct != null) | "GPU \(.dev)|\(.class) busy %|\(.busy_pct)"),
	($t["sensors.gpus"][]? | select(.busy_pct != null) | "GPU \(.dev)|busy %|\(.busy_pct)")' \
	"$work/replay.json" | sort -t'|' -k1,2 -s >"$work/want"
echo "       replay: $(wc -l <"$work/got") samples on $(cut -d'|' -f1,2 "$work/got" | sort -u | wc -l) tracks"
check "ring, memory and engine tracks present (queue depth, jobs in flight, busy %, bytes)" bash -c "
	grep -q '^GPU mockgpu|gfx_0.0.0 queue depth|' '$work/got' && grep -q '^GPU mockgpu|gfx_0.0.0 jobs in flight|' '$work/got' &&
	grep -q '^GPU mockgpu|gfx_0.0.0 busy %|' '$work/got' && grep -q '^GPU mockdrm|memory bytes|' '$work/got'"
check "every sample is the JSON's value, in order, on its track (and nothing more)" awk -F'|' '
	NR == FNR { want[NR] = $0; n = NR; next }
	{ split(want[FNR], w, "|"); if (w[1] != $1 || w[2] != $2) exit 1
	  d = w[3] - $3; if (d < 0) d = -d; if (d > 1e-9 * (w[3] < 0 ? -w[3] : w[3]) + 1e-12) exit 1; m = FNR }
	END { exit m != n || n == 0 }' "$work/want" "$work/got"
check "memory tracks count bytes (UNIT_SIZE_BYTES)" test "$(field track_descriptor.counter.unit | sort -u)" = UNIT_SIZE_BYTES
check "no unknown value written as a sample (sensors.gpus are all null here: no card0 track)" \
	bash -c "! grep -q '^GPU card' '$work/got'"
# The same replay drawn (--trace FILE.svg): well-formed, its tracks as rows under their GPU, each counter's
# range the least and greatest of its samples above.
"$GPUTOP" --replay "$REC" --trace "$work/replay.svg" --duration 5 >/dev/null 2>"$work/svg.err"
check "--trace FILE.svg: exit 0, a well-formed SVG" xmllint --noout "$work/replay.svg"
check "--trace FILE.svg: the bytes said are the drawing's ($(stat -c %s "$work/replay.svg")), not the trace's" \
	grep -q " $(stat -c %s "$work/replay.svg") bytes$" "$work/svg.err"
check "--trace FILE.svg: the GPU a header row, its ring's counters indented under it" bash -c "
	grep -q '<text x=\"4\" y=\"[0-9.]*\" font-weight=\"bold\">GPU mockgpu</text>' '$work/replay.svg' &&
	grep -q '<text x=\"14\" y=\"[0-9.]*\">gfx_0.0.0 busy %</text>' '$work/replay.svg'"
range=$(awk -F'|' '$1 == "GPU mockgpu" && $2 == "gfx_0.0.0 busy %" { v = $3 + 0; if (!n++ || v < lo) lo = v
	if (n == 1 || v > hi) hi = v } END { if (n) printf "%.4g to %.4g", lo, hi }' "$work/got")
check "--trace FILE.svg: a counter's range is its samples' ($range)" bash -c "
	grep -A2 '>gfx_0.0.0 busy %</text>' '$work/replay.svg' | grep -q '>$range</text>'"
# The committed example (make example-trace): 12 s of the VM's mixed work, every kind decoded; its
# picture in docs/ is what the drawer makes of it now (TRACE_WINDOW_MS of the Makefile).
EX=$ROOT/examples/mockgpu-7.3.pftrace
"$HERE/jobs.sh" "$EX" >"$work/ex.jobs" 2>/dev/null
"$HERE/display.sh" "$EX" >"$work/ex.display" 2>/dev/null
"$HERE/calls.sh" "$EX" >"$work/ex.calls" 2>/dev/null
check "example trace: jobs on all three rings" test "$(awk -F'\t' '$1 == "ring" && $3 > 0' "$work/ex.jobs" | wc -l)" -eq 3
check "example trace: vblanks at vkms's 60.004 Hz (intervals' mean within 0.01 %)" awk -F'\t' \
	'$1 == "vblank" && $7 > 600 { hz = $7 / ($8 / 1e9); ok = hz > 60.004 * 0.9999 && hz < 60.004 * 1.0001 } END { exit !ok }' \
	"$work/ex.display"
check "example trace: deliveries to the page-flip client, ioctls and fence waits per thread" bash -c "
	grep -q '^delivery	[0-9]*	vblank-client	' '$work/ex.display' && grep -q '^ioctl	' '$work/ex.calls' &&
	grep -q '^wait	' '$work/ex.calls'"
window=$(sed -n 's/^TRACE_WINDOW_MS ?= //p' "$ROOT/Makefile")
# shellcheck disable=SC2086 # the window is two numbers
"$(dirname "$BIN")/trace-render" "$EX" "$work/ex.svg" $window
check "docs/trace-mockgpu.svg is the drawer's picture of the example now (make example-trace)" \
	cmp "$work/ex.svg" "$ROOT/docs/trace-mockgpu.svg"
if [ -w /dev/full ]; then
	"$GPUTOP" --replay "$REC" --trace /dev/full >/dev/null 2>"$work/full.err"
	check "a trace that cannot be written: exit 1, and why" test "$?.$(cat "$work/full.err")" = \
		"1.gputop-bpf: writing the trace '/dev/full' failed: Input/output error"
fi
finish
