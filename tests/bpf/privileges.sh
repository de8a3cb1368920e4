#!/usr/bin/env bash
# The non-root route and least privilege (root runs this; it tests as the user 'nobody'):
# - a copy given the README's file capabilities (setcap cap_bpf,cap_perfmon,cap_dac_read_search+ep)
#   runs as nobody with the same collectors attached as root has, and each of the three is needed;
# - with them, files nobody may not read stay unread: a root-only recording (--replay), a
#   root-only theme (--theme, live interface under tmux);
# - --record on a full disk fails loudly;
# - without them it starts anyway with what needs no privilege (tests/bpf/run.sh checks which);
# - as root, once attached, the monitor keeps only CAP_BPF, CAP_PERFMON, CAP_DAC_READ_SEARCH and
#   CAP_SYS_PTRACE (/proc/PID/status), and the -o file of a run that cannot start is left alone.
# Usage: tests/bpf/privileges.sh BINARY RECORDING
set -u
SUITE="privilege tests"
. "$(dirname "$0")/../lib.sh"
BIN=$(realpath "$1") REC=$(realpath "$2")
if [ "$(id -u)" != 0 ]; then
	skip "needs root (it creates a copy with file capabilities and runs it as nobody)"
	finish
	exit
fi
for tool in setcap setpriv tmux; do
	if ! command -v $tool >/dev/null; then
		fail "$tool is missing (make deps installs it)"
		finish
		exit
	fi
done
D=$(mktemp -d /tmp/gputop-priv.XXXXXX)
chmod 755 "$D"
trap 'rm -rf "$D"; tmux -S "$D/t.sock" kill-server 2>/dev/null' EXIT
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$@"; }
attached() { jq -r '[.collectors[] | select(.state == "attached") | .name] | sort | join(",")'; }

root_set=$("$BIN" -b -J -n 1 -d 0.2 2>/dev/null | attached)
echo "       root: attached $root_set"
cp "$BIN" "$D/gputop-bpf"
chmod 755 "$D/gputop-bpf"
caps=cap_bpf,cap_perfmon,cap_dac_read_search
setcap "$caps+ep" "$D/gputop-bpf"
out=$(cd "$D" && as_nobody ./gputop-bpf -b -J -n 1 -d 0.2 2>"$D/err")
rc=$?
echo "       nobody with $caps: exit $rc, attached $(attached <<<"$out") $(head -c 300 "$D/err")"
check "setcap route: nobody with $caps runs (exit 0)" test $rc -eq 0
check "setcap route: the same collectors attach as for root ($root_set)" \
	test "$(attached <<<"$out")" = "$root_set"
for drop in cap_bpf cap_perfmon cap_dac_read_search; do
	setcap "$(tr ',' '\n' <<<"$caps" | grep -vx $drop | paste -sd,)+ep" "$D/gputop-bpf"
	out=$(cd "$D" && as_nobody ./gputop-bpf -b -J -n 1 -d 0.2 2>"$D/err")
	rc=$?
	echo "       without $drop: exit $rc, attached $(attached <<<"$out" 2>/dev/null) $(head -c 160 "$D/err")"
	check "each is needed: without $drop it fails or attaches less" \
		test $rc -ne 0 -o "$(attached <<<"$out" 2>/dev/null)" != "$root_set"
done
setcap "$caps+ep" "$D/gputop-bpf"

# The systemd unit's route: no file capabilities, the unit's AmbientCapabilities, an
# unprivileged user, the exporter alone (no terminal); its collectors as root's.
unit_caps=$(sed -n 's/^AmbientCapabilities=//p' "$(dirname "$0")/../../dist/systemd/gputop-bpf.service.in" |
	tr 'A-Z' 'a-z' | sed 's/cap_//g; s/ /,+/g; s/^/+/')
setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps="$unit_caps" --ambient-caps="$unit_caps" \
	--bounding-set=-all,"$unit_caps" "$BIN" --listen 127.0.0.1:0 -d 0.2 </dev/null >/dev/null 2>"$D/svc.err" &
svc=$!
metrics=
for i in $(seq 50); do
	addr=$(grep -o 'http://[^ ]*' "$D/svc.err" | head -1)
	[ -n "$addr" ] && metrics=$(curl -s --max-time 2 "$addr") && grep -q '^gputop_snapshots_total' <<<"$metrics" && break
	sleep 0.2
done
svc_set=$(grep '^gputop_collector_up{.*} 1$' <<<"$metrics" | sed 's/.*collector="\([^"]*\)".*/\1/' | sort | paste -sd,)
echo "       the unit's route (nobody, ambient $unit_caps): attached $svc_set"
check "the systemd unit's capabilities, as nobody: /metrics served, the same collectors attached as for root" \
	test "$svc_set" = "$root_set"
kill -INT $svc
wait $svc
check "the unit's route: SIGINT ends it with exit 0" test $? -eq 0

# Files nobody may not read, named to the capable copy.
install -m 600 "$REC" "$D/secret.jsonl"
(cd "$D" && as_nobody ./gputop-bpf --replay secret.jsonl -b -n 1 >"$D/out" 2>"$D/err")
rc=$?
echo "       --replay of a 0600 root file: exit $rc: $(head -c 200 "$D/err")"
check "--replay of a root-only recording: refused (Permission denied), nothing printed" \
	bash -c "[ $rc -ne 0 ] && grep -q 'Permission denied' '$D/err' && [ ! -s '$D/out' ]"
install -m 644 "$REC" "$D/open.jsonl"
(cd "$D" && as_nobody ./gputop-bpf --replay open.jsonl -b -n 1 >"$D/out" 2>"$D/err")
check "--replay of a recording nobody may read: plays" test -s "$D/out"
printf 'theme[background]="#000000"\n' >"$D/secret.theme"
chmod 600 "$D/secret.theme"
T="tmux -S $D/t.sock"
$T -f /dev/null new-session -d -s t -x 160 -y 40 \
	"cd $D && setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all env HOME=$D TERM=xterm-256color LANG=C.UTF-8 ./gputop-bpf --theme $D/secret.theme; sleep 20"
shown=""
for _ in $(seq 50); do
	shown=$($T capture-pane -p -t t 2>/dev/null)
	grep -q "theme" <<<"$shown" && grep -qE "Permission denied|theme secret" <<<"$shown" && break
	sleep 0.2
done
echo "       live interface as nobody, --theme of a 0600 root file: $(grep -oE 'theme: [^|]*(denied|secret)' <<<"$shown" | head -1)"
check "--theme of a root-only file, live as nobody with capabilities: Permission denied" \
	grep -q "cannot read theme $D/secret.theme: Permission denied" <<<"$shown"
$T kill-server 2>/dev/null

# As root: what the running monitor keeps.
"$BIN" -b -J -d 0.3 -o "$D/mon.json" &
M=$!
sleep 2
eff=$(awk '/^CapEff:/ { print $2 }' /proc/$M/status)
prm=$(awk '/^CapPrm:/ { print $2 }' /proc/$M/status)
kill -INT $M
wait $M
want=$(((1 << 39) | (1 << 38) | (1 << 19) | (1 << 2))) what="BPF, PERFMON, SYS_PTRACE, DAC_READ_SEARCH"
if head -1 "$D/mon.json" | jq -e 'any(.collectors[]; (.name == "nvidia" or .name == "gpu_time") and .state == "attached")' >/dev/null; then
	want=$((want | (1 << 21))) what="$what, SYS_ADMIN (nvidia or gpu_time attached: uprobes on libraries found later)"
fi
wantprm=$want
if head -1 "$D/mon.json" | jq -e 'any(.collectors[]; .state == "unavailable")' >/dev/null; then
	wantprm=$((want | (1 << 21))) # permitted, not effective: for a collector started when its driver loads
fi
want=$(printf '%016x' $want) wantprm=$(printf '%016x' $wantprm)
echo "       root, attached: CapEff $eff CapPrm $prm ($what: $want; permitted $wantprm)"
check "root, once attached: only $what effective (SYS_ADMIN permitted while a collector is unavailable)" \
	test "$eff" = "$want" -a "$prm" = "$wantprm"

# Write errors fail loudly: a recording on a full disk (/dev/full).
"$BIN" -b -n 3 -d 0.2 --record /dev/full -o /dev/null 2>"$D/err"
rc=$?
echo "       --record /dev/full: exit $rc: $(cat "$D/err")"
check "--record on a full disk: exit 1, 'writing the recording failed: No space left on device'" \
	bash -c "[ $rc -eq 1 ] && grep -q 'writing the recording failed: No space left on device' '$D/err'"

# A run that cannot start leaves -o alone (nobody, a --sysfs that is not there; a start without
# privilege runs, with what needs none, since it has an unprivileged mode).
echo precious >"$D/keep.txt"
chmod 666 "$D/keep.txt"
as_nobody "$BIN" -b -n 1 --sysfs "$D/no-such-tree" -o "$D/keep.txt" 2>"$D/err"
rc=$?
check "a run that cannot start (--sysfs not a directory): exit non-zero, says why, -o FILE not emptied" \
	bash -c "[ $rc -ne 0 ] && grep -q 'not a directory' '$D/err' && grep -qx precious '$D/keep.txt'"
finish
