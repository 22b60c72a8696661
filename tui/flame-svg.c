/* --format flame: the flame graph as an SVG, as flamegraph.pl draws one
 * (one <g> a frame: a <title> "name (N samples, P%[, metric V])", a
 * <rect>, the name clipped to the box) but as an icicle, the roots at the
 * top like the terminal view, and coloured by a metric of the counters
 * rather than by a random warm hue.  A small script zooms on click and
 * searches (Ctrl-F or the "Search" button), as flamegraph.pl's does. */
#include "tui/flame-svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SVG_W 1200.0
#define FRAME_H 16.0
#define PAD_TOP 52.0
#define PAD_SIDE 10.0
#define MIN_PX 0.1         /* flamegraph.pl's --minwidth: thinner frames left out */
#define FONT_PX 12.0
#define CHAR_PX (FONT_PX * 0.59)

/* The scale's colours, cool to hot (the default theme's flame0..flame5). */
static const char *const scale_rgb[FLAME_BUCKETS] = {
	"rgb(70,110,220)", "rgb(70,190,210)", "rgb(90,190,90)",
	"rgb(230,210,60)", "rgb(210,90,200)", "rgb(225,50,40)",
};

static void xml_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			/* XML 1.0 forbids most control characters */
			fputc((unsigned char)*s < 0x20 ? '?' : *s, out);
		}
	}
}

/* flamegraph.pl's "hot" palette for frames without a value: by name, so a
 * function keeps its colour. */
static void name_rgb(char *buf, size_t sz, const char *name)
{
	unsigned h = 0;

	for (const char *p = name; *p; p++)
		h = h * 31 + (unsigned char)*p;
	snprintf(buf, sz, "rgb(%u,%u,%u)", 205 + h % 50, (h >> 8) % 230, (h >> 16) % 55);
}

/* baseline-delta as flamegraph.pl's differential graphs (difffolded.pl,
 * --negate off): white unchanged, redder the more a frame grew, bluer the
 * more it shrank, on the largest |delta| shown. */
static void delta_rgb(char *buf, size_t sz, double v, double max)
{
	double s = max > 0 ? fabs(v) / max : 0;
	unsigned c = (unsigned)(255 - 200 * (s > 1 ? 1 : s) + 0.5);

	if (v > 0)
		snprintf(buf, sz, "rgb(255,%u,%u)", c, c);
	else if (v < 0)
		snprintf(buf, sz, "rgb(%u,%u,255)", c, c);
	else
		snprintf(buf, sz, "rgb(255,255,255)");
}

struct svg {
	FILE *out;
	const struct flame *f;
	const struct flame_metric *m;
	double lo, hi;
	uint64_t total;
	int depth;                  /* deepest frame drawn */
};

static void range(struct svg *g, int node)
{
	double v = flame_value(g->f, node, g->m);

	if (node > 0 && !isnan(v)) {
		g->lo = v < g->lo ? v : g->lo;
		g->hi = v > g->hi ? v : g->hi;
	}
	if (g->f->nodes[node].depth > g->depth)
		g->depth = g->f->nodes[node].depth;
	for (int c = g->f->nodes[node].first_child; c >= 0; c = g->f->nodes[c].next)
		if ((double)flame_total(g->f, c, 0) / (double)g->total * (SVG_W - 2 * PAD_SIDE) >=
		    MIN_PX)
			range(g, c);
}

static void frame(struct svg *g, int node, uint64_t start)
{
	const struct flame *f = g->f;
	uint64_t n = flame_total(f, node, 0);
	double span = SVG_W - 2 * PAD_SIDE;
	double x = PAD_SIDE + (double)start / (double)g->total * span;
	double w = (double)n / (double)g->total * span;
	double y = PAD_TOP + f->nodes[node].depth * FRAME_H;
	double v = flame_value(f, node, g->m);
	char rgb[32];

	if (w < MIN_PX)
		return;
	if (g->m->kind == FM_NONE || isnan(v))
		name_rgb(rgb, sizeof(rgb), f->nodes[node].name);
	else if (g->m->kind == FM_DELTA)
		delta_rgb(rgb, sizeof(rgb), v, g->hi);
	else
		snprintf(rgb, sizeof(rgb), "%s", scale_rgb[flame_bucket(v, g->lo, g->hi) < 0 ? 0
				: flame_bucket(v, g->lo, g->hi)]);
	fputs("<g class=\"f\"><title>", g->out);
	xml_text(g->out, f->nodes[node].name);
	fprintf(g->out, " (%llu samples, %.2f%%", (unsigned long long)n,
		100.0 * (double)n / (double)g->total);
	if (g->m->kind != FM_NONE) {
		fputs(", ", g->out);
		xml_text(g->out, g->m->name);
		if (isnan(v))
			fputs(" n/a", g->out);
		else
			fprintf(g->out, " %.4g", v);
	}
	fprintf(g->out, ")</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
		"fill=\"%s\" rx=\"2\" ry=\"2\" data-samples=\"%llu\"/>", x, y, w, FRAME_H - 1, rgb,
		(unsigned long long)n);
	/* the name clipped to the box, as flamegraph.pl's ".." */
	size_t fit = w > 3 * CHAR_PX ? (size_t)((w - 3) / CHAR_PX) : 0;
	const char *name = f->nodes[node].name;
	fprintf(g->out, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FRAME_H - 4.5);
	if (fit >= 3 && strlen(name) > fit) {
		char cut[512];
		snprintf(cut, sizeof(cut), "%.*s..", (int)(fit - 2 < sizeof(cut) - 3 ? fit - 2
							    : sizeof(cut) - 3), name);
		xml_text(g->out, cut);
	} else if (fit >= 3) {
		xml_text(g->out, name);
	}
	fputs("</text></g>\n", g->out);
	for (int c = f->nodes[node].first_child; c >= 0; c = f->nodes[c].next) {
		frame(g, c, start);
		start += flame_total(f, c, 0);
	}
}

/* Click a frame: it fills the width, its ancestors too, the rest hidden;
 * click the background or "Reset zoom" to go back.  Search: frames whose
 * name matches a regular expression turn magenta, their share shown. */
static const char script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"var frames = [];\n"
	"function init() {\n"
	"  var gs = document.getElementsByClassName('f');\n"
	"  for (var i = 0; i < gs.length; i++) {\n"
	"    var r = gs[i].getElementsByTagName('rect')[0], t = gs[i].getElementsByTagName('text')[0];\n"
	"    frames.push({ g: gs[i], r: r, t: t, x: +r.getAttribute('x'), w: +r.getAttribute('width'),\n"
	"                  y: +r.getAttribute('y'), name: t.textContent, full: gs[i].firstChild.textContent,\n"
	"                  fill: r.getAttribute('fill') });\n"
	"    gs[i].onclick = (function (f) { return function (e) { zoom(f); e.stopPropagation(); }; })(frames[i]);\n"
	"  }\n"
	"}\n"
	"function label(f, x, w) {\n"
	"  var n = f.full.replace(/ \\(\\d+ samples.*$/, ''), fit = Math.floor((w - 3) / CH);\n"
	"  f.t.textContent = fit < 3 ? '' : n.length > fit ? n.substr(0, fit - 2) + '..' : n;\n"
	"  f.t.setAttribute('x', x + 3);\n"
	"}\n"
	"function zoom(z) {\n"
	"  var k = (W - 2 * PAD) / z.w;\n"
	"  frames.forEach(function (f) {\n"
	"    var inside = f.x >= z.x - 0.001 && f.x + f.w <= z.x + z.w + 0.001;\n"
	"    var above = f.y < z.y && f.x <= z.x + 0.001 && f.x + f.w >= z.x + z.w - 0.001;\n"
	"    if (!inside && !above) { f.g.style.display = 'none'; return; }\n"
	"    f.g.style.display = '';\n"
	"    var x = above ? PAD : PAD + (f.x - z.x) * k, w = above ? W - 2 * PAD : f.w * k;\n"
	"    f.r.setAttribute('x', x); f.r.setAttribute('width', w); label(f, x, w);\n"
	"    f.g.style.opacity = above ? 0.5 : 1;\n"
	"  });\n"
	"  document.getElementById('unzoom').style.display = '';\n"
	"}\n"
	"function unzoom() {\n"
	"  frames.forEach(function (f) {\n"
	"    f.g.style.display = ''; f.g.style.opacity = 1;\n"
	"    f.r.setAttribute('x', f.x); f.r.setAttribute('width', f.w); label(f, f.x, f.w);\n"
	"  });\n"
	"  document.getElementById('unzoom').style.display = 'none';\n"
	"}\n"
	"function search() {\n"
	"  var term = prompt('Search frames (a regular expression)', '');\n"
	"  if (term === null) return;\n"
	"  var re = new RegExp(term), sum = 0, root = frames[0];\n"
	"  var taken = [];\n"
	"  frames.forEach(function (f) {\n"
	"    var n = f.full.replace(/ \\(\\d+ samples.*$/, ''), hit = term !== '' && re.test(n);\n"
	"    f.r.setAttribute('fill', hit ? 'rgb(230,0,230)' : f.fill);\n"
	"    if (hit && !taken.some(function (t) { return f.y > t.y && f.x >= t.x && f.x + f.w <= t.x + t.w; })) {\n"
	"      taken.push(f); sum += f.w;\n"
	"    }\n"
	"  });\n"
	"  document.getElementById('matched').textContent =\n"
	"    term === '' ? '' : 'Matched: ' + (100 * sum / root.w).toFixed(1) + '%';\n"
	"}\n"
	"window.addEventListener('keydown', function (e) {\n"
	"  if (e.ctrlKey && e.keyCode === 70) { e.preventDefault(); search(); }\n"
	"});\n"
	"]]></script>\n";

static void legend(struct svg *g, const char *title)
{
	fputs("<text x=\"600\" y=\"18\" text-anchor=\"middle\" font-size=\"15\">", g->out);
	xml_text(g->out, title);
	fputs("</text>\n<text x=\"10\" y=\"38\">colour: ", g->out);
	xml_text(g->out, g->m->name);
	fputs("</text>\n", g->out);
	if (g->m->kind == FM_NONE || !(g->hi >= g->lo))
		return;
	if (g->m->kind == FM_DELTA) {
		char rgb[32];
		for (int b = 0; b <= 6; b++) {
			double v = g->hi * (b - 3) / 3.0, x = 420 + b * 70;
			delta_rgb(rgb, sizeof(rgb), v, g->hi);
			fprintf(g->out, "<rect x=\"%.0f\" y=\"27\" width=\"68\" height=\"14\" "
				"fill=\"%s\"/><text x=\"%.0f\" y=\"38\">%+.2g</text>\n", x, rgb,
				x + 3, v);
		}
		fprintf(g->out, "<text x=\"%.0f\" y=\"38\">shrank .. grew</text>\n",
			420.0 + 7 * 70 + 4);
		return;
	}
	for (int b = 0; b < FLAME_BUCKETS; b++) {
		double x = 420 + b * 70;
		fprintf(g->out, "<rect x=\"%.0f\" y=\"27\" width=\"68\" height=\"14\" fill=\"%s\"/>"
			"<text x=\"%.0f\" y=\"38\">%.3g</text>\n", x, scale_rgb[b], x + 3,
			g->lo + (g->hi - g->lo) * b / FLAME_BUCKETS);
	}
	fprintf(g->out, "<text x=\"%.0f\" y=\"38\">to %.3g</text>\n", 420.0 + 6 * 70 + 4, g->hi);
}

int flame_write_svg(FILE *out, const struct flame *f, const struct flame_metric *m,
		    const char *title)
{
	struct svg g = { out, f, m, INFINITY, -INFINITY, flame_total(f, 0, 0), 0 };

	if (g.total == 0)
		g.total = 1;
	range(&g, 0);
	if (m->kind == FM_DELTA && g.hi >= g.lo) {  /* the scale centred on 0 */
		g.hi = fmax(fabs(g.lo), fabs(g.hi));
		g.lo = -g.hi;
	}
	double height = PAD_TOP + (g.depth + 1) * FRAME_H + 20;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"onload=\"init()\" xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style type=\"text/css\">text { font-family: Verdana, sans-serif; "
		"font-size: %.0fpx; fill: rgb(0,0,0); } .f:hover rect { stroke: black; "
		"stroke-width: 0.5; cursor: pointer; } .btn { cursor: pointer; }</style>\n",
		SVG_W, height, SVG_W, height, FONT_PX);
	fprintf(out, "<script type=\"text/ecmascript\">var W = %g, PAD = %g, CH = %g;</script>\n",
		SVG_W, PAD_SIDE, CHAR_PX);
	fputs(script, out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"rgb(250,250,240)\" "
		"onclick=\"unzoom()\"/>\n", SVG_W, height);
	legend(&g, title);
	fprintf(out, "<text id=\"unzoom\" class=\"btn\" x=\"10\" y=\"18\" onclick=\"unzoom()\" "
		"style=\"display:none\">Reset zoom</text>\n"
		"<text class=\"btn\" x=\"%.0f\" y=\"18\" text-anchor=\"end\" onclick=\"search()\">"
		"Search</text>\n<text id=\"matched\" x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">"
		"</text>\n", SVG_W - 10, SVG_W - 10, height - 5);
	frame(&g, 0, 0);
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}

#define PICK_MAX 256

/* WANT among the K metrics ALL: its whole name, else the first it starts. */
static const struct flame_metric *pick(const struct flame_metric *all, int k, const char *want)
{
	if (!want || !*want)  /* the first the counters give, else by name */
		return &all[k > 1 ? 1 : 0];
	for (int i = 0; i < k; i++)
		if (strcmp(all[i].name, want) == 0)
			return &all[i];
	for (int i = 0; i < k; i++)
		if (strncmp(all[i].name, want, strlen(want)) == 0)
			return &all[i];
	return NULL;
}

int flame_pick_metric(const char *const *events, int n, const struct flame_base *base,
		      const char *want, struct flame_metric *out, char *err, size_t errsz)
{
	struct flame_metric *all = calloc(PICK_MAX, sizeof(*all));

	if (!all) {
		snprintf(err, errsz, "--flame-metric: out of memory");
		return -1;
	}
	int k = flame_metrics(events, n, base, all, PICK_MAX);
	const struct flame_metric *m = pick(all, k, want);
	if (m)
		*out = *m;
	size_t len = m ? 0 : (size_t)snprintf(err, errsz, "--flame-metric %s: not one of", want);
	for (int i = 0; !m && i < k && len < errsz; i++)
		len += (size_t)snprintf(err + len, errsz - len, "%s '%s'", i ? "," : "", all[i].name);
	free(all);
	return m ? 0 : -1;
}
