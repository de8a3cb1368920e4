#!/usr/bin/env bash
# The man page and --help name the same long options.
set -u
SUITE="doc tests"
. "$(dirname "$0")/lib.sh"
BIN=$1
help=$("$BIN" --help)
opts=$(grep -o -- '--[a-z][a-z-]*' <<<"$help" | sort -u)
check "--help lists options" test -n "$opts"
for o in $opts; do
	check "man page documents $o" grep -q -- "${o//-/\\\\-}" man/gputop-bpf.8
done
for o in $(grep -oE -- '\\-\\-[a-z]([a-z]|\\-)*' man/gputop-bpf.8 | sed 's/\\//g' | sort -u); do
	check "--help lists $o (from the man page)" grep -q -- "$o" <<<"$help"
done
check "man page renders without warnings" bash -c "! groff -man -ww -z man/gputop-bpf.8 2>&1 | grep -q ."

# man_section NAME: the man page's section NAME, its escapes for '-' undone
man_section() { awk -v s=".SH $1" '$0 == s { on = 1; next } /^\.SH / { on = 0 } on' man/gputop-bpf.8 | sed 's/\\-/-/g'; }
# Every long option of --help: in the SYNOPSIS, as an OPTIONS entry (a .TP, then the .B, .BR or .BI
# line that names it) and in the README's table of options; a whole option, not one it begins.
synopsis=$(man_section SYNOPSIS)
entries=$(man_section OPTIONS | awk 'prev == ".TP" && /^\.B[IR]? / { print } { prev = $0 }')
table=$(grep '^| `-' README.md)
for o in $opts; do
	re="${o}([^a-z-]|\$)"
	# the SYNOPSIS gives an option of a short form by that one (-b for --batch)
	short=$(grep -oE -- "-[a-zA-Z], $o( |\$)" <<<"$help" | cut -c1-2)
	check "man SYNOPSIS names $o${short:+ (or $short)}" \
		grep -qE -- "$re${short:+|(^|[^a-zA-Z-])$short([^a-zA-Z-]|\$)}" <<<"$synopsis"
	check "man OPTIONS has an entry (.TP and .B) for $o" grep -qE -- "$re" <<<"$entries"
	check "README's options table names $o" grep -qE -- "$re" <<<"$table"
done

# --help and the man page's --stacks name every stacks table the collectors declare.
help_stacks=$(sed -n '/--stacks FILE/,/--stacks-weight/p' <<<"$help")
man_stacks=$(man_section OPTIONS | awk '/^\.BI --stacks "/ { on = 1; next } on && /^\.TP/ { exit } on' | sed 's/\\f[BIRP]//g')
for t in $(grep -rhoE '\.name = "[a-z_]+\.stacks"' collectors | cut -d'"' -f2 | sort -u); do
	check "--help's --stacks names the table $t" grep -qF "$t" <<<"$help_stacks"
	check "the man page's --stacks names the table $t" grep -qF "$t" <<<"$man_stacks"
done

# Each vendor pane's count of tables in the man page ("NVIDIA pane: Seven tables") is its declaration's
# (tui/pane_*.c: the names of .tables).
while IFS=$'\t' read -r title n; do
	word=$(man_section "THE INTERFACE" | awk -v h=".B $title pane" 'found { print $1; exit } $0 == h { found = 1 }')
	if [ -z "$word" ]; then
		[ "$title" = Overview ] || fail "man page: no '.B $title pane' entry in THE INTERFACE"
		continue
	fi
	num=$(awk -v w="${word,,}" 'BEGIN { split("one two three four five six seven eight nine", a, " "); for (i in a) if (a[i] == w) print i }')
	check "man page: the $title pane has $n tables (it says '$word')" test "$num" = "$n"
done < <(awk '/pane_decl .* = \{/ { title = ""; n = 0; on = 0 } /\.title = "/ { split($0, q, "\""); title = q[2] }
	/\.tables = \{/ { on = 1 } on { n += gsub(/"[a-z_]+\.[a-z_]+"/, "") } on && /\}/ { on = 0 }
	/^\};/ && title != "" { print title "\t" n }' tui/pane_*.c)

# Every key of the help screen (tui/draw_detail.c, draw_help: the first 16 cells of each line, up to
# its blank line) is in the man page's KEYS: among the names its entries are headed by ("h, ?, F1":
# h, ?, F1; "Up/Down"; "+ (=), -"); a setting of more words (vi_keys = yes) in its text.
help_keys=$(awk '/^void draw_help\(/ { f = 1 } f && /const char \*lines\[\] = \{/ { on = 1; start = 1; next }
	on && /^\t\};/ { exit }
	on { if (start && match($0, /^\t+"/)) { k = substr($0, RLENGTH + 1, 16); if (k ~ /^"/) exit; print k }
	     start = ($0 ~ /",$/ || $0 ~ /^\t+[a-z_]+,$/) }' tui/draw_detail.c | sed 's/ *$//; s/\\\\/\\/g')
# (the C source's "\\" is one backslash on the screen; the man page writes it \e)
keys_text=$(man_section KEYS | sed 's/\\f[BIRP]//g; s/\\e/\\/g')
key_names=" $(awk 'prev == ".TP" && /^\.B[IR]? / { sub(/^\.B[IR]? /, ""); gsub(/"/, ""); gsub(/,/, " "); print } { prev = $0 }' \
	<<<"$keys_text" | tr -s ' \n' '  ') "
check "the help screen's keys read from tui/draw_detail.c ($(wc -l <<<"$help_keys") lines)" test "$(wc -l <<<"$help_keys")" -ge 20
while IFS= read -r line; do
	[ -n "$line" ] || continue
	for part in $(sed 's/, /\n/g' <<<"$line" | tr ' ' '\a'); do
		part=$(tr '\a' ' ' <<<"$part")
		case $part in
		*" ("*")") names="${part%% (*} $(sed 's/.*(\(.*\))/\1/' <<<"$part")" ;; # "+ (=)": + and =
		?*/?*) names=$(tr / ' ' <<<"$part") ;;                                  # Up/Down
		*) names=$part ;;
		esac
		if [[ $part == *" "* && $names == "$part" ]]; then
			check "help key '$part' is in the man page's KEYS" grep -qF -- "$part" <<<"$keys_text"
			continue
		fi
		for k in $names; do
			check "help key '$k' heads an entry of the man page's KEYS" grep -qF -- " $k " <<<"$key_names"
		done
	done
done <<<"$help_keys"

# Every jq example of the README and the man page gives something on a committed recording: as many
# snapshots as the command takes (its -n, else 1), the recording's last (a GPU at work, as when the
# example is run), replayed from examples/ with -b -J, each recording in turn until one gives output
# that is neither empty nor null, [], {} or "".
jq_examples=$( (grep -h '| jq ' README.md; man_section EXAMPLES | grep '^\.B .*| jq ' | sed 's/^\.B //') |
	sed -e 's/  *#.*//' -e 's/^ *//')
check "jq examples found in README.md and the man page ($(grep -c . <<<"$jq_examples"))" test "$(grep -c . <<<"$jq_examples")" -ge 2
while IFS= read -r ex; do
	[ -n "$ex" ] || continue
	filter=${ex#*| jq }
	case $filter in "'"*) filter=${filter#\'}; filter=${filter%%\'*} ;; *) filter=${filter%% *} ;; esac
	n=$(grep -oE -- '(-n|--iterations) [0-9]+' <<<"${ex%%| jq*}" | grep -oE '[0-9]+$')
	gave=
	for rec in examples/*.jsonl; do
		out=$("$BIN" --replay "$rec" -b -J 2>/dev/null | tail -n "${n:-1}" | jq -c "$filter" 2>/dev/null)
		if [ -n "$out" ] && ! grep -qxE 'null|\[\]|\{\}|""' <<<"$out"; then
			gave=$rec
			break
		fi
	done
	check "the example '$ex' gives output on a recording${gave:+ ($gave)}" test -n "$gave"
done <<<"$jq_examples"

# The capabilities named once, the same four everywhere: --help, README, the man page, the unit.
CAPS="CAP_BPF, CAP_PERFMON, CAP_DAC_READ_SEARCH and CAP_SYS_ADMIN"
check "--help names the capabilities: $CAPS" grep -qF "$CAPS" <<<"$help"
check "README names the same" bash -c "tr '\n' ' ' <README.md | grep -qF '$CAPS'"
check "the man page names the same" bash -c "tr '\n' ' ' <man/gputop-bpf.8 | grep -qF '$CAPS'"
check "README and the man page give the same setcap" bash -c "
	tr '\n' ' ' <README.md | grep -qF 'setcap cap_bpf,cap_perfmon,cap_dac_read_search,cap_sys_admin+ep' &&
	grep -qF 'setcap cap_bpf,cap_perfmon,cap_dac_read_search,cap_sys_admin+ep' man/gputop-bpf.8"
check "the systemd unit grants the same four" \
	grep -qx 'AmbientCapabilities=CAP_BPF CAP_PERFMON CAP_DAC_READ_SEARCH CAP_SYS_ADMIN' dist/systemd/gputop-bpf.service.in

# The refresh interval's one rule (core/delay.h), said the same for -d and for + and -.
lo=$(awk '$2 == "DELAY_MIN_S" { print $3 }' core/delay.h)
hi=$(awk '$2 == "DELAY_MAX_S" { print $3 + 0 }' core/delay.h)
check "--help: -d from $lo to $hi, + and - within the same range" \
	grep -qF -- "$lo to $hi; + and - in the interface step within the same range" <<<"$(tr -s ' \n' ' ' <<<"$help")"
check "the man page: -d from $lo to $hi" bash -c "tr '\n' ' ' <man/gputop-bpf.8 | grep -qF 'from $lo to $hi. Default'"
check "the man page: + and - step from $lo to $hi" \
	bash -c "tr '\n' ' ' <man/gputop-bpf.8 | grep -qF 'in steps from $lo to $hi seconds (the range of'"
check "README: -d and + - say $lo to $hi" bash -c "grep -qF '$lo to $hi (default 1)' README.md &&
	grep -qF 'in steps from $lo s to $hi s (the range of' README.md"

# The README is a page for users; the rest is in docs/ and tests/README.md, all linked and true.
PAGES="README.md docs/*.md tests/README.md"
n=$(wc -l <README.md)
check "README.md reads in five minutes ($n lines, at most 200)" test "$n" -le 200
for p in $PAGES; do
	check "README.md links to $p" bash -c "[ $p = README.md ] || grep -q '](${p})' README.md"
	dir=$(dirname "$p")
	# [text](relative/path): every link from the page resolves
	for link in $(grep -o '\]([^)#:]*)' "$p" | sed 's/^](//; s/)$//'); do
		check "$p: the link $link exists" test -e "$dir/$link"
	done
	# `path/file.ext` named in backticks exists (build outputs aside)
	for f in $(grep -o '`[a-z][a-z0-9_./-]*\.\(c\|h\|sh\|md\|8\|json\|jsonl\|in\|py\|bt\)`' "$p" | tr -d '`' | sort -u); do
		case $f in build/* | */\** ) continue ;; esac
		# a path from the top or the page, or a file's own name (in the room the page is about)
		check "$p: \`$f\` exists" bash -c "[ -e '$f' ] || [ -e '$dir/$f' ] || git ls-files | grep -q '\(^\|/\)$f\$'"
	done
done
for t in $(grep -o '^| `[a-z-]*` |' tests/README.md | tr -d '|` '); do
	check "tests/README.md: make $t is a target" grep -q "^$t:" Makefile
done
finish
