/*
 * fz.h - what the files of the fuzz harness share (see fuzz_api.c).
 */
#ifndef GPUK_FZ_H
#define GPUK_FZ_H

#include <stdint.h>

#include <gpuk.h>

/* the input, read a byte at a time (zeros once it runs out) */
typedef struct rd {
    const uint8_t *p;
    size_t n, at;
} rd;

#define NSLOT 8
#define NTRACK 2048

typedef struct fz {
    rd in;
    char *why;
    size_t whylen;
    int failed;
    gpuk_tensor *slot[NSLOT];
    int live[NSLOT];             /* 0: NULL or destroyed, 1: live in fz_ctx, 2: live in fz_other */
    int64_t store[NSLOT];        /* elements of the slot's storage (for the view model) */
    gpuk_csr *cslot[2];
    gpuk_tensor *made[NTRACK];   /* everything made this run, destroyed at the end */
    gpuk_context *made_in[NTRACK];
    int n_made;
    uint64_t rng;
} fz;

/* the two contexts (cpu, one thread each): the one under test, and the
 * "other" whose handles must be refused */
extern gpuk_context *fz_ctx, *fz_other;

unsigned fz_u8(fz *f);
unsigned fz_pick(fz *f, unsigned n);
int fz_fail(fz *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fz_track(fz *f, gpuk_context *c, gpuk_tensor *t);
uint64_t fz_rnext(fz *f);
float fz_val(fz *f, unsigned special_rate);
/* A value for an element of dt from one draw, as fz_val: f32 (and i32's
 * callers) get fz_val's, f64 a value of the same range with 40 bits, so
 * its products round. */
double fz_value(fz *f, gpuk_dtype dt, unsigned special_rate);
int64_t fz_dim(fz *f);     /* 0..33, mostly odd */
int64_t fz_small(fz *f);   /* 0..9 */
int64_t fz_wild(fz *f);    /* also huge and negative */
/* Does msg contain word as a whole word? */
int fz_names(const char *msg, const char *word);

/* One operand: a view inside its own 1-D storage, elements of dt. */
typedef struct opnd {
    gpuk_tensor *st, *v;
    gpuk_dtype dt;
    size_t es;       /* bytes per element */
    int nd;
    int64_t shape[4], stride[4], off, n_store, numel;
    unsigned char *img; /* the storage as written: the sentinel outside the view */
    void *vals;         /* the view's elements, dense */
} opnd;

/* The sentinel outside every view: this word repeated through the
 * storage's bytes, a large finite value in every float dtype. */
#define SENT_BITS 0xDEADBEEFu

enum { L_DENSE, L_OFF1, L_PADDED, L_BCAST };
int fz_opnd(fz *f, opnd *o, gpuk_dtype dt, int nd, const int64_t *shape, int layout,
            unsigned special, int32_t id_hi);
void fz_opnd_free(opnd *o);
int64_t fz_pos(const opnd *o, int64_t lin);
/* Element i of o's view becomes the bytes at elem, in vals, the image and
 * the storage. */
void fz_opnd_set(opnd *o, int64_t i, const void *elem);
/* The storage of o must still hold its image, except where view out (if it
 * shares the storage) lies; those elements go to got (may be NULL). */
int fz_opnd_check(fz *f, const opnd *o, const opnd *out, void *got, const char *name);

/* One valid call of an op, as a family file's fuzz builder makes it
 * (tests/optest.h) and fz_ops.c runs and checks it. */
typedef struct fz_call {
    gpuk_op op;
    gpuk_dtype dt;            /* the op's: f32, or f64 where the backend has rows */
    int n_in;
    opnd in[3], out;
    const char *name[4];      /* in[0..2], out: the names gpuk.h gives them */
    int inplace;              /* out is in[inplace - 1]; 0: its own */
    gpuk_csr *csr;
    double alpha, beta;
    int ta, tb, kind, axis;
    /* SpMV's matrix, for the reference (values of dt) */
    int64_t rows, cols;
    int32_t *rp, *ci;
    void *cv;
} fz_call;

/* The scalars a MUTATE action may put out of range, and the argument the
 * message must then name. */
typedef struct fz_enums {
    int kind, axis, ta, tb;
    const char *blame;
} fz_enums;

/* Helpers for the builders (fz_ops.c).  Layouts: matrix operands any of
 * dense, one off, row-padded (fz_lay_matrix); every other operand dense or
 * one off (fz_lay_dense). */
int fz_lay_matrix(fz *f);
int fz_lay_dense(fz *f);
void fz_shape_nd(fz *f, int nd, int64_t *s);   /* nd sizes of fz_small */
/* Set every element of o's view to a value (or NaN) and write it. */
void fz_opnd_fill(fz *f, opnd *o, int nan_fill);
/* The ops of one tensor x in and one out of its shape (the elementwise
 * ops, softmax): fz_x_in makes x (1-4 dimensions) and names x and out;
 * fz_out_of_x then makes out, or with one chance in three makes it one of
 * the first `inplace_choices` inputs (in place). */
int fz_x_in(fz *f, fz_call *c, unsigned special, int *nd, int64_t *s);
int fz_out_of_x(fz *f, fz_call *c, int nd, const int64_t *s, unsigned inplace_choices);

/* the actions (fz_ops.c, fz_slots.c) */
int fz_op(fz *f, int mutate);
int fz_create(fz *f);
int fz_view(fz *f);
int fz_destroy(fz *f);
int fz_io(fz *f);
int fz_slots(fz *f);
int fz_csr(fz *f);
int fz_misc(fz *f);

#endif
