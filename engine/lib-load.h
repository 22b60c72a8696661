/* Libraries loaded on first use (engine/lib-load.c): capstone (the AArch64
 * decoder), Zydis (the x86-64 one), libunwind (dwarf stacks), libzstd
 * (perf record -z files), libmicrohttpd (cyctop serve) and libpfm4 (naming
 * and encoding events).  Each user keeps its library's entry points in a
 * struct of function pointers typed by the library's own headers (LIB_FN),
 * and a struct lib_image, and calls lib_load before the first of them. */
#ifndef CYCTOP_LIB_LOAD_H
#define CYCTOP_LIB_LOAD_H

#include <stddef.h>

/* A member FN of the library's own type, named as the library names it:
 * struct { LIB_FN(MHD_start_daemon); } m; m.MHD_start_daemon(...). */
#define LIB_FN(fn) __typeof__(fn) *fn
/* The table's row of member FN of API: where dlsym's address goes.  FN is
 * expanded first: libunwind's unw_step is a macro for the symbol
 * _Ux86_64_step, which LIB_FN names the member too. */
#define LIB_SYM(api, fn) LIB_SYM_(api, fn)
#define LIB_SYM_(api, fn) { (void **)&(api).fn, #fn }

struct lib_sym {
	void **fn;
	const char *name;
};

/* One library and what its first load gave. */
struct lib_image {
	const char *soname;   /* "libmicrohttpd.so.12" (config.h, from configure) */
	int state;            /* 0 untried, then loaded or missing */
	char err[256];        /* why it is missing */
};

/* Loads IMG's library and the N entry points of SYM on the first call and
 * keeps it loaded (the entry points are used until exit); every later call
 * answers as the first did.  0, or -1 with one line in ERR naming the
 * library ("libmicrohttpd.so.12: cannot open shared object file: No such
 * file or directory", or the entry point it lacks).  Not thread-safe: the
 * first call comes before the library's threads. */
int lib_load(struct lib_image *img, const struct lib_sym *sym, size_t n, char *err,
	     size_t errsz);

#endif
