/*
 * Colour maps shared by the PLplot images and the plotly pages: tables of
 * control points (position, r, g, b) interpolated linearly in sRGB. The
 * sequential maps are the published perceptually uniform ones (matplotlib's
 * viridis and plasma, cmocean's thermal); the diverging ones (ColorBrewer's
 * RdBu run blue to red, cmocean's balance) are for differences centred on 0.
 */
#include "config.h"
#include "ps_plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define RGB(p, r, g, b) {(p), (r) / 255.0, (g) / 255.0, (b) / 255.0}

static const double viridis_pts[][4] = {
    RGB(0.0, 0x44, 0x01, 0x54), RGB(1.0 / 9, 0x48, 0x28, 0x78), RGB(2.0 / 9, 0x3e, 0x49, 0x89),
    RGB(3.0 / 9, 0x31, 0x68, 0x8e), RGB(4.0 / 9, 0x26, 0x82, 0x8e), RGB(5.0 / 9, 0x1f, 0x9e, 0x89),
    RGB(6.0 / 9, 0x35, 0xb7, 0x79), RGB(7.0 / 9, 0x6e, 0xce, 0x58), RGB(8.0 / 9, 0xb5, 0xde, 0x2b),
    RGB(1.0, 0xfd, 0xe7, 0x25),
};

static const double plasma_pts[][4] = {
    RGB(0.0, 0x0d, 0x08, 0x87), RGB(1.0 / 9, 0x46, 0x03, 0x9f), RGB(2.0 / 9, 0x72, 0x01, 0xa8),
    RGB(3.0 / 9, 0x9c, 0x17, 0x9e), RGB(4.0 / 9, 0xbd, 0x37, 0x86), RGB(5.0 / 9, 0xd8, 0x57, 0x6b),
    RGB(6.0 / 9, 0xed, 0x79, 0x53), RGB(7.0 / 9, 0xfb, 0x9f, 0x3a), RGB(8.0 / 9, 0xfd, 0xca, 0x26),
    RGB(1.0, 0xf0, 0xf9, 0x21),
};

static const double thermal_pts[][4] = {
    RGB(0.0, 3, 35, 51),          RGB(1.0 / 11, 13, 48, 100),   RGB(2.0 / 11, 53, 50, 155),
    RGB(3.0 / 11, 93, 62, 153),   RGB(4.0 / 11, 126, 77, 143),  RGB(5.0 / 11, 158, 89, 135),
    RGB(6.0 / 11, 193, 100, 121), RGB(7.0 / 11, 225, 113, 97),  RGB(8.0 / 11, 246, 139, 69),
    RGB(9.0 / 11, 251, 173, 60),  RGB(10.0 / 11, 246, 211, 70), RGB(1.0, 231, 250, 90),
};

/* ColorBrewer RdBu reversed: blue for negative, white at 0.5, red for positive. */
static const double rdbu_pts[][4] = {
    RGB(0.0, 5, 48, 97),      RGB(0.1, 33, 102, 172),   RGB(0.2, 67, 147, 195),
    RGB(0.3, 146, 197, 222),  RGB(0.4, 209, 229, 240),  RGB(0.5, 247, 247, 247),
    RGB(0.6, 253, 219, 199),  RGB(0.7, 244, 165, 130),  RGB(0.8, 214, 96, 77),
    RGB(0.9, 178, 24, 43),    RGB(1.0, 103, 0, 31),
};

/* cmocean balance, with its light centre made an explicit control point. */
static const double balance_pts[][4] = {
    RGB(0.0, 23, 28, 66),     RGB(0.09, 41, 58, 143),   RGB(0.18, 11, 102, 189),
    RGB(0.27, 69, 144, 185),  RGB(0.36, 142, 181, 194), RGB(0.45, 210, 216, 219),
    RGB(0.5, 241, 237, 236),
    RGB(0.55, 230, 210, 204), RGB(0.64, 213, 157, 137), RGB(0.73, 196, 101, 72),
    RGB(0.82, 172, 43, 36),   RGB(0.91, 120, 14, 40),   RGB(1.0, 60, 9, 17),
};

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const ps_cmap ps_cmaps[] = {
    {.name = "viridis", .description = "perceptually uniform, dark blue to yellow (default)",
     .diverging = 0, .npts = N(viridis_pts), .pts = viridis_pts},
    {.name = "thermal", .description = "cmocean thermal: dark blue through red to yellow",
     .diverging = 0, .npts = N(thermal_pts), .pts = thermal_pts},
    {.name = "plasma", .description = "perceptually uniform, blue through magenta to yellow",
     .diverging = 0, .npts = N(plasma_pts), .pts = plasma_pts},
    {.name = "rdbu", .description = "diverging blue-white-red (default for differences)",
     .diverging = 1, .npts = N(rdbu_pts), .pts = rdbu_pts},
    {.name = "balance", .description = "cmocean balance: diverging blue-red, light centre",
     .diverging = 1, .npts = N(balance_pts), .pts = balance_pts},
};

const ps_cmap *ps_cmap_find(const char *name)
{
    int i;
    if (!name)
        return NULL;
    for (i = 0; i < N(ps_cmaps); i++)
        if (!strcasecmp(name, ps_cmaps[i].name))
            return &ps_cmaps[i];
    return NULL;
}

const ps_cmap *ps_cmap_get(int i)
{
    return i >= 0 && i < N(ps_cmaps) ? &ps_cmaps[i] : NULL;
}

void ps_cmap_names(char *buf, size_t n)
{
    size_t used = 0;
    int i;
    if (!n)
        return;
    buf[0] = '\0';
    for (i = 0; i < N(ps_cmaps) && used < n; i++) {
        int w = snprintf(buf + used, n - used, "%s%s", i ? ", " : "", ps_cmaps[i].name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

void ps_cmap_eval(const ps_cmap *c, double t, double rgb[3])
{
    int i;
    if (!(t >= 0.0))
        t = 0.0;
    if (t > 1.0)
        t = 1.0;
    for (i = 1; i < c->npts - 1 && t > c->pts[i][0]; i++)
        ;
    {
        const double *a = c->pts[i - 1], *b = c->pts[i];
        double w = b[0] > a[0] ? (t - a[0]) / (b[0] - a[0]) : 0.0;
        int m;
        for (m = 0; m < 3; m++)
            rgb[m] = a[m + 1] + w * (b[m + 1] - a[m + 1]);
    }
}
