/* Source files read for the asm view's interleaved lines; each file is
 * read once and kept (by path) until the cache is freed. */
#ifndef ENGINE_SOURCE_H
#define ENGINE_SOURCE_H

struct src_cache;

struct src_cache *src_cache_new(void);
void src_cache_free(struct src_cache *c);
/* Line LINE (from 1) of FILE without its newline, or NULL when the file
 * cannot be read or is shorter.  Valid until the cache is freed. */
const char *src_cache_line(struct src_cache *c, const char *file, int line);

#endif
