/* The views' ops, for tui.c's table alone: a view names another by its id
 * (enum view_id, tui/tui.h) and goes through tui.c's services. */
#ifndef TUI_VIEWS_H
#define TUI_VIEWS_H

#include "tui/tui.h"

extern const struct view_ops view_hotspots;   /* view-hotspots.c */
extern const struct view_ops view_procs;      /* -a: one row per process */
extern const struct view_ops view_tree;
extern const struct view_ops view_ilp;
extern const struct view_ops view_help;
extern const struct view_ops view_asm;
extern const struct view_ops view_callers;
extern const struct view_ops view_flame;      /* f: the flame graph */

#endif
