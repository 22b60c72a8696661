# Workload programs (included from the top-level Makefile.am).
#
# Installed in $(pkglibexecdir): used by "cyctop demo" and by the tests.
# Every program gets -O2 -g whatever CFLAGS says first, and
# -fno-inline-functions-called-once, so that the named kernels stay real,
# separate functions with their own .symtab entries (the sources also mark
# them noipa/noinline). libplugin.so is a plain PROGRAMS target linked with
# -shared (no libtool); the threads workload dlopen()s it.

#
# Never under the sanitizers (--enable-sanitizers checks cyctop): a
# workload's runtime start and LeakSanitizer's scan at exit would take
# samples from the work the tests measure (a tenth of a stripped mix's).
# Each program's LDFLAGS are set, empty or not, to keep AM_LDFLAGS' out.
WORKLOAD_CFLAGS = -std=gnu11 $(WARN_CFLAGS) -O2 -g -fno-inline-functions-called-once
# Each names its LDADD, empty where libc is all it needs: the global LDADD
# is the unit tests' (Makefile.am).

pkglibexec_PROGRAMS = \
	workloads/cyctop-demo \
	workloads/mix \
	workloads/faults \
	workloads/threads \
	workloads/libplugin.so

workloads_cyctop_demo_SOURCES = workloads/demo.c workloads/common.h
workloads_cyctop_demo_CFLAGS = $(WORKLOAD_CFLAGS)
workloads_cyctop_demo_LDFLAGS =
workloads_cyctop_demo_LDADD = $(M_LIBS)

workloads_mix_SOURCES = workloads/mix.c workloads/common.h
workloads_mix_LDADD =
workloads_mix_CFLAGS = $(WORKLOAD_CFLAGS)
workloads_mix_LDFLAGS =

workloads_faults_SOURCES = workloads/faults.c workloads/common.h
workloads_faults_LDADD =
workloads_faults_CFLAGS = $(WORKLOAD_CFLAGS)
workloads_faults_LDFLAGS =

workloads_threads_SOURCES = workloads/threads.c workloads/common.h
workloads_threads_CFLAGS = $(WORKLOAD_CFLAGS) -pthread
workloads_threads_LDFLAGS = -pthread
workloads_threads_LDADD = -ldl

workloads_libplugin_so_SOURCES = workloads/plugin.c workloads/common.h
workloads_libplugin_so_CFLAGS = $(WORKLOAD_CFLAGS) -fPIC
# libc named though nothing of it is called: a shared library states what
# it needs (lintian: shared-library-lacks-prerequisites), --as-needed or not
workloads_libplugin_so_LDFLAGS = -shared -fPIC -Wl,--no-as-needed
workloads_libplugin_so_LDADD = -lc

# callers: a known call tree (main -> caller_a 2:1 caller_b -> leaf_work)
# for the call-graph tests.  Unwinding must not lean on frame pointers, and
# no sibling calls, which would drop a caller's frame from the stack.
pkglibexec_PROGRAMS += workloads/callers
workloads_callers_SOURCES = workloads/callers.c workloads/common.h
workloads_callers_CFLAGS = $(WORKLOAD_CFLAGS) -fomit-frame-pointer -fno-optimize-sibling-calls
workloads_callers_LDFLAGS =
workloads_callers_LDADD = -ldl

# storm: hundreds of short-lived threads, optionally a dlopen/dlclose loop
# (tests/e2e/faults.sh).
pkglibexec_PROGRAMS += workloads/storm
workloads_storm_SOURCES = workloads/storm.c workloads/common.h
workloads_storm_CFLAGS = $(WORKLOAD_CFLAGS) -pthread
workloads_storm_LDFLAGS = -pthread
workloads_storm_LDADD = -ldl

# hostile: symbol, process and thread names with terminal escapes (ESC, BEL,
# CR, C1, bytes that are not UTF-8), and optionally a chatty stdout/stderr
# (tests/e2e/hostile.sh, tests/e2e/tui-child.sh).
pkglibexec_PROGRAMS += workloads/hostile
workloads_hostile_SOURCES = workloads/hostile.c workloads/common.h
workloads_hostile_LDADD =
workloads_hostile_CFLAGS = $(WORKLOAD_CFLAGS) -pthread
workloads_hostile_LDFLAGS = -pthread
# avx512 and jit are x86-64 code (HOST_X86_64, configure.ac).
if HOST_X86_64
# avx512: EVEX code (-mavx512f) for the asm view's tests against objdump
# (tests/e2e/annotate-evex.sh); its main runs on any x86-64 and exits 3 without
# AVX-512F.  "avx512 strings" drives glibc's __memcmp_evex_movbe and
# __strcmp_evex on AVX-512 hosts.
pkglibexec_PROGRAMS += workloads/avx512
workloads_avx512_SOURCES = workloads/avx512.c workloads/common.h
workloads_avx512_LDADD =
workloads_avx512_CFLAGS = $(WORKLOAD_CFLAGS) -mavx512f
workloads_avx512_LDFLAGS =

# jit: code in anonymous executable memory, named in /tmp/perf-PID.map as
# JIT runtimes name theirs for perf (tests/e2e/jit.sh).
pkglibexec_PROGRAMS += workloads/jit
workloads_jit_SOURCES = workloads/jit.c workloads/common.h
workloads_jit_LDADD =
workloads_jit_CFLAGS = $(WORKLOAD_CFLAGS)
workloads_jit_LDFLAGS =
endif

# spin: a deterministic amount of work (main -> spin_round -> spin_hot 3:1
# spin_cold), for exact counts in the arm64 guest (tests/arm64/guest.sh);
# frame pointers for -g fp.
pkglibexec_PROGRAMS += workloads/spin
workloads_spin_SOURCES = workloads/spin.c workloads/common.h
workloads_spin_LDADD =
workloads_spin_CFLAGS = $(WORKLOAD_CFLAGS) -fno-omit-frame-pointer -fno-optimize-sibling-calls
workloads_spin_LDFLAGS =

# diffwork: the before/after workload of cyctop diff (tests/e2e/diff.sh), built
# twice from one source: the base, and with -DHALF (one kernel does half
# its work) under half/, with the same basename so that functions match
# across the two builds.  Test programs only, not installed.
noinst_PROGRAMS = workloads/diffwork workloads/half/diffwork
workloads_diffwork_SOURCES = workloads/diffwork.c workloads/common.h
workloads_diffwork_LDADD =
workloads_diffwork_CFLAGS = $(WORKLOAD_CFLAGS)
workloads_diffwork_LDFLAGS =
workloads_half_diffwork_SOURCES = workloads/diffwork.c workloads/common.h
workloads_half_diffwork_LDADD =
workloads_half_diffwork_CFLAGS = $(WORKLOAD_CFLAGS) -DHALF
workloads_half_diffwork_LDFLAGS =

# offcpu: waits of each kind, measured by the program itself, for the
# off-CPU tests (tests/e2e/offcpu.sh).  Not installed.
noinst_PROGRAMS += workloads/offcpu
workloads_offcpu_SOURCES = workloads/offcpu.c workloads/common.h
workloads_offcpu_CFLAGS = $(WORKLOAD_CFLAGS) -pthread
workloads_offcpu_LDFLAGS = -pthread
workloads_offcpu_LDADD =
