/*
 * amreval's compiled kernels: the alignment problem (its candidate pool, terms, adjacency and row
 * pointers, in one block), smatch's hill climbing, the exact search by branch and bound and the
 * sparse assignment.
 *
 * This is the C translation of the pure-Python kernels in _pool.py, _climb.py, _branch.py and
 * _assign.py, which stay the specification: the same loops in the same order, the same stable sorts,
 * the same floating-point operations in the same order, so both give identical results to the last
 * bit (the tests compare them). The functions work on plain int64 and double arrays and are called
 * through ctypes (see backends.py, and contract.py for their Python signatures); they trust their
 * inputs, which checks.py has checked; they hold no Python objects, so the caller releases the GIL
 * while they run.
 *
 * Built at install time as the extension module amreval.match.kernels._ckernels (the module itself is
 * empty: importing it checks that the library was built for this interpreter).
 */
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

typedef int64_t i64;
typedef uint64_t u64;

#define EPS 1e-9

/* ---------------------------------------------------------------- stable sorts */

/* Whether item a comes before item b (ctx: what the items are). */
typedef int (*LessFn)(const void *ctx, i64 a, i64 b);

/* Stable argsort of n items by less (merge sort on indices): ties keep index order, so the result is
 * unique. Returns -1 when out of memory. */
static int merge_argsort(i64 n, i64 *order, LessFn less, const void *ctx) {
    i64 *tmp;
    i64 width, i, lo, mid, hi, a, b, k;
    for (i = 0; i < n; i++) order[i] = i;
    if (n < 2) return 0;
    tmp = (i64 *)malloc((size_t)n * sizeof(i64));
    if (!tmp) return -1;
    for (width = 1; width < n; width *= 2) {
        for (lo = 0; lo < n; lo += 2 * width) {
            mid = lo + width < n ? lo + width : n;
            hi = lo + 2 * width < n ? lo + 2 * width : n;
            a = lo;
            b = mid;
            k = lo;
            while (a < mid && b < hi) {
                if (less(ctx, order[b], order[a])) tmp[k++] = order[b++];
                else tmp[k++] = order[a++];
            }
            while (a < mid) tmp[k++] = order[a++];
            while (b < hi) tmp[k++] = order[b++];
        }
        memcpy(order, tmp, (size_t)n * sizeof(i64));
    }
    free(tmp);
    return 0;
}

typedef struct {
    const i64 *ikeys;
    const double *fkeys;
} Keys;

static int keys_less(const void *ctx, i64 a, i64 b) {
    const Keys *k = (const Keys *)ctx;
    return k->ikeys ? k->ikeys[a] < k->ikeys[b] : -k->fkeys[a] < -k->fkeys[b];
}

/* Stable argsort: of int64 keys ascending when ikeys is given, else of the doubles fkeys largest first
 * (ascending -value); ties keep index order, so the result is unique. */
static int argsort(const i64 *ikeys, const double *fkeys, i64 n, i64 *order) {
    Keys k;
    k.ikeys = ikeys;
    k.fkeys = fkeys;
    return merge_argsort(n, order, keys_less, &k);
}

/* First index in ascending a[0:n] whose value is >= key (right: > key). */
static i64 search_left(const i64 *a, i64 n, i64 key) {
    i64 lo = 0, hi = n, mid;
    while (lo < hi) {
        mid = (lo + hi) / 2;
        if (a[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static i64 search_right(const i64 *a, i64 n, i64 key) {
    i64 lo = 0, hi = n, mid;
    while (lo < hi) {
        mid = (lo + hi) / 2;
        if (a[mid] <= key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* ---------------------------------------------------------------- groups */

typedef struct {
    const i64 *ga_ptr, *ga_ids, *gb_ptr, *gb_ids;
    i64 n_groups;
} Groups;

/* Whether node i of A may align with node j of B: they share a group. */
static int compatible(i64 i, i64 j, const Groups *g) {
    i64 a_lo = g->ga_ptr[i], a_hi = g->ga_ptr[i + 1];
    i64 b_lo = g->gb_ptr[j], b_hi = g->gb_ptr[j + 1];
    i64 x, y;
    if (a_hi - a_lo <= b_hi - b_lo) {
        for (x = a_lo; x < a_hi; x++) {
            y = search_left(g->gb_ids + b_lo, b_hi - b_lo, g->ga_ids[x]);
            if (y < b_hi - b_lo && g->gb_ids[b_lo + y] == g->ga_ids[x]) return 1;
        }
    } else {
        for (y = b_lo; y < b_hi; y++) {
            x = search_left(g->ga_ids + a_lo, a_hi - a_lo, g->gb_ids[y]);
            if (x < a_hi - a_lo && g->ga_ids[a_lo + x] == g->gb_ids[y]) return 1;
        }
    }
    return 0;
}

/* Items of B (key and owner node, key[t * stride], owner[t * stride]) sorted by (key, group of the
 * owner), one entry per group: comp = key * n_groups + group ascending, item its item. */
typedef struct {
    i64 *comp;
    i64 *item;
    i64 n;
} GroupIndex;

static void group_index_free(GroupIndex *gi) {
    free(gi->comp);
    free(gi->item);
    gi->comp = gi->item = NULL;
}

static int group_index(const i64 *keys, i64 key_stride, const i64 *owners, i64 owner_stride, i64 n_items,
                       const Groups *g, GroupIndex *out) {
    i64 total = 0, t, j, y, x = 0;
    i64 *comp, *item, *order;
    out->comp = out->item = NULL;
    out->n = 0;
    for (t = 0; t < n_items; t++) {
        j = owners ? owners[t * owner_stride] : t;
        total += g->gb_ptr[j + 1] - g->gb_ptr[j];
    }
    comp = (i64 *)malloc((size_t)(total ? total : 1) * sizeof(i64));
    item = (i64 *)malloc((size_t)(total ? total : 1) * sizeof(i64));
    order = (i64 *)malloc((size_t)(total ? total : 1) * sizeof(i64));
    if (!comp || !item || !order) goto fail;
    for (t = 0; t < n_items; t++) {
        j = owners ? owners[t * owner_stride] : t;
        for (y = g->gb_ptr[j]; y < g->gb_ptr[j + 1]; y++) {
            comp[x] = keys[t * key_stride] * g->n_groups + g->gb_ids[y];
            item[x] = t;
            x++;
        }
    }
    if (argsort(comp, NULL, total, order)) goto fail;
    out->comp = (i64 *)malloc((size_t)(total ? total : 1) * sizeof(i64));
    out->item = (i64 *)malloc((size_t)(total ? total : 1) * sizeof(i64));
    if (!out->comp || !out->item) goto fail;
    for (x = 0; x < total; x++) {
        out->comp[x] = comp[order[x]];
        out->item[x] = item[order[x]];
    }
    out->n = total;
    free(comp);
    free(item);
    free(order);
    return 0;
fail:
    free(comp);
    free(item);
    free(order);
    group_index_free(out);
    return -1;
}

/* ---------------------------------------------------------------- growable arrays */

typedef struct {
    i64 *data;
    i64 n, cap;
} VecI;

typedef struct {
    double *data;
    i64 n, cap;
} VecF;

static int veci_push(VecI *v, i64 x) {
    if (v->n == v->cap) {
        i64 cap = v->cap ? 2 * v->cap : 16;
        i64 *d = (i64 *)realloc(v->data, (size_t)cap * sizeof(i64));
        if (!d) return -1;
        v->data = d;
        v->cap = cap;
    }
    v->data[v->n++] = x;
    return 0;
}

static int vecf_push(VecF *v, double x) {
    if (v->n == v->cap) {
        i64 cap = v->cap ? 2 * v->cap : 16;
        double *d = (double *)realloc(v->data, (size_t)cap * sizeof(double));
        if (!d) return -1;
        v->data = d;
        v->cap = cap;
    }
    v->data[v->n++] = x;
    return 0;
}

/* ---------------------------------------------------------------- counting (see _pool.count_problem) */

/* One side's nodes' groups. */
typedef struct {
    const i64 *ptr, *ids;
    i64 n_groups;
} Side;

/* A node's groups as one number: its group when it has one, n_groups + node when several, -1 when none. */
static i64 group_set(const Side *s, i64 node) {
    i64 size = s->ptr[node + 1] - s->ptr[node];
    if (size == 0) return -1;
    return size == 1 ? s->ids[s->ptr[node]] : s->n_groups + node;
}

/* The groups of a group_set number (ascending): *n of them; one holds a single group. */
static const i64 *set_groups(const Side *s, i64 gs, i64 *one, i64 *n) {
    if (gs < s->n_groups) {
        *one = gs;
        *n = 1;
        return one;
    }
    *n = s->ptr[gs - s->n_groups + 1] - s->ptr[gs - s->n_groups];
    return s->ids + s->ptr[gs - s->n_groups];
}

/* Whether row a of rows (width columns) comes before row b, lexicographically. */
static int rows_less(const i64 *rows, int width, i64 a, i64 b) {
    int c;
    for (c = 0; c < width; c++) {
        if (rows[a * width + c] != rows[b * width + c]) return rows[a * width + c] < rows[b * width + c];
    }
    return 0;
}

typedef struct {
    const i64 *rows;
    int width;
} Rows;

static int rows_ctx_less(const void *ctx, i64 a, i64 b) {
    const Rows *r = (const Rows *)ctx;
    return rows_less(r->rows, r->width, a, b);
}

/* Stable argsort of n rows of width int64 columns, lexicographic (merge sort, as argsort). */
static int argsort_rows(const i64 *rows, int width, i64 n, i64 *order) {
    Rows r;
    r.rows = rows;
    r.width = width;
    return merge_argsort(n, order, rows_ctx_less, &r);
}

/* Distinct item signatures (key, group set of the owner, group set of the target or 0), ascending, and how
 * many items have each (see _pool._signatures). */
typedef struct {
    i64 *sig; /* n x 3 */
    i64 *count;
    i64 n;
} Sigs;

static void sigs_free(Sigs *s) {
    free(s->sig);
    free(s->count);
    s->sig = s->count = NULL;
    s->n = 0;
}

/* Which items a count takes: every item (no target), relations from a node to itself (no target), the
 * other relations (with their target). */
enum { ITEMS_ALL, ITEMS_LOOPS, ITEMS_TERMS };

/* Item t: key keys[t * stride], owner owners[t * stride] (NULL: t), target owners[t * stride + 1]. */
static int signatures(const i64 *keys, const i64 *owners, i64 stride, i64 n_items, int which, const Side *side,
                      Sigs *out) {
    i64 *rows = NULL, *order = NULL, t, m = 0, x, owner, target;
    out->sig = out->count = NULL;
    out->n = 0;
    rows = (i64 *)calloc((size_t)(3 * n_items + 3), sizeof(i64));
    order = (i64 *)malloc((size_t)(n_items + 1) * sizeof(i64));
    out->sig = (i64 *)malloc((size_t)(3 * n_items + 3) * sizeof(i64));
    out->count = (i64 *)malloc((size_t)(n_items + 1) * sizeof(i64));
    if (!rows || !order || !out->sig || !out->count) goto fail;
    for (t = 0; t < n_items; t++) {
        i64 node = owners ? owners[t * stride] : t;
        if (which != ITEMS_ALL && (node == owners[t * stride + 1]) != (which == ITEMS_LOOPS)) continue;
        owner = group_set(side, node);
        target = which == ITEMS_TERMS ? group_set(side, owners[t * stride + 1]) : 0;
        if (owner < 0 || target < 0) continue;
        rows[3 * m] = keys[t * stride];
        rows[3 * m + 1] = owner;
        rows[3 * m + 2] = target;
        m++;
    }
    if (argsort_rows(rows, 3, m, order)) goto fail;
    for (x = 0; x < m; x++) {
        const i64 *row = rows + 3 * order[x];
        if (out->n && row[0] == out->sig[3 * out->n - 3] && row[1] == out->sig[3 * out->n - 2] &&
            row[2] == out->sig[3 * out->n - 1]) {
            out->count[out->n - 1]++;
            continue;
        }
        memcpy(out->sig + 3 * out->n, row, 3 * sizeof(i64));
        out->count[out->n++] = 1;
    }
    free(rows);
    free(order);
    return 0;
fail:
    free(rows);
    free(order);
    sigs_free(out);
    return -1;
}

/* Whether two ascending lists share a value. */
static int lists_meet(const i64 *x, i64 nx, const i64 *y, i64 ny) {
    i64 a = 0, b = 0;
    while (a < nx && b < ny) {
        if (x[a] == y[b]) return 1;
        if (x[a] < y[b]) a++;
        else b++;
    }
    return 0;
}

/* First row (of n ascending rows of 3 columns) whose first two columns are >= (key, g) (right: >). */
static i64 search_head(const i64 *rows, i64 n, i64 key, i64 g, int right) {
    i64 lo = 0, hi = n, mid;
    while (lo < hi) {
        mid = (lo + hi) / 2;
        if (rows[3 * mid] < key || (rows[3 * mid] == key && (rows[3 * mid + 1] < g || (right && rows[3 * mid + 1] == g))))
            lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The matching (item of A, item of B) by signature (see _pool._count_pairs); -1 when out of memory. */
static i64 count_pairs(const Sigs *a, const Sigs *b, const Side *side_a, const Side *side_b, int targets) {
    i64 total = 0, n_list = 0, x, y, z, k, n, lo, hi, one, one_b, n_b, g;
    i64 *rows = NULL, *order = NULL, *listing = NULL, *seen = NULL;
    const i64 *gs, *gs_b;
    for (y = 0; y < b->n; y++) {
        set_groups(side_b, b->sig[3 * y + 1], &one, &n);
        n_list += n;
    }
    rows = (i64 *)malloc((size_t)(3 * n_list + 3) * sizeof(i64));
    order = (i64 *)malloc((size_t)(n_list + 1) * sizeof(i64));
    listing = (i64 *)malloc((size_t)(3 * n_list + 3) * sizeof(i64));
    seen = (i64 *)malloc((size_t)(b->n + 1) * sizeof(i64));
    if (!rows || !order || !listing || !seen) {
        total = -1;
        goto out;
    }
    /* B's signatures listed under (key, group) for each group of their owner */
    z = 0;
    for (y = 0; y < b->n; y++) {
        gs = set_groups(side_b, b->sig[3 * y + 1], &one, &n);
        for (k = 0; k < n; k++) {
            rows[3 * z] = b->sig[3 * y];
            rows[3 * z + 1] = gs[k];
            rows[3 * z + 2] = y;
            z++;
        }
        seen[y] = -1;
    }
    if (argsort_rows(rows, 3, n_list, order)) {
        total = -1;
        goto out;
    }
    for (z = 0; z < n_list; z++) memcpy(listing + 3 * z, rows + 3 * order[z], 3 * sizeof(i64));
    for (x = 0; x < a->n; x++) {
        gs = set_groups(side_a, a->sig[3 * x + 1], &one, &n);
        for (k = 0; k < n; k++) {
            g = gs[k];
            lo = search_head(listing, n_list, a->sig[3 * x], g, 0);
            hi = search_head(listing, n_list, a->sig[3 * x], g, 1);
            for (z = lo; z < hi; z++) {
                y = listing[3 * z + 2];
                if (seen[y] == x) continue;
                seen[y] = x;
                if (targets) {
                    i64 one_a, n_a;
                    const i64 *ta = set_groups(side_a, a->sig[3 * x + 2], &one_a, &n_a);
                    gs_b = set_groups(side_b, b->sig[3 * y + 2], &one_b, &n_b);
                    if (!lists_meet(ta, n_a, gs_b, n_b)) continue;
                }
                total += a->count[x] * b->count[y];
            }
        }
    }
out:
    free(rows);
    free(order);
    free(listing);
    free(seen);
    return total;
}

/* The matching items of the two sides (see count_pairs) taken by which; -1 when out of memory. */
static i64 count_matching(const i64 *keys_a, const i64 *owners_a, i64 stride_a, i64 n_a_items, const i64 *keys_b,
                          const i64 *owners_b, i64 stride_b, i64 n_b_items, int which, const Side *side_a,
                          const Side *side_b) {
    Sigs sa = {NULL, NULL, 0}, sb = {NULL, NULL, 0};
    i64 total = -1;
    if (!signatures(keys_a, owners_a, stride_a, n_a_items, which, side_a, &sa) &&
        !signatures(keys_b, owners_b, stride_b, n_b_items, which, side_b, &sb))
        total = count_pairs(&sa, &sb, side_a, side_b, which == ITEMS_TERMS);
    sigs_free(&sa);
    sigs_free(&sb);
    return total;
}

/* ---------------------------------------------------------------- build_pool */

typedef struct {
    i64 n_pairs, n_terms;
    i64 *pair_src, *pair_tgt;
    double *pair_u;
    i64 *term_p, *term_q, *term_ta, *term_tb;
    double *term_w;
    double bound;
} Pool;

static void pool_free(Pool *out) {
    free(out->pair_src);
    free(out->pair_tgt);
    free(out->pair_u);
    free(out->term_p);
    free(out->term_q);
    free(out->term_ta);
    free(out->term_tb);
    free(out->term_w);
    memset(out, 0, sizeof(Pool));
}

static double sum_f(const double *a, i64 n) {
    double s = 0.0;
    i64 i;
    for (i = 0; i < n; i++) s += a[i];
    return s;
}

#define CHECK(cond)        \
    do {                   \
        if (!(cond)) goto fail; \
    } while (0)

/* Candidate pool, unary weights, pairwise terms and a simple upper bound (see _pool.build_pool, whose
 * steps are the blocks here, in order). Returns 0, or -1 when out of memory (out is then empty). The
 * arrays of out are the caller's to release with pool_free. */
static int build_pool(const i64 *inst_a, i64 n_a, const i64 *attr_a, i64 m_a, const i64 *rel_a, i64 r_a,
                      const i64 *inst_b, i64 n_b, const i64 *attr_b, i64 m_b, const i64 *rel_b, i64 r_b,
                      const i64 *ga_ptr, const i64 *ga_ids, const i64 *gb_ptr, const i64 *gb_ids, i64 n_groups,
                      const double *inst_w, int use_inst_w, const double *inst_bw, const double *attr_bw,
                      const double *rel_bw, Pool *out) {
    Groups g = {ga_ptr, ga_ids, gb_ptr, gb_ids, n_groups};
    GroupIndex gi = {NULL, NULL, 0};
    VecI e_key = {NULL, 0, 0};
    VecF e_w = {NULL, 0, 0};
    VecI t_i = {NULL, 0, 0}, t_j = {NULL, 0, 0}, t_k = {NULL, 0, 0}, t_l = {NULL, 0, 0};
    VecI t_ta = {NULL, 0, 0}, t_tb = {NULL, 0, 0};
    VecF t_w = {NULL, 0, 0};
    double *best_a_inst = NULL, *best_b_inst = NULL, *attr_a_best = NULL, *attr_b_best = NULL;
    double *rel_a_best = NULL, *rel_b_best = NULL;
    i64 *seen = NULL, *order = NULL, *tkey = NULL, *keys_all = NULL, *pair_key = NULL;
    double *w_all = NULL, *pair_u = NULL;
    char *in_term = NULL, *flag = NULL;
    i64 i, j, s, t, x, gx, lo, hi, e, p, q, n_terms, n_e, total, n_pairs, n_keep, last;
    double w;
    int rc = -1;
    memset(out, 0, sizeof(Pool));

    CHECK(best_a_inst = (double *)calloc((size_t)(n_a + 1), sizeof(double)));
    CHECK(best_b_inst = (double *)calloc((size_t)(n_b + 1), sizeof(double)));
    if (use_inst_w) {
        for (i = 0; i < n_a; i++) {
            for (j = 0; j < n_b; j++) {
                if (!compatible(i, j, &g)) continue;
                w = inst_w[i * n_b + j] * inst_bw[j];
                if (w > 0.0) {
                    CHECK(!veci_push(&e_key, i * n_b + j) && !vecf_push(&e_w, w));
                    if (w > best_a_inst[i]) best_a_inst[i] = w;
                    if (w > best_b_inst[j]) best_b_inst[j] = w;
                }
            }
        }
    } else {
        CHECK(!group_index(inst_b, 1, NULL, 0, n_b, &g, &gi));
        CHECK(seen = (i64 *)malloc((size_t)(n_b + 1) * sizeof(i64)));
        for (j = 0; j < n_b; j++) seen[j] = -1;
        for (i = 0; i < n_a; i++) {
            for (gx = ga_ptr[i]; gx < ga_ptr[i + 1]; gx++) {
                i64 key = inst_a[i] * n_groups + ga_ids[gx];
                lo = search_left(gi.comp, gi.n, key);
                hi = search_right(gi.comp, gi.n, key);
                for (x = lo; x < hi; x++) {
                    j = gi.item[x];
                    if (seen[j] == i) continue;
                    seen[j] = i;
                    w = inst_bw[j];
                    if (w > 0.0) {
                        CHECK(!veci_push(&e_key, i * n_b + j) && !vecf_push(&e_w, w));
                        if (w > best_a_inst[i]) best_a_inst[i] = w;
                        if (w > best_b_inst[j]) best_b_inst[j] = w;
                    }
                }
            }
        }
        group_index_free(&gi);
        free(seen);
        seen = NULL;
    }
    /* attributes */
    CHECK(attr_a_best = (double *)calloc((size_t)(m_a + 1), sizeof(double)));
    CHECK(attr_b_best = (double *)calloc((size_t)(m_b + 1), sizeof(double)));
    CHECK(!group_index(attr_b + 1, 2, attr_b, 2, m_b, &g, &gi));
    CHECK(seen = (i64 *)malloc((size_t)(m_b + 1) * sizeof(i64)));
    for (t = 0; t < m_b; t++) seen[t] = -1;
    for (s = 0; s < m_a; s++) {
        i = attr_a[2 * s];
        for (gx = ga_ptr[i]; gx < ga_ptr[i + 1]; gx++) {
            i64 key = attr_a[2 * s + 1] * n_groups + ga_ids[gx];
            lo = search_left(gi.comp, gi.n, key);
            hi = search_right(gi.comp, gi.n, key);
            for (x = lo; x < hi; x++) {
                t = gi.item[x];
                if (seen[t] == s) continue;
                seen[t] = s;
                j = attr_b[2 * t];
                CHECK(!veci_push(&e_key, i * n_b + j) && !vecf_push(&e_w, attr_bw[t]));
                if (attr_bw[t] > attr_a_best[s]) attr_a_best[s] = attr_bw[t];
                attr_b_best[t] = attr_bw[t];
            }
        }
    }
    group_index_free(&gi);
    free(seen);
    seen = NULL;
    /* relations */
    CHECK(rel_a_best = (double *)calloc((size_t)(r_a + 1), sizeof(double)));
    CHECK(rel_b_best = (double *)calloc((size_t)(r_b + 1), sizeof(double)));
    CHECK(!group_index(rel_b, 3, rel_b + 1, 3, r_b, &g, &gi));
    CHECK(seen = (i64 *)malloc((size_t)(r_b + 1) * sizeof(i64)));
    for (t = 0; t < r_b; t++) seen[t] = -1;
    for (s = 0; s < r_a; s++) {
        i64 k = rel_a[3 * s + 2];
        i = rel_a[3 * s + 1];
        for (gx = ga_ptr[i]; gx < ga_ptr[i + 1]; gx++) {
            i64 key = rel_a[3 * s] * n_groups + ga_ids[gx];
            lo = search_left(gi.comp, gi.n, key);
            hi = search_right(gi.comp, gi.n, key);
            for (x = lo; x < hi; x++) {
                i64 l;
                t = gi.item[x];
                if (seen[t] == s) continue;
                seen[t] = s;
                j = rel_b[3 * t + 1];
                l = rel_b[3 * t + 2];
                if ((i == k) != (j == l)) continue;
                if (!compatible(k, l, &g)) continue;
                if (rel_bw[t] > rel_a_best[s]) rel_a_best[s] = rel_bw[t];
                rel_b_best[t] = rel_bw[t];
                if (i == k) {
                    CHECK(!veci_push(&e_key, i * n_b + j) && !vecf_push(&e_w, rel_bw[t]));
                    continue;
                }
                CHECK(!veci_push(&t_i, i) && !veci_push(&t_j, j) && !veci_push(&t_k, k) && !veci_push(&t_l, l));
                CHECK(!veci_push(&t_ta, s) && !veci_push(&t_tb, t) && !vecf_push(&t_w, rel_bw[t]));
            }
        }
    }
    group_index_free(&gi);
    free(seen);
    seen = NULL;
    n_terms = t_i.n;
    n_e = e_key.n;
    /* terms in (relation of A, relation of B) order, whatever group found them */
    CHECK(tkey = (i64 *)malloc((size_t)(n_terms + 1) * sizeof(i64)));
    CHECK(order = (i64 *)malloc((size_t)(n_terms + 1) * sizeof(i64)));
    for (e = 0; e < n_terms; e++) tkey[e] = t_ta.data[e] * r_b + t_tb.data[e];
    CHECK(!argsort(tkey, NULL, n_terms, order));
    out->n_terms = n_terms;
    CHECK(out->term_p = (i64 *)malloc((size_t)(n_terms + 1) * sizeof(i64)));
    CHECK(out->term_q = (i64 *)malloc((size_t)(n_terms + 1) * sizeof(i64)));
    CHECK(out->term_ta = (i64 *)malloc((size_t)(n_terms + 1) * sizeof(i64)));
    CHECK(out->term_tb = (i64 *)malloc((size_t)(n_terms + 1) * sizeof(i64)));
    CHECK(out->term_w = (double *)malloc((size_t)(n_terms + 1) * sizeof(double)));
    /* term ends as pair keys (in term_p, term_q for now), in sorted term order */
    for (e = 0; e < n_terms; e++) {
        i64 o = order[e];
        out->term_p[e] = t_i.data[o] * n_b + t_j.data[o];
        out->term_q[e] = t_k.data[o] * n_b + t_l.data[o];
        out->term_ta[e] = t_ta.data[o];
        out->term_tb[e] = t_tb.data[o];
        out->term_w[e] = t_w.data[o];
    }
    free(order);
    order = NULL;
    /* term ends are candidates even without unary weight: zero-weight entries for them */
    total = n_e + 2 * n_terms;
    CHECK(keys_all = (i64 *)malloc((size_t)(total + 1) * sizeof(i64)));
    CHECK(w_all = (double *)calloc((size_t)(total + 1), sizeof(double)));
    CHECK(in_term = (char *)calloc((size_t)(total + 1), 1));
    for (x = 0; x < n_e; x++) {
        keys_all[x] = e_key.data[x];
        w_all[x] = e_w.data[x];
    }
    for (e = 0; e < n_terms; e++) {
        keys_all[n_e + 2 * e] = out->term_p[e];
        keys_all[n_e + 2 * e + 1] = out->term_q[e];
        in_term[n_e + 2 * e] = 1;
        in_term[n_e + 2 * e + 1] = 1;
    }
    /* pairs in (source, target) order; the stable sort keeps each pair's weights in the order found */
    CHECK(order = (i64 *)malloc((size_t)(total + 1) * sizeof(i64)));
    CHECK(!argsort(keys_all, NULL, total, order));
    CHECK(pair_key = (i64 *)malloc((size_t)(total + 1) * sizeof(i64)));
    CHECK(pair_u = (double *)calloc((size_t)(total + 1), sizeof(double)));
    CHECK(flag = (char *)calloc((size_t)(total + 1), 1));
    n_pairs = 0;
    last = -1;
    for (x = 0; x < total; x++) {
        i64 y = order[x];
        i64 key = keys_all[y];
        if (key != last) {
            pair_key[n_pairs] = key;
            n_pairs++;
            last = key;
        }
        pair_u[n_pairs - 1] += w_all[y];
        if (in_term[y]) flag[n_pairs - 1] = 1;
    }
    n_keep = 0;
    for (p = 0; p < n_pairs; p++)
        if (pair_u[p] > 0.0 || flag[p]) n_keep++;
    out->n_pairs = n_keep;
    CHECK(out->pair_src = (i64 *)malloc((size_t)(n_keep + 1) * sizeof(i64)));
    CHECK(out->pair_tgt = (i64 *)malloc((size_t)(n_keep + 1) * sizeof(i64)));
    CHECK(out->pair_u = (double *)malloc((size_t)(n_keep + 1) * sizeof(double)));
    q = 0;
    for (p = 0; p < n_pairs; p++) {
        if (pair_u[p] > 0.0 || flag[p]) {
            pair_key[q] = pair_key[p]; /* kept keys, in place */
            out->pair_src[q] = pair_key[p] / n_b;
            out->pair_tgt[q] = pair_key[p] % n_b;
            out->pair_u[q] = pair_u[p];
            q++;
        }
    }
    for (e = 0; e < n_terms; e++) {
        out->term_p[e] = search_left(pair_key, n_keep, out->term_p[e]);
        out->term_q[e] = search_left(pair_key, n_keep, out->term_q[e]);
    }
    /* upper bound: every triple of A matches at most one of B and vice versa */
    {
        double bound_a = sum_f(best_a_inst, n_a) + sum_f(attr_a_best, m_a) + sum_f(rel_a_best, r_a);
        double bound_b = sum_f(best_b_inst, n_b) + sum_f(attr_b_best, m_b) + sum_f(rel_b_best, r_b);
        out->bound = bound_a < bound_b ? bound_a : bound_b;
    }
    rc = 0;
fail:
    group_index_free(&gi);
    free(seen);
    free(pair_key);
    free(pair_u);
    free(flag);
    free(order);
    free(keys_all);
    free(w_all);
    free(in_term);
    free(tkey);
    free(e_key.data);
    free(e_w.data);
    free(t_i.data);
    free(t_j.data);
    free(t_k.data);
    free(t_l.data);
    free(t_ta.data);
    free(t_tb.data);
    free(t_w.data);
    free(best_a_inst);
    free(best_b_inst);
    free(attr_a_best);
    free(attr_b_best);
    free(rel_a_best);
    free(rel_b_best);
    if (rc) pool_free(out);
    return rc;
}

/* ---------------------------------------------------------------- adjacency, rows */

/* Symmetric CSR adjacency of pairwise terms: deg (n_pairs + 1), nbr and w (2 * n_terms each). */
void amr_adjacency(i64 n_pairs, i64 n_terms, const i64 *term_p, const i64 *term_q, const double *term_w, i64 *deg,
                   i64 *nbr, double *w, i64 *fill) {
    i64 e, p, q;
    for (p = 0; p <= n_pairs; p++) deg[p] = 0;
    for (e = 0; e < n_terms; e++) {
        deg[term_p[e] + 1]++;
        deg[term_q[e] + 1]++;
    }
    for (p = 0; p < n_pairs; p++) deg[p + 1] += deg[p];
    for (p = 0; p < n_pairs; p++) fill[p] = deg[p];
    for (e = 0; e < n_terms; e++) {
        p = term_p[e];
        q = term_q[e];
        nbr[fill[p]] = q;
        w[fill[p]] = term_w[e];
        fill[p]++;
        nbr[fill[q]] = p;
        w[fill[q]] = term_w[e];
        fill[q]++;
    }
}

/* Where each node's candidate pairs start (pairs are ordered by source): ptr (n_a + 1). */
void amr_row_pointers(i64 n_a, i64 n_pairs, const i64 *pair_src, i64 *ptr) {
    i64 p, i;
    for (i = 0; i <= n_a; i++) ptr[i] = 0;
    for (p = 0; p < n_pairs; p++) ptr[pair_src[p] + 1]++;
    for (i = 0; i < n_a; i++) ptr[i + 1] += ptr[i];
}

/* ---------------------------------------------------------------- sparse assignment (see _assign.py) */

typedef struct {
    double *key;
    i64 *col;
    i64 n;
} Heap;

static int heap_less(const Heap *h, i64 a, i64 b) {
    return h->key[a] < h->key[b] || (h->key[a] == h->key[b] && h->col[a] < h->col[b]);
}

static void heap_swap(Heap *h, i64 a, i64 b) {
    double k = h->key[a];
    i64 c = h->col[a];
    h->key[a] = h->key[b];
    h->col[a] = h->col[b];
    h->key[b] = k;
    h->col[b] = c;
}

static void heap_push(Heap *h, double key, i64 col) {
    i64 x = h->n++, up;
    h->key[x] = key;
    h->col[x] = col;
    while (x > 0) {
        up = (x - 1) / 2;
        if (!heap_less(h, x, up)) break;
        heap_swap(h, x, up);
        x = up;
    }
}

static void heap_pop(Heap *h, double *key, i64 *col) {
    i64 x = 0, l, r, m;
    *key = h->key[0];
    *col = h->col[0];
    h->n--;
    h->key[0] = h->key[h->n];
    h->col[0] = h->col[h->n];
    for (;;) {
        l = 2 * x + 1;
        r = l + 1;
        m = x;
        if (l < h->n && heap_less(h, l, m)) m = l;
        if (r < h->n && heap_less(h, r, m)) m = r;
        if (m == x) break;
        heap_swap(h, x, m);
        x = m;
    }
}

/* The best assignment of rows to columns over the pairs row_ptr/cols/value (CSR by row, values not
 * negative, a row may stay unassigned): pair4row (n_rows, -1 none) and *total. Returns 0, or -1 when out
 * of memory; -2 if a path found no free column (cannot happen: each row has its own). */
int amr_sparse_assignment(i64 n_rows, i64 n_cols, const i64 *row_ptr, const i64 *cols, const double *value,
                          i64 *pair4row, double *total) {
    i64 n_all = n_cols + n_rows, n_edges = row_ptr[n_rows];
    double *u = NULL, *v = NULL, *dist = NULL, min_val, r;
    i64 *row4col = NULL, *col4row = NULL, *seen = NULL, *done = NULL, *pred = NULL, *pred_e = NULL;
    i64 *touched = NULL, *rows_seen = NULL;
    i64 cur, i, e, j, sink = -1, n_touched, n_rows_seen, k, e_prev, old;
    Heap h = {NULL, NULL, 0};
    int rc = -1;
    u = (double *)calloc((size_t)(n_rows + 1), sizeof(double));
    v = (double *)calloc((size_t)(n_all + 1), sizeof(double));
    dist = (double *)malloc((size_t)(n_all + 1) * sizeof(double));
    row4col = (i64 *)malloc((size_t)(n_all + 1) * sizeof(i64));
    col4row = (i64 *)malloc((size_t)(n_rows + 1) * sizeof(i64));
    seen = (i64 *)malloc((size_t)(n_all + 1) * sizeof(i64));
    done = (i64 *)malloc((size_t)(n_all + 1) * sizeof(i64));
    pred = (i64 *)malloc((size_t)(n_all + 1) * sizeof(i64));
    pred_e = (i64 *)malloc((size_t)(n_all + 1) * sizeof(i64));
    touched = (i64 *)malloc((size_t)(n_all + 1) * sizeof(i64));
    rows_seen = (i64 *)malloc((size_t)(n_rows + 1) * sizeof(i64));
    h.key = (double *)malloc((size_t)(n_edges + n_rows + 1) * sizeof(double));
    h.col = (i64 *)malloc((size_t)(n_edges + n_rows + 1) * sizeof(i64));
    if (!u || !v || !dist || !row4col || !col4row || !seen || !done || !pred || !pred_e || !touched || !rows_seen ||
        !h.key || !h.col)
        goto out;
    for (i = 0; i < n_rows; i++) {
        for (e = row_ptr[i]; e < row_ptr[i + 1]; e++)
            if (-value[e] < u[i]) u[i] = -value[e];
        col4row[i] = -1;
        pair4row[i] = -1;
    }
    for (j = 0; j < n_all; j++) {
        row4col[j] = -1;
        seen[j] = -1;
        done[j] = -1;
    }
    for (cur = 0; cur < n_rows; cur++) {
        n_touched = 0;
        n_rows_seen = 0;
        h.n = 0;
        min_val = 0.0;
        i = cur;
        for (;;) {
            rows_seen[n_rows_seen++] = i;
            for (k = row_ptr[i]; k <= row_ptr[i + 1]; k++) {
                /* the row's pairs, then its own column (unassigned, cost 0) */
                if (k < row_ptr[i + 1]) {
                    e = k;
                    j = cols[e];
                    r = min_val + -value[e] - u[i] - v[j];
                } else {
                    e = -1;
                    j = n_cols + i;
                    r = min_val + 0.0 - u[i] - v[j];
                }
                if (done[j] == cur) continue;
                if (seen[j] != cur || r < dist[j]) {
                    if (seen[j] != cur) {
                        seen[j] = cur;
                        touched[n_touched++] = j;
                    }
                    dist[j] = r;
                    pred[j] = i;
                    pred_e[j] = e;
                    heap_push(&h, r, j);
                }
            }
            for (;;) {
                if (h.n == 0) {
                    rc = -2;
                    goto out;
                }
                heap_pop(&h, &r, &j);
                if (done[j] != cur && r == dist[j]) break;
            }
            min_val = r;
            done[j] = cur;
            if (row4col[j] < 0) {
                sink = j;
                break;
            }
            i = row4col[j];
        }
        u[cur] += min_val;
        for (k = 1; k < n_rows_seen; k++) {
            i = rows_seen[k];
            u[i] += min_val - dist[col4row[i]];
        }
        for (k = 0; k < n_touched; k++) {
            j = touched[k];
            if (done[j] == cur) v[j] -= min_val - dist[j];
        }
        j = sink;
        for (;;) {
            i = pred[j];
            e_prev = pred_e[j];
            row4col[j] = i;
            old = col4row[i];
            col4row[i] = j;
            j = old;
            pair4row[i] = e_prev;
            if (i == cur) break;
        }
    }
    *total = 0.0;
    for (i = 0; i < n_rows; i++)
        if (pair4row[i] >= 0) *total += value[pair4row[i]];
    rc = 0;
out:
    free(u);
    free(v);
    free(dist);
    free(row4col);
    free(col4row);
    free(seen);
    free(done);
    free(pred);
    free(pred_e);
    free(touched);
    free(rows_seen);
    free(h.key);
    free(h.col);
    return rc;
}

/* ---------------------------------------------------------------- branch and bound (see _branch.py) */

typedef struct {
    const i64 *src, *tgt, *ptr, *nbr, *rows;
    const double *u, *w;
    char *active, *used, *decided;
} Search;

static double potential(const Search *s, i64 p) {
    double v = s->u[p];
    i64 x, q;
    for (x = s->ptr[p]; x < s->ptr[p + 1]; x++) {
        q = s->nbr[x];
        if (s->active[q])
            v += s->w[x];
        else if (!s->decided[s->src[q]] && !s->used[s->tgt[q]])
            v += 0.5 * s->w[x];
    }
    return v;
}

static double best_potential(const Search *s, i64 i) {
    double best = 0.0, v;
    i64 p;
    for (p = s->rows[i]; p < s->rows[i + 1]; p++) {
        if (s->used[s->tgt[p]]) continue;
        v = potential(s, p);
        if (v > best) best = v;
    }
    return best;
}

/* What the open nodes could still add (see _branch._open_bound): each node's best potential, less, for every
 * node of B that is the best of several open nodes, what all but the most eager of them lose by taking their
 * second best instead (a solution of the assignment problem's dual). col_sum, col_max (n_b, col_max -1: a
 * node of B not yet seen) and touched (n_b) are work space, left as they were. */
static double open_bound(const Search *s, const i64 *open, i64 n_open, double *col_sum, double *col_max,
                         i64 *touched) {
    double total = 0.0, b1, b2, v, d;
    i64 k, p, i, j, n_touched = 0;
    for (k = 0; k < n_open; k++) {
        i = open[k];
        b1 = 0.0;
        b2 = 0.0;
        j = -1;
        for (p = s->rows[i]; p < s->rows[i + 1]; p++) {
            if (s->used[s->tgt[p]]) continue;
            v = potential(s, p);
            if (v > b1) {
                b2 = b1;
                b1 = v;
                j = s->tgt[p];
            } else if (v > b2)
                b2 = v;
        }
        total += b1;
        if (j >= 0) {
            d = b1 - b2;
            if (col_max[j] < 0.0) {
                touched[n_touched++] = j;
                col_sum[j] = d;
                col_max[j] = d;
            } else {
                col_sum[j] += d;
                if (d > col_max[j]) col_max[j] = d;
            }
        }
    }
    for (k = 0; k < n_touched; k++) {
        j = touched[k];
        total -= col_sum[j] - col_max[j];
        col_max[j] = -1.0;
    }
    return total;
}

/* Stable sort of n items by key, largest first (insertion sort: a node has few candidates). */
static void sort_desc(i64 *items, double *keys, i64 n) {
    i64 a, b, it;
    double k;
    for (a = 1; a < n; a++) {
        it = items[a];
        k = keys[a];
        for (b = a; b > 0 && keys[b - 1] < k; b--) {
            items[b] = items[b - 1];
            keys[b] = keys[b - 1];
        }
        items[b] = it;
        keys[b] = k;
    }
}

/* The best mapping by branch and bound (see _branch.branch_and_bound_kernel). best (n_a) holds the incumbent
 * on entry and the best mapping on return; *value its value, *nodes the subtrees entered. Returns 1
 * when proven (the search ended within node_limit), 0 when the limit stopped it, -1 when out of memory. */
int amr_branch_and_bound(i64 n_a, i64 n_b, i64 n_pairs, const i64 *pair_src, const i64 *pair_tgt, const double *pair_u,
                     const i64 *ptr, const i64 *nbr, const double *w, const i64 *rows, double gap, i64 node_limit,
                     i64 *best, double *value_out, i64 *nodes_out) {
    Search s;
    i64 *order = NULL, *kids = NULL, *kid_at = NULL, *n_kids = NULL, *nxt = NULL, *choice = NULL;
    double *value = NULL, *root = NULL, *keys = NULL, *col_sum = NULL, *col_max = NULL;
    i64 *touched = NULL;
    double best_value = 0.0, bound, gain;
    i64 i, k, p, x, depth, depth_n = 0, nodes = 0, at;
    int stopped = 0, entering = 1, rc = -1;
    s.src = pair_src;
    s.tgt = pair_tgt;
    s.ptr = ptr;
    s.nbr = nbr;
    s.rows = rows;
    s.u = pair_u;
    s.w = w;
    s.active = (char *)calloc((size_t)(n_pairs + 1), 1);
    s.used = (char *)calloc((size_t)(n_b + 1), 1);
    s.decided = (char *)calloc((size_t)(n_a + 1), 1);
    order = (i64 *)malloc((size_t)(n_a + 1) * sizeof(i64));
    root = (double *)malloc((size_t)(n_a + 1) * sizeof(double));
    kid_at = (i64 *)malloc((size_t)(n_a + 1) * sizeof(i64));
    n_kids = (i64 *)malloc((size_t)(n_a + 1) * sizeof(i64));
    nxt = (i64 *)malloc((size_t)(n_a + 1) * sizeof(i64));
    choice = (i64 *)malloc((size_t)(n_a + 1) * sizeof(i64));
    value = (double *)malloc((size_t)(n_a + 2) * sizeof(double));
    kids = (i64 *)malloc((size_t)(n_pairs + n_a + 1) * sizeof(i64));
    keys = (double *)malloc((size_t)(n_pairs + n_a + 1) * sizeof(double));
    col_sum = (double *)calloc((size_t)(n_b + 1), sizeof(double));
    col_max = (double *)malloc((size_t)(n_b + 1) * sizeof(double));
    touched = (i64 *)malloc((size_t)(n_b + 1) * sizeof(i64));
    if (col_max)
        for (k = 0; k <= n_b; k++) col_max[k] = -1.0;
    if (!s.active || !s.used || !s.decided || !order || !root || !kid_at || !n_kids || !nxt || !choice || !value ||
        !kids || !keys || !col_sum || !col_max || !touched)
        goto done;
    for (i = 0; i < n_a; i++)
        if (best[i] >= 0) s.active[best[i]] = 1;
    for (p = 0; p < n_pairs; p++) {
        if (!s.active[p]) continue;
        best_value += pair_u[p];
        for (x = ptr[p]; x < ptr[p + 1]; x++)
            if (nbr[x] > p && s.active[nbr[x]]) best_value += w[x];
    }
    memset(s.active, 0, (size_t)(n_pairs + 1));
    for (i = 0; i < n_a; i++) {
        root[i] = best_potential(&s, i);
        if (rows[i] < rows[i + 1]) order[depth_n++] = i;
    }
    for (k = 0; k < depth_n; k++) keys[k] = root[order[k]];
    sort_desc(order, keys, depth_n);
    /* each depth's children live in kids at kid_at[depth]: the node's pairs, then -1 */
    at = 0;
    for (k = 0; k < depth_n; k++) {
        kid_at[k] = at;
        at += rows[order[k] + 1] - rows[order[k]] + 1;
    }
    for (i = 0; i < n_a; i++) choice[i] = -1;
    value[0] = 0.0;
    depth = 0;
    for (;;) {
        if (entering) {
            nodes++;
            if (nodes > node_limit) {
                stopped = 1;
                break;
            }
            if (depth == depth_n) {
                if (value[depth] > best_value + gap) {
                    best_value = value[depth];
                    for (i = 0; i < n_a; i++) best[i] = -1;
                    for (k = 0; k < depth_n; k++) best[order[k]] = choice[order[k]];
                }
                depth--;
                entering = 0;
                if (depth < 0) break;
                continue;
            }
            bound = value[depth] + open_bound(&s, order + depth, depth_n - depth, col_sum, col_max, touched);
            if (bound <= best_value + gap) {
                depth--;
                entering = 0;
                if (depth < 0) break;
                continue;
            }
            i = order[depth];
            n_kids[depth] = 0;
            for (p = rows[i]; p < rows[i + 1]; p++) {
                if (s.used[pair_tgt[p]]) continue;
                kids[kid_at[depth] + n_kids[depth]] = p;
                keys[kid_at[depth] + n_kids[depth]] = potential(&s, p);
                n_kids[depth]++;
            }
            sort_desc(kids + kid_at[depth], keys + kid_at[depth], n_kids[depth]);
            kids[kid_at[depth] + n_kids[depth]] = -1;
            n_kids[depth]++;
            nxt[depth] = 0;
            s.decided[i] = 1;
        } else {
            i = order[depth];
            p = choice[i];
            if (p >= 0) {
                s.active[p] = 0;
                s.used[pair_tgt[p]] = 0;
                choice[i] = -1;
            }
        }
        i = order[depth];
        if (nxt[depth] == n_kids[depth]) {
            s.decided[i] = 0;
            depth--;
            entering = 0;
            if (depth < 0) break;
            continue;
        }
        p = kids[kid_at[depth] + nxt[depth]];
        nxt[depth]++;
        gain = 0.0;
        if (p >= 0) {
            gain = pair_u[p];
            for (x = ptr[p]; x < ptr[p + 1]; x++)
                if (s.active[nbr[x]]) gain += w[x];
            s.active[p] = 1;
            s.used[pair_tgt[p]] = 1;
        }
        choice[i] = p;
        value[depth + 1] = value[depth] + gain;
        depth++;
        entering = 1;
    }
    *value_out = best_value;
    *nodes_out = nodes;
    rc = stopped ? 0 : 1;
done:
    free(s.active);
    free(s.used);
    free(s.decided);
    free(order);
    free(root);
    free(kid_at);
    free(n_kids);
    free(nxt);
    free(choice);
    free(value);
    free(kids);
    free(keys);
    free(col_sum);
    free(col_max);
    free(touched);
    return rc;
}

/* ---------------------------------------------------------------- build_problem */

typedef struct {
    i64 n_pairs, n_terms;
    double bound;
    i64 over_terms; /* code -4: the number of terms (n_pairs then holds the node pairs counted) */
    i64 *block;     /* the caller's to release with amr_block_free */
} Built;

void amr_block_free(i64 *block) { free(block); }

/* The arrays of a problem block, in order (BLOCK_LAYOUT in contract.py, the one definition, which
 * the tests compare with amr_block_layout). */
enum {
    B_PAIR_SRC, B_PAIR_TGT, B_PAIR_U, B_TERM_P, B_TERM_Q, B_TERM_TA, B_TERM_TB, B_TERM_W, B_ADJ_PTR, B_ADJ_NBR,
    B_ADJ_W, B_ROWS, B_FIELDS
};

/* Where each array of a problem block of n_a nodes of A, n_pairs pairs and n_terms terms starts (in
 * 8-byte items), and last the block's length: offsets holds B_FIELDS + 1 items. */
void amr_block_layout(i64 n_a, i64 n_pairs, i64 n_terms, i64 *offsets) {
    const i64 length[B_FIELDS] = {n_pairs, n_pairs, n_pairs, n_terms, n_terms, n_terms, n_terms, n_terms,
                                  n_pairs + 1, 2 * n_terms, 2 * n_terms, n_a + 1};
    int k;
    offsets[0] = 0;
    for (k = 0; k < B_FIELDS; k++) offsets[k + 1] = offsets[k] + length[k];
}

static double *ones_or(const double *given, i64 n, double **owned) {
    i64 k;
    if (given) return (double *)given;
    *owned = (double *)malloc((size_t)(n ? n : 1) * sizeof(double));
    if (*owned)
        for (k = 0; k < n; k++) (*owned)[k] = 1.0;
    return *owned;
}

/* What build_problem_kernel needs in one call (see _pool.build_problem_kernel). ints holds, one after
 * another: inst_a (n_a), attr_a (m_a x 2), rel_a (r_a x 3), the same of B, then ga_ptr (n_a + 1), ga_ids
 * (n_ga), gb_ptr (n_b + 1), gb_ids (n_gb), as checked by checks.py (triples naming their own nodes, ids
 * within +-2**31, groups below n_groups). B's weights may be NULL (all 1). Counts the terms and the
 * unary entries by signature (count_matching, as _pool.count_problem: without visiting node pairs; -4
 * when terms * bytes_per_term + entries * bytes_per_entry exceeds budget, the counts in out->over_terms
 * and out->n_pairs), then builds the pool (build_pool),
 * its adjacency (amr_adjacency) and row pointers (amr_row_pointers) into one block laid out as
 * amr_block_layout says. Returns 0, or -1 when out of memory. */
int amr_build_problem(const i64 *ints, i64 n_a, i64 m_a, i64 r_a, i64 n_b, i64 m_b, i64 r_b, i64 n_ga, i64 n_gb,
                      i64 n_groups, const double *inst_w, int use_inst_w, const double *inst_bw,
                      const double *attr_bw, const double *rel_bw, i64 budget, i64 bytes_per_term,
                      i64 bytes_per_entry, Built *out) {
    const i64 *inst_a = ints, *attr_a = inst_a + n_a, *rel_a = attr_a + 2 * m_a;
    const i64 *inst_b = rel_a + 3 * r_a, *attr_b = inst_b + n_b, *rel_b = attr_b + 2 * m_b;
    const i64 *ga_ptr = rel_b + 3 * r_b, *ga_ids = ga_ptr + n_a + 1, *gb_ptr = ga_ids + n_ga;
    const i64 *gb_ids = gb_ptr + n_b + 1;
    double *own_i = NULL, *own_a = NULL, *own_r = NULL;
    const double *wi, *wa, *wr;
    Pool pool;
    i64 n_p, n_t, *fill = NULL, *b, at[B_FIELDS + 1];
    int rc;
    (void)n_gb;
    memset(out, 0, sizeof(Built));
    {
        Side sa = {ga_ptr, ga_ids, n_groups}, sb = {gb_ptr, gb_ids, n_groups};
        i64 n_inst = use_inst_w ? n_a * n_b
                                : count_matching(inst_a, NULL, 1, n_a, inst_b, NULL, 1, n_b, ITEMS_ALL, &sa, &sb);
        i64 n_attr = count_matching(attr_a + 1, attr_a, 2, m_a, attr_b + 1, attr_b, 2, m_b, ITEMS_ALL, &sa, &sb);
        i64 n_loop = count_matching(rel_a, rel_a + 1, 3, r_a, rel_b, rel_b + 1, 3, r_b, ITEMS_LOOPS, &sa, &sb);
        n_t = count_matching(rel_a, rel_a + 1, 3, r_a, rel_b, rel_b + 1, 3, r_b, ITEMS_TERMS, &sa, &sb);
        if (n_inst < 0 || n_attr < 0 || n_loop < 0 || n_t < 0) return -1;
        n_p = n_inst + n_attr + n_loop;
        if ((double)n_t * (double)bytes_per_term + (double)n_p * (double)bytes_per_entry > (double)budget) {
            out->over_terms = n_t;
            out->n_pairs = n_p;
            return -4;
        }
    }
    wi = ones_or(inst_bw, n_b, &own_i);
    wa = ones_or(attr_bw, m_b, &own_a);
    wr = ones_or(rel_bw, r_b, &own_r);
    rc = -1;
    if (wi && wa && wr &&
        !build_pool(inst_a, n_a, attr_a, m_a, rel_a, r_a, inst_b, n_b, attr_b, m_b, rel_b, r_b, ga_ptr, ga_ids,
                    gb_ptr, gb_ids, n_groups, inst_w, use_inst_w, wi, wa, wr, &pool)) {
        n_p = pool.n_pairs;
        n_t = pool.n_terms;
        amr_block_layout(n_a, n_p, n_t, at);
        b = (i64 *)malloc((size_t)at[B_FIELDS] * sizeof(i64));
        fill = (i64 *)malloc((size_t)(n_p + 1) * sizeof(i64));
        if (b && fill) {
            memcpy(b + at[B_PAIR_SRC], pool.pair_src, (size_t)n_p * sizeof(i64));
            memcpy(b + at[B_PAIR_TGT], pool.pair_tgt, (size_t)n_p * sizeof(i64));
            memcpy(b + at[B_PAIR_U], pool.pair_u, (size_t)n_p * sizeof(double));
            memcpy(b + at[B_TERM_P], pool.term_p, (size_t)n_t * sizeof(i64));
            memcpy(b + at[B_TERM_Q], pool.term_q, (size_t)n_t * sizeof(i64));
            memcpy(b + at[B_TERM_TA], pool.term_ta, (size_t)n_t * sizeof(i64));
            memcpy(b + at[B_TERM_TB], pool.term_tb, (size_t)n_t * sizeof(i64));
            memcpy(b + at[B_TERM_W], pool.term_w, (size_t)n_t * sizeof(double));
            amr_adjacency(n_p, n_t, pool.term_p, pool.term_q, pool.term_w, b + at[B_ADJ_PTR], b + at[B_ADJ_NBR],
                          (double *)(b + at[B_ADJ_W]), fill);
            amr_row_pointers(n_a, n_p, pool.pair_src, b + at[B_ROWS]);
            out->n_pairs = n_p;
            out->n_terms = n_t;
            out->bound = pool.bound;
            out->block = b;
            rc = 0;
        } else {
            free(b);
        }
        pool_free(&pool);
    }
    free(fill);
    free(own_i);
    free(own_a);
    free(own_r);
    return rc;
}

static i64 find_pair(const i64 *cand_ptr, const i64 *pair_tgt, i64 i, i64 j) {
    i64 lo = cand_ptr[i], hi = cand_ptr[i + 1], mid, t;
    while (lo < hi) {
        mid = (lo + hi) / 2;
        t = pair_tgt[mid];
        if (t == j) return mid;
        if (t < j) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

/* ---------------------------------------------------------------- hill climbing */

typedef struct {
    i64 n_a, n_b, n_pairs;
    const i64 *pair_src, *pair_tgt;
    const double *pair_u;
    const i64 *ptr, *nbr;
    const double *w;
    i64 *cand_ptr, *tgt_ptr, *tgt_src;
    i64 *mapping, *used;
    double *ctx;
    double eps; /* the least gain a step must make (see step_tolerance) */
} Climb;

/* The least gain a step must make: EPS, or 1e-12 of the bound when that is larger (as _climb.step_tolerance):
 * with weights in the millions rounding could make a move and its reverse each seem to gain. */
static double step_tolerance(double bound) {
    double scaled;
    if (bound != bound || bound == HUGE_VAL || bound == -HUGE_VAL) return EPS;
    scaled = 1e-12 * fabs(bound);
    return scaled > EPS ? scaled : EPS;
}

static u64 splitmix(u64 *state) {
    u64 z;
    *state += 0x9E3779B97F4A7C15ULL;
    z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double pair_weight(const Climb *c, i64 p, i64 q) {
    double total = 0.0;
    i64 x;
    if (p < 0 || q < 0) return total;
    for (x = c->ptr[p]; x < c->ptr[p + 1]; x++)
        if (c->nbr[x] == q) total += c->w[x];
    return total;
}

static void activate(Climb *c, i64 p, double sign) {
    i64 x;
    for (x = c->ptr[p]; x < c->ptr[p + 1]; x++) c->ctx[c->nbr[x]] += sign * c->w[x];
}

/* Node i's best move or swap: gain (-1.0 and *bp = -1 when none gains), *bp, *bk, *bpd. */
static double best_move(const Climb *c, i64 i, i64 *bp, i64 *bk, i64 *bpd) {
    double best_gain = c->eps, cur_val = 0.0, gain, new_val, old_val;
    i64 best_p = -1, best_k = -1, best_pd = -1;
    i64 cur = c->mapping[i], a = -1, p, j, k, pd, pb;
    if (cur >= 0) {
        cur_val = c->pair_u[cur] + c->ctx[cur];
        a = c->pair_tgt[cur];
    }
    for (p = c->cand_ptr[i]; p < c->cand_ptr[i + 1]; p++) {
        if (p == cur) continue;
        j = c->pair_tgt[p];
        k = c->used[j];
        if (k < 0) {
            gain = c->pair_u[p] + c->ctx[p] - cur_val;
            if (gain > best_gain) {
                best_gain = gain;
                best_p = p;
                best_k = -1;
                best_pd = -1;
            }
        } else {
            pd = -1;
            if (a >= 0) {
                pd = find_pair(c->cand_ptr, c->pair_tgt, k, a);
                if (pd < 0) continue;
            }
            pb = c->mapping[k];
            new_val = c->pair_u[p] + c->ctx[p];
            if (pd >= 0) new_val += c->pair_u[pd] + c->ctx[pd] + pair_weight(c, p, pd);
            old_val = cur_val + c->pair_u[pb] + c->ctx[pb];
            if (cur >= 0) old_val -= pair_weight(c, cur, pb);
            gain = new_val - old_val;
            if (gain > best_gain) {
                best_gain = gain;
                best_p = p;
                best_k = k;
                best_pd = pd;
            }
        }
    }
    *bp = best_p;
    *bk = best_k;
    *bpd = best_pd;
    if (best_p < 0) {
        *bk = -1;
        *bpd = -1;
        return -1.0;
    }
    return best_gain;
}

static i64 mark(i64 x, i64 *stamp, i64 step, i64 *todo, i64 n_todo) {
    if (x >= 0 && stamp[x] != step) {
        stamp[x] = step;
        todo[n_todo] = x;
        n_todo++;
    }
    return n_todo;
}

/* Steepest-ascent hill climbing from the current state (see _climb._climb); -1 when out of memory. */
static int climb(Climb *c, double *gains, i64 *move_p, i64 *move_k, i64 *move_pd, i64 *stamp, i64 *todo) {
    i64 n_a = c->n_a, i, v, x, y, step = 0, n_todo, n_changed, best_i, best_p, best_k, best_pd, cur, k, pb;
    i64 work, budget, cc, q0, j, q, t;
    i64 changed[4];
    double best_gain;
    for (i = 0; i < n_a; i++) gains[i] = best_move(c, i, &move_p[i], &move_k[i], &move_pd[i]);
    for (i = 0; i < n_a; i++) stamp[i] = -1;
    for (;;) {
        best_gain = c->eps;
        best_i = -1;
        for (i = 0; i < n_a; i++) {
            if (gains[i] > best_gain) {
                best_gain = gains[i];
                best_i = i;
            }
        }
        if (best_i < 0) {
            for (i = 0; i < n_a; i++) {
                gains[i] = best_move(c, i, &move_p[i], &move_k[i], &move_pd[i]);
                if (gains[i] > best_gain) {
                    best_gain = gains[i];
                    best_i = i;
                }
            }
            if (best_i < 0) return 0;
        }
        i = best_i;
        best_p = move_p[i];
        best_k = move_k[i];
        best_pd = move_pd[i];
        cur = c->mapping[i];
        n_changed = 0;
        if (cur >= 0) changed[n_changed++] = cur;
        changed[n_changed++] = best_p;
        if (best_k < 0) {
            if (cur >= 0) {
                activate(c, cur, -1.0);
                c->used[c->pair_tgt[cur]] = -1;
            }
            activate(c, best_p, 1.0);
            c->mapping[i] = best_p;
            c->used[c->pair_tgt[best_p]] = i;
        } else {
            k = best_k;
            pb = c->mapping[k];
            changed[n_changed++] = pb;
            if (cur >= 0) activate(c, cur, -1.0);
            activate(c, pb, -1.0);
            activate(c, best_p, 1.0);
            c->mapping[i] = best_p;
            c->used[c->pair_tgt[best_p]] = i;
            if (best_pd >= 0) {
                changed[n_changed++] = best_pd;
                activate(c, best_pd, 1.0);
                c->mapping[k] = best_pd;
                c->used[c->pair_tgt[best_pd]] = k;
            } else {
                c->mapping[k] = -1;
                if (cur >= 0) c->used[c->pair_tgt[cur]] = -1;
            }
        }
        step++;
        n_todo = 0;
        n_todo = mark(i, stamp, step, todo, n_todo);
        if (best_k >= 0) n_todo = mark(best_k, stamp, step, todo, n_todo);
        work = 0;
        budget = c->cand_ptr[n_a];
        for (cc = 0; cc < n_changed; cc++) {
            q0 = changed[cc];
            j = c->pair_tgt[q0];
            work += c->tgt_ptr[j + 1] - c->tgt_ptr[j];
            for (x = c->tgt_ptr[j]; x < c->tgt_ptr[j + 1]; x++) n_todo = mark(c->tgt_src[x], stamp, step, todo, n_todo);
            for (y = c->ptr[q0]; y < c->ptr[q0 + 1]; y++) {
                q = c->nbr[y];
                n_todo = mark(c->pair_src[q], stamp, step, todo, n_todo);
                t = c->pair_tgt[q];
                n_todo = mark(c->used[t], stamp, step, todo, n_todo);
                if (c->mapping[c->pair_src[q]] == q) {
                    work += c->tgt_ptr[t + 1] - c->tgt_ptr[t];
                    for (x = c->tgt_ptr[t]; x < c->tgt_ptr[t + 1]; x++)
                        n_todo = mark(c->tgt_src[x], stamp, step, todo, n_todo);
                }
            }
            if (work > budget) break;
        }
        if (work > budget) {
            for (v = 0; v < n_a; v++) gains[v] = best_move(c, v, &move_p[v], &move_k[v], &move_pd[v]);
            continue;
        }
        for (x = 0; x < n_todo; x++) {
            v = todo[x];
            gains[v] = best_move(c, v, &move_p[v], &move_k[v], &move_pd[v]);
        }
    }
}

static double score_of(const Climb *c) {
    double s = 0.0;
    i64 i, p;
    for (i = 0; i < c->n_a; i++) {
        p = c->mapping[i];
        if (p >= 0) s += c->pair_u[p] + 0.5 * c->ctx[p];
    }
    return s;
}

/* Smart start (or init, when n_init == n_a), then `restarts` random starts (see _climb.hill_climb_kernel).
 * Writes the best mapping as pair indices to best_map, its score and the climbs run; returns 0,
 * or -1 when out of memory. */
int amr_hill_climb(i64 n_a, i64 n_b, i64 n_pairs, const i64 *pair_src, const i64 *pair_tgt, const double *pair_u,
                   const i64 *ptr, const i64 *nbr, const double *w, i64 restarts, i64 seed, double bound,
                   const i64 *init, i64 n_init, i64 *best_map, double *best_score_out, i64 *climbs_out) {
    Climb c;
    double *gains = NULL;
    i64 *move_p = NULL, *move_k = NULL, *move_pd = NULL, *stamp = NULL, *todo = NULL, *order = NULL, *perm = NULL;
    i64 i, j, p, x, y, r, tmp, free_n, pick, climbs = 0;
    double best_score = -1.0, score;
    u64 state, z;
    int rc = -1;
    size_t na1 = (size_t)(n_a + 1), nb1 = (size_t)(n_b + 1), np1 = (size_t)(n_pairs + 1);
    memset(&c, 0, sizeof(c));
    c.n_a = n_a;
    c.n_b = n_b;
    c.n_pairs = n_pairs;
    c.pair_src = pair_src;
    c.pair_tgt = pair_tgt;
    c.pair_u = pair_u;
    c.ptr = ptr;
    c.nbr = nbr;
    c.w = w;
    c.eps = step_tolerance(bound);
    c.cand_ptr = (i64 *)malloc(na1 * sizeof(i64));
    c.tgt_ptr = (i64 *)malloc(nb1 * sizeof(i64));
    c.tgt_src = (i64 *)malloc(np1 * sizeof(i64));
    c.mapping = (i64 *)malloc(na1 * sizeof(i64));
    c.used = (i64 *)malloc(nb1 * sizeof(i64));
    c.ctx = (double *)malloc(np1 * sizeof(double));
    gains = (double *)malloc(na1 * sizeof(double));
    move_p = (i64 *)malloc(na1 * sizeof(i64));
    move_k = (i64 *)malloc(na1 * sizeof(i64));
    move_pd = (i64 *)malloc(na1 * sizeof(i64));
    stamp = (i64 *)malloc(na1 * sizeof(i64));
    todo = (i64 *)malloc(na1 * sizeof(i64));
    order = (i64 *)malloc(np1 * sizeof(i64));
    perm = (i64 *)malloc(na1 * sizeof(i64));
    if (!c.cand_ptr || !c.tgt_ptr || !c.tgt_src || !c.mapping || !c.used || !c.ctx || !gains || !move_p || !move_k ||
        !move_pd || !stamp || !todo || !order || !perm)
        goto done;
    amr_row_pointers(n_a, n_pairs, pair_src, c.cand_ptr);
    /* target index: for each node of B, the sources of the pairs that target it */
    for (j = 0; j <= n_b; j++) c.tgt_ptr[j] = 0;
    for (p = 0; p < n_pairs; p++) c.tgt_ptr[pair_tgt[p] + 1]++;
    for (j = 0; j < n_b; j++) c.tgt_ptr[j + 1] += c.tgt_ptr[j];
    {
        i64 *fill_b = (i64 *)malloc(nb1 * sizeof(i64));
        if (!fill_b) goto done;
        for (j = 0; j < n_b; j++) fill_b[j] = c.tgt_ptr[j];
        for (p = 0; p < n_pairs; p++) {
            j = pair_tgt[p];
            c.tgt_src[fill_b[j]] = pair_src[p];
            fill_b[j]++;
        }
        free(fill_b);
    }
    for (i = 0; i < n_a; i++) best_map[i] = -1;
    state = (u64)seed * 0x2545F4914F6CDD1DULL + 0x632BE59BD9B4E019ULL;
    if (argsort(NULL, pair_u, n_pairs, order)) goto done;
    for (r = 0; r <= restarts; r++) {
        for (i = 0; i < n_a; i++) c.mapping[i] = -1;
        for (j = 0; j < n_b; j++) c.used[j] = -1;
        for (p = 0; p < n_pairs; p++) c.ctx[p] = 0.0;
        if (r == 0) {
            if (n_init == n_a) {
                for (i = 0; i < n_a; i++) {
                    p = init[i];
                    if (p >= 0 && c.used[pair_tgt[p]] < 0) {
                        c.mapping[i] = p;
                        c.used[pair_tgt[p]] = i;
                        activate(&c, p, 1.0);
                    }
                }
            } else {
                for (x = 0; x < n_pairs; x++) {
                    p = order[x];
                    if (pair_u[p] <= 0.0) break;
                    i = pair_src[p];
                    j = pair_tgt[p];
                    if (c.mapping[i] < 0 && c.used[j] < 0) {
                        c.mapping[i] = p;
                        c.used[j] = i;
                        activate(&c, p, 1.0);
                    }
                }
            }
        } else {
            for (x = 0; x < n_a; x++) perm[x] = x;
            for (x = n_a - 1; x > 0; x--) {
                z = splitmix(&state);
                y = (i64)(z % (u64)(x + 1));
                tmp = perm[x];
                perm[x] = perm[y];
                perm[y] = tmp;
            }
            for (x = 0; x < n_a; x++) {
                i = perm[x];
                free_n = 0;
                for (p = c.cand_ptr[i]; p < c.cand_ptr[i + 1]; p++)
                    if (c.used[pair_tgt[p]] < 0) free_n++;
                if (free_n == 0) continue;
                z = splitmix(&state);
                pick = (i64)(z % (u64)free_n);
                for (p = c.cand_ptr[i]; p < c.cand_ptr[i + 1]; p++) {
                    if (c.used[pair_tgt[p]] < 0) {
                        if (pick == 0) {
                            c.mapping[i] = p;
                            c.used[pair_tgt[p]] = i;
                            activate(&c, p, 1.0);
                            break;
                        }
                        pick--;
                    }
                }
            }
        }
        climb(&c, gains, move_p, move_k, move_pd, stamp, todo);
        climbs++;
        score = score_of(&c);
        if (score > best_score + c.eps) {
            best_score = score;
            for (i = 0; i < n_a; i++) best_map[i] = c.mapping[i];
        }
        if (best_score >= bound - c.eps) break;
    }
    *best_score_out = best_score;
    *climbs_out = climbs;
    rc = 0;
done:
    free(c.cand_ptr);
    free(c.tgt_ptr);
    free(c.tgt_src);
    free(c.mapping);
    free(c.used);
    free(c.ctx);
    free(gains);
    free(move_p);
    free(move_k);
    free(move_pd);
    free(stamp);
    free(todo);
    free(order);
    free(perm);
    return rc;
}


/* ---------------------------------------------------------------- the module */

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_ckernels",
                                    "amreval's compiled alignment kernels (called through ctypes).", -1, NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__ckernels(void) { return PyModule_Create(&module); }
