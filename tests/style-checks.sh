#!/bin/sh
# The code-health rules that keep one mechanism where there were copies
# (STYLE.md section 3, "done when"), checked on the source tree so they keep
# holding.
. "$SRCDIR/tests/e2e/lib.sh"
cd "$SRCDIR" || fail "no source tree"

# count_matches PATTERN FILE...: lines matching PATTERN (extended regex)
count_matches() {
	pat=$1
	shift
	cat "$@" | grep -cE -- "$pat" || true
}

# the session core reads through a source and writes through a sink: no
# branch on the file or the recording, no call into their modules
n=$(count_matches 's->(file|rec)\b' engine/session.c)
[ "$n" -eq 0 ] || fail "engine/session.c branches on s->file / s->rec ($n lines)"
ok
n=$(count_matches 'session_(file|rec)_[a-z_]*\(' engine/session.c)
[ "$n" -eq 0 ] || fail "engine/session.c calls into session-file.c / session-record.c"
ok
# the session core is one concern a file (issue 27): the live source, the
# address spaces, call stacks and the asm view's functions have theirs
n=$(wc -l <engine/session.c)
[ "$n" -le 800 ] || fail "engine/session.c has $n lines (over 800: split it by concern)"
ok
# struct session names no plugin's state: a source, sink or tap keeps its
# own behind src_state, sink_state or tap_state (engine/session-priv.h).
# The plugins' structs are those defined in their files.
plugins="engine/session-live.c engine/session-file.c engine/session-record.c engine/session-pprof.c
	engine/pprof-acc.c"
body=$(sed -n '/^struct session {/,/^};/p' engine/session-priv.h)
[ -n "$body" ] || fail "no struct session in engine/session-priv.h"
for name in $(sed -nE 's/^struct ([a-z_]+) \{.*/\1/p' $plugins); do
	! printf '%s\n' "$body" | grep -qE "struct $name\b" ||
		fail "struct session names struct $name, a plugin's own state"
	ok
done
# nor a member of the live source's own (issue 43): how its events were
# opened and multiplexed stays in struct live_src
fields=$(sed -n '/^struct live_src {/,/^};/p' engine/session-live.c |
	sed -nE 's/^\t[^/(]*[ *]([a-z_]+)(\[[^]]*\])?;.*/\1/p')
[ -n "$fields" ] || fail "no struct live_src in engine/session-live.c (the rule below reads it)"
for name in $fields; do
	! printf '%s\n' "$body" | grep -qE "[ *]$name(\[[^]]*\])?;" ||
		fail "struct session has $name, a member of the live source's struct live_src"
done
ok
# and no plugin reads another's: a source's file never names the sink's or
# the tap's state, the recording never the source's
for f in engine/session-live.c engine/session-file.c engine/session-pprof.c; do
	! grep -qE 's->(sink|tap)_state' "$f" || fail "$f reads another plugin's state"
	ok
done
! grep -qE 's->(src|tap)_state' engine/session-record.c ||
	fail "engine/session-record.c reads another plugin's state"
ok
# the pprof writer reads a session through its accessors (engine/session.h)
! grep -q 'session-priv\.h' engine/pprof-write.c ||
	fail "engine/pprof-write.c includes engine/session-priv.h (use the accessors)"
ok

# one time-ordered queue: no two-pass batch, no special cases for records
# read out of order
n=$(count_matches 'pass < 2|orphans|bool late|reused' engine/session.c engine/profile*.c)
[ "$n" -eq 0 ] || fail "ordering special cases are back ($n lines)"
ok

# one FNV-1a: its prime appears in lib/hashtab.c alone
files=$(grep -rlE '1099511628211|0x100000001b3' arch engine lib tui | sort | tr '\n' ' ')
[ "$files" = "lib/hashtab.c " ] || fail "FNV-1a written again: $files"
ok

# JSON is written by tui/json.c: no hand-made separators in its users
for f in tui/cmd-tree.c tui/cmd-annotate.c tui/top-print.c; do
	n=$(count_matches '\? ", " : ""|\? "," : ""|printf\(".*\\"[a-z_]+\\": ' "$f")
	[ "$n" -eq 0 ] || fail "$f writes JSON by hand ($n lines)"
	ok
done

# one option parser
files=$(grep -lE 'getopt_long' tui/*.c | sort | tr '\n' ' ')
[ "$files" = "tui/opt.c " ] || fail "getopt_long outside tui/opt.c: $files"
ok

# growing arrays and tables: lib/hashtab.c's rule (GROW, struct hashtab);
# a hand-written doubling (x = x ? x * 2 : N, x *= 2) of a capacity is the
# sign of a copy of it
n=$(grep -nE '(cap|room|alloc)( \* 2| \*= 2)' arch/*.c engine/*.c lib/*.c tui/*.c |
	grep -vE '^lib/hashtab\.c' | wc -l)
[ "$n" -eq 0 ] || fail "$n hand-written array doublings (use GROW)"
ok

# no file-scope mutable state in the views and the batch printer: a view's
# state is in struct tui or the view's own struct, a comparator's context
# goes through qsort_r.  A top-level line without "(" that declares
# something (not a struct, enum or union type) must declare a const object:
# "const T x" without a pointer, or "T *const x" (its comment cut off).
for f in tui/view-*.c tui/top-print.c; do
	n=$(sed -e 's|[[:space:]]*/\*.*||' "$f" | grep -E '^[A-Za-z][^(]*[;={][[:space:]]*$' |
		grep -vE '^(struct|enum|union)( [a-z_]+)? \{|^(typedef|extern) ' |
		grep -vE '^(static )?const [^*]*$|\*[[:space:]]*const[[:space:]]+[a-z_]+[^*]*$' |
		wc -l)
	[ "$n" -eq 0 ] || fail "$f has $n file-scope mutable variables"
	ok
done

# no mutable statics in tui/ outside the curses singleton: a command's
# state is on its stack (option tables too: they point at the caller's
# locals, as tui/cmd-record.c's and git's parse-options), a view's in
# struct tui; in engine/ and arch/ state lives in the objects their owners
# pass (struct unwinder, struct symtab), as git's struct repository.
# mutable_statics FILE prints FILE:NAME for each static object, at file
# scope or in a function, that is not const (a pointer to const is not:
# only "T *const x" is), each of a list ("static bool a, b;"), and a
# struct defined in place ("static struct {" ... "} memo;").
mutable_statics() {
	{
	sed -e 's|[[:space:]]*/\*.*||' -e 's|//.*||' "$1" |
		grep -E '^[[:space:]]*static[[:space:]].*[;={][[:space:]]*$' |
		grep -vE '^[[:space:]]*static[^=[]*[a-z_0-9][[:space:]]*\(' |
		grep -vE '^[[:space:]]*static[[:space:]]+(struct|union)([[:space:]]+[A-Za-z_0-9]+)?[[:space:]]*\{$' |
		sed -E 's/\{[^}]*\}//g' |
		grep -vE 'static const [^*]*$|\*[[:space:]]*const[[:space:]]+[a-z_]+[^*]*$' |
		sed -E '/\(/!s/,[[:space:]]*/\n/g' |
		sed -E 's/[]=;{[].*$//; s/[[:space:]]+$//; s/.*[^A-Za-z_0-9]([A-Za-z_][A-Za-z_0-9]*)$/\1/'
	sed -e 's|[[:space:]]*/\*.*||' -e 's|//.*||' "$1" |
		awk '/^[[:space:]]*static[[:space:]]+(struct|union)([[:space:]]+[A-Za-z_0-9]+)?[[:space:]]*\{$/ { in_s = 1; next }
		     in_s && /^}/ { in_s = 0; sub(/^}[[:space:]]*/, ""); sub(/[=;[].*$/, ""); print }'
	} | sed "s|^|$1:|"
}
# the check itself finds one (a broken pattern must not pass everything)
printf 'void f(void)\n{\n\tstatic char buf[2][sizeof(int) * 4];\n\tstatic const char *n[] = { "a" };\n}\n' \
	>"$TMP/probe.c"
printf 'static bool a, b;\nstatic struct {\n\tint x;\n} memo;\n' >>"$TMP/probe.c"
[ "$(mutable_statics "$TMP/probe.c" | tr '\n' ' ')" = \
  "$TMP/probe.c:buf $TMP/probe.c:n $TMP/probe.c:a $TMP/probe.c:b $TMP/probe.c:memo " ] ||
	fail "mutable_statics misses statics: $(mutable_statics "$TMP/probe.c")"
ok
# The allowed, each with its reason (FILE:* allows the whole file):
#   tui/ui.c: the curses singleton (one terminal a process: its SCREEN, tty,
#     colours, and the flag its signal handlers set)
#   engine/sys.c:ops: the syscall seam, substituted by tests (sys_set_ops)
#   engine/capstone-load.c, engine/http.c:mhd, engine/disasm-x86.c:lib,
#     engine/unwind.c:lib, engine/perfdata-read.c:zstd_lib: one library
#     image a process (dlopen counts references; its entry points are the
#     image's, not an owner's), loaded once, on first use
#     (engine/lib-load.c), and kept: capstone and Zydis for the asm cache,
#     libmicrohttpd for cyctop serve's threads, libunwind for every
#     unwinder, libzstd for every perf record -z file read
#   engine/unwind.c:accessors: libunwind takes a non-const unw_accessors_t *;
#     written nowhere
#   engine/symbols.c:debuginfo_*: libdwfl's Dwfl_Callbacks.debuginfo_path
#     is a char **; written nowhere
#   engine/pfm.c:lib: libpfm4's own state is process-wide (the library
#     image loaded on first use, pfm_initialize, its environment
#     variables, 4.13's PMUs left active): what it detects
#     of the CPU, probed once a process, and which host it is set up for;
#     the host itself (struct pfm_host) is made and passed by its owner
#   engine/selftest-run.c:seam: the self-test wraps the sys seam, whose
#     callbacks take no context: its one watch's state (one at a time, one
#     thread) lives beside the wrappers, set and cleared around the watch
allowed='tui/ui.c:active tui/ui.c:screen tui/ui.c:tty tui/ui.c:utf8 tui/ui.c:el_attr
tui/ui.c:pending engine/sys.c:ops engine/capstone-load.c:api engine/capstone-load.c:image engine/http.c:mhd
engine/disasm-x86.c:lib engine/unwind.c:lib engine/perfdata-read.c:zstd_lib
engine/unwind.c:accessors engine/symbols.c:debuginfo_dirs engine/symbols.c:debuginfo_path
engine/pfm.c:lib engine/selftest-run.c:seam'
for f in tui/*.c engine/*.c arch/*.c; do
	for s in $(mutable_statics "$f"); do
		case " $(echo $allowed) " in
		*" $s "* | *" ${s%%:*}:* "*) ;;
		*) fail "$s: a mutable static (on the stack, in its owner's struct, or allow it here with the reason)" ;;
		esac
	done
	ok
done
# and no file-scope mutable globals in tui/ (extern state another file sets)
for f in tui/*.c; do
	n=$(sed -e 's|[[:space:]]*/\*.*||' "$f" | grep -E '^[A-Za-z][^(]*[;={][[:space:]]*$' |
		grep -vE '^(static|struct [a-z_]+;|(struct|enum|union)( [a-z_]+)? \{|typedef |extern )' |
		grep -vE '^const [^*]*$|\*[[:space:]]*const[[:space:]]+[a-z_]+[^*]*$' | wc -l)
	[ "$n" -eq 0 ] || fail "$f has $n mutable globals"
	ok
done

# one row loop: tui/browser.c's browser_draw walks a list's visible rows;
# no view starts a loop at its browser's top row
n=$(grep -nE 'for \([^;]*= *[a-z_>.-]*[.>]top *;' tui/*.c | grep -v '^tui/browser\.c:' | wc -l)
[ "$n" -eq 0 ] || fail "$n row loops outside tui/browser.c (use browser_draw)"
ok

# Each view owns its state (issue 43 item 2, as tmux's window modes):
# tui.c reaches the views through their ops table alone (tui/views.h is
# its), a view reaches its own state alone (tui_view_data with its own id:
# view-NAME*.c with VIEW_NAME), a view's private header (view-NAME.h) is its
# files' alone, struct tui names no view's struct, and a function a view's
# file defines is called by no other file.  view_crossings DIR prints each
# crossing.
view_crossings() (
	cd "$1" || exit 0
	grep -l 'tui/views\.h' tui/*.c tui/*.h 2>/dev/null | grep -vxE 'tui/(tui\.c|views\.h)' |
		sed 's|$|: includes tui/views.h|'
	for f in tui/view-*.c; do
		[ -e "$f" ] || continue
		name=$(basename "$f" .c | sed -E 's/^view-//; s/-.*//')
		own=$(echo "$name" | tr a-z A-Z)
		grep -oE 'tui_view_data\([^,]*, *VIEW_[A-Z_]+' "$f" | sed -E 's/.*VIEW_//' |
			grep -vx "$own" | sed "s|^|$f: reaches view |"
		grep -oE '#include "tui/view-[a-z]+\.h"' "$f" | sed -E 's|.*tui/view-||; s|\.h"||' |
			grep -vx "$name" | sed "s|^|$f: includes view-|"
		# its functions (not static), named in any file not its view's
		sed -e '/^static/d' "$f" |
			sed -nE 's/^[a-z][a-z0-9_ *]*[ *]([a-z_][a-z0-9_]*)\(.*/\1/p' |
		while read -r fn; do
			grep -lw "$fn" tui/*.c | grep -vE "^tui/view-$name(-[a-z-]+)?\.c$" |
				sed "s|\$|: calls $fn of $f|"
		done
	done
	grep -nE '^struct [a-z_]+_view \{' tui/tui.h 2>/dev/null | sed 's|^|tui/tui.h:|'
)
# the check itself finds each kind of crossing
mkdir -p "$TMP/views/tui"
printf '#include "tui/views.h"\n' >"$TMP/views/tui/view-a.c"
printf 'x = tui_view_data(t, VIEW_B);\n#include "tui/view-b.h"\nint b_rows(struct tui *t)\n' \
	>>"$TMP/views/tui/view-a.c"
printf 'static void f(void) { b_rows(t); }\n' >"$TMP/views/tui/view-b-draw.c"
printf 'static int own(void) { return b_rows(t); }\n' >"$TMP/views/tui/view-a-more.c"
printf 'struct a_view {\n' >"$TMP/views/tui/tui.h"
got=$(view_crossings "$TMP/views" | wc -l)
[ "$got" -eq 5 ] || fail "view_crossings finds $got of 5 crossings: $(view_crossings "$TMP/views")"
ok
crossings=$(view_crossings . | tr '\n' ';')
[ -z "$crossings" ] || fail "a view's state or functions reached from outside it: $crossings"
ok

# One concern a file (issues 27 and 43): no engine/, arch/ or tui/ source
# over 1,000 lines but these, each still to be split; an exception no longer
# over must leave the list.  (none left: profile.c, unwind.c and callgraph.c
# were split by concern, arch/plan.c's tables went to plan-partners.c.)  A
# generated table (its first line "Generated by ...: do not edit", as
# arch/perf-events-data.c) is data, not a concern: it is not counted.
BIG_FILES=""
for f in engine/*.[ch] arch/*.[ch] tui/*.[ch]; do
	head -n 1 "$f" | grep -qE '^/\* Generated by .*do not edit' && continue
	n=$(wc -l <"$f")
	case " $BIG_FILES " in
	*" $f "*)
		[ "$n" -gt 1000 ] || fail "$f has $n lines: take it off style-checks.sh's BIG_FILES"
		;;
	*)
		[ "$n" -le 1000 ] || fail "$f has $n lines, over 1,000: split it by concern"
		;;
	esac
done
ok

# One owner for each fact about a record (issue 27, part 3): each REC_*
# constant is defined once, perf's own record types (64 and on) in
# engine/perfdata.h only, and the sample layout (where a field sits, from
# the sample_type bits before it) is counted in engine/record.c only.
dups=$(grep -rhoE '^#define REC_[A-Z0-9_]+' arch engine tui tests --include='*.[ch]' |
	sed 's/^#define //' | sort | uniq -d | tr '\n' ' ')
[ -z "$dups" ] || fail "REC_* constants defined more than once: $dups"
ok
files=$(grep -rlE '^#define REC_[A-Z0-9_]+[[:space:]]+(6[4-9]|[78][0-9])\b' arch engine tui tests \
	--include='*.[ch]' | sort | tr '\n' ' ')
[ "$files" = "engine/perfdata.h " ] || fail "perf's record types defined outside engine/perfdata.h: $files"
ok
files=$(grep -rlE '!!\([a-z_>.-]+ & PERF_SAMPLE_' arch engine tui --include='*.c' | sort | tr '\n' ' ')
[ "$files" = "engine/record.c " ] || fail "the sample layout computed outside engine/record.c: $files"
ok
# ... and a sample's register sets are one struct each (struct rec_regs)
n=$(count_matches '\b(regs_abi|n_regs|regs_mask)\b' engine/record.h)
[ "$n" -eq 0 ] || fail "engine/record.h carries loose REGS_USER fields ($n lines)"
ok
# ... and which event a record is of is answered once, when it is queued
# (the source's stamp), the queue keeping it: one id lookup a sample in
# each source's stamp, none where it is decoded, cut or added
n=$(sed -n '/^static void file_stamp(/,/^}/p' engine/session-file.c | grep -c 'perfdata_record_attr(' || true)
m=$(count_matches 'perfdata_record_attr\(' engine/session*.c)
[ "$n" -eq 1 ] && [ "$m" -eq 1 ] || fail "a file's sample event found outside file_stamp ($m calls)"
ok
n=$(sed -n '/^static void live_stamp(/,/^}/p' engine/session-live.c | grep -c 'session_event_of(' || true)
m=$(count_matches 'session_event_of\(' engine/session*.c)
[ "$n" -eq 1 ] && [ "$m" -eq 2 ] ||  # live_stamp's, and its definition
	fail "a live sample's event found outside live_stamp ($m lines)"
ok
# ... and a sample that reads counters is weighed per counter without a
# copy of the sample per counter
body=$(sed -n '/^static void add_read_values(/,/^}/p' engine/session.c)
[ -n "$body" ] || fail "no add_read_values in engine/session.c (the rule below reads it)"
! printf '%s\n' "$body" | grep -q 'struct rec_sample [a-z_]* = ' ||
	fail "add_read_values copies the sample for each counter"
ok

# Stable identities in the profile (issue 27, part 4): snapshots point at
# the profile's interned names instead of copying them, module totals are
# found by pointer (no strcmp a module while summing), and thread and
# process life carries no record time (records come in time order).
n=$(count_matches 'copy_str\([^,]*, *[a-z_]+->([a-z_]+->)?(name|module)\)' engine/profile*.c)
[ "$n" -eq 0 ] || fail "engine/profile*.c copy interned names into snapshots ($n lines)"
ok
n=$(count_matches '^static int add_modules' engine/profile*.c)
[ "$n" -eq 1 ] || fail "engine/profile*.c define add_modules $n times (the rule below reads it)"
n=$(sed -n '/^static int add_modules/,/^}/p' engine/profile*.c | grep -c strcmp || true)
[ "$n" -eq 0 ] || fail "engine/profile*.c's add_modules compares module strings ($n lines)"
ok
n=$(count_matches 'profile_(thread|process)_(fork|exit)\([^)]*time' engine/profile.h)
[ "$n" -eq 0 ] || fail "engine/profile.h: FORK/EXIT take a time again ($n lines)"
ok
# A sample's row hint is two pointer compares, the strings never read: the
# session tells the profile when the symbol tables that gave them are freed
body=$(sed -n '/^static struct func_row \*row_cached(/,/^}/p' engine/profile*.c)
[ -n "$body" ] || fail "no row_cached in engine/profile*.c (the rule below reads it)"
n=$(printf '%s\n' "$body" | grep -cE 'str(n)?cmp|memcmp' || true)
[ "$n" -eq 0 ] || fail "engine/profile.c's row_cached confirms a hint by content ($n lines)"
ok
n=$(sed -n '/^static void spaces_evict_exited(/,/^}/p' engine/session-space.c |
	grep -c 'profile_symbols_freed(' || true)
[ "$n" -eq 1 ] || fail "engine/session-space.c frees symbol tables without telling the profile"
ok
# ... and that is the one place a session frees a symbol table (another
# must call profile_symbols_freed too)
files=$(grep -lE '(^|[^a-z_])symtab_free\(' engine/*.c | grep -v '^engine/symbols\.c$' | tr '\n' ' ')
[ "$files" = "engine/session-space.c " ] || fail "symbol tables freed outside session-space.c: $files"
ok
# ... and the profile and the unwinder are one concern a file (issue 27):
# the snapshots (sorted copies) in profile-snapshot.c, thread and process
# life in profile-tasks.c; libunwind's accessors in unwind.c, the ELF files
# in unwind-files.c, the learnt steps in unwind-steps.c
rooms() { # PATTERN FILES EXPECTED
	got=$(grep -lE "$1" $2 | tr '\n' ' ')
	[ "$got" = "$3 " ] || fail "$1 belongs in $3 alone, found in: $got"
	ok
}
rooms 'qsort|^struct snapshot \*' "engine/profile*.c" engine/profile-snapshot.c
rooms '^void profile_(thread|process)_(fork|exit)' "engine/profile*.c" engine/profile-tasks.c
rooms 'unw_accessors_t|unw_create_addr_space' "engine/unwind*.c" engine/unwind.c
rooms 'elf_begin|PT_GNU_EH_FRAME' "engine/unwind*.c" engine/unwind-files.c
rooms 'step_learn|STEPS_MAX' "engine/unwind*.c" engine/unwind-steps.c
# The call graph's snapshots share what never changes (issue 27, part 4):
# function names and modules, and each node's function and parent, stay in
# the store the graph and its snapshots own together
# (engine/callgraph-priv.h); a snapshot copies the counts only.  So struct
# cg_snapshot holds no strings and no per-node fid/parent array of its own,
# and no snapshot code measures or duplicates them.
body=$(sed -n '/^struct cg_snapshot {/,/^};/p' engine/callgraph*.c)
[ -n "$body" ] || fail "no struct cg_snapshot in engine/callgraph*.c"
! printf '%s\n' "$body" | grep -qE '\bchar \*|\*(fid|parent)\b' ||
	fail "struct cg_snapshot keeps its own copy of the strings or of fid/parent"
ok
n=$(count_matches 'dup_mem\([a-z_]+->(fid|parent)\b|strlen\([a-z_]+->fns\[' engine/callgraph*.c)
[ "$n" -eq 0 ] || fail "engine/callgraph*.c copies function strings or fid/parent into snapshots ($n lines)"
ok

# tests/ in its folders (issue 27): a cmocka program and what it includes
# in unit/, a script make check runs and the helpers it calls in e2e/, a
# fuzz target, its replay script and its seeds in fuzz/ (data/ and arm64/
# beside them); loose at the top only the checks of the whole tree.
# tests_loose DIR prints what is out of its place in DIR's tests/ (its
# sources and scripts: not what an in-tree build leaves) and in
# Makefile.am's lists of tests.
tests_loose() {
	(cd "$1/tests" && find . -type f \( -name '*.[ch]' -o -name '*.inc' -o -name '*.sh' -o \
		-name '*.py' \) ! -path './data/*' ! -path './arm64/*') | sed 's|^\./||' |
		while read -r f; do
			case $f in
			style-checks.sh | package.sh | distro.sh | summary.sh | stages.sh) ;;
			unit/test-*.c | unit/*.h | unit/*.inc) ;;
			*test-*.c | unit/*) echo "tests/$f" ;;
			fuzz/fuzz-*.c | fuzz/fuzz-*.sh | fuzz/*.py) ;;
			*fuzz-* | fuzz/*) echo "tests/$f" ;;
			e2e/*) ;;
			*) echo "tests/$f" ;;
			esac
		done
	# the tests make check runs: UNIT_TESTS, E2E_TESTS, continuation lines
	awk '/^(UNIT|E2E)_TESTS[ \t]*\+?=/ { v = $1; on = 1 }
		on { for (i = 1; i <= NF; i++) if ($i ~ /^tests\//) print v, $i; on = /\\$/ }' \
		"$1/Makefile.am" | while read -r v t; do
		case "$v $t" in
		"UNIT_TESTS tests/unit/test-"*) ;;
		"E2E_TESTS tests/e2e/"*.sh | "E2E_TESTS tests/fuzz/fuzz-"*.sh) ;;
		"E2E_TESTS tests/style-checks.sh") ;;
		*) echo "$v: $t" ;;
		esac
	done
}
# the check itself finds the old flat layout's kinds of file
mkdir -p "$TMP/flat/tests/e2e"
: >"$TMP/flat/tests/test-foo.c"
: >"$TMP/flat/tests/fuzz-foo.c"
: >"$TMP/flat/tests/foo.sh"
: >"$TMP/flat/tests/e2e/test-bar.c"
printf 'UNIT_TESTS = tests/test-foo\nE2E_TESTS = tests/e2e/a.sh \\\n\ttests/foo.sh\n' \
	>"$TMP/flat/Makefile.am"
want="E2E_TESTS: tests/foo.sh UNIT_TESTS: tests/test-foo tests/e2e/test-bar.c tests/foo.sh"
want="$want tests/fuzz-foo.c tests/test-foo.c "
[ "$(tests_loose "$TMP/flat" | LC_ALL=C sort | tr '\n' ' ')" = "$want" ] ||
	fail "tests_loose misses loose files: $(tests_loose "$TMP/flat" | tr '\n' ' ')"
ok
loose=$(tests_loose . | tr '\n' ' ')
[ -z "$loose" ] || fail "out of tests/unit/, e2e/ or fuzz/: $loose"
ok
done_ok
