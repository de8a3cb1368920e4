#!/bin/sh
# Inside the VM (init.sh, gputop.scenario=soak): the metrics endpoint for soak.minutes (60) at a
# steady job rate, a new short-lived submitter process each half second or so, scraped every
# second. One line per scrape: "soak UPTIME_S SCRAPE_MS RSS_KB SAMPLES STALE_PIDS...", and
# "soak-heap UPTIME_S KB": the part of RSS that is malloc's heap (is a growth ours, or mappings?);
# "soak-map PHASE KB SIZE_KB NAME" after the first minute and at the end: each mapping's RSS.
M=$(sed -n 's/.*soak\.minutes=\([0-9]*\).*/\1/p' /proc/cmdline)
M=${M:-60}
gputop-bpf-http --listen 127.0.0.1:9464 -d 1 </dev/null >/dev/null 2>/tmp/soak.err &
MON=$!
i=0
until wget -q -O /dev/null http://127.0.0.1:9464/metrics 2>/dev/null || [ $i -ge 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
touch /tmp/soak.on
(
	n=0
	while [ -e /tmp/soak.on ]; do
		case $((n % 3)) in
		0) r=gfx_0.0.0 ;;
		1) r=comp_1.0.0 ;;
		*) r=sdma0 ;;
		esac
		mockgpu-submit $r 20 1000 --gap-us 20000 >/dev/null
		n=$((n + 1))
	done
	echo "soak-load submitters=$n"
) &
LOAD=$!
# each mapping with RSS: "soak-map PHASE RSS_KB SIZE_KB NAME" (anonymous ones by address)
maps() {
	awk -v ph="$1" '/^[0-9a-f]+-[0-9a-f]+ / { name = $6 ? $6 : "anon@" $1; next }
		/^Size:/ { size = $2 } /^Rss:/ && $2 > 0 { print "soak-map", ph, $2, size, name }' /proc/$MON/smaps
}
mapped=
end=$(($(cut -d. -f1 /proc/uptime) + M * 60))
echo "@@ soak start minutes=$M monitor=$MON"
while [ "$(cut -d. -f1 /proc/uptime)" -lt $end ]; do
	t0=$(cut -d' ' -f1 /proc/uptime)
	wget -q -O /tmp/m.txt http://127.0.0.1:9464/metrics || echo "soak-error $t0"
	t1=$(cut -d' ' -f1 /proc/uptime)
	rss=$(awk '/^VmRSS/ { print $2 }' /proc/$MON/status)
	heap=$(awk '/\[heap\]/ { h = 1; next } h && /^Rss:/ { print $2; exit }' /proc/$MON/smaps)
	samples=$(grep -vc '^#' /tmp/m.txt)
	stale=
	for p in $(grep -o 'pid="[0-9]*"' /tmp/m.txt | sort -u | tr -dc '0-9\n'); do
		[ -d /proc/$p ] || stale="$stale $p"
	done
	echo "soak $t0 $(echo "$t1 $t0" | awk '{ printf "%.0f", ($1 - $2) * 1000 }') $rss $samples$stale"
	echo "soak-heap $t0 ${heap:-0}"
	[ "$(cut -d. -f1 /proc/uptime)" -ge $((end - M * 60 + 60)) ] && [ -z "$mapped" ] &&
		mapped=1 && maps first
	sleep 1
done
maps last
rm -f /tmp/soak.on
wait $LOAD
kill -INT $MON
wait $MON
echo "@@ soak end exit=$? $(cat /tmp/soak.err | tr '\n' ' ')"
