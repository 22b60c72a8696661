/* capstone, loaded on first use (engine/capstone-load.c). */
#ifndef CYCTOP_CAPSTONE_LOAD_H
#define CYCTOP_CAPSTONE_LOAD_H

#include <capstone/capstone.h>
#include <stdbool.h>

/* The capstone calls the AArch64 decoder makes. */
struct capstone_api {
	cs_err (*open)(cs_arch arch, cs_mode mode, csh *handle);
	cs_err (*option)(csh handle, cs_opt_type type, size_t value);
	cs_insn *(*malloc)(csh handle);
	bool (*disasm_iter)(csh handle, const uint8_t **code, size_t *size, uint64_t *address,
			    cs_insn *insn);
	void (*free)(cs_insn *insn, size_t count);
	cs_err (*close)(csh *handle);
};

/* The library of the headers cyctop was built with, loaded by the first
 * call; NULL if it cannot be (every later call says the same). */
const struct capstone_api *capstone_api(void);
/* Its file name, "libcapstone.so.N", for an error. */
const char *capstone_soname(void);

#endif
