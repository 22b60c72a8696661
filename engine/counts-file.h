/* Loading counts files (and penalty files) from disk. */
#ifndef ENGINE_COUNTS_FILE_H
#define ENGINE_COUNTS_FILE_H

#include <stddef.h>

#include "arch/counts.h"
#include "arch/penalty.h"

/* Largest file read: counts files are small text; anything bigger is a
 * mistake (a binary, a log) and is refused instead of read. */
#define COUNTS_FILE_MAX (16u << 20)

/* Reads PATH into a NUL-terminated buffer (caller frees), or NULL with a
 * reason in ERR. */
char *file_slurp(const char *path, size_t *len, char *err, size_t errsz);

/* Loads each file and merges them into C. */
int counts_load_files(struct counts *c, char *const *paths, int n, char *err, size_t errsz);

int penalties_load(struct penalties *p, const char *spec, char *err, size_t errsz);

#endif
