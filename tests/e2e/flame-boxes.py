#!/usr/bin/env python3
"""The flame view's boxes from `tmux capture-pane -e -p` (tests/e2e/tui-flame.sh).

Reads the pane with its SGR escapes on stdin and prints one line per box:
ROW X WIDTH NAME STYLE, where a box starts at a border character (U+258F, or
'|' without UTF-8) or at a change of style, and ends before the next border
or style change.  STYLE names the box's foreground, background and
attributes, so two boxes drawn with different colour pairs differ in it."""
import re
import sys

BORDERS = ("\u258f", "|")


def parse_sgr(params, st):
    fg, bg, attrs = st
    attrs = set(attrs)
    ps = [int(p) if p else 0 for p in params.split(";")] if params else [0]
    i = 0
    while i < len(ps):
        p = ps[i]
        if p == 0:
            fg, bg, attrs = "d", "d", set()
        elif p in (1, 2, 3, 4, 5, 7):
            attrs.add(p)
        elif p in (21, 22):
            attrs -= {1, 2}
        elif p in (23, 24, 25, 27):
            attrs.discard(p - 20)
        elif 30 <= p <= 37 or 90 <= p <= 97:
            fg = str(p)
        elif p == 39:
            fg = "d"
        elif 40 <= p <= 47 or 100 <= p <= 107:
            bg = str(p)
        elif p == 49:
            bg = "d"
        elif p in (38, 48) and i + 2 < len(ps) and ps[i + 1] == 5:
            if p == 38:
                fg = "5:%d" % ps[i + 2]
            else:
                bg = "5:%d" % ps[i + 2]
            i += 2
        i += 1
    return (fg, bg, frozenset(attrs))


def cells(line, st):
    """The line's characters with their style; the style carries over."""
    out = []
    i = 0
    while i < len(line):
        m = re.match(r"\x1b\[([0-9;]*)m", line[i:])
        if m:
            st = parse_sgr(m.group(1), st)
            i += m.end()
            continue
        if line[i] == "\x1b":  # another escape: skip it
            m = re.match(r"\x1b\[[0-9;?]*[A-Za-z]", line[i:])
            i += m.end() if m else 1
            continue
        out.append((line[i], st))
        i += 1
    return out, st


def style_name(st):
    fg, bg, attrs = st
    return "fg%s/bg%s/%s" % (fg, bg, "".join(str(a) for a in sorted(attrs)) or "-")


def main():
    st = ("d", "d", frozenset())
    for row, line in enumerate(sys.stdin.read().split("\n")):
        cs, st = cells(line, st)
        x = 0
        while x < len(cs):
            ch, s = cs[x]
            if ch not in BORDERS and s[1] == "d" and 7 not in s[2]:
                x += 1  # no background: not a box
                continue
            start = x
            x += 1
            while x < len(cs) and cs[x][1] == s and cs[x][0] not in BORDERS:
                x += 1
            text = "".join(c for c, _ in cs[start:x])
            name = text.lstrip("".join(BORDERS)).strip() or "-"
            print(row, start, x - start, name.split()[0], style_name(s))


main()
