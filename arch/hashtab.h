/* The hash table moved to lib/hashtab.h (issue 27: arch/ holds data and
 * formulas, not generic containers).  This forward serves the files that
 * other branches of the same round still change (engine/disasm.c,
 * engine/perfdata.c, engine/symbols.c and what they split off): once they
 * are merged their includes name lib/hashtab.h and this file goes. */
#include "lib/hashtab.h"
