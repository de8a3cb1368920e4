#!/usr/bin/env bash
# Sourced: decode FILE (protoc's text of a trace, against trace.proto), and flat (that text as
# "PACKET<tab>path.to.field<tab>value" lines, PACKET counted from 1).
PFDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
decode() { protoc --decode=perfetto.protos.Trace --proto_path="$PFDIR" "$PFDIR/trace.proto" <"$1"; }
flat() {
	awk '/\{$/ { s[++d] = $1; if (d == 1) n++; next }
	/^ *\}$/ { d--; next }
	{ k = $1; sub(/:$/, "", k); p = ""; for (i = 2; i <= d; i++) p = p s[i] "."
	  print n "\t" p k "\t" substr($0, index($0, ": ") + 2) }'
}
