/*
 * dtype.c - the element types: everything the core knows of a dtype is
 * generated from GPUK_DTYPE_MAP (include/gpuk.h), and the few operations
 * on raw elements the core needs (the GPUK_CHECK shadow's comparisons):
 * an element of any float dtype read as a double or written from one
 * (rounded to nearest even), and |x| of a buffer.
 * Floor 0 of doc/design.md, "Layers", beside status.c.
 */
#include "gpuk_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>


#define GK_DT_RANGE(id, value, name, bytes, dlcode, prec) \
    _Static_assert(value > 0 && value < 32, "dtype " #id " must lie in 1..31");
GPUK_DTYPE_MAP(GK_DT_RANGE)
#undef GK_DT_RANGE

size_t gk_elsize(gpuk_dtype dt)
{
    switch (dt) {
#define GK_DT_SIZE(id, value, name, bytes, dlcode, prec) case GPUK_##id: return bytes;
    GPUK_DTYPE_MAP(GK_DT_SIZE)
#undef GK_DT_SIZE
    }
    return 0;
}

size_t gpuk_dtype_size(gpuk_dtype dtype)
{
    return gk_elsize(dtype);
}

const char *gpuk_dtype_name(gpuk_dtype dtype)
{
    switch (dtype) {
#define GK_DT_NAME(id, value, name, bytes, dlcode, prec) case GPUK_##id: return name;
    GPUK_DTYPE_MAP(GK_DT_NAME)
#undef GK_DT_NAME
    }
    return "?";
}

gpuk_status gpuk_dtype_from_name(const char *name, gpuk_dtype *dtype)
{
    if (!name || !dtype)
        return GPUK_ERR_NULL;
#define GK_DT_MATCH(id, value, text, bytes, dlcode, prec) \
    if (strcmp(name, text) == 0) {                  \
        *dtype = GPUK_##id;                         \
        return GPUK_OK;                             \
    }
    GPUK_DTYPE_MAP(GK_DT_MATCH)
#undef GK_DT_MATCH
    return GPUK_ERR_INVALID;
}

int gpuk_dtype_precision(gpuk_dtype dtype)
{
    switch (dtype) {
#define GK_DT_PREC(id, value, name, bytes, dlcode, prec) case GPUK_##id: return prec;
    GPUK_DTYPE_MAP(GK_DT_PREC)
#undef GK_DT_PREC
    }
    return 0;
}

/* DLPack's type code of a dtype (the list's dlcode), -1 for none. */
int gk_dtype_dlcode(gpuk_dtype dt)
{
    switch (dt) {
#define GK_DT_DL(id, value, name, bytes, dlcode, prec) case GPUK_##id: return dlcode;
    GPUK_DTYPE_MAP(GK_DT_DL)
#undef GK_DT_DL
    }
    return -1;
}

/* The dtype of a DLPack type code and bit count, 0 for none. */
gpuk_dtype gk_dtype_from_dl(int code, int bits)
{
#define GK_DT_FROM_DL(id, value, name, bytes, dlcode, prec) \
    if (code == (dlcode) && bits == 8 * (bytes))      \
        return GPUK_##id;
    GPUK_DTYPE_MAP(GK_DT_FROM_DL)
#undef GK_DT_FROM_DL
    return (gpuk_dtype)0;
}

/* Every dtype this core knows, as a set. */
#define GK_DT_BIT(id, value, name, bytes, dlcode, prec) | GPUK_DTYPE_BIT(value)
const uint32_t gk_known_dtypes = 0 GPUK_DTYPE_MAP(GK_DT_BIT);
#undef GK_DT_BIT

/* "f32, i32" for a dtype set. */
void gk_dtypes_str(uint32_t set, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
#define GK_DT_LIST(id, value, name, bytes, dlcode, prec)                                              \
    if ((set & GPUK_DTYPE_BIT(value)) && at < len)                                      \
        at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", name);
    GPUK_DTYPE_MAP(GK_DT_LIST)
#undef GK_DT_LIST
    if (!at)
        snprintf(buf, len, "none");
}


int gk_dtype_is_float(gpuk_dtype dt)
{
    return gpuk_dtype_precision(dt) > 0;
}

/* f16 and bf16 compute in f32 (gpuk(7)); every other float in itself. */
double gk_compute_roundoff(gpuk_dtype dt)
{
    int p = gpuk_dtype_precision(dt);
    if (p > 0 && p < 24)
        p = 24;
    return p > 0 ? ldexp(1.0, -p) : 0.0;
}

/* The exponent of the smallest subnormal: 2^-149 for f32, 2^-1074 for
 * f64, 2^-24 for f16, 2^-133 for bf16 (f32's exponent range). */
int gk_dtype_min_exp(gpuk_dtype dt)
{
    switch (dt) {
    case GPUK_F64: return -1074;
    case GPUK_F16: return -24;
    case GPUK_BF16: return -133;
    default: return -149;
    }
}

/* binary16 bits to double: every value, subnormals, infinities and NaN. */
static double f16_to_double(uint16_t h)
{
    int sign = h >> 15, e = (h >> 10) & 0x1f, f = h & 0x3ff;
    double v = e == 0 ? ldexp(f, -24) : e == 31 ? (f ? NAN : INFINITY) : ldexp(f | 0x400, e - 25);
    return sign ? -v : v;
}

double gk_load_f(const void *p, gpuk_dtype dt, size_t i)
{
    switch (dt) {
    case GPUK_F32: {
        float v;
        memcpy(&v, (const char *)p + 4 * i, 4);
        return v;
    }
    case GPUK_F64: {
        double v;
        memcpy(&v, (const char *)p + 8 * i, 8);
        return v;
    }
    case GPUK_F16: {
        uint16_t h;
        memcpy(&h, (const char *)p + 2 * i, 2);
        return f16_to_double(h);
    }
    case GPUK_BF16: {
        uint16_t h;
        memcpy(&h, (const char *)p + 2 * i, 2);
        uint32_t w = (uint32_t)h << 16;
        float v;
        memcpy(&v, &w, 4);
        return v;
    }
    case GPUK_I32: {
        int32_t v;
        memcpy(&v, (const char *)p + 4 * i, 4);
        return v;
    }
    }
    return NAN;
}

/* double to binary16 bits, rounding to nearest even; beyond the largest
 * finite value (65504, and up to half an ulp above it) an infinity. */
static uint16_t double_to_f16(double v)
{
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (isnan(v))
        return 0x7e00;
    if (a >= 65520.0)
        return sign | 0x7c00;
    if (a < ldexp(1.0, -14)) {                          /* subnormal: units of 2^-24 */
        double q = nearbyint(ldexp(a, 24));              /* the default mode: to nearest even */
        return sign | (uint16_t)q;                       /* 1024 is the smallest normal: right */
    }
    int e;
    double m = frexp(a, &e);                             /* a = m 2^e, m in [0.5, 1) */
    double q = nearbyint(ldexp(m, 11));                  /* 11 significant bits */
    if (q >= 2048.0) {
        q /= 2;
        e++;
    }
    return sign | (uint16_t)(((e + 14) << 10) | ((unsigned)q & 0x3ff));
}

/* A float to bfloat16 bits, rounding to nearest even (NaN kept quiet). */
static uint16_t float_to_bf16(float f)
{
    uint32_t w;
    memcpy(&w, &f, 4);
    if (isnan(f))
        return (uint16_t)((w >> 16) | 0x40);
    w += 0x7fff + ((w >> 16) & 1);
    return (uint16_t)(w >> 16);
}

/* double to float without C's undefined conversion past the range. */
static float double_to_float(double v)
{
    if (!isnan(v) && fabs(v) > FLT_MAX)
        return fabs(v) >= (double)FLT_MAX + 0x1p103 ? (v > 0 ? INFINITY : -INFINITY)
                                                     : (v > 0 ? FLT_MAX : -FLT_MAX);
    return (float)v;
}

void gk_store_f(void *p, gpuk_dtype dt, size_t i, double v)
{
    switch (dt) {
    case GPUK_F32: {
        float f = double_to_float(v);
        memcpy((char *)p + 4 * i, &f, 4);
        return;
    }
    case GPUK_F64:
        memcpy((char *)p + 8 * i, &v, 8);
        return;
    case GPUK_F16: {
        uint16_t h = double_to_f16(v);
        memcpy((char *)p + 2 * i, &h, 2);
        return;
    }
    case GPUK_BF16: {
        uint16_t h = float_to_bf16(double_to_float(v));
        memcpy((char *)p + 2 * i, &h, 2);
        return;
    }
    case GPUK_I32: {
        int32_t x = isnan(v) ? 0 : v >= 2147483647.0 ? INT32_MAX : v <= -2147483648.0
                                                                   ? INT32_MIN : (int32_t)v;
        memcpy((char *)p + 4 * i, &x, 4);
        return;
    }
    }
}

/* |x| of n elements of a float dtype: the sign bit, the top bit of each
 * element (little-endian), cleared; NaN stays NaN. */
void gk_abs_inplace(void *p, gpuk_dtype dt, size_t n)
{
    size_t es = gk_elsize(dt);
    unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        b[i * es + es - 1] &= 0x7f;
}
