#!/usr/bin/env bash
# The callstacks of a gputop-bpf trace's events (output/trace_stacks.h), decoded by protoc:
#   stacks.sh TRACE
# prints "PACKET <tab> EVENT-NAME <tab> TRACK <tab> FRAMES" for each event with a callstack_iid,
# in order (TRACK: the track's name, its thread's for a thread's, its parent's for a lane's),
# FRAMES root first joined by ";", a kernel frame (KIND_KERNEL) marked "_[k]"; then
# "callstacks <tab> N" (callstacks interned) and "frames <tab> N" (frames interned).
set -euo pipefail
. "$(dirname "$0")/decode.sh"
decode "$1" | flat | awk -F'\t' '
function unq(s) { sub(/^"/, "", s); sub(/"$/, "", s); return s }
$2 == "interned_data.event_names.iid" { iid = $3 }
$2 == "interned_data.event_names.name" { ename[iid] = unq($3) }
$2 == "interned_data.function_names.iid" { fi = $3 }
$2 == "interned_data.function_names.str" { fname[fi] = unq($3) }
$2 == "interned_data.frames.iid" { fr = $3; nframes++ }
$2 == "interned_data.frames.function_name_id" { ffn[fr] = $3 }
$2 == "interned_data.frames.kind" { fk[fr] = $3 }
$2 == "interned_data.callstacks.iid" { cs = $3; cn[cs] = 0; ncs++ }
$2 == "interned_data.callstacks.frame_ids" { cf[cs, ++cn[cs]] = $3 }
$2 == "track_descriptor.uuid" { tu = $3 }
$2 == "track_descriptor.parent_uuid" { parent[tu] = $3 }
$2 == "track_descriptor.name" || $2 == "track_descriptor.thread.thread_name" { tname[tu] = unq($3) }
$2 == "track_event.track_uuid" { track[$1] = $3 }
$2 == "track_event.name_iid" { niid[$1] = $3 }
$2 == "track_event.name" { nm[$1] = unq($3) }
$2 == "track_event.callstack_iid" { ev[++n] = $1; evcs[n] = $3 }
END {
	for (e = 1; e <= n; e++) {
		p = ev[e]; c = evcs[e]; s = ""
		for (i = 1; i <= cn[c]; i++) {
			f = cf[c, i]
			s = s (i > 1 ? ";" : "") fname[ffn[f]] (fk[f] == "KIND_KERNEL" ? "_[k]" : "")
		}
		t = tname[track[p]] ~ /^lane / ? tname[parent[track[p]]] : tname[track[p]]
		print p "\t" (p in niid ? ename[niid[p]] : nm[p]) "\t" t "\t" s
	}
	print "callstacks\t" ncs + 0
	print "frames\t" nframes + 0
}'
