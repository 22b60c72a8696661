/* Loading a library on first use (engine/lib-load.h), for capstone
 * (engine/capstone-load.c), Zydis (engine/disasm-x86.c), libunwind
 * (engine/unwind.c), libzstd (engine/perfdata-read.c), libmicrohttpd
 * (engine/http.c) and libpfm4 (engine/pfm.c).  A library in DT_NEEDED
 * costs every start of cyctop its mapping, relocations and its
 * dependencies' constructors, used or not: linked, libmicrohttpd brings
 * gnutls, p11-kit, libtasn1, nettle, hogweed, gmp, idn2, unistring and
 * ffi, 5 ms of CPU on each start (an empty main linked with
 * -lmicrohttpd: 7.2 ms against 2.1, medians of 15 on Debian 12), and
 * libpfm4 4.2 ms of its tables' relocations, while only cyctop serve
 * listens and reading a recording rarely names an event through libpfm4.
 * Zydis, libunwind (two files) and libzstd took some 1.3 ms more (an
 * empty main with cyctop's libraries: 5.0 ms, 152 page faults; without
 * these and libprotobuf-c 3.7 ms), for annotate, dwarf stacks and perf
 * record -z files alone.  perf loads libcapstone the same way.  dlopen is no syscall of the sys
 * seam: the library's own file, as the dynamic linker would map it. */
#include "engine/lib-load.h"

#include <dlfcn.h>
#include <stdio.h>

enum { UNTRIED, LOADED, MISSING };

static int load(struct lib_image *img, const struct lib_sym *sym, size_t n)
{
	void *h = dlopen(img->soname, RTLD_NOW | RTLD_LOCAL);
	const char *why;

	if (!h) {
		why = dlerror();
		snprintf(img->err, sizeof(img->err), "%s", why ? why : img->soname);
		return MISSING;
	}
	for (size_t i = 0; i < n; i++)
		if (!(*sym[i].fn = dlsym(h, sym[i].name))) {
			snprintf(img->err, sizeof(img->err), "%s: no %s (another version?)",
				 img->soname, sym[i].name);
			dlclose(h);
			return MISSING;
		}
	return LOADED;
}

int lib_load(struct lib_image *img, const struct lib_sym *sym, size_t n, char *err,
	     size_t errsz)
{
	if (img->state == UNTRIED)
		img->state = load(img, sym, n);
	if (img->state == LOADED)
		return 0;
	if (err)
		snprintf(err, errsz, "%s", img->err);
	return -1;
}
