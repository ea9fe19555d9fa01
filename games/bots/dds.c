/* The double-dummy solver's search in C: the same search as games/bots/solver.py.
 *
 * solver.py is the reference and documents the method; this file repeats it step for step
 * so that both give the same values and visit the same nodes (tests/bots/test_dds.py
 * checks it on random positions of every preset and contract):
 *
 * - legality: the engine's rule (games/rules/hand.py, legal_mask) for the rules flags
 *   and the contract's mode;
 * - a trick goes to the card with the highest key (games/rules/cards.py, KEY);
 * - the value x: the taker's team's card points still to win, dix de der included, plus
 *   the capot term (CAPOT, or the defence's capot value); values are kept doubled here
 *   (x2 = 2x) so that the defence's capot value, a half point, is an integer;
 * - alpha-beta, with a transposition table at the start of each trick (keyed on the four
 *   hands, the leader and whether each team has taken a trick), equivalent cards tried
 *   once, and the same move ordering (a stable sort on the same keys).
 *
 * Cards are ints 0..31 (suit * 8 + rank, ranks 7 8 9 T J Q K A), hands 32-bit masks.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SA 4
#define TA 5
#define CAPOT2 2000     /* CAPOT = 1000, doubled */
#define INF2 2000000    /* 10**6, doubled */

/* The rules flags, as Core and legal_mask take them. */
#define OVERTRUMP_PARTNER 1
#define PARTNER_MASTER_FREES 2
#define FREE_TRUMPS_GO_HIGHER 4
#define MUST_UNDERTRUMP 8

static const int TRUMP_ORDER[8] = {0, 1, 6, 4, 7, 2, 3, 5};
static const int PLAIN_ORDER[8] = {0, 1, 2, 6, 3, 4, 5, 7};
static const int TRUMP_POINTS[8] = {0, 0, 14, 10, 20, 3, 4, 11};
static const int PLAIN_POINTS[8] = {0, 0, 0, 10, 2, 3, 4, 11};
static const int SA_POINTS[8] = {0, 0, 0, 10, 2, 3, 4, 19};
static const int TA_POINTS[8] = {0, 0, 9, 5, 13, 2, 3, 6};

static int POINTS[6][32];
static int KEY[6][4][32];
static uint32_t STRONGER[6][32];
static int ORDER[6][4][8]; /* a suit's cards from the weakest to the strongest */

static int is_trump(int mode, int card) { return mode == TA || (mode < 4 && card >> 3 == mode); }

static int strength(int mode, int card) {
    return (is_trump(mode, card) ? TRUMP_ORDER : PLAIN_ORDER)[card & 7];
}

static void init_tables(void) {
    for (int m = 0; m < 6; m++) {
        for (int c = 0; c < 32; c++) {
            const int *pts = m == SA ? SA_POINTS
                             : m == TA ? TA_POINTS
                             : (c >> 3 == m ? TRUMP_POINTS : PLAIN_POINTS);
            POINTS[m][c] = pts[c & 7];
            for (int led = 0; led < 4; led++) {
                int k;
                if (m < 4 && c >> 3 == m)
                    k = 16 + strength(m, c);
                else if (c >> 3 == led)
                    k = 8 + strength(m, c);
                else
                    k = 0;
                KEY[m][led][c] = k;
            }
            uint32_t stronger = 0;
            for (int r = 0; r < 8; r++) {
                int other = (c & ~7) + r;
                if (strength(m, other) > strength(m, c)) stronger |= 1u << other;
            }
            STRONGER[m][c] = stronger;
        }
        for (int s = 0; s < 4; s++)
            for (int r = 0; r < 8; r++) ORDER[m][s][strength(m, s * 8 + r)] = s * 8 + r;
    }
}

static inline uint32_t suit_mask(int suit) { return 0xFFu << (8 * suit); }

static int trick_master(int mode, const int *trick, int n) {
    const int *key = KEY[mode][trick[0] >> 3];
    int best_i = 0, best_k = key[trick[0]];
    for (int i = 1; i < n; i++) {
        if (key[trick[i]] > best_k) {
            best_i = i;
            best_k = key[trick[i]];
        }
    }
    return best_i;
}

/* games/rules/hand.py legal_mask, line for line. */
static uint32_t legal(int flags, int mode, uint32_t hand, const int *trick, int n) {
    if (n == 0) return hand;
    int led = trick[0] >> 3;
    uint32_t follow = hand & suit_mask(led);
    if (mode == SA) return follow ? follow : hand;
    int best_i = trick_master(mode, trick, n);
    int best = trick[best_i];
    if (mode == TA) {
        if (follow) {
            uint32_t higher = follow & STRONGER[TA][best];
            return higher ? higher : follow;
        }
        return hand;
    }
    int partner_master = best_i == n - 2;
    if (led == mode) {
        if (!follow) return hand;
        if (partner_master && !(flags & OVERTRUMP_PARTNER)) return follow;
        uint32_t higher = follow & STRONGER[mode][best];
        return higher ? higher : follow;
    }
    if (follow) return follow;
    uint32_t trumps = hand & suit_mask(mode);
    if (partner_master && (flags & PARTNER_MASTER_FREES)) {
        if ((flags & FREE_TRUMPS_GO_HIGHER) && best >> 3 == mode) {
            uint32_t higher = trumps & STRONGER[mode][best];
            if (higher) return (hand & ~trumps) | higher;
        }
        return hand;
    }
    if (!trumps) return hand;
    if (best >> 3 == mode) {
        if (partner_master && !(flags & OVERTRUMP_PARTNER)) return trumps;
        uint32_t higher = trumps & STRONGER[mode][best];
        if (higher) return higher;
        return (flags & MUST_UNDERTRUMP) ? trumps : hand;
    }
    return trumps;
}

/* ---------------------------------------------------------------------------------------
 * The transposition table: open addressing, grown at half load, never evicting (as the
 * reference's dict). */

typedef struct {
    uint32_t h[4];
    uint32_t meta; /* 1 + (leader << 2 | tk << 1 | dk): 0 marks a free slot */
    int32_t lo, hi;
} Entry;

typedef struct {
    PyObject_HEAD
    int mode, step, taker_team, flags;
    int32_t defence_capot2;
    long long nodes;
    Entry *table;
    size_t cap, used;
    int failed; /* out of memory */
} Core;

static inline uint64_t mix(const uint32_t *h, uint32_t meta) {
    uint64_t a = ((uint64_t)h[0] << 32 | h[1]) * 0x9E3779B97F4A7C15ull;
    uint64_t b = ((uint64_t)h[2] << 32 | h[3]) * 0xC2B2AE3D27D4EB4Full;
    uint64_t x = a ^ (b >> 7) ^ (b << 29) ^ ((uint64_t)meta * 0x165667B19E3779F9ull);
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return x;
}

static Entry *tt_slot(Core *self, const uint32_t *h, uint32_t meta) {
    size_t mask = self->cap - 1;
    size_t i = (size_t)mix(h, meta) & mask;
    for (;;) {
        Entry *e = &self->table[i];
        if (e->meta == 0) return e;
        if (e->meta == meta && e->h[0] == h[0] && e->h[1] == h[1] && e->h[2] == h[2] &&
            e->h[3] == h[3])
            return e;
        i = (i + 1) & mask;
    }
}

static int tt_grow(Core *self) {
    size_t cap = self->cap ? self->cap * 2 : 4096;
    Entry *old = self->table;
    size_t old_cap = self->cap;
    Entry *table = calloc(cap, sizeof(Entry));
    if (!table) return -1;
    self->table = table;
    self->cap = cap;
    for (size_t i = 0; i < old_cap; i++) {
        if (old[i].meta) *tt_slot(self, old[i].h, old[i].meta) = old[i];
    }
    free(old);
    return 0;
}

/* ---------------------------------------------------------------------------------------
 * The search, as Solver._search, _expand and _after_card. */

typedef struct {
    uint32_t hands[4];
    int trick[4];
    int n; /* cards on the table */
} Pos;

static int32_t search(Core *self, Pos *p, int leader, int seat, int ntricks, int tk, int dk,
                      int32_t alpha, int32_t beta);

static int32_t after_card(Core *self, Pos *p, int leader, int seat, int ntricks, int tk, int dk,
                          int32_t alpha, int32_t beta) {
    if (p->n < 4)
        return search(self, p, leader, (seat + self->step) % 4, ntricks, tk, dk, alpha, beta);
    int mode = self->mode;
    int best_i = trick_master(mode, p->trick, 4);
    const int *points = POINTS[mode];
    int32_t worth2 = 2 * (points[p->trick[0]] + points[p->trick[1]] + points[p->trick[2]] +
                          points[p->trick[3]]);
    int winner = (leader + best_i * self->step) % 4;
    int ours = (winner & 1) == self->taker_team;
    if (ntricks == 7) {
        worth2 += 20;
        if (ours) return worth2 + (!dk ? CAPOT2 : 0);
        return !tk ? self->defence_capot2 : 0;
    }
    int saved[4];
    memcpy(saved, p->trick, sizeof saved);
    p->n = 0;
    int32_t value;
    if (ours)
        value = worth2 + search(self, p, winner, winner, ntricks + 1, 1, dk, alpha - worth2,
                                beta - worth2);
    else
        value = search(self, p, winner, winner, ntricks + 1, tk, 1, alpha, beta);
    memcpy(p->trick, saved, sizeof saved);
    p->n = 4;
    return value;
}

/* Solver._order: a stable sort on the reference's keys. */
static void order(Core *self, int *cards, int n, const Pos *p) {
    int mode = self->mode;
    int sk[32];
    if (p->n == 0) {
        for (int i = 0; i < n; i++) sk[i] = -KEY[mode][cards[i] >> 3][cards[i]];
    } else {
        const int *key = KEY[mode][p->trick[0] >> 3];
        int best = key[p->trick[0]];
        for (int i = 1; i < p->n; i++)
            if (key[p->trick[i]] > best) best = key[p->trick[i]];
        for (int i = 0; i < n; i++) {
            int c = cards[i];
            int k = key[c];
            sk[i] = (k < best) * 1000 + (k > best ? -POINTS[mode][c] : POINTS[mode][c]);
        }
    }
    for (int i = 1; i < n; i++) {
        int c = cards[i], k = sk[i], j = i - 1;
        while (j >= 0 && sk[j] > k) {
            cards[j + 1] = cards[j];
            sk[j + 1] = sk[j];
            j--;
        }
        cards[j + 1] = c;
        sk[j + 1] = k;
    }
}

/* solver.equivalent_free: one card of each run of equivalent cards. */
static int equivalent_free(int mode, uint32_t moves, uint32_t in_play, int *out) {
    int n = 0;
    const int *points = POINTS[mode];
    for (int s = 0; s < 4; s++) {
        if (!((moves >> (8 * s)) & 0xFF)) continue;
        int prev = -1;
        for (int r = 0; r < 8; r++) {
            int card = ORDER[mode][s][r];
            if (!((in_play >> card) & 1)) continue;
            if ((moves >> card) & 1) {
                if (prev < 0 || points[prev] != points[card]) out[n++] = card;
                prev = card;
            } else {
                prev = -1;
            }
        }
    }
    return n;
}

static int32_t expand(Core *self, Pos *p, int leader, int seat, int ntricks, int tk, int dk,
                      int32_t alpha, int32_t beta) {
    int mode = self->mode;
    uint32_t hand = p->hands[seat];
    uint32_t moves = legal(self->flags, mode, hand, p->trick, p->n);
    uint32_t in_play = p->hands[0] | p->hands[1] | p->hands[2] | p->hands[3];
    for (int i = 0; i < p->n; i++) in_play |= 1u << p->trick[i];
    int cards[32];
    int n = equivalent_free(mode, moves, in_play, cards);
    int maximizing = (seat & 1) == self->taker_team;
    if (n > 1) order(self, cards, n, p);
    int32_t best = maximizing ? -INF2 : INF2;
    for (int i = 0; i < n; i++) {
        int card = cards[i];
        p->hands[seat] = hand & ~(1u << card);
        p->trick[p->n++] = card;
        int32_t value = after_card(self, p, leader, seat, ntricks, tk, dk, alpha, beta);
        p->n--;
        if (self->failed) break;
        if (maximizing) {
            if (value > best) {
                best = value;
                if (value > alpha) {
                    alpha = value;
                    if (alpha >= beta) break;
                }
            }
        } else if (value < best) {
            best = value;
            if (value < beta) {
                beta = value;
                if (alpha >= beta) break;
            }
        }
    }
    p->hands[seat] = hand;
    return best;
}

static int32_t search(Core *self, Pos *p, int leader, int seat, int ntricks, int tk, int dk,
                      int32_t alpha, int32_t beta) {
    self->nodes++;
    if (p->n) return expand(self, p, leader, seat, ntricks, tk, dk, alpha, beta);
    uint32_t meta = 1 + ((uint32_t)leader << 2 | (uint32_t)tk << 1 | (uint32_t)dk);
    Entry *e = tt_slot(self, p->hands, meta);
    int32_t lo, hi;
    if (e->meta) {
        lo = e->lo;
        hi = e->hi;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
        if (alpha >= beta) return alpha;
    } else {
        lo = -INF2;
        hi = INF2;
    }
    int32_t value = expand(self, p, leader, seat, ntricks, tk, dk, alpha, beta);
    if (self->failed) return value;
    if (value <= alpha) {
        if (value < hi) hi = value;
    } else if (value >= beta) {
        if (value > lo) lo = value;
    } else {
        lo = hi = value;
    }
    /* The table may have grown while searching below: find the slot again. */
    if (2 * (self->used + 1) > self->cap && tt_grow(self) < 0) {
        self->failed = 1;
        return value;
    }
    e = tt_slot(self, p->hands, meta);
    if (!e->meta) {
        self->used++;
        memcpy(e->h, p->hands, sizeof e->h);
        e->meta = meta;
    }
    e->lo = lo;
    e->hi = hi;
    return value;
}

/* ---------------------------------------------------------------------------------------
 * Python glue */

static PyObject *value_of(int32_t x2) {
    if (x2 % 2) return PyFloat_FromDouble(x2 / 2.0);
    return PyLong_FromLong(x2 / 2);
}

/* A position from Python: hands (4 ints), trick (a sequence of cards). */
static int read_position(PyObject *hands, PyObject *trick, Pos *p) {
    PyObject *seq = PySequence_Fast(hands, "hands must be a sequence of four masks");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 4) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "four hands are needed");
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        unsigned long v = PyLong_AsUnsignedLongMask(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        p->hands[i] = (uint32_t)v;
    }
    Py_DECREF(seq);
    seq = PySequence_Fast(trick, "the trick must be a sequence of cards");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 3) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a trick under way holds at most three cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (c < 0 || c > 31) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card is 0 to 31");
            return -1;
        }
        p->trick[i] = (int)c;
    }
    p->n = (int)n;
    Py_DECREF(seq);
    return 0;
}

static int check_seat(int seat) {
    if (seat < 0 || seat > 3) {
        PyErr_SetString(PyExc_ValueError, "a seat is 0 to 3");
        return -1;
    }
    return 0;
}

static int Core_init(Core *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"mode", "step", "taker_team", "flags", "defence_capot2", NULL};
    int mode, step, taker_team, flags, dc2;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiiii", kwlist, &mode, &step, &taker_team,
                                     &flags, &dc2))
        return -1;
    if (mode < 0 || mode > 5 || (step != 1 && step != 3) || (taker_team & ~1)) {
        PyErr_SetString(PyExc_ValueError, "mode 0..5, step 1 or 3, taker_team 0 or 1");
        return -1;
    }
    self->mode = mode;
    self->step = step;
    self->taker_team = taker_team;
    self->flags = flags;
    self->defence_capot2 = dc2;
    self->nodes = 0;
    free(self->table);
    self->table = NULL;
    self->cap = self->used = 0;
    self->failed = 0;
    if (tt_grow(self) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Core_dealloc(Core *self) {
    free(self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *finish(Core *self, PyObject *result) {
    if (self->failed) {
        Py_XDECREF(result);
        self->failed = 0;
        return PyErr_NoMemory();
    }
    return result;
}

/* Core.future(hands, trick, leader, seat, ntricks, tk, dk): Solver.future's value. */
static PyObject *Core_future(Core *self, PyObject *args) {
    PyObject *hands, *trick;
    int leader, seat, ntricks, tk, dk;
    Pos p;
    if (!PyArg_ParseTuple(args, "OOiiipp", &hands, &trick, &leader, &seat, &ntricks, &tk, &dk))
        return NULL;
    if (read_position(hands, trick, &p) < 0 || check_seat(leader) < 0 || check_seat(seat) < 0)
        return NULL;
    int32_t v = search(self, &p, leader, seat, ntricks, tk, dk, -INF2, INF2);
    return finish(self, value_of(v));
}

/* Core.card_values(hands, trick, leader, seat, ntricks, tk, dk): [(card, x)] for each
 * legal card of ``seat``, ascending, x the value after it (the points already won not
 * included), as Solver.card_values. */
static PyObject *Core_card_values(Core *self, PyObject *args) {
    PyObject *hands, *trick;
    int leader, seat, ntricks, tk, dk;
    Pos p;
    if (!PyArg_ParseTuple(args, "OOiiipp", &hands, &trick, &leader, &seat, &ntricks, &tk, &dk))
        return NULL;
    if (read_position(hands, trick, &p) < 0 || check_seat(leader) < 0 || check_seat(seat) < 0)
        return NULL;
    uint32_t moves = legal(self->flags, self->mode, p.hands[seat], p.trick, p.n);
    uint32_t hand = p.hands[seat];
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int card = 0; card < 32; card++) {
        if (!((moves >> card) & 1)) continue;
        p.hands[seat] = hand & ~(1u << card);
        p.trick[p.n++] = card;
        int32_t v = after_card(self, &p, leader, seat, ntricks, tk, dk, -INF2, INF2);
        p.n--;
        p.hands[seat] = hand;
        if (self->failed) return finish(self, out);
        PyObject *item = Py_BuildValue("(iN)", card, value_of(v));
        if (!item || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(item);
    }
    return out;
}

static PyObject *Core_get_nodes(Core *self, void *closure) {
    return PyLong_FromLongLong(self->nodes);
}

static PyObject *Core_get_entries(Core *self, void *closure) {
    return PyLong_FromSize_t(self->used);
}

static PyMethodDef Core_methods[] = {
    {"future", (PyCFunction)Core_future, METH_VARARGS,
     "future(hands, trick, leader, seat, ntricks, tk, dk): the best x still to come."},
    {"card_values", (PyCFunction)Core_card_values, METH_VARARGS,
     "card_values(hands, trick, leader, seat, ntricks, tk, dk): [(card, x)] per legal card."},
    {NULL}};

static PyGetSetDef Core_getset[] = {
    {"nodes", (getter)Core_get_nodes, NULL, "search nodes visited so far", NULL},
    {"entries", (getter)Core_get_entries, NULL, "positions in the transposition table", NULL},
    {NULL}};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.bots.dds.Core",
    .tp_doc = "The solver's search for one deal's contract (see games/bots/solver.py).",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_getset = Core_getset,
};

/* legal_mask(flags, mode, hand, trick): the engine's rule, for the differential test. */
static PyObject *py_legal_mask(PyObject *module, PyObject *args) {
    int flags, mode;
    unsigned long hand;
    PyObject *trick;
    Pos p;
    if (!PyArg_ParseTuple(args, "iikO", &flags, &mode, &hand, &trick)) return NULL;
    if (mode < 0 || mode > 5) {
        PyErr_SetString(PyExc_ValueError, "mode 0..5");
        return NULL;
    }
    PyObject *zero = Py_BuildValue("(iiii)", 0, 0, 0, 0);
    if (!zero) return NULL;
    int rc = read_position(zero, trick, &p);
    Py_DECREF(zero);
    if (rc < 0) return NULL;
    return PyLong_FromUnsignedLong(legal(flags, mode, (uint32_t)hand, p.trick, p.n));
}

/* trick_master(mode, trick): the index of the card winning the trick so far. */
static PyObject *py_trick_master(PyObject *module, PyObject *args) {
    int mode;
    PyObject *trick;
    if (!PyArg_ParseTuple(args, "iO", &mode, &trick)) return NULL;
    PyObject *seq = PySequence_Fast(trick, "the trick must be a sequence of cards");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int cards[4];
    if (mode < 0 || mode > 5 || n < 1 || n > 4) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "mode 0..5 and one to four cards");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (c < 0 || c > 31) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card is 0 to 31");
            return NULL;
        }
        cards[i] = (int)c;
    }
    Py_DECREF(seq);
    return PyLong_FromLong(trick_master(mode, cards, (int)n));
}

/* points(mode, card): what a card is worth in a trick under the mode. */
static PyObject *py_points(PyObject *module, PyObject *args) {
    int mode, card;
    if (!PyArg_ParseTuple(args, "ii", &mode, &card)) return NULL;
    if (mode < 0 || mode > 5 || card < 0 || card > 31) {
        PyErr_SetString(PyExc_ValueError, "mode 0..5, card 0..31");
        return NULL;
    }
    return PyLong_FromLong(POINTS[mode][card]);
}

static PyMethodDef module_methods[] = {
    {"legal_mask", py_legal_mask, METH_VARARGS,
     "legal_mask(flags, mode, hand, trick): the cards the hand may play."},
    {"trick_master", py_trick_master, METH_VARARGS,
     "trick_master(mode, trick): index of the card winning the trick so far."},
    {"points", py_points, METH_VARARGS, "points(mode, card): the card's points."},
    {NULL}};

static struct PyModuleDef dds_module = {
    PyModuleDef_HEAD_INIT, "games.bots.dds",
    "The double-dummy solver's search in C (see games/bots/solver.py).", -1, module_methods};

PyMODINIT_FUNC PyInit_dds(void) {
    init_tables();
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&dds_module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "Core", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "OVERTRUMP_PARTNER", OVERTRUMP_PARTNER);
    PyModule_AddIntConstant(m, "PARTNER_MASTER_FREES", PARTNER_MASTER_FREES);
    PyModule_AddIntConstant(m, "FREE_TRUMPS_GO_HIGHER", FREE_TRUMPS_GO_HIGHER);
    PyModule_AddIntConstant(m, "MUST_UNDERTRUMP", MUST_UNDERTRUMP);
    return m;
}
