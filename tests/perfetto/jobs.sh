#!/usr/bin/env bash
# The GPU jobs of a gputop-bpf trace (output/trace_jobs.h), decoded by protoc:
#   jobs.sh TRACE
# prints "ring <tab> RING-TRACK-NAME <tab> JOBS" for each ring (a job: a slice begun on one of
# the ring's lanes, "lane N", other than its "running" slice; other slices, a thread's calls, are
# not jobs), then "flow <tab> TO-SLICE <tab> TO-RING <tab>
# FROM-SLICE <tab> FROM-RING <tab> FROM-PACKET <tab> FROM-BEGIN-NS <tab> TO-BEGIN-NS" for each
# flow's end (the FROM fields "-" when no slice starts it).
set -euo pipefail
. "$(dirname "$0")/decode.sh"
decode "$1" | flat | awk -F'\t' '
function unq(s) { sub(/^"/, "", s); sub(/"$/, "", s); return s }
$2 == "timestamp" { ts[$1] = $3 }
$2 == "track_descriptor.uuid" { tu = $3 }
$2 == "track_descriptor.parent_uuid" { parent[tu] = $3 }
$2 == "track_descriptor.name" { tname[tu] = unq($3) }
$2 == "interned_data.event_names.iid" { iid = $3 }
$2 == "interned_data.event_names.name" { ename[iid] = unq($3) }
$2 == "track_event.type" { type[$1] = $3 }
$2 == "track_event.track_uuid" { track[$1] = $3 }
$2 == "track_event.name_iid" { niid[$1] = $3 }
$2 == "track_event.name" { nm[$1] = unq($3) }
$2 == "track_event.flow_ids" { from[$3] = $1 }
$2 == "track_event.terminating_flow_ids" { to[$3] = $1 }
function name(p) { return p in niid ? ename[niid[p]] : nm[p] }
function ring(p) { return tname[parent[track[p]]] }
END {
	for (p in type)
		if (type[p] == "TYPE_SLICE_BEGIN" && name(p) != "running" && tname[track[p]] ~ /^lane /)
			jobs[ring(p)]++
	for (r in jobs)
		print "ring\t" r "\t" jobs[r]
	for (id in to) {
		f = id in from ? from[id] : ""
		print "flow\t" name(to[id]) "\t" ring(to[id]) "\t" (f ? name(f) : "-") "\t" (f ? ring(f) : "-") \
			"\t" (f ? f : "-") "\t" (f ? ts[f] : "-") "\t" ts[to[id]]
	}
}'
