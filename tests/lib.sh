# Shared helpers for the shell test suites: counting, assertions, a closing tally.
# shellcheck shell=bash
PASS=0
FAIL=0
SKIP=0

pass() { PASS=$((PASS + 1)); echo "  ok   $*"; }
fail() { FAIL=$((FAIL + 1)); echo "  FAIL $*"; }
skip() { SKIP=$((SKIP + 1)); echo "  SKIP $*"; }

# check "description" command...: passes when the command succeeds.
check() {
	local what=$1
	shift
	if "$@" >/dev/null; then pass "$what"; else fail "$what"; fi
}

# to FILE command...: runs the command with its stdout in FILE.
to() {
	local file=$1
	shift
	"$@" >"$file"
}

# Prints the closing tally and exits non-zero on any failure.
finish() {
	echo "$SUITE: $PASS passed, $FAIL failed, $SKIP skipped"
	[ "$FAIL" -eq 0 ]
}

# needs_root_and_jq "what needs root": ends the suite (a loud skip) unless root; fails it without jq.
needs_root_and_jq() {
	if [ "$(id -u)" != 0 ]; then
		skip "$1"
		finish
		exit
	fi
	if ! command -v jq >/dev/null; then
		fail "jq is missing: run 'make deps'"
		finish
		exit
	fi
}

# folded_sum [FILE]: folded stacks with the lines of the same text summed into one, sorted: a
# stacks table keeps one row a process and text, a file may have two lines of one text (two
# stacks symbolized alike, or two processes of one name).
folded_sum() {
	awk '{ w = $NF; k = $0; sub(/ [0-9]+$/, "", k); s[k] += w } END { for (k in s) print k " " s[k] }' "$@" |
		LC_ALL=C sort
}

# A monitor's attach waits while an earlier one's probes are released by the kernel (its
# gputop-bpf-exit child: seconds on some kernels, ten and more on a loaded one).
# reapers_gone: until no such release is running (60 s at most); first_snapshot FILE: until a
# monitor's -J output FILE has its first snapshot (60 s at most), 1 if not.
reapers_gone() {
	local i
	for i in $(seq 600); do pgrep -x gputop-bpf-exit >/dev/null || return 0; sleep 0.1; done
}
first_snapshot() {
	local i
	for i in $(seq 600); do [ -s "$1" ] && return 0; sleep 0.1; done
	return 1
}

# For suites that drive the interface under tmux: $T is their "tmux -S SOCKET", the session "t".
# screen: its pane as text; wait_for PATTERN SECONDS: until the pane shows the extended regex
# (the matching text printed); 1 if not.
screen() { $T capture-pane -p -t t 2>/dev/null; }
wait_for() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		screen | grep -oE "$1" && return 0
		sleep 0.1
	done
	return 1
}
