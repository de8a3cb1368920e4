#!/usr/bin/env bash
# The display's instants in a gputop-bpf trace (output/trace_display.h), decoded by protoc:
#   display.sh TRACE
# prints "vblank <tab> TRACK <tab> N <tab> FIRST-NS <tab> LAST-NS <tab> SEQ-STEPS-NOT-1 <tab>
# INTERVALS <tab> THEIR-SUM-NS" for each CRTC's track (intervals: between consecutive vblanks), then "delivery <tab> PID <tab> PROCESS <tab> TRACK <tab> N <tab> LATE <tab>
# MISSED-FRAMES" for each client's track (PID 0 and PROCESS "-" when no process is known).
set -euo pipefail
. "$(dirname "$0")/decode.sh"
decode "$1" | flat | awk -F'\t' '
{ last_packet = $1 + 0 }
function unq(s) { sub(/^"/, "", s); sub(/"$/, "", s); return s }
$2 == "timestamp" { ts[$1] = $3 }
$2 == "track_descriptor.uuid" { tu = $3 }
$2 == "track_descriptor.parent_uuid" { parent[tu] = $3 }
$2 == "track_descriptor.name" { tname[tu] = unq($3) }
$2 == "track_descriptor.process.pid" { pid[tu] = $3 }
$2 == "track_descriptor.process.process_name" { pname[tu] = unq($3) }
$2 == "interned_data.event_names.iid" { iid = $3 }
$2 == "interned_data.event_names.name" { ename[iid] = unq($3) }
$2 == "interned_data.debug_annotation_names.iid" { aiid = $3 }
$2 == "interned_data.debug_annotation_names.name" { aname[aiid] = unq($3) }
$2 == "track_event.type" { type[$1] = $3 }
$2 == "track_event.track_uuid" { track[$1] = $3 }
$2 == "track_event.name_iid" { niid[$1] = $3 }
$2 == "track_event.debug_annotations.name_iid" { an = $3 }
$2 == "track_event.debug_annotations.uint_value" { arg[$1, an] = $3 }
function argv(p, name,   i) { for (i in aname) if (aname[i] == name) return arg[p, i]; return "" }
END {
	for (p = 1; p <= last_packet; p++) {
		if (type[p] != "TYPE_INSTANT")
			continue
		t = track[p]; nm = ename[niid[p]]
		if (nm == "vblank") {
			if (!(t in vb)) first[t] = ts[p]
			else if (argv(p, "seq") != lastseq[t] + 1) steps[t]++
			else { iv[t]++; ivsum[t] += ts[p] - last[t] }
			vb[t]++; last[t] = ts[p]; lastseq[t] = argv(p, "seq")
		} else if (nm == "delivered" || nm == "delivered late") {
			dv[t]++
			if (nm == "delivered late") { late[t]++; missed[t] += argv(p, "missed_frames") }
		}
	}
	for (t in vb)
		print "vblank\t" tname[t] "\t" vb[t] "\t" first[t] "\t" last[t] "\t" steps[t] + 0 "\t" iv[t] + 0 "\t" ivsum[t] + 0
	for (t in dv) {
		q = parent[t]
		print "delivery\t" (q in pid ? pid[q] : 0) "\t" (q in pname ? pname[q] : "-") "\t" tname[t] \
			"\t" dv[t] "\t" late[t] + 0 "\t" missed[t] + 0
	}
}'
