#!/usr/bin/env python3
"""A tmux pane as HTML, for pictures of the view (doc/figures).

Reads `tmux capture-pane -e -p` (the pane with its SGR escapes) on stdin
and writes one HTML page on stdout: a <pre> of the pane's cells, each run
of one style a <span> with xterm's default colours (the 8 colours and
their bright forms, 256-colour indexes, bold, dim, reverse).  Chromium's
--screenshot then makes a PNG of it (tests/e2e/tui-flame.sh with FLAME_SHOTS).
The escapes are parsed by tests/e2e/flame-boxes.py's rules."""
import html
import importlib.util
import os
import sys

spec = importlib.util.spec_from_file_location(
    "boxes", os.path.join(os.path.dirname(os.path.abspath(__file__)), "flame-boxes.py"))
boxes = importlib.util.module_from_spec(spec)
sys.stdin, stdin = open(os.devnull), sys.stdin  # flame-boxes.py runs main() on import
spec.loader.exec_module(boxes)
sys.stdin = stdin

# xterm's palette
BASE = ["#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
        "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff"]
FG, BG = "#e5e5e5", "#101010"


def colour(c, default):
    if c == "d":
        return default
    if c.startswith("5:"):
        n = int(c[2:])
        if n < 16:
            return BASE[n]
        if n < 232:
            n -= 16
            v = [0, 95, 135, 175, 215, 255]
            return "#%02x%02x%02x" % (v[n // 36], v[n // 6 % 6], v[n % 6])
        g = 8 + 10 * (n - 232)
        return "#%02x%02x%02x" % (g, g, g)
    n = int(c)
    if 30 <= n <= 37:
        return BASE[n - 30]
    if 90 <= n <= 97:
        return BASE[n - 90 + 8]
    if 40 <= n <= 47:
        return BASE[n - 40]
    return BASE[n - 100 + 8]


def css(st):
    fg, bg, attrs = st
    f, b = colour(fg, FG), colour(bg, BG)
    if 1 in attrs and fg != "d" and 30 <= int(fg if fg.isdigit() else 0) <= 37:
        f = BASE[int(fg) - 30 + 8]  # bold brightens, as xterm does
    if 7 in attrs:
        f, b = b, f
    out = "color:%s;background:%s" % (f, b)
    if 1 in attrs:
        out += ";font-weight:bold"
    if 2 in attrs:
        out += ";opacity:0.6"
    return out


def main():
    st = ("d", "d", frozenset())
    rows = []
    for line in sys.stdin.read().rstrip("\n").split("\n"):
        cs, st = boxes.cells(line, st)
        spans, run, run_st = [], "", None
        for ch, s in cs:
            if s != run_st and run:
                spans.append('<span style="%s">%s</span>' % (css(run_st), html.escape(run)))
                run = ""
            run_st = s
            run += ch
        if run:
            spans.append('<span style="%s">%s</span>' % (css(run_st), html.escape(run)))
        rows.append("".join(spans))
    print('<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0;background:%s}'
          'pre{margin:6px;font:13px/1.2 "DejaVu Sans Mono",monospace;color:%s}</style></head>'
          "<body><pre>%s</pre></body></html>" % (BG, FG, "\n".join(rows)))


main()
