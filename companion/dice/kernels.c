/* The dice reader's per-candidate loops, compiled: in NumPy each is dozens of calls on small
 * arrays per frame, whose overhead is most of their time.
 *
 * Arrays come in through the buffer protocol (C-contiguous, of the dtype each function names),
 * so the module needs no NumPy headers and builds against any NumPy. Built with
 * -ffp-contract=off: a compiler may otherwise fuse a * b + c into one rounding on one machine
 * (aarch64) and not on another, and the reader must read alike on every build.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>

/* Whole-pixel step s (1..) along ray d (0..7, an eighth of a turn each), as numpy's
 * round(s * cos), round(s * sin) give it: the diagonals' s / sqrt(2) is never a half. */
static void ray_step(int s, int d, int *dx, int *dy)
{
    static const int ux[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    static const int uy[8] = {0, 1, 1, 1, 0, -1, -1, -1};
    if (d % 2 == 0) {
        *dx = ux[d] * s;
        *dy = uy[d] * s;
    } else {
        int diag = (int)lround(s * 0.70710678118654757);
        *dx = ux[d] * diag;
        *dy = uy[d] * diag;
    }
}

static int need(Py_buffer *b, Py_ssize_t items, Py_ssize_t itemsize, const char *name)
{
    if (b->len != items * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd", name, b->len,
                     items * itemsize);
        return 0;
    }
    return 1;
}

/* The height of the frame `bgr` (uint8, H x width x 3), or -1 with a ValueError. */
static Py_ssize_t frame_height(const Py_buffer *bgr, Py_ssize_t width, const char *name)
{
    Py_ssize_t height = width > 0 ? bgr->len / (width * 3) : 0;
    if (width <= 0 || height <= 0 || bgr->len != height * width * 3) {
        PyErr_Format(PyExc_ValueError, "%s: bgr must be H x width x 3", name);
        return -1;
    }
    return height;
}

/* The pixel of a frame nearest (x, y) (halves to even, as NumPy rounds), kept on the frame. */
static const uint8_t *nearest(const uint8_t *image, Py_ssize_t width, Py_ssize_t height, double x,
                              double y)
{
    x = nearbyint(x);
    y = nearbyint(y);
    x = x < 0 ? 0 : (x > width - 1 ? width - 1 : x);
    y = y < 0 ? 0 : (y > height - 1 ? height - 1 : y);
    return image + ((Py_ssize_t)y * width + (Py_ssize_t)x) * 3;
}

/* extent(response, width, at, peak, max_radius, closed, radius, elong) -> count
 *
 * Each peak's half-height distance along 8 rays in `response` (uint8, (2H + 2) x width x 3:
 * the black-hat above the top-hat, two rows of zeros between), the peak at flat index `at`
 * (intp). A ray ends at the first step below ceil(0.65 peak), or where the response rises by
 * more than floor(0.08 peak) (a neighbour, a die's edge); rays are clipped to the peak's own
 * half of the response. Peaks whose rays all end within max_radius + 1 steps are written to
 * `closed` (intp, their indices), `radius` (float64, the mean reach) and `elong` (float64,
 * longest over shortest of the 4 diameters); returns how many. */
static PyObject *extent(PyObject *self, PyObject *args)
{
    Py_buffer response, at, peak, closed, radius, elong;
    Py_ssize_t width;
    int max_radius;
    if (!PyArg_ParseTuple(args, "y*ny*y*iw*w*w*", &response, &width, &at, &peak, &max_radius,
                          &closed, &radius, &elong))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = at.len / (Py_ssize_t)sizeof(Py_ssize_t);
    Py_ssize_t row = width * 3;
    Py_ssize_t height = (response.len / row - 2) / 2;
    if (width <= 0 || response.len != (2 * height + 2) * row || max_radius < 1 ||
        max_radius > 64 || !need(&peak, n, sizeof(float), "peak") ||
        !need(&closed, n, sizeof(Py_ssize_t), "closed") ||
        !need(&radius, n, sizeof(double), "radius") || !need(&elong, n, sizeof(double), "elong")) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "extent: bad response or max_radius");
        goto done;
    }
    const uint8_t *res = response.buf;
    const Py_ssize_t *where = at.buf;
    const float *top = peak.buf;
    Py_ssize_t *out_i = closed.buf;
    double *out_r = radius.buf, *out_e = elong.buf;
    int n_steps = max_radius + 1;
    int dxs[8][65], dys[8][65];
    for (int d = 0; d < 8; d++)
        for (int s = 1; s <= n_steps; s++)
            ray_step(s, d, &dxs[d][s], &dys[d][s]);
    Py_ssize_t count = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t flat = where[k];
        if (flat < 0 || flat >= response.len) {
            PyErr_SetString(PyExc_IndexError, "extent: peak off the response");
            goto done;
        }
        Py_ssize_t y = flat / row, x = (flat % row) / 3;
        Py_ssize_t y0 = y > height ? height + 2 : 0; /* the half the peak is in */
        Py_ssize_t channel = flat % 3;
        y -= y0;
        /* In whole numbers, as the response is: below 0.65 peak is below its ceiling, a rise
         * of more than 0.08 peak is a rise of more than its floor (in float32, as NumPy
         * multiplies a float32 peak by a Python float). */
        int low = (int)ceilf(0.65f * top[k]);
        int rise = (int)floorf(0.08f * top[k]);
        double reach[8];
        int all_end = 1;
        for (int d = 0; d < 8 && all_end; d++) {
            int previous = 0, end = 0;
            for (int s = 1; s <= n_steps; s++) {
                Py_ssize_t yy = y + dys[d][s], xx = x + dxs[d][s];
                yy = yy < 0 ? 0 : (yy >= height ? height - 1 : yy);
                xx = xx < 0 ? 0 : (xx >= width ? width - 1 : xx);
                int v = res[(y0 + yy) * row + xx * 3 + channel];
                if (v < low || (s > 1 && v - previous > rise)) {
                    end = s;
                    break;
                }
                previous = v;
            }
            if (!end)
                all_end = 0;
            /* its last step before the end, plus a half */
            reach[d] = end - 0.5;
        }
        if (!all_end)
            continue;
        double sum = 0.0, wide = 0.0, narrow = INFINITY;
        for (int d = 0; d < 8; d++)
            sum += reach[d];
        for (int d = 0; d < 4; d++) {
            double diam = reach[d] + reach[d + 4];
            wide = diam > wide ? diam : wide;
            narrow = diam < narrow ? diam : narrow;
        }
        out_i[count] = k;
        out_r[count] = sum / 8;
        out_e[count] = wide / (narrow > 1.0 ? narrow : 1.0);
        count++;
    }
    result = PyLong_FromSsize_t(count);
done:
    PyBuffer_Release(&response);
    PyBuffer_Release(&at);
    PyBuffer_Release(&peak);
    PyBuffer_Release(&closed);
    PyBuffer_Release(&radius);
    PyBuffer_Release(&elong);
    return result;
}

static float ptp3(const float *c)
{
    float hi = c[0] > c[1] ? c[0] : c[1], lo = c[0] < c[1] ? c[0] : c[1];
    hi = hi > c[2] ? hi : c[2];
    lo = lo < c[2] ? lo : c[2];
    return hi - lo;
}

static float dot3(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Is colour sample `c` by dark pip `pip` on face `face` a glint, or a glint blurred into the
 * pip: nearer the face's colour than the pip's without being the face, off the line from pip
 * to face colour (where a pip's blurred rim lies) and greyer than the face (a marbled face's
 * swirls are of its colour). */
static int glint(const float *c, const float *pip, const float *face)
{
    if (!(ptp3(c) <= 0.5f * ptp3(face)))
        return 0;
    float to_face[3], from_pip[3];
    for (int i = 0; i < 3; i++) {
        to_face[i] = face[i] - pip[i];
        from_pip[i] = c[i] - pip[i];
    }
    float along = dot3(from_pip, to_face), span2 = dot3(to_face, to_face);
    float off_line2 = dot3(from_pip, from_pip) - along * along / (span2 > 1.0f ? span2 : 1.0f);
    return off_line2 >= 0.0625f * span2; /* a quarter of the pip-face contrast off the line */
}

/* The colour at (x, y) (each taken as float32), bilinear, as cv2.remap gives it from maps
 * that cv2.convertMaps made fixed point (CV_16SC2, as OpenCV 4 makes float maps for itself):
 * the place in 32nds of a pixel (rounded, halves to even), weights (32 - fx)(32 - fy) .. fx fy
 * in 32768ths, the sum rounded; off the frame, its nearest pixels (BORDER_REPLICATE). */
static void remapped(const uint8_t *image, Py_ssize_t width, Py_ssize_t height, double x,
                     double y, float *out)
{
    Py_ssize_t row = width * 3;
    int ix = (int)lrintf((float)x * 32.0f), iy = (int)lrintf((float)y * 32.0f);
    int sx = ix >> 5, sy = iy >> 5, fx = ix & 31, fy = iy & 31;
    Py_ssize_t x0 = sx < 0 ? 0 : (sx > width - 1 ? width - 1 : sx);
    Py_ssize_t x1 = sx + 1 < 0 ? 0 : (sx + 1 > width - 1 ? width - 1 : sx + 1);
    Py_ssize_t y0 = sy < 0 ? 0 : (sy > height - 1 ? height - 1 : sy);
    Py_ssize_t y1 = sy + 1 < 0 ? 0 : (sy + 1 > height - 1 ? height - 1 : sy + 1);
    int w00 = (32 - fx) * (32 - fy) * 32, w01 = fx * (32 - fy) * 32;
    int w10 = (32 - fx) * fy * 32, w11 = fx * fy * 32;
    const uint8_t *a = image + y0 * row + x0 * 3, *b = image + y0 * row + x1 * 3;
    const uint8_t *c = image + y1 * row + x0 * 3, *d = image + y1 * row + x1 * 3;
    for (int ch = 0; ch < 3; ch++) {
        int v = (a[ch] * w00 + b[ch] * w01 + c[ch] * w10 + d[ch] * w11 + (1 << 14)) >> 15;
        out[ch] = (float)(v > 255 ? 255 : v);
    }
}

/* colour_extent(bgr, width, xy, off_x, off_y, steps, r0, pip, face, dirs, luma, radius,
 *               outline, shift)
 *
 * Where each pip's colour turns nearer its face's than its own along 8 rays from its centre
 * `xy` (float64, n x 2): the samples (`remapped`) at xy + (off_x, off_y) (float64, 8 x
 * len(steps): ray by ray, at distances `steps`, float32 half pixels), in `bgr` (uint8,
 * H x width x 3). `r0` (float64) is the radius the response gave, `pip` and `face` (float32,
 * n x 3) the colours. A ray ends at the first sample past half of r0 nearer the face; on a
 * dark grey pip of a coloured die it goes on past a glint. Writes `radius` (float32, the mean
 * reach), `outline` (float64, n x 8 x 2: the rays' ends around their middle) and `shift`
 * (float64, n x 2: from the centre to the outline's middle where it closed all round and moved
 * at least a pixel, else 0). `dirs` (float64, 8 x 2) are the rays' directions, `luma`
 * (float64, 3) the weights of a colour's brightness. */
static PyObject *colour_extent(PyObject *self, PyObject *args)
{
    Py_buffer bgr, xy, off_x, off_y, steps, r0, pip, face, dirs, luma, radius, outline, shift;
    Py_ssize_t width;
    if (!PyArg_ParseTuple(args, "y*ny*y*y*y*y*y*y*y*y*w*w*w*", &bgr, &width, &xy, &off_x, &off_y,
                          &steps, &r0, &pip, &face, &dirs, &luma, &radius, &outline, &shift))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = r0.len / (Py_ssize_t)sizeof(double);
    Py_ssize_t n_steps = steps.len / (Py_ssize_t)sizeof(float);
    Py_ssize_t height = frame_height(&bgr, width, "colour_extent");
    if (height < 0 || !need(&xy, n * 2, 8, "xy") || !need(&off_x, 8 * n_steps, 8, "off_x") ||
        !need(&off_y, 8 * n_steps, 8, "off_y") || !need(&pip, n * 3, 4, "pip") ||
        !need(&face, n * 3, 4, "face") || !need(&dirs, 16, 8, "dirs") || !need(&luma, 3, 8, "luma") ||
        !need(&radius, n, 4, "radius") || !need(&outline, n * 16, 8, "outline") ||
        !need(&shift, n * 2, 8, "shift"))
        goto done;
    const uint8_t *image = bgr.buf;
    const float *step = steps.buf, *pips = pip.buf, *faces = face.buf;
    const double *at = xy.buf, *ox = off_x.buf, *oy = off_y.buf;
    const double *r = r0.buf, *dir = dirs.buf, *weight = luma.buf;
    float *out_r = radius.buf;
    double *out_o = outline.buf, *out_s = shift.buf;
    for (Py_ssize_t k = 0; k < n; k++) {
        const float *p = pips + 3 * k, *f = faces + 3 * k;
        float towards[3] = {p[0] - f[0], p[1] - f[1], p[2] - f[2]};
        /* Nearer the face than the pip: on the face's side of the plane halfway between the
         * two colours, |c - f| < |c - p|  <=>  c.(p - f) < (|p|^2 - |f|^2) / 2. */
        float halfway = (dot3(p, p) - dot3(f, f)) / 2;
        double brightness = 0.0;
        for (int i = 0; i < 3; i++)
            brightness += (double)(p[i] - f[i]) * weight[i];
        /* Glints are on dark, grey pips of coloured dice (a white pip in the shade of a
         * glossy face is no glint on a dark spot). */
        int dark = ptp3(p) <= 0.25f * ptp3(f) && brightness < 0;
        float reach[8];
        int closed = 1;
        for (int d = 0; d < 8; d++) {
            reach[d] = step[n_steps - 1] + 0.5f;
            int met = 0;
            for (Py_ssize_t s = 0; s < n_steps && !met; s++) {
                if (!((double)step[s] > 0.5 * r[k]))
                    continue;
                float c[3];
                Py_ssize_t j = d * n_steps + s;
                remapped(image, width, height, at[2 * k] + ox[j], at[2 * k + 1] + oy[j], c);
                float along = c[0] * towards[0] + c[1] * towards[1] + c[2] * towards[2];
                if (along < halfway && !(dark && glint(c, p, f))) {
                    reach[d] = step[s] - 0.25f;
                    met = 1;
                }
            }
            closed &= met;
        }
        double edge[8][2], middle[2] = {0.0, 0.0};
        float sum = ((reach[0] + reach[1]) + (reach[2] + reach[3])) +
                    ((reach[4] + reach[5]) + (reach[6] + reach[7]));
        for (int d = 0; d < 8; d++)
            for (int i = 0; i < 2; i++) {
                edge[d][i] = (double)reach[d] * dir[2 * d + i];
                middle[i] += edge[d][i];
            }
        middle[0] /= 8;
        middle[1] /= 8;
        out_r[k] = sum / 8;
        for (int d = 0; d < 8; d++)
            for (int i = 0; i < 2; i++)
                out_o[(k * 8 + d) * 2 + i] = edge[d][i] - middle[i];
        /* The outline's middle is the pip's centre; the response's peak can sit off it (a
         * glint on a dark pip splits its peak). Trust the outline only where it closed all
         * round, and only a shift bigger than its half-pixel steps can measure. */
        double moved = hypot(middle[0], middle[1]);
        int trusted = closed && moved >= 1.0 && moved < 0.5 * (double)out_r[k];
        out_s[2 * k] = trusted ? middle[0] : 0.0;
        out_s[2 * k + 1] = trusted ? middle[1] : 0.0;
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&bgr);
    PyBuffer_Release(&xy);
    PyBuffer_Release(&off_x);
    PyBuffer_Release(&off_y);
    PyBuffer_Release(&steps);
    PyBuffer_Release(&r0);
    PyBuffer_Release(&pip);
    PyBuffer_Release(&face);
    PyBuffer_Release(&dirs);
    PyBuffer_Release(&luma);
    PyBuffer_Release(&radius);
    PyBuffer_Release(&outline);
    PyBuffer_Release(&shift);
    return result;
}

/* rays(bgr, width, table, dirs, dist)
 *
 * Rays out from faces' centres until the colour leaves the face's. `table` (float64, m x 8)
 * has a row per ray: centre x, y, start, stop, face colour B, G, R and threshold; `dirs`
 * (float64, m x 2) its direction. A ray is sampled at the places np.arange(start, stop, 1.0)
 * gives (its step is (start + 1) - start, its second place start + 1), each rounded to the
 * nearest pixel (halves to even, as NumPy rounds); `dist` (float64, m) gets the first place
 * off the frame or whose colour is farther from the face's than the threshold (squared
 * distance in float32, as NumPy computes it), or inf where none is. `bgr` is uint8
 * H x width x 3. */
static PyObject *rays(PyObject *self, PyObject *args)
{
    Py_buffer bgr, table, dirs, dist;
    Py_ssize_t width;
    if (!PyArg_ParseTuple(args, "y*ny*y*w*", &bgr, &width, &table, &dirs, &dist))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t m = dist.len / (Py_ssize_t)sizeof(double);
    Py_ssize_t row = width * 3, height = frame_height(&bgr, width, "rays");
    if (height < 0 || !need(&table, 8 * m, 8, "table") || !need(&dirs, 2 * m, 8, "dirs"))
        goto done;
    const uint8_t *image = bgr.buf;
    const double *t = table.buf, *d = dirs.buf;
    double *out = dist.buf;
    for (Py_ssize_t k = 0; k < m; k++, t += 8) {
        double start = t[2], second = start + 1.0, step = second - start;
        double count = ceil(t[3] - start);
        /* the threshold squared in float64, then compared in float32 */
        float limit = (float)(t[7] * t[7]);
        float face[3] = {(float)t[4], (float)t[5], (float)t[6]};
        out[k] = INFINITY;
        for (Py_ssize_t s = 0; s < count; s++) {
            double at = s == 1 ? second : start + (double)s * step;
            double fx = nearbyint(t[0] + at * d[2 * k]), fy = nearbyint(t[1] + at * d[2 * k + 1]);
            int away = fx < 0 || fy < 0 || fx >= width || fy >= height;
            if (!away) {
                const uint8_t *c = image + (Py_ssize_t)fy * row + (Py_ssize_t)fx * 3;
                float b = c[0] - face[0], g = c[1] - face[1], r = c[2] - face[2];
                away = b * b + g * g + r * r > limit;
            }
            if (away) {
                out[k] = at;
                break;
            }
        }
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&bgr);
    PyBuffer_Release(&table);
    PyBuffer_Release(&dirs);
    PyBuffer_Release(&dist);
    return result;
}

/* Item i of a buffer of n floats, float32 or float64 by the buffer's size; and whether it
 * is float32, so that arithmetic with it rounds as NumPy's in that type does. */
static double item(const Py_buffer *b, Py_ssize_t i, int single)
{
    return single ? (double)((const float *)b->buf)[i] : ((const double *)b->buf)[i];
}

static int single_of(const Py_buffer *b, Py_ssize_t n, const char *name)
{
    if (b->len == n * 4)
        return 1;
    if (b->len == n * 8)
        return 0;
    PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd float32 or float64", name, b->len,
                 n);
    return -1;
}

/* Is face colour `f` of a strong colour, (max - min) / max of its channels above `saturated`,
 * as faces._strong tells it in float32? */
static int strong_colour(const float *f, float saturated)
{
    float hi = f[0] > f[1] ? f[0] : f[1];
    hi = hi > f[2] ? hi : f[2];
    return ptp3(f) > saturated * hi;
}

/* How far colour `c` is from face colour `f`, as faces._off_face measures it in float32:
 * plainly, or on a face of a strong colour forgiving a lighter shade of it (pips.shade_distance
 * with darker=1). Sums of three products are added left to right, as NumPy adds them. */
static float off_face(const float *c, const float *f, int strong)
{
    if (!strong) {
        float d0 = c[0] - f[0], d1 = c[1] - f[1], d2 = c[2] - f[2];
        return sqrtf(d0 * d0 + d1 * d1 + d2 * d2);
    }
    float bb = f[0] * f[0] + f[1] * f[1] + f[2] * f[2];
    float s = (c[0] * f[0] + c[1] * f[1] + c[2] * f[2]) / (bb > 1.0f ? bb : 1.0f);
    s = s > 1.0f ? s : 1.0f;
    s = s < 1.8f ? s : 1.8f;
    float e0 = c[0] - s * f[0], e1 = c[1] - s * f[1], e2 = c[2] - s * f[2];
    float scale = 1 / s;
    return sqrtf(e0 * e0 + e1 * e1 + e2 * e2) * (scale > 1.0f ? scale : 1.0f);
}

/* paths(bgr, width, xy, r, face, contrast, ii, jj, tolerances, clear)
 *
 * For each pair of pips ii[k], jj[k] (intp): is the straight path between them all face?
 * Sampled as faces._along places points (at least two, about every 1.5 px), from 1.8 radii
 * plus 2 px off each pip's middle, each rounded to the nearest pixel (halves to even; a place
 * off the frame takes the frame's nearest pixel). A path is clear where its worst sample is
 * no farther from the mean of the two pips' face colours (`off_face`) than the least of the
 * colour tolerance and the path tolerance times the lesser contrast. `xy` float64 n x 2,
 * `face` float32 n x 3; `r` and `contrast` float32 or float64 (n), computed in that type as
 * NumPy would; `tolerances` (colour, path, saturated: a strong colour's (max - min) / max);
 * `clear` (bool, m) is written. Paths too short to sample are clear. */
static PyObject *paths(PyObject *self, PyObject *args)
{
    Py_buffer bgr, xy, r, face, contrast, ii, jj, clear;
    Py_ssize_t width;
    double colour_tolerance, path_tolerance, saturated;
    if (!PyArg_ParseTuple(args, "y*ny*y*y*y*y*y*(ddd)w*", &bgr, &width, &xy, &r, &face, &contrast,
                          &ii, &jj, &colour_tolerance, &path_tolerance, &saturated, &clear))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = xy.len / (Py_ssize_t)(2 * sizeof(double));
    Py_ssize_t m = ii.len / (Py_ssize_t)sizeof(Py_ssize_t);
    Py_ssize_t height = frame_height(&bgr, width, "paths");
    int r_single, c_single;
    if (height < 0 || !need(&xy, 2 * n, 8, "xy") || !need(&face, 3 * n, 4, "face") ||
        !need(&jj, m, sizeof(Py_ssize_t), "jj") || !need(&clear, m, 1, "clear") ||
        (r_single = single_of(&r, n, "r")) < 0 ||
        (c_single = single_of(&contrast, n, "contrast")) < 0)
        goto done;
    const uint8_t *image = bgr.buf;
    const double *p = xy.buf;
    const float *fc = face.buf;
    const Py_ssize_t *a = ii.buf, *b = jj.buf;
    uint8_t *out = clear.buf;
    float colour_tol32 = (float)colour_tolerance, path_tol32 = (float)path_tolerance;
    float saturated32 = (float)saturated;
    for (Py_ssize_t k = 0; k < m; k++) {
        Py_ssize_t i = a[k], j = b[k];
        if (i < 0 || i >= n || j < 0 || j >= n) {
            PyErr_SetString(PyExc_IndexError, "paths: a pip index off the pips");
            goto done;
        }
        double ax = p[2 * i], ay = p[2 * i + 1], bx = p[2 * j], by = p[2 * j + 1];
        double dx = bx - ax, dy = by - ay, d = hypot(dx, dy);
        /* a pip's blurred rim, in the radius's own type */
        double ri = item(&r, i, r_single), rj = item(&r, j, r_single), rim_i, rim_j;
        if (r_single) {
            rim_i = (float)((float)(1.8f * (float)ri) + 2.0f);
            rim_j = (float)((float)(1.8f * (float)rj) + 2.0f);
        } else {
            rim_i = 1.8 * ri + 2;
            rim_j = 1.8 * rj + 2;
        }
        double t0 = rim_i / d, t1 = 1 - rim_j / d;
        out[k] = 1;
        if (!(t1 > t0))
            continue;
        double ci = item(&contrast, i, c_single), cj = item(&contrast, j, c_single);
        double least = ci < cj ? ci : cj, limit;
        if (c_single) {
            float l = path_tol32 * (float)least;
            limit = colour_tol32 < l ? colour_tol32 : l;
        } else {
            double l = path_tolerance * least;
            limit = colour_tolerance < l ? colour_tolerance : l;
        }
        float f[3];
        for (int c = 0; c < 3; c++)
            f[c] = (fc[3 * i + c] + fc[3 * j + c]) / 2;
        int strong = strong_colour(f, saturated32);
        Py_ssize_t count = (Py_ssize_t)((t1 - t0) * d / 1.5);
        count = count > 2 ? count : 2;
        double step = (t1 - t0) / (double)(count - 1);
        float worst = 0.0f;
        for (Py_ssize_t s = 0; s < count; s++) {
            double t = t0 + (double)s * step;
            const uint8_t *px = nearest(image, width, height, ax + t * dx, ay + t * dy);
            float seen[3] = {px[0], px[1], px[2]};
            float off = off_face(seen, f, strong);
            worst = off > worst ? off : worst;
        }
        out[k] = (double)worst <= limit;
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&bgr);
    PyBuffer_Release(&xy);
    PyBuffer_Release(&r);
    PyBuffer_Release(&face);
    PyBuffer_Release(&contrast);
    PyBuffer_Release(&ii);
    PyBuffer_Release(&jj);
    PyBuffer_Release(&clear);
    return result;
}

/* probes(bgr, width, points, rows, pip, saturated, answers)
 *
 * Points (float64, m x 2) tested against their faces' colours: each first snapped to 1/2**20
 * px (so that a place on a half pixel takes the same pixel on every build), then rounded to
 * the nearest pixel (halves to even) and kept on the frame. `rows` (float32, m x 8) give each
 * point its face colour, pip colour, and the limits of a `pip` and a `face` test. With `pip`,
 * a point looks like the pip: farther from the face than its limit and nearer the pip than
 * the face; else it has the face's colour (`off_face`, a face of a strong colour by
 * `saturated`) within its limit. `answers` (bool, m) is written. */
static PyObject *probes(PyObject *self, PyObject *args)
{
    Py_buffer bgr, points, rows, answers;
    Py_ssize_t width;
    int pip;
    double saturated;
    if (!PyArg_ParseTuple(args, "y*ny*y*pdw*", &bgr, &width, &points, &rows, &pip, &saturated,
                          &answers))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t m = answers.len;
    Py_ssize_t height = frame_height(&bgr, width, "probes");
    if (height < 0 || !need(&points, 2 * m, 8, "points") || !need(&rows, 8 * m, 4, "rows"))
        goto done;
    const uint8_t *image = bgr.buf;
    const double *pt = points.buf;
    const float *limits = rows.buf;
    uint8_t *out = answers.buf;
    float saturated32 = (float)saturated;
    const double snap = 1048576.0; /* 2**20 */
    for (Py_ssize_t k = 0; k < m; k++) {
        const float *f = limits + 8 * k;
        const uint8_t *px = nearest(image, width, height, nearbyint(pt[2 * k] * snap) / snap,
                                    nearbyint(pt[2 * k + 1] * snap) / snap);
        float c[3] = {px[0], px[1], px[2]};
        if (pip) {
            float from_face = off_face(c, f, 0), from_pip = off_face(c, f + 3, 0);
            out[k] = from_face > f[6] && from_pip < from_face;
        } else {
            out[k] = off_face(c, f, strong_colour(f, saturated32)) < f[7];
        }
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&bgr);
    PyBuffer_Release(&points);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&answers);
    return result;
}

/* ring_agreement(bgr, width, xy, radius, ring_x, ring_y, pip, face, contrast, agree)
 *
 * A ring of 12 samples round each pip: at xy + radius (ring_x, ring_y) (xy float64 n x 2,
 * `radius` float32 or float64 n, the ring's directions float64 12), each rounded to the nearest
 * pixel (halves to even) and kept on the frame. Writes the face's colour, the ring's median
 * channel by channel (`face`, float32 n x 3), the pip's contrast with it (`contrast`, float32
 * n, from `pip` float32 n x 3) and the share of the ring within 0.3 of that contrast plus 8
 * of the face's colour (`agree`, float64 n), in float32 as NumPy computes them. */
static PyObject *ring_agreement(PyObject *self, PyObject *args)
{
    Py_buffer bgr, xy, radius, ring_x, ring_y, pip, face, contrast, agree;
    Py_ssize_t width;
    if (!PyArg_ParseTuple(args, "y*ny*y*y*y*y*w*w*w*", &bgr, &width, &xy, &radius, &ring_x,
                          &ring_y, &pip, &face, &contrast, &agree))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = xy.len / (Py_ssize_t)(2 * sizeof(double));
    Py_ssize_t height = frame_height(&bgr, width, "ring_agreement");
    int single;
    if (height < 0 || (single = single_of(&radius, n, "radius")) < 0 || !need(&ring_x, 12, 8, "ring_x") ||
        !need(&ring_y, 12, 8, "ring_y") || !need(&pip, 3 * n, 4, "pip") ||
        !need(&face, 3 * n, 4, "face") || !need(&contrast, n, 4, "contrast") ||
        !need(&agree, n, 8, "agree"))
        goto done;
    const uint8_t *image = bgr.buf;
    const double *p = xy.buf, *rx = ring_x.buf, *ry = ring_y.buf;
    const float *pips = pip.buf;
    float *out_f = face.buf, *out_c = contrast.buf;
    double *out_a = agree.buf;
    for (Py_ssize_t k = 0; k < n; k++) {
        double reach = item(&radius, k, single);
        float ring[12][3], sorted[3][12];
        for (int i = 0; i < 12; i++) {
            const uint8_t *px =
                nearest(image, width, height, p[2 * k] + reach * rx[i], p[2 * k + 1] + reach * ry[i]);
            for (int c = 0; c < 3; c++) {
                float v = px[c];
                int at = i;
                ring[i][c] = v;
                while (at > 0 && sorted[c][at - 1] > v) { /* insertion: 12 values */
                    sorted[c][at] = sorted[c][at - 1];
                    at--;
                }
                sorted[c][at] = v;
            }
        }
        float *f = out_f + 3 * k;
        for (int c = 0; c < 3; c++)
            f[c] = (sorted[c][5] + sorted[c][6]) / 2;
        float contrast_k = off_face(pips + 3 * k, f, 0);
        float within = 0.3f * contrast_k + 8.0f;
        int agreeing = 0;
        for (int i = 0; i < 12; i++)
            agreeing += off_face(ring[i], f, 0) < within;
        out_c[k] = contrast_k;
        out_a[k] = agreeing / 12.0;
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&bgr);
    PyBuffer_Release(&xy);
    PyBuffer_Release(&radius);
    PyBuffer_Release(&ring_x);
    PyBuffer_Release(&ring_y);
    PyBuffer_Release(&pip);
    PyBuffer_Release(&face);
    PyBuffer_Release(&contrast);
    PyBuffer_Release(&agree);
    return result;
}

/* fit(points, template, solve, source) -> (residual, spacing, angle, squash, x, y) | None
 *
 * The pattern of n pips (`template`, float64 n x 2, in pip spacings) fitted to `points`
 * (float64 n x 2): turned so its far corner lies on the point farthest from their middle, in
 * each of its four quarter turns; in each, template and points matched greedily, nearest
 * first; the best turn is the one whose worst match is least (the first of equals). With 4 or
 * more pips also a least-squares affine fit through `solve` (float64 3 x n, the pseudo-inverse
 * of `source`, float64 n x 3: the template with a column of ones): its worst error, if less,
 * is the residual, its area the spacing, and its axes' ratio the squash. Residual in pip
 * spacings; None where the points all sit in one place. */
static PyObject *fit(PyObject *self, PyObject *args)
{
    Py_buffer points, template, solve, source;
    if (!PyArg_ParseTuple(args, "y*y*y*y*", &points, &template, &solve, &source))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = points.len / (Py_ssize_t)(2 * sizeof(double));
    if (n < 2 || n > 6 || !need(&points, 2 * n, 8, "points") || !need(&template, 2 * n, 8, "template") ||
        !need(&solve, 3 * n, 8, "solve") || !need(&source, 3 * n, 8, "source")) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "fit: 2 to 6 points");
        goto done;
    }
    const double *pt = points.buf, *t = template.buf, *pinv = solve.buf, *src = source.buf;
    double cx = 0.0, cy = 0.0;
    for (Py_ssize_t i = 0; i < n; i++) {
        cx += pt[2 * i];
        cy += pt[2 * i + 1];
    }
    cx /= n;
    cy /= n;
    double rx[6], ry[6], far_d = -1.0;
    Py_ssize_t far = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        rx[i] = pt[2 * i] - cx;
        ry[i] = pt[2 * i + 1] - cy;
        double d = hypot(rx[i], ry[i]);
        if (d > far_d) {
            far_d = d;
            far = i;
        }
    }
    double spacing = far_d / sqrt(2.0);
    if (spacing < 1e-6) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    double base = atan2(ry[far], rx[far]) - M_PI / 4, best = INFINITY, angle = 0.0;
    Py_ssize_t order[6], cells = n * n;
    for (int k = 0; k < 4; k++) {
        double a = base + k * (M_PI / 2), c = cos(a) * spacing, s = sin(a) * spacing;
        double cost[36];
        int ranked[36];
        for (Py_ssize_t i = 0; i < n; i++) {
            double px = t[2 * i] * c - t[2 * i + 1] * s, py = t[2 * i] * s + t[2 * i + 1] * c;
            for (Py_ssize_t j = 0; j < n; j++)
                cost[i * n + j] = hypot(px - rx[j], py - ry[j]);
        }
        /* cheapest first, equal costs in the order of their cells (a stable sort) */
        for (int m = 0; m < cells; m++) {
            int at = m;
            while (at > 0 && cost[ranked[at - 1]] > cost[m]) {
                ranked[at] = ranked[at - 1];
                at--;
            }
            ranked[at] = m;
        }
        Py_ssize_t mine[6];
        int used[6] = {0}, left = (int)n, last = 0;
        for (Py_ssize_t i = 0; i < n; i++)
            mine[i] = -1;
        for (int m = 0; m < cells && left; m++) {
            Py_ssize_t i = ranked[m] / n, j = ranked[m] % n;
            if (mine[i] < 0 && !used[j]) {
                mine[i] = j;
                used[j] = 1;
                left--;
                last = ranked[m];
            }
        }
        double worst = cost[last] / spacing;
        if (worst < best) {
            best = worst;
            angle = a;
            for (Py_ssize_t i = 0; i < n; i++)
                order[i] = mine[i];
        }
    }
    double residual = best, squash = 1.0;
    if (n >= 4) {
        /* least-squares affine map, template -> image: rows (a, c), (b, d), (tx, ty) */
        double sol[3][2] = {{0}};
        for (int r = 0; r < 3; r++)
            for (Py_ssize_t i = 0; i < n; i++)
                for (int q = 0; q < 2; q++)
                    sol[r][q] += pinv[r * n + i] * pt[2 * order[i] + q];
        double a = sol[0][0], c = sol[0][1], b = sol[1][0], d = sol[1][1];
        /* singular values of the 2x2 linear part, in closed form */
        double fro = a * a + b * b + c * c + d * d, det = fabs(a * d - b * c);
        double big = sqrt((fro + sqrt(fmax(fro * fro - 4 * det * det, 0.0))) / 2);
        double small = big > 0 ? det / big : 0.0;
        squash = big > 0 ? small / big : 0.0;
        double err = 0.0;
        for (Py_ssize_t i = 0; i < n; i++) {
            double e[2];
            for (int q = 0; q < 2; q++)
                e[q] = src[3 * i] * sol[0][q] + src[3 * i + 1] * sol[1][q] +
                       src[3 * i + 2] * sol[2][q] - pt[2 * order[i] + q];
            err = fmax(err, hypot(e[0], e[1]));
        }
        double area = sqrt(big * small);
        if (area > 0)
            residual = fmin(residual, err / area);
        spacing = area;
    }
    result = Py_BuildValue("dddddd", residual, spacing, angle, squash, cx, cy);
done:
    PyBuffer_Release(&points);
    PyBuffer_Release(&template);
    PyBuffer_Release(&solve);
    PyBuffer_Release(&source);
    return result;
}

static Py_ssize_t root(Py_ssize_t *parent, Py_ssize_t i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static int by_first_block(const void *a, const void *b)
{
    Py_ssize_t ka = ((const Py_ssize_t *)a)[0], kb = ((const Py_ssize_t *)b)[0];
    return (ka > kb) - (ka < kb);
}

/* spots(frame, x0, y0, x1, y1, colour, limit, own) -> (centres, boxes, own_areas)
 *
 * The spots of one colour in the window [x0, x1) x [y0, y1) of `frame` (uint8, H x W x 3, W
 * and H from `x1`, `y1` and the buffer's size given W as `width`): 8-connected pixels whose
 * squared distance to `colour` (B, G, R, as OpenCV rounds a scalar to bytes) is below `limit`.
 * Returns their centres (bytes of float64 (x, y), window pixels), their boxes (bytes of int64
 * (width, height, area)), in the order OpenCV's connectedComponents numbers them (by the first
 * 2 x 2 block of pixels that holds them, blocks in rows of two pixel rows), and for each
 * whole-pixel place of `own` (a sequence of (x, y) in the window) the area of the biggest spot
 * in the 3 x 3 pixels around it (kept to the window), 0 if none. */
static PyObject *spots(PyObject *self, PyObject *args)
{
    Py_buffer frame;
    Py_ssize_t width, x0, y0, x1, y1;
    double b, g, r, limit;
    PyObject *own;
    if (!PyArg_ParseTuple(args, "y*nnnnn(ddd)dO", &frame, &width, &x0, &y0, &x1, &y1, &b, &g, &r,
                          &limit, &own))
        return NULL;
    PyObject *result = NULL, *own_seq = NULL, *centres = NULL, *boxes = NULL, *areas = NULL;
    Py_ssize_t *parent = NULL, *label = NULL, *stat = NULL;
    Py_ssize_t height = width > 0 ? frame.len / (width * 3) : 0;
    if (width <= 0 || frame.len != height * width * 3 || x0 < 0 || y0 < 0 || x1 > width ||
        y1 > height || x1 <= x0 || y1 <= y0) {
        PyErr_SetString(PyExc_ValueError, "spots: window off the frame");
        goto done;
    }
    own_seq = PySequence_Fast(own, "spots: own must be a sequence of (x, y)");
    if (!own_seq)
        goto done;
    Py_ssize_t w = x1 - x0, h = y1 - y0, size = w * h;
    const uint8_t *px = frame.buf;
    int want[3];
    double bgr[3] = {b, g, r};
    for (int i = 0; i < 3; i++) /* saturate_cast<uchar>: rounded half to even, kept to bytes */
        want[i] = (int)nearbyint(bgr[i] < 0 ? 0 : (bgr[i] > 255 ? 255 : bgr[i]));
    label = PyMem_Malloc(size * sizeof(Py_ssize_t));
    parent = PyMem_Malloc((size + 1) * sizeof(Py_ssize_t));
    if (!label || !parent) {
        PyErr_NoMemory();
        goto done;
    }
    /* one pass: a provisional label per pixel, joined to its labelled neighbours above and
     * to the left (8-connected); a root is its set's smallest label */
    Py_ssize_t made = 0;
    for (Py_ssize_t y = 0; y < h; y++) {
        const uint8_t *row = px + ((y0 + y) * width + x0) * 3;
        for (Py_ssize_t x = 0; x < w; x++) {
            int d0 = row[3 * x] - want[0], d1 = row[3 * x + 1] - want[1];
            int d2 = row[3 * x + 2] - want[2];
            Py_ssize_t at = y * w + x;
            label[at] = 0;
            if (!((double)(d0 * d0 + d1 * d1 + d2 * d2) < limit))
                continue;
            Py_ssize_t mine = 0;
            const Py_ssize_t near[4][2] = {{-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
            for (int k = 0; k < 4; k++) {
                Py_ssize_t nx = x + near[k][0], ny = y + near[k][1];
                if (nx < 0 || nx >= w || ny < 0 || !label[ny * w + nx])
                    continue;
                Py_ssize_t other = root(parent, label[ny * w + nx]);
                if (!mine)
                    mine = other;
                else if (other != mine) {
                    Py_ssize_t lo = other < mine ? other : mine, hi = other < mine ? mine : other;
                    parent[hi] = lo;
                    mine = lo;
                }
            }
            if (!mine) {
                mine = ++made;
                parent[mine] = mine;
            }
            label[at] = mine;
        }
    }
    /* per set: its first 2 x 2 block, box and sums, then numbered by that block */
    Py_ssize_t count = 0;
    Py_ssize_t *index = PyMem_Malloc((made + 1) * sizeof(Py_ssize_t));
    if (!index) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 1; i <= made; i++)
        index[i] = root(parent, i) == i ? count++ : -1;
    enum { KEY, LEFT, TOP, RIGHT, BOTTOM, AREA, SUM_X, SUM_Y, ID, FIELDS };
    stat = PyMem_Calloc(count ? count : 1, FIELDS * sizeof(Py_ssize_t));
    if (!stat) {
        PyMem_Free(index);
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        stat[i * FIELDS + KEY] = PY_SSIZE_T_MAX;
        stat[i * FIELDS + LEFT] = w;
        stat[i * FIELDS + TOP] = h;
        stat[i * FIELDS + RIGHT] = stat[i * FIELDS + BOTTOM] = -1;
    }
    for (Py_ssize_t y = 0; y < h; y++)
        for (Py_ssize_t x = 0; x < w; x++) {
            Py_ssize_t l = label[y * w + x];
            if (!l)
                continue;
            l = index[root(parent, l)];
            label[y * w + x] = l + 1;
            Py_ssize_t *st = stat + l * FIELDS;
            Py_ssize_t key = (y / 2) * w + x / 2;
            st[KEY] = key < st[KEY] ? key : st[KEY];
            st[LEFT] = x < st[LEFT] ? x : st[LEFT];
            st[RIGHT] = x > st[RIGHT] ? x : st[RIGHT];
            st[TOP] = y < st[TOP] ? y : st[TOP];
            st[BOTTOM] = y;
            st[AREA]++;
            st[SUM_X] += x;
            st[SUM_Y] += y;
        }
    PyMem_Free(index);
    for (Py_ssize_t i = 0; i < count; i++)
        stat[i * FIELDS + ID] = i + 1;
    qsort(stat, count, FIELDS * sizeof(Py_ssize_t), by_first_block);
    Py_ssize_t *rank = PyMem_Malloc((count + 1) * sizeof(Py_ssize_t));
    centres = PyBytes_FromStringAndSize(NULL, count * 2 * sizeof(double));
    boxes = PyBytes_FromStringAndSize(NULL, count * 3 * sizeof(int64_t));
    areas = PyList_New(PySequence_Fast_GET_SIZE(own_seq));
    if (!rank || !centres || !boxes || !areas) {
        PyMem_Free(rank);
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    double *c = (double *)PyBytes_AS_STRING(centres);
    int64_t *bx = (int64_t *)PyBytes_AS_STRING(boxes);
    for (Py_ssize_t i = 0; i < count; i++) {
        const Py_ssize_t *st = stat + i * FIELDS;
        rank[st[ID]] = i;
        c[2 * i] = (double)st[SUM_X] / (double)st[AREA];
        c[2 * i + 1] = (double)st[SUM_Y] / (double)st[AREA];
        bx[3 * i] = st[RIGHT] - st[LEFT] + 1;
        bx[3 * i + 1] = st[BOTTOM] - st[TOP] + 1;
        bx[3 * i + 2] = st[AREA];
    }
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(own_seq); k++) {
        Py_ssize_t x, y;
        PyObject *place = PySequence_Fast_GET_ITEM(own_seq, k);
        if (!PyArg_ParseTuple(place, "nn", &x, &y)) {
            PyMem_Free(rank);
            goto done;
        }
        /* the 3 x 3 around it, each end kept to the window as a slice of it would be */
        Py_ssize_t ya = y - 1 < 0 ? 0 : (y - 1 > h - 1 ? h - 1 : y - 1);
        Py_ssize_t yb = y + 1 < 0 ? 0 : (y + 1 > h - 1 ? h - 1 : y + 1);
        Py_ssize_t xa = x - 1 < 0 ? 0 : (x - 1 > w - 1 ? w - 1 : x - 1);
        Py_ssize_t xb = x + 1 < 0 ? 0 : (x + 1 > w - 1 ? w - 1 : x + 1);
        Py_ssize_t biggest = 0;
        for (Py_ssize_t yy = ya; yy <= yb; yy++)
            for (Py_ssize_t xx = xa; xx <= xb; xx++) {
                Py_ssize_t l = label[yy * w + xx];
                if (l && stat[rank[l] * FIELDS + AREA] > biggest)
                    biggest = stat[rank[l] * FIELDS + AREA];
            }
        PyList_SET_ITEM(areas, k, PyLong_FromSsize_t(biggest));
    }
    PyMem_Free(rank);
    result = PyTuple_Pack(3, centres, boxes, areas);
done:
    Py_XDECREF(own_seq);
    Py_XDECREF(centres);
    Py_XDECREF(boxes);
    Py_XDECREF(areas);
    PyMem_Free(label);
    PyMem_Free(parent);
    PyMem_Free(stat);
    PyBuffer_Release(&frame);
    return result;
}

static PyMethodDef methods[] = {
    {"extent", extent, METH_VARARGS, "Pips' half-height extents along 8 rays."},
    {"spots", spots, METH_VARARGS, "Spots of one colour in a window of a frame."},
    {"fit", fit, METH_VARARGS, "A pip pattern fitted to pips."},
    {"colour_extent", colour_extent, METH_VARARGS, "Pips' outlines in colour along 8 rays."},
    {"rays", rays, METH_VARARGS, "Rays from faces' centres to where the colour leaves them."},
    {"paths", paths, METH_VARARGS, "Whether the paths between pairs of pips are all face."},
    {"probes", probes, METH_VARARGS, "Points tested against their faces' and pips' colours."},
    {"ring_agreement", ring_agreement, METH_VARARGS, "The face's colour round pips, and how alike."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "kernels", .m_size = -1, .m_methods = methods};

PyMODINIT_FUNC PyInit_kernels(void) { return PyModule_Create(&module); }
