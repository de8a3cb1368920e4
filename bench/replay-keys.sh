#!/usr/bin/env bash
# Key response while a recording plays under tmux: the time from a key (h, then Esc) to the
# screen showing its effect, through tmux (its own capture costs ~25 ms; Esc adds curses' 25 ms).
# Usage: bench/replay-keys.sh BINARY RECORDING
BIN=$1 REC=$2
T="tmux -S /tmp/gputop-keys.sock"
$T kill-server 2>/dev/null
$T -f /dev/null new-session -d -s t -x 160 -y 48 "LANG=C.UTF-8 TERM=xterm-256color $BIN --replay $REC -d 0.5"
for _ in $(seq 200); do $T capture-pane -p -t t | grep -q "Rings (" && break; sleep 0.05; done
$T capture-pane -p -t t | grep -q "Rings (" || { echo "never showed the recording"; $T kill-server; exit 1; }
worst=0
for i in $(seq 10); do
	key=h; want="next colour theme"
	[ $((i % 2)) = 0 ] && key=Escape && want=""
	t0=$(date +%s%N)
	$T send-keys -t t $key
	while :; do
		scr=$($T capture-pane -p -t t)
		if [ -n "$want" ]; then grep -q "$want" <<<"$scr" && break; else ! grep -q "next colour theme" <<<"$scr" && break; fi
	done
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "key $key: $ms ms"
	[ $ms -gt $worst ] && worst=$ms
	sleep 0.3
done
echo "worst $worst ms"
$T kill-server
