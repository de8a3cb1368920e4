#!/usr/bin/env bash
# The GPU ioctls and fence waits in a gputop-bpf trace (output/trace_calls.h), decoded by protoc:
#   calls.sh TRACE
# prints "ioctl <tab> PID <tab> TID <tab> PROCESS <tab> THREAD <tab> COMMAND <tab> N <tab> FAILED"
# for each thread and command (FAILED: slices whose ret is negative), "wait <tab> PID <tab> TID
# <tab> PROCESS <tab> THREAD <tab> DRIVER <tab> N" for each thread and fence driver, "sync <tab>
# PID <tab> TID <tab> PROCESS <tab> THREAD <tab> - <tab> N" for each thread's CUDA syncs, and
# "launch <tab> PID <tab> TID <tab> PROCESS <tab> THREAD <tab> KERNEL <tab> N" for each thread
# and kernel launched; a slice begun and never ended counts nowhere ("-" for a name not known).
set -euo pipefail
. "$(dirname "$0")/decode.sh"
decode "$1" | flat | awk -F'\t' '
{ last_packet = $1 + 0 }
function unq(s) { sub(/^"/, "", s); sub(/"$/, "", s); return s }
function or_dash(s) { return s == "" ? "-" : s }
$2 == "track_descriptor.uuid" { tu = $3 }
$2 == "track_descriptor.parent_uuid" { parent[tu] = $3 }
$2 == "track_descriptor.name" { tname[tu] = unq($3) }
$2 == "track_descriptor.process.pid" { ppid[tu] = $3 }
$2 == "track_descriptor.process.process_name" { pname[ppid[tu]] = unq($3) }
$2 == "track_descriptor.thread.pid" { tpid[tu] = $3 }
$2 == "track_descriptor.thread.tid" { ttid[tu] = $3 }
$2 == "track_descriptor.thread.thread_name" { thname[tu] = unq($3) }
$2 == "interned_data.event_names.iid" { iid = $3 }
$2 == "interned_data.event_names.name" { ename[iid] = unq($3) }
$2 == "interned_data.debug_annotation_names.iid" { aiid = $3 }
$2 == "interned_data.debug_annotation_names.name" { aname[aiid] = unq($3) }
$2 == "track_event.type" { type[$1] = $3 }
$2 == "track_event.track_uuid" { track[$1] = $3 }
$2 == "track_event.name_iid" { niid[$1] = $3 }
$2 == "track_event.debug_annotations.name_iid" { an = $3 }
$2 == "track_event.debug_annotations.int_value" { arg[$1, an] = $3 }
$2 == "track_event.debug_annotations.string_value" { arg[$1, an] = unq($3) }
# an annotation of packet p by name (its name interned in p or before)
function argv(p, name,   i) { for (i in aname) if (aname[i] == name) return arg[p, i]; return "" }
END {
	for (p = 1; p <= last_packet; p++) {
		t = track[p]
		if (type[p] == "TYPE_INSTANT" && t in ttid) {
			n["launch\t" tpid[t] "\t" ttid[t] "\t" or_dash(pname[tpid[t]]) "\t" or_dash(thname[t]) "\t" ename[niid[p]]]++
			continue
		}
		if (type[p] == "TYPE_SLICE_BEGIN") {
			open_[t] = p
			continue
		}
		if (type[p] != "TYPE_SLICE_END" || !(t in open_))
			continue
		b = open_[t]; delete open_[t]
		child = !(t in ttid) && parent[t] in ttid
		th = child ? parent[t] : t
		if (!(th in ttid))
			continue
		who = tpid[th] "\t" ttid[th] "\t" or_dash(pname[tpid[th]]) "\t" or_dash(thname[th])
		if (child && tname[t] == "CUDA syncs") {
			k = "sync\t" who "\t-"
		} else if (child) {
			k = "wait\t" who "\t" or_dash(argv(b, "driver"))
		} else {
			k = "ioctl\t" who "\t" ename[niid[b]]
			failed[k] += (argv(b, "ret") + 0) < 0
		}
		n[k]++
	}
	for (k in n)
		print k "\t" n[k] (k ~ /^ioctl/ ? "\t" failed[k] + 0 : "")
}'
