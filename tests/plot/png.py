"""PNG reading and picture checks for the plot tests (standard library only;
numpy is used when present for speed). Usage:

  plot_png.py gradient FILE.png
      the map (the coloured area left of the colour bar) gets lighter from
      west to east along its middle row (viridis: luminance rises with the
      value), i.e. the columns are in longitude order.
  plot_png.py layout FILE.png W H RATIO
      the page is W x H; the map (the land-grey rectangle) has width/height
      = RATIO within 2 % and a pixel; nothing is drawn on the page's outer 2-pixel border
      (no text or map clipped); text lies above and below the map and a
      clear band separates the title rows from the map's top edge.
  plot_png.py page FILE.png W H
      the page is W x H; nothing is drawn on its outer 2-pixel border; the
      title (the topmost band of dark rows) is at least 6 pixels tall; the
      colour bar's labels (the dark rows just right of the bar, its frame
      excepted) are at least two separate bands, none taller than twice the
      title: labels do not run into each other.
  plot_png.py titles FILE.png W H N
      the page is W x H; above the map (its top frame line, less the tick
      band of 1.5 % of the height, over the frame's columns) lie at least N separate lines of
      text (a title wrapped, not cut, to the page's width), none taller than
      twice the shortest: lines do not run into each other.
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError("not a PNG")
    pos, idat, ihdr = 8, b'', None
    while pos < len(data):
        n, typ = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', body)
        elif typ == b'IDAT':
            idat += body
        pos += 12 + n
    w, h, depth, ctype = ihdr[0], ihdr[1], ihdr[2], ihdr[3]
    if depth != 8 or ctype not in (2, 6):
        raise ValueError("unexpected PNG type")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, p = [], bytearray(stride), 0
    for y in range(h):
        f = raw[p]
        line = bytearray(raw[p + 1:p + 1 + stride])
        p += 1 + stride
        if f == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif f == 2:
            for x in range(stride):
                line[x] = (line[x] + prev[x]) & 255
        elif f == 3:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + (a + prev[x]) // 2) & 255
        elif f == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    px = [[tuple(r[x * bpp:x * bpp + 3]) for x in range(w)] for r in rows]
    return w, h, px


def fail(path, msg):
    print("FAIL: %s: %s" % (path, msg))
    sys.exit(1)


def chroma(c):
    return max(c) - min(c)


def colour_bar_x(w, h, px):
    best, bx = 0, None
    for x in range(int(w * 0.6), w):
        n = len(set(px[y][x] for y in range(h)))
        if n > best:
            best, bx = n, x
    return bx, best


def gradient(path):
    w, h, px = read_png(path)
    bx, n = colour_bar_x(w, h, px)
    if n < 40:
        fail(path, "no colour bar")
    cols = [x for x in range(bx - 5) if sum(1 for y in range(h) if chroma(px[y][x]) > 30) > h // 20]
    # the map: the widest run of coloured columns left of the colour bar
    runs, start = [], None
    for x in range(bx):
        on = x in set(cols)
        if on and start is None:
            start = x
        if (not on or x == bx - 1) and start is not None:
            runs.append((start, x))
            start = None
    x0, x1 = max(runs, key=lambda r: r[1] - r[0])
    ys = [y for y in range(h) if chroma(px[y][(x0 + x1) // 2]) > 30]
    y = (min(ys) + max(ys)) // 2
    # coloured pixels only (not the black tick marks on the map's frame)
    lum = [0.299 * px[y][x][0] + 0.587 * px[y][x][1] + 0.114 * px[y][x][2]
           for x in range(x0 + 2, x1 - 2) if chroma(px[y][x]) > 30]
    drops = [i for i in range(1, len(lum)) if lum[i] < lum[i - 1] - 8]
    if drops or lum[-1] - lum[0] < 40:
        fail(path, "the map does not get lighter from west to east along row %d (x %d..%d): "
             "%d drops, luminance %.0f -> %.0f" % (y, x0, x1, len(drops), lum[0], lum[-1]))
    print("%s: map x %d..%d gets lighter west to east (%.0f -> %.0f)" % (path, x0, x1, lum[0], lum[-1]))


def layout(path, W, H, ratio, bar_clear=False):
    w, h, px = read_png(path)
    if (w, h) != (W, H):
        fail(path, "size %dx%d, expected %dx%d" % (w, h, W, H))
    grey = (150, 150, 150)
    # the map's land frame: columns and rows with many land-grey pixels (text
    # anti-aliasing leaves a few of that grey elsewhere)
    cx = [sum(1 for y in range(h) if px[y][x] == grey) for x in range(w)]
    cy = [sum(1 for x in range(w) if px[y][x] == grey) for y in range(h)]
    gx = [x for x in range(w) if cx[x] > 0.3 * max(cx)]
    gy = [y for y in range(h) if cy[y] > 0.3 * max(cy)]
    if not gx:
        fail(path, "no land-grey map")
    # (+1 pixel each side: the frame line covers the map's outermost pixels)
    mx0, mx1, my0, my1 = min(gx) - 1, max(gx) + 1, min(gy) - 1, max(gy) + 1
    got = (mx1 - mx0 + 1) / (my1 - my0 + 1)
    if abs(got / ratio - 1) > 0.02 + 1.0 / min(mx1 - mx0 + 1, my1 - my0 + 1):
        fail(path, "map %dx%d px: aspect %.3f, geographic %.3f" % (mx1 - mx0 + 1, my1 - my0 + 1, got, ratio))
    white = (255, 255, 255)
    for y in list(range(2)) + list(range(h - 2, h)):
        for x in range(w):
            if px[y][x] != white:
                fail(path, "pixel (%d,%d) on the page border is drawn: something is clipped" % (x, y))
    for y in range(h):
        for x in list(range(2)) + list(range(w - 2, w)):
            if px[y][x] != white:
                fail(path, "pixel (%d,%d) on the page border is drawn: something is clipped" % (x, y))
    dark = lambda c: max(c) < 90
    text_rows = [y for y in range(h) if any(dark(px[y][x]) for x in range(w)
                                            if not (mx0 - 1 <= x <= mx1 + 1 and my0 - 1 <= y <= my1 + 1))]
    above = [y for y in text_rows if y < my0 - 2]
    below = [y for y in text_rows if y > my1 + 2]
    if not above or not below:
        fail(path, "no title above or no axis labels below the map")
    # a clear band of rows (no dark pixel anywhere across the page) between
    # the titles and the map's top edge (tick marks and labels excepted: they
    # sit within 1.5 % of the page height of the edge)
    tick = max(4, int(0.015 * h))
    band = [y for y in range(max(0, my0 - 6 * tick), my0 - tick) if y not in set(text_rows)]
    if not band:
        fail(path, "text crowds the map's top edge (rows %d..%d all hold text)" % (my0 - 6 * tick, my0 - tick))
    if bar_clear:
        # the colour bar as tall as the map: PLplot shrinks it to make room for
        # an exponent label such as "(x10^-4)" above it, which then collides
        # with the subtitle (the labels must carry their own digits)
        bx, n = colour_bar_x(w, h, px)
        by = [y for y in range(my0 - 2, my1 + 3) if px[y][bx] != white and not dark(px[y][bx])]
        if not by or abs(min(by) - my0) > 3 or abs(max(by) - my1) > 3:
            fail(path, "the colour bar (x=%d) spans rows %s..%s, the map %d..%d"
                 % (bx, min(by) if by else None, max(by) if by else None, my0, my1))
    print("%s: %dx%d, map %dx%d px at (%d,%d), aspect %.3f (geographic %.3f), text rows %d..%d inside"
          % (path, w, h, mx1 - mx0 + 1, my1 - my0 + 1, mx0, my0, got, ratio, min(text_rows), max(text_rows)))


def bands(rows):
    out, start, prev = [], None, None
    for y in rows:
        if start is None:
            start = prev = y
        elif y == prev + 1:
            prev = y
        else:
            out.append((start, prev))
            start = prev = y
    if start is not None:
        out.append((start, prev))
    return out


def page(path, W, H):
    w, h, px = read_png(path)
    if (w, h) != (W, H):
        fail(path, "size %dx%d, expected %dx%d" % (w, h, W, H))
    white = (255, 255, 255)
    for y in range(h):
        for x in (list(range(w)) if y < 2 or y >= h - 2 else [0, 1, w - 2, w - 1]):
            if px[y][x] != white:
                fail(path, "pixel (%d,%d) on the page border is drawn: something is clipped" % (x, y))
    dark = lambda c: max(c) < 90
    rows = [y for y in range(h) if any(dark(px[y][x]) for x in range(w))]
    if not rows:
        fail(path, "no text")
    t0, t1 = bands(rows)[0]
    th = t1 - t0 + 1
    if th < 6:
        fail(path, "the title is %d pixels tall (rows %d..%d): unreadable" % (th, t0, t1))
    # the colour bar: the column with the most distinct colours, and the
    # columns right of it that are still part of it
    ncol = [len(set(px[y][x] for y in range(h))) for x in range(w)]
    bx = max(range(w), key=lambda x: ncol[x])
    right = bx
    while right + 1 < w and ncol[right + 1] > 0.5 * ncol[bx]:
        right += 1
    brows = [y for y in range(h) if chroma(px[y][bx]) > 30 or px[y][bx] != white and not dark(px[y][bx])]
    by0, by1 = min(brows), max(brows)
    zone = range(right + 1, min(w, right + 1 + 3 * th))
    # vertical lines (the bar's frame) are not labels
    cols = [x for x in zone if sum(1 for y in range(by0, by1 + 1) if dark(px[y][x])) < 0.5 * (by1 - by0 + 1)]
    lrows = [y for y in range(max(0, by0 - th), min(h, by1 + th + 1))
             if any(dark(px[y][x]) for x in cols)]
    lb = bands(lrows)
    if len(lb) < 2:
        fail(path, "fewer than two colour-bar labels right of x=%d (rows %s)" % (right, lb))
    for a, b in lb:
        if b - a + 1 > 2 * th:
            fail(path, "colour-bar labels run together: rows %d..%d (%d px, the title is %d)"
                 % (a, b, b - a + 1, th))
    print("%s: %dx%d, title %d px tall, %d colour-bar labels right of x=%d, border clear"
          % (path, w, h, th, len(lb), right))


def titles(path, W, H, N):
    w, h, px = read_png(path)
    if (w, h) != (W, H):
        fail(path, "size %dx%d, expected %dx%d" % (w, h, W, H))
    dark = lambda c: max(c) < 90
    # the map's top frame: the first row with a dark run no text has
    need, top = max(30, w // 20), None
    for y in range(h):
        run = 0
        for x in range(w):
            run = run + 1 if dark(px[y][x]) else 0
            if run >= need:
                top, x0 = y, x - run + 1
                break
        if top is not None:
            break
    if top is None:
        fail(path, "no map frame")
    x1 = x0
    while x1 + 1 < w and dark(px[top][x1 + 1]):
        x1 += 1
    top -= max(4, int(0.015 * h))
    # over the map's columns only: the colour bar's top label is no title
    dark = lambda c: max(c) < 90
    lines = bands([y for y in range(top) if any(dark(px[y][x]) for x in range(x0, x1 + 1))])
    # an underscore below its line is a fragment, not a line (under 0.3 of the tallest)
    if lines:
        tall = max(b - a + 1 for a, b in lines)
        lines = [(a, b) for a, b in lines if b - a + 1 >= 0.3 * tall]
    if len(lines) < N:
        fail(path, "%d lines of text above the map (rows %s), at least %d expected: "
             "a title cut instead of wrapped?" % (len(lines), lines, N))
    hs = [b - a + 1 for a, b in lines]
    if max(hs) > 2 * min(hs):
        fail(path, "a text line above the map is %d px tall, the shortest %d: lines run together"
             % (max(hs), min(hs)))
    print("%s: %d lines of text above the map, %d..%d px tall" % (path, len(lines), min(hs), max(hs)))


if __name__ == '__main__':
    if sys.argv[1] == 'gradient':
        gradient(sys.argv[2])
    elif sys.argv[1] == 'page':
        page(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif sys.argv[1] == 'titles':
        titles(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    elif sys.argv[1] == 'layout':
        layout(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]),
               len(sys.argv) > 6 and sys.argv[6] == 'bar')
    else:
        sys.exit("unknown check " + sys.argv[1])
