#!/usr/bin/env bash
# The CUDA kernels, copies and sets of a gputop-bpf trace (output/trace_kernels.h), decoded by protoc:
#   kernels.sh TRACE
# prints "kernel <tab> DEVICE-TRACK <tab> STREAM-TRACK <tab> NAME <tab> BEGIN-NS <tab> DURATION-NS <tab>
# QUEUE-WAIT-NS <tab> CORRELATION <tab> FLOW" for each slice on a lane of a stream's track under a
# device track "GPU cuda<N>" ("-" for an annotation or flow it lacks; FLOW: the flow ending there),
# then "launch <tab> PID <tab> TID <tab> NAME <tab> TS-NS <tab> FLOW <tab> CORRELATION" for each instant
# on a thread's track that starts a flow.
set -euo pipefail
. "$(dirname "$0")/decode.sh"
decode "$1" | flat | awk -F'\t' '
function unq(s) { sub(/^"/, "", s); sub(/"$/, "", s); return s }
function or_dash(s) { return s == "" ? "-" : s }
# b - a for two times in ns (awk has doubles: their last 12 digits, a step of 1e12 at most)
function ns_diff(a, b,   d) { d = substr(b, length(b) - 11) - substr(a, length(a) - 11); return d < 0 ? d + 1e12 : d }
{ last = $1 + 0 }
$2 == "timestamp" { ts[$1] = $3 }
$2 == "track_descriptor.uuid" { tu = $3 }
$2 == "track_descriptor.parent_uuid" { parent[tu] = $3 }
$2 == "track_descriptor.name" { tname[tu] = unq($3) }
$2 == "track_descriptor.thread.pid" { tpid[tu] = $3 }
$2 == "track_descriptor.thread.tid" { ttid[tu] = $3 }
$2 == "interned_data.event_names.iid" { iid = $3 }
$2 == "interned_data.event_names.name" { ename[iid] = unq($3) }
$2 == "interned_data.debug_annotation_names.iid" { aiid = $3 }
$2 == "interned_data.debug_annotation_names.name" { aname[aiid] = unq($3) }
$2 == "track_event.type" { type[$1] = $3 }
$2 == "track_event.track_uuid" { track[$1] = $3 }
$2 == "track_event.name_iid" { niid[$1] = $3 }
$2 == "track_event.flow_ids" { from[$1] = $3 }
$2 == "track_event.terminating_flow_ids" { to[$1] = $3 }
$2 == "track_event.debug_annotations.name_iid" { an = $3 }
$2 == "track_event.debug_annotations.uint_value" { arg[$1, an] = $3 }
$2 == "track_event.debug_annotations.int_value" { arg[$1, an] = $3 }
function argv(p, name,   i) { for (i in aname) if (aname[i] == name) return arg[p, i]; return "" }
END {
	for (p = 1; p <= last; p++) {
		t = track[p]
		if (type[p] == "TYPE_INSTANT" && t in ttid && p in from)
			print "launch\t" tpid[t] "\t" ttid[t] "\t" ename[niid[p]] "\t" ts[p] "\t" from[p] "\t" or_dash(argv(p, "correlation"))
		if (type[p] == "TYPE_SLICE_BEGIN" && tname[t] ~ /^lane / && tname[parent[parent[t]]] ~ /^GPU cuda/) {
			open_[t] = p
			continue
		}
		if (type[p] != "TYPE_SLICE_END" || !(t in open_))
			continue
		b = open_[t]; delete open_[t]
		print "kernel\t" tname[parent[parent[t]]] "\t" tname[parent[t]] "\t" ename[niid[b]] "\t" ts[b] "\t" \
			ns_diff(ts[b], ts[p]) "\t" or_dash(argv(b, "queue_wait_ns")) "\t" or_dash(argv(b, "correlation")) "\t" \
			or_dash(to[b])
	}
}'
