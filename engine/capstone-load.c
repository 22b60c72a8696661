/* capstone is loaded when AArch64 code is first decoded, not when cyctop
 * starts.  Its tables for every architecture it decodes cost each process
 * that maps it some 77,000 relocations and 3 MB of dirty pages (capstone 4
 * on Debian 12), a sixth of a watcher's resident memory, whether or not an
 * asm view of arm64 code is ever opened; an x86 watch never opens one.
 * perf loads libcapstone the same way (engine/lib-load.c).  The soname
 * is the one of the headers built against, so the structures agree. */
#include "config.h"

#include "engine/capstone-load.h"

#include <stddef.h>

#include "engine/lib-load.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#define SONAME "libcapstone.so." STR(CS_API_MAJOR)

static struct capstone_api api;
static struct lib_image image = { .soname = SONAME };

const struct capstone_api *capstone_api(void)
{
	const struct lib_sym sym[] = {
		{ (void **)&api.open, "cs_open" },
		{ (void **)&api.option, "cs_option" },
		{ (void **)&api.malloc, "cs_malloc" },
		{ (void **)&api.disasm_iter, "cs_disasm_iter" },
		{ (void **)&api.free, "cs_free" },
		{ (void **)&api.close, "cs_close" },
	};

	/* kept loaded: the asm cache's functions use it again */
	return lib_load(&image, sym, sizeof(sym) / sizeof(sym[0]), NULL, 0) == 0 ? &api : NULL;
}

const char *capstone_soname(void)
{
	return SONAME;
}
