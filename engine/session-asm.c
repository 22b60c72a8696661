/* The asm view's functions (engine/disasm.h): the address space whose
 * mapping holds a function, its instructions decoded once into the
 * session's asm cache, and the profile's per-address samples at its
 * addresses. */
#include "engine/session.h"
#include "engine/session-priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/disasm.h"
#include "engine/symbols.h"

/* --- asm ---------------------------------------------------------------- */

struct ip_counts *session_ip_counts(struct session *s, const struct asm_func *fn)
{
	struct ip_counts *c = profile_ip_counts(s->prof, fn->name, fn->module);
	uint64_t base;

	/* from the profile's addresses of the file to FN's (its space's) */
	if (c && session_canonical_base(s, fn->module, &base))
		for (size_t i = 0; i < c->n; i++)
			c->ips[i].ip += fn->bias - base;
	return c;
}

/* The address space where ADDR is NAME in MODULE: the target's first. */
static struct symtab *space_of(struct session *s, uint64_t addr, const char *name,
			       const char *module)
{
	struct space *first = space_find(s, s->target.pid);

	for (int k = -1; k < s->nspaces; k++) {
		struct space *sp = k < 0 ? first : &s->spaces[k];
		struct sym_info si;
		if (!sp || !symtab_lookup(sp->st, addr, &si) || !si.module ||
		    strcmp(si.module, module) != 0)
			continue;
		if ((!si.name && strcmp(name, "[unknown]") == 0) || (si.name && !strcmp(si.name, name)))
			return sp->st;
	}
	return NULL;
}

/* A function without samples: looked up by name. */
static const struct asm_func *asm_by_name(struct session *s, const char *name,
					  const char *module, char *err, size_t errsz)
{
	struct space *sp = space_find(s, s->target.pid);
	struct sym_info si;

	if (!sp && s->nspaces > 0)
		sp = &s->spaces[0];
	if (!sp || !symtab_find(sp->st, name, module, &si)) {
		snprintf(err, errsz, "function '%s' not found%s%s%s", name, module ? " in " : "",
			 module ? module : "",
			 s->src->recorded ? " (are the recorded binaries where the file says? --symfs DIR)"
				 : "");
		return NULL;
	}
	return asm_cache_get(s->asmc, sp->st, si.start, si.start, err, errsz);
}

/* A space that maps MODULE, where the profile's address ADDR of NAME's
 * file is ADDR + *DELTA (the first process seen in the file may have
 * exited: another maps it elsewhere); NULL if none. */
static struct symtab *space_mapping(struct session *s, uint64_t addr, const char *name,
				    const char *module, uint64_t *delta)
{
	struct space *first = space_find(s, s->target.pid);
	uint64_t base;

	*delta = 0;
	struct symtab *st = space_of(s, addr, name, module);
	if (st || !session_canonical_base(s, module, &base) || strcmp(name, "[unknown]") == 0)
		return st;
	for (int k = -1; k < s->nspaces; k++) {
		struct space *sp = k < 0 ? first : &s->spaces[k];
		struct sym_info si;
		if (!sp || !symtab_find(sp->st, name, module, &si) || !si.module ||
		    strcmp(si.module, module) != 0)
			continue;
		*delta = si.module_base - base;
		if (symtab_lookup(sp->st, addr + *delta, &si) && si.name && !strcmp(si.name, name))
			return sp->st;
	}
	return NULL;
}

const struct asm_func *session_asm(struct session *s, const char *name, const char *module,
				   char *err, size_t errsz)
{
	struct ip_counts *ipc = module ? profile_ip_counts(s->prof, name, module) : NULL;
	const struct asm_func *fn = NULL;
	struct symtab *st;
	uint64_t d;

	if (!s->asmc && !(s->asmc = asm_cache_new())) {
		snprintf(err, errsz, "out of memory");
		free(ipc);
		return NULL;
	}
	if (ipc && ipc->n > 0 && (st = space_mapping(s, ipc->ips[0].ip, name, module, &d)))
		fn = asm_cache_get(s->asmc, st, ipc->ips[0].ip + d, ipc->ips[ipc->n - 1].ip + d,
				   err, errsz);
	else if (strcmp(name, "[unknown]") == 0)
		snprintf(err, errsz, "no samples in unknown code of %s", module ? module : "?");
	else
		fn = asm_by_name(s, name, module, err, errsz);
	free(ipc);
	return fn;
}

const struct asm_func *session_asm_at(struct session *s, const struct asm_func *from,
				      uint64_t addr, char *err, size_t errsz)
{
	for (int k = 0; k < s->nspaces; k++) {
		struct sym_info si;
		if (symtab_lookup(s->spaces[k].st, from->start, &si) && si.module == from->module &&
		    symtab_lookup(s->spaces[k].st, addr, &si) && si.name)
			return asm_cache_get(s->asmc, s->spaces[k].st, addr, addr, err, errsz);
	}
	snprintf(err, errsz, "0x%" PRIx64 ": no function there", addr);
	return NULL;
}
