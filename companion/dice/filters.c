/* The pip search's passes over the whole frame, compiled: the smoothing, the top-hat
 * responses and their peaks. Each gives exactly what OpenCV gives (tests compare them), in
 * fewer steps: OpenCV's morphology takes a k x k square in about k steps a byte, here in
 * about log2(k) + 4; the peak search looks closely only at the few bytes above its floor.
 *
 * Arrays come in through the buffer protocol (C-contiguous uint8), as in kernels.c. The hot
 * loops are plain byte-wise arithmetic that compilers turn into vector instructions; on x86-64
 * they are also built for AVX2, taken where the processor has it. Integer arithmetic only, so
 * every build computes the same bytes. The GIL is let go while they run.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

typedef unsigned char byte;

#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__) && !defined(__clang__)
#define HOT __attribute__((target_clones("avx2", "default")))
#else
#define HOT
#endif

/* ---- smoothing: cv2.GaussianBlur(bgr, (5, 5), 1.0) ---- */

/* OpenCV's bit-exact 8-bit Gaussian of 5 taps, sigma 1: weights in 256ths (rounded with error
 * diffusion so that they add up to 256), rows then columns, the sum rounded at the end. */
enum { W2 = 14, W1 = 62, W0 = 104 };

/* index i of a line of n, mirrored at its ends without repeating them (BORDER_REFLECT_101) */
static Py_ssize_t reflect(Py_ssize_t i, Py_ssize_t n)
{
    if (n == 1)
        return 0;
    Py_ssize_t period = 2 * (n - 1);
    i %= period;
    i = i < 0 ? i + period : i;
    return i < n ? i : period - i;
}

/* one row, padded by 2 pixels each side: weighted sums of 5 pixels, in 256ths */
HOT static void blur_row(const byte *restrict p, uint16_t *restrict out, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = (uint16_t)(W2 * (p[i] + p[i + 12]) + W1 * (p[i + 3] + p[i + 9]) + W0 * p[i + 6]);
}

/* Five rows of row sums (a..e) to one row of the frame: (sum of weights x sums + 32768) >> 16,
 * in 16 bits. A row sum is hi * 256 + lo (bytes), so the total is 256 H + L with H the
 * weighted sum of the his and L of the los, each at most 65280; the result is then
 * (H + (L >> 8) + 128) >> 8, exactly, and H + (L >> 8) is at most 65280 too. */
HOT static void blur_column(const uint16_t *restrict a, const uint16_t *restrict b,
                            const uint16_t *restrict c, const uint16_t *restrict d,
                            const uint16_t *restrict e, byte *restrict out, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        uint16_t hi = (uint16_t)(W2 * ((a[i] >> 8) + (e[i] >> 8)) + W1 * ((b[i] >> 8) + (d[i] >> 8)) +
                                 W0 * (c[i] >> 8));
        uint16_t lo = (uint16_t)(W2 * ((a[i] & 255) + (e[i] & 255)) +
                                 W1 * ((b[i] & 255) + (d[i] & 255)) + W0 * (c[i] & 255));
        out[i] = (byte)((uint16_t)(hi + (lo >> 8) + 128) >> 8);
    }
}

/* A pass over the frame that makes its rows in order, as far as the next pass needs them:
 * run this way, the passes hand rows to each other while they are still in the cache. */
struct stage {
    void (*advance)(struct stage *stage, Py_ssize_t rows); /* have rows 0..rows-1 ready */
    Py_ssize_t ready;
};

/* `src` (h x w x 3) smoothed into `dst`. `pad` holds (w + 4) * 3 bytes, `sums` 5 rows of
 * w * 3 row sums, one for each of the rows a frame row takes (by the row's number mod 5). */
struct blurring {
    struct stage stage;
    const byte *src;
    byte *dst;
    Py_ssize_t h, w;
    byte *pad;
    uint16_t *sums;
    Py_ssize_t summed; /* rows summed so far */
};

static void blur_advance(struct stage *stage, Py_ssize_t rows)
{
    struct blurring *b = (struct blurring *)stage;
    Py_ssize_t n = b->w * 3, h = b->h;
    Py_ssize_t left[2] = {reflect(-2, b->w) * 3, reflect(-1, b->w) * 3};
    Py_ssize_t right[2] = {reflect(b->w, b->w) * 3, reflect(b->w + 1, b->w) * 3};
    for (Py_ssize_t y = stage->ready; y < rows && y < h; y++) {
        for (; b->summed < h && b->summed <= y + 2; b->summed++) {
            const byte *row = b->src + b->summed * n;
            memcpy(b->pad, row + left[0], 3);
            memcpy(b->pad + 3, row + left[1], 3);
            memcpy(b->pad + 6, row, n);
            memcpy(b->pad + 6 + n, row + right[0], 3);
            memcpy(b->pad + 9 + n, row + right[1], 3);
            blur_row(b->pad, b->sums + (b->summed % 5) * n, n);
        }
        const uint16_t *at[5];
        for (int j = 0; j < 5; j++)
            at[j] = b->sums + (reflect(y + j - 2, h) % 5) * n;
        blur_column(at[0], at[1], at[2], at[3], at[4], b->dst + y * n, n);
        stage->ready = y + 1;
    }
}

/* ---- top-hats: cv2.morphologyEx with a k x k square ---- */

HOT static void most_pairs(const byte *restrict a, const byte *restrict b, byte *restrict out,
                           Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = a[i] > b[i] ? a[i] : b[i];
}

HOT static void least_pairs(const byte *restrict a, const byte *restrict b, byte *restrict out,
                            Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = a[i] < b[i] ? a[i] : b[i];
}

/* a row of the black-hat: the closing (the least of a and b) less the image, and of the
 * top-hat: the image less the opening (the most of a and b). Saturated, as OpenCV does: with
 * an even k the window is off centre, and a closing can be below the image. */
HOT static void black_hat(const byte *restrict a, const byte *restrict b,
                          const byte *restrict image, byte *restrict out, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        byte c = a[i] < b[i] ? a[i] : b[i];
        out[i] = c > image[i] ? c - image[i] : 0;
    }
}

HOT static void top_hat(const byte *restrict a, const byte *restrict b,
                        const byte *restrict image, byte *restrict out, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        byte o = a[i] > b[i] ? a[i] : b[i];
        out[i] = image[i] > o ? image[i] - o : 0;
    }
}

typedef void (*pairs_fn)(const byte *, const byte *, byte *, Py_ssize_t);
typedef void (*hat_fn)(const byte *, const byte *, const byte *, byte *, Py_ssize_t);

/* A dilate (the most over a window) or an erode (the least), and what stands off the frame:
 * nothing, as with OpenCV's default border, so 0 for a most and 255 for a least. */
struct extreme {
    pairs_fn pairs;
    byte none;
};

static const struct extreme MOST = {most_pairs, 0}, LEAST = {least_pairs, 255};

/* Work space the square passes share, used within one block at a time: two padded lines of
 * (w + k + 4) * 3 bytes, `tail` and `head` of k rows each, and a row of 0s and one of 255s. */
struct shared {
    byte *pad, *tmp, *tail, *head, *zeros, *full;
};

/* A dilate or an erode of `src` (h rows of n bytes, made by `source`) by a k x k square into
 * `dst`, which may be `src` itself, block by block: each row along its windows (into `ring`,
 * 2k rows, as the pass down needs them), then down the columns by van Herk and Gil-Werman's
 * blocks of k rows. Rows are numbered in the frame padded with `anchor` rows of `none` above
 * and k - 1 - anchor below; within a block, the extreme from each row to the block's end
 * (`tail`) and from the next block's start to each row (`head`) join into a window starting
 * at that row, 3 steps a byte whatever k. With a `hat`, each row written is that hat of the
 * rows joined and the row of `image`. */
struct square {
    struct stage stage;
    const struct extreme *e;
    struct stage *source;
    const byte *src;
    byte *dst;
    hat_fn hat;
    const byte *image;
    Py_ssize_t h, n;
    int k, anchor;
    byte *ring;
    struct shared *work;
    const byte *row[2 * 64]; /* the padded rows of this block and the next */
};

/* One row along its k-pixel windows (pixels 3 bytes apart): windows of 1, 2, 4 .. span
 * pixels by doubling (span the largest power of two <= k), then two windows of span that
 * overlap to cover k. A window reaches `anchor` pixels back and k - 1 - anchor on. */
static void along(const struct square *q, const byte *src, byte *dst)
{
    const struct extreme *e = q->e;
    Py_ssize_t n = q->n, lo = (Py_ssize_t)q->anchor * 3, hi = (Py_ssize_t)(q->k - 1 - q->anchor) * 3;
    byte *cur = q->work->pad, *next = q->work->tmp;
    memset(cur, e->none, lo);
    memcpy(cur + lo, src, n);
    memset(cur + lo + n, e->none, hi);
    Py_ssize_t len = n + lo + hi;
    int span = 1;
    for (; 2 * span <= q->k; span *= 2) {
        len -= (Py_ssize_t)span * 3;
        e->pairs(cur, cur + (Py_ssize_t)span * 3, next, len);
        byte *t = cur;
        cur = next;
        next = t;
    }
    e->pairs(cur, cur + (Py_ssize_t)(q->k - span) * 3, dst, n);
}

static void square_advance(struct stage *stage, Py_ssize_t rows)
{
    struct square *q = (struct square *)stage;
    Py_ssize_t n = q->n, h = q->h, padded = h + q->k - 1;
    int k = q->k;
    const byte *blank = q->e->none ? q->work->full : q->work->zeros;
    byte *tail = q->work->tail, *head = q->work->head;
    while (stage->ready < rows && stage->ready < h) {
        Py_ssize_t start = stage->ready;
        /* the source's rows up to the next block's last */
        Py_ssize_t need = start + 2 * k - q->anchor;
        q->source->advance(q->source, need < h ? need : h);
        for (int i = start ? k : 0; i < 2 * k; i++) {
            Py_ssize_t j = start + i, y = j - q->anchor;
            byte *slot = q->ring + (j % (2 * k)) * n;
            if (j < padded && y >= 0 && y < h) {
                along(q, q->src + y * n, slot);
                q->row[i] = slot;
            } else
                q->row[i] = blank;
        }
        memcpy(tail + (Py_ssize_t)(k - 1) * n, q->row[k - 1], n);
        for (int i = k - 2; i >= 0; i--)
            q->e->pairs(q->row[i], tail + (Py_ssize_t)(i + 1) * n, tail + (Py_ssize_t)i * n, n);
        int rows_here = (int)(h - start < k ? h - start : k);
        memcpy(head, q->row[k], n);
        for (int i = 1; i < rows_here - 1; i++)
            q->e->pairs(head + (Py_ssize_t)(i - 1) * n, q->row[k + i], head + (Py_ssize_t)i * n, n);
        for (int i = 0; i < rows_here; i++) {
            const byte *t = tail + (Py_ssize_t)i * n;
            const byte *g = i ? head + (Py_ssize_t)(i - 1) * n : t;
            byte *out = q->dst + (start + i) * n;
            if (q->hat)
                q->hat(t, g, q->image + (start + i) * n, out, n);
            else
                q->e->pairs(t, g, out, n);
        }
        for (int i = 0; i < k; i++) /* the next block's first k rows are this one's last */
            q->row[i] = q->row[k + i];
        stage->ready = start + rows_here;
    }
}

/* responses(bgr, width, k, smooth, out)
 *
 * `bgr` (uint8, H x width x 3) smoothed as cv2.GaussianBlur(bgr, (5, 5), 1.0) into `smooth`
 * (uint8, H x width x 3), then its black-hat and top-hat with a k x k square (anchor k // 2),
 * each channel on its own, as cv2.morphologyEx gives them: the black-hat (closing less the
 * image) into rows 0..H-1 of `out` (uint8, (2H + 2) x width x 3), two rows of zeros, then the
 * top-hat (the image less its opening). */
static PyObject *responses(PyObject *self, PyObject *args)
{
    Py_buffer bgr, smooth, out;
    Py_ssize_t width;
    int k;
    if (!PyArg_ParseTuple(args, "y*niw*w*", &bgr, &width, &k, &smooth, &out))
        return NULL;
    PyObject *result = NULL;
    byte *scratch = NULL;
    Py_ssize_t n = width * 3;
    Py_ssize_t h = n > 0 ? bgr.len / n : 0;
    if (width <= 0 || h <= 0 || bgr.len != h * n || k < 1 || k > 64) {
        PyErr_SetString(PyExc_ValueError, "responses: bgr must be H x width x 3, k 1..64");
        goto done;
    }
    if (smooth.len != h * n || out.len != (2 * h + 2) * n) {
        PyErr_SetString(PyExc_ValueError,
                        "responses: smooth must be H x width x 3, out (2H + 2) x width x 3");
        goto done;
    }
    Py_ssize_t line = (width + k + 4) * 3;
    /* row sums; two lines; tail, head, 0s, 255s; a ring for each of the four squares */
    scratch = PyMem_Malloc(5 * n * sizeof(uint16_t) + 2 * line + (2 * (Py_ssize_t)k + 2) * n +
                           4 * (2 * (Py_ssize_t)k * n));
    if (!scratch) {
        PyErr_NoMemory();
        goto done;
    }
    struct shared work;
    work.pad = scratch + 5 * n * sizeof(uint16_t);
    work.tmp = work.pad + line;
    work.tail = work.tmp + line;
    work.head = work.tail + k * n;
    work.zeros = work.head + k * n;
    work.full = work.zeros + n;
    byte *rings = work.full + n;
    byte *image = smooth.buf, *black = out.buf, *top = black + (h + 2) * n;
    struct blurring blurring = {{blur_advance, 0}, bgr.buf, image, h, width, work.pad,
                                (uint16_t *)scratch, 0};
    /* closing = erode(dilate(image)), opening = dilate(erode(image)); the dilate and the
     * erode of the image go where their hats will, the hats' own passes reading them */
    struct square squares[4] = {
        {.e = &MOST, .source = &blurring.stage, .src = image, .dst = black},
        {.e = &LEAST, .source = &squares[0].stage, .src = black, .dst = black, .hat = black_hat},
        {.e = &LEAST, .source = &blurring.stage, .src = image, .dst = top},
        {.e = &MOST, .source = &squares[2].stage, .src = top, .dst = top, .hat = top_hat},
    };
    for (int i = 0; i < 4; i++) {
        struct square *q = &squares[i];
        q->stage.advance = square_advance;
        q->image = image;
        q->h = h;
        q->n = n;
        q->k = k;
        q->anchor = k / 2;
        q->ring = rings + i * (2 * (Py_ssize_t)k * n);
        q->work = &work;
    }
    Py_BEGIN_ALLOW_THREADS;
    memset(work.zeros, 0, n);
    memset(work.full, 255, n);
    memset(black + h * n, 0, 2 * n);
    /* both hats a block at a time, so that each pass's rows are read soon after written */
    for (Py_ssize_t y = k; y < h + k; y += k) {
        squares[1].stage.advance(&squares[1].stage, y);
        squares[3].stage.advance(&squares[3].stage, y);
    }
    Py_END_ALLOW_THREADS;
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(scratch);
    PyBuffer_Release(&bgr);
    PyBuffer_Release(&smooth);
    PyBuffer_Release(&out);
    return result;
}

/* ---- peaks ---- */

/* the largest byte of n */
HOT static byte highest(const byte *restrict p, Py_ssize_t n)
{
    byte high = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        high = p[i] > high ? p[i] : high;
    return high;
}

/* 1 where a byte of `line` is at least `floor` and no less than the same byte of any of the
 * rows a..e (the largest along the rows around it: the 5 x 5's largest), else 0 */
HOT static void tallest(const byte *restrict line, const byte *restrict a,
                        const byte *restrict b, const byte *restrict c, const byte *restrict d,
                        const byte *restrict e, byte floor, byte *restrict out, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        byte m = a[i] > b[i] ? a[i] : b[i];
        m = m > c[i] ? m : c[i];
        m = m > d[i] ? m : d[i];
        m = m > e[i] ? m : e[i];
        out[i] = (line[i] >= floor) & (line[i] >= m);
    }
}

/* The most of each byte's 5 pixels along its row (of n bytes), off the row counting as 0;
 * `pad` and `tmp` hold n + 12 bytes. */
static void across5(const byte *line, byte *out, Py_ssize_t n, byte *pad, byte *tmp)
{
    memset(pad, 0, 6);
    memcpy(pad + 6, line, n);
    memset(pad + 6 + n, 0, 6);
    most_pairs(pad, pad + 3, tmp, n + 9);  /* 2 pixels */
    most_pairs(tmp, tmp + 6, pad, n + 3);  /* 4 */
    most_pairs(pad, pad + 3, out, n);      /* 5 */
}

/* peaks(response, width, floor, found) -> count
 *
 * The flat indices, in order, of the peaks of `response` (uint8, rows x width x 3): bytes at
 * least `floor` (1..255) and the largest of their channel's 5 x 5 (on the image), as a 5 x 5
 * dilate finds them. Of a flat top, only the first of each run along a row, and of those the
 * first down each column: a peak whose left neighbour is a peak is passed over, and so is one
 * whose upper neighbour is, unless the upper-left one is too. Writes at most len(found)
 * (intp) of them and returns how many there are: a larger count asks for a larger `found`. */
static PyObject *peaks(PyObject *self, PyObject *args)
{
    Py_buffer response, found;
    Py_ssize_t width;
    int floor;
    if (!PyArg_ParseTuple(args, "y*niw*", &response, &width, &floor, &found))
        return NULL;
    PyObject *result = NULL;
    byte *scratch = NULL;
    Py_ssize_t n = width * 3;
    Py_ssize_t rows = n > 0 ? response.len / n : 0;
    if (width <= 0 || response.len != rows * n || floor < 1 || floor > 255) {
        PyErr_SetString(PyExc_ValueError, "peaks: response must be rows x width x 3, floor 1..255");
        goto done;
    }
    /* 5 rows of maxima along the rows (by row number mod 5), peak flags of this row and the
     * one above, two padded lines, which rows reach the floor */
    scratch = PyMem_Calloc(7 * n + 2 * (n + 12) + rows, 1);
    if (!scratch) {
        PyErr_NoMemory();
        goto done;
    }
    byte *across = scratch, *above = across + 5 * n, *here = above + n;
    byte *pad = here + n, *tmp = pad + n + 12, *high = tmp + n + 12;
    Py_ssize_t made[5] = {-1, -1, -1, -1, -1}; /* the row each of `across` holds */
    const byte *r = response.buf;
    Py_ssize_t *out = found.buf, room = found.len / (Py_ssize_t)sizeof(Py_ssize_t), count = 0;
    Py_BEGIN_ALLOW_THREADS;
    for (Py_ssize_t y = 0; y < rows; y++)
        high[y] = highest(r + y * n, n) >= floor;
    for (Py_ssize_t y = 0; y < rows; y++) {
        byte *t = above;
        above = here;
        here = t;
        if (!high[y]) { /* most rows: nothing reaches the floor */
            memset(here, 0, n);
            continue;
        }
        const byte *around[5]; /* rows off the image stand in as their nearest (a max) */
        for (Py_ssize_t i = 0; i < 5; i++) {
            Py_ssize_t yy = y + i - 2;
            yy = yy < 0 ? 0 : (yy >= rows ? rows - 1 : yy);
            if (made[yy % 5] != yy) {
                across5(r + yy * n, across + (yy % 5) * n, n, pad, tmp);
                made[yy % 5] = yy;
            }
            around[i] = across + (yy % 5) * n;
        }
        tallest(r + y * n, around[0], around[1], around[2], around[3], around[4], (byte)floor,
                here, n);
        for (Py_ssize_t j0 = 0; j0 < n; j0 += 64) { /* most of a row has no peak */
            Py_ssize_t j1 = j0 + 64 < n ? j0 + 64 : n;
            if (!highest(here + j0, j1 - j0))
                continue;
            for (Py_ssize_t j = j0; j < j1; j++) {
                if (!here[j])
                    continue;
                int left = j >= 3 && here[j - 3];
                int up = above[j] && !(j >= 3 && above[j - 3]);
                if (left || up)
                    continue;
                if (count < room)
                    out[count] = y * n + j;
                count++;
            }
        }
    }
    Py_END_ALLOW_THREADS;
    result = PyLong_FromSsize_t(count);
done:
    PyMem_Free(scratch);
    PyBuffer_Release(&response);
    PyBuffer_Release(&found);
    return result;
}

static PyMethodDef methods[] = {
    {"responses", responses, METH_VARARGS, "A frame smoothed, and its black-hat and top-hat."},
    {"peaks", peaks, METH_VARARGS, "Peaks of a response above a floor."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "filters", .m_size = -1, .m_methods = methods};

PyMODINIT_FUNC PyInit_filters(void) { return PyModule_Create(&module); }
