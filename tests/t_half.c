/*
 * t_half.c - the CPU backend's 16-bit float conversions (backends/cpu/half.h)
 * against a reference that knows nothing of their bit tricks: a result is
 * right when no other encoding is nearer the input, a tie takes the even
 * one, and NaN, infinities, signed zeros, subnormals and overflow come out
 * as gpuk(7), "Element types", documents.  Every f16 and bf16 encoding in;
 * f32 and f64 inputs out: every f32 whose top bits make the boundaries
 * (ties, subnormals, the largest finite values) and a seeded sample; each
 * vector path (scalar, AVX2, AVX-512, as this processor has them) against
 * the scalar one, bit for bit.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../backends/cpu/half.h"
#include "../backends/cpu/simd.h"
#include "tap.h"

/* The value of an encoding, computed from its fields. */
static double decode(gpuk_dtype dt, uint16_t h)
{
    int mbits = dt == GPUK_F16 ? 10 : 7, ebits = dt == GPUK_F16 ? 5 : 8;
    int bias = (1 << (ebits - 1)) - 1, emax = (1 << ebits) - 1;
    int s = h >> 15, e = (h >> mbits) & emax, m = h & ((1 << mbits) - 1);
    double v;
    if (e == emax)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, 1 - bias - mbits);
    else
        v = ldexp((double)(m | (1 << mbits)), e - bias - mbits);
    return s ? -v : v;
}

/* Is h the round-to-nearest-even encoding of v? */
static int is_rne(gpuk_dtype dt, double v, uint16_t h)
{
    double got = decode(dt, h);
    if (isnan(v))
        return isnan(got) && (h >> 15) == (signbit(v) != 0);
    if (v == 0)
        return got == 0 && (signbit(got) != 0) == (signbit(v) != 0);
    /* the largest finite and the overflow threshold, half an ulp above it */
    double maxf = dt == GPUK_F16 ? 65504.0 : (double)cpu_bf16_to_f32(0x7f7f);
    double ulp = dt == GPUK_F16 ? 32.0 : ldexp(1.0, 127 - 7);
    if (fabs(v) >= maxf + ulp / 2)
        return isinf(got) && (got > 0) == (v > 0);
    if (isinf(got) || (signbit(got) != 0) != (signbit(v) != 0))
        return 0;
    uint16_t mag = h & 0x7fff;
    double err = fabs(got - v);
    for (int d = -1; d <= 1; d += 2) {
        int nm = (int)mag + d;
        if (nm < 0 || nm >= (dt == GPUK_F16 ? 0x7c00 : 0x7f80))
            continue;
        double o = decode(dt, (uint16_t)nm);
        double oe = fabs(o - fabs(v));
        if (oe < err || (oe == err && (mag & 1)))
            return 0;
    }
    return 1;
}

/* the widest path this processor runs (backend.c's test, without the
 * backend: this program links half.c alone) */
static enum cpu_isa widest(void)
{
#ifdef CPU_X86
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma") ||
        !__builtin_cpu_supports("f16c"))
        return CPU_ISA_SCALAR;
    return __builtin_cpu_supports("avx512f") ? CPU_ISA_AVX512 : CPU_ISA_AVX2;
#else
    return CPU_ISA_SCALAR;
#endif
}

static const char *const isan[3] = {"scalar", "avx2", "avx512"};

static const gpuk_dtype dts[2] = {GPUK_F16, GPUK_BF16};
static const char *const dtn[2] = {"f16", "bf16"};

static uint64_t rng_state;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

int main(void)
{
    rng_state = tap_seed() | 1;
    enum cpu_isa best = widest();
    for (int t = 0; t < 2; t++) {
        gpuk_dtype dt = dts[t];
        /* every encoding to f32: exact, and each path the same bits */
        static uint16_t all[65536];
        static float out[65536];
        for (int i = 0; i < 65536; i++)
            all[i] = (uint16_t)i;
        long bad = 0;
        for (int i = 0; i < 65536; i++) {
            float f = dt == GPUK_F16 ? cpu_f16_to_f32(all[i]) : cpu_bf16_to_f32(all[i]);
            double want = decode(dt, all[i]);
            if (isnan(want) ? !isnan(f) : ((double)f != want || !signbit(f) != !signbit(want)))
                bad++;
        }
        tap_ok(bad == 0, "%s: every encoding converts to f32 exactly (%ld wrong)", dtn[t], bad);
        for (int isa = CPU_ISA_SCALAR; isa <= (int)best; isa++) {
            cpu_row_to_f32((enum cpu_isa)isa, dt, all, out, 65536);
            bad = 0;
            for (int i = 0; i < 65536; i++) {
                float f = dt == GPUK_F16 ? cpu_f16_to_f32(all[i]) : cpu_bf16_to_f32(all[i]);
                if (memcmp(&f, &out[i], 4) != 0 && !(isnan(f) && isnan(out[i])))
                    bad++;
            }
            tap_ok(bad == 0, "%s to f32, %s rows: the scalar code's bits (%ld differ)", dtn[t],
                   isan[isa], bad);
        }
        /* f32 in: every top-20-bit pattern with low bits at and about the
         * tie (all boundaries of both types), then a random sample */
        enum { N = 1 << 22 };
        float *in = malloc(N * sizeof *in);
        uint16_t *h = malloc(N * sizeof *h), *hv = malloc(N * sizeof *hv);
        if (!in || !h || !hv)
            return tap_skip_all("out of memory");
        int half = dt == GPUK_F16 ? 12 : 15;   /* the dropped bits' top (f16: of a normal) */
        for (int i = 0; i < N; i++) {
            uint32_t hi = (uint32_t)(i >> 2) << 12, low;
            switch (i & 3) {
            case 0: low = 1u << half; break;                /* a tie (f16 normals) */
            case 1: low = (1u << half) - 1; break;          /* just below */
            case 2: low = (uint32_t)rnd() & 0xfff; break;
            default: low = (uint32_t)rnd(); hi = 0; break;  /* anywhere */
            }
            in[i] = cpu_bits_f32(hi | (low & (hi ? 0xfffu : 0xffffffffu)));
        }
        bad = 0;
        long shown = 0;
        for (int i = 0; i < N; i++) {
            h[i] = dt == GPUK_F16 ? cpu_f32_to_f16(in[i]) : cpu_f32_to_bf16(in[i]);
            if (!is_rne(dt, (double)in[i], h[i]) && bad++ < 3 && shown++ < 3)
                tap_diag("%s: f32 %a (0x%08x) gave 0x%04x", dtn[t], (double)in[i],
                         cpu_f32_bits(in[i]), h[i]);
        }
        tap_ok(bad == 0, "%s from f32: %d inputs round to nearest even, NaN and overflow as "
               "documented (%ld wrong)", dtn[t], N, bad);
        for (int isa = CPU_ISA_SCALAR; isa <= (int)best; isa++) {
            cpu_row_from_f32((enum cpu_isa)isa, dt, in, hv, N);
            bad = 0;
            for (int i = 0; i < N; i++)
                bad += hv[i] != h[i] && !(isnan(in[i]) && (hv[i] & 0x7fff) > (dt == GPUK_F16 ? 0x7c00 : 0x7f80));
            tap_ok(bad == 0, "%s from f32, %s rows: the scalar code's encodings (%ld differ)",
                   dtn[t], isan[isa], bad);
        }
        /* f64 in: one rounding, not two (a value just above an f16 tie
         * that rounds to the tie in f32 would go the wrong way) */
        bad = 0;
        for (int i = 0; i < N; i++) {
            double v;
            if (i & 1) {
                uint64_t u = rnd();
                memcpy(&v, &u, 8);
                if (fabs(v) > 1e6 || (fabs(v) < 1e-10 && v != 0))
                    v = ldexp(fmod(fabs(v) + 1, 2.0), (int)(rnd() % 60) - 40) * (rnd() & 1 ? 1 : -1);
            } else {
                /* an f32 tie of the narrow type, nudged by less than an f32 ulp */
                double t0 = (double)in[i & ~3];
                v = t0 + (t0 * ldexp(1.0, -30)) * ((rnd() & 1) ? 1 : -1);
            }
            uint16_t r = dt == GPUK_F16 ? cpu_f64_to_f16(v) : cpu_f64_to_bf16(v);
            if (!is_rne(dt, v, r) && bad++ < 3)
                tap_diag("%s: f64 %a gave 0x%04x", dtn[t], v, r);
        }
        tap_ok(bad == 0, "%s from f64: %d inputs in one rounding to nearest even (%ld wrong)",
               dtn[t], N, bad);
        free(in);
        free(h);
        free(hv);
    }
    /* the documented corners, by name */
    tap_ok(cpu_f32_to_f16(65519.996f) == 0x7bff && cpu_f32_to_f16(65520.0f) == 0x7c00,
           "f16: 65519.996 stays 65504, 65520 (the tie past the largest) is +inf");
    tap_ok(cpu_f32_to_f16(-0.0f) == 0x8000 && cpu_f32_to_bf16(-0.0f) == 0x8000,
           "-0 keeps its sign in f16 and bf16");
    tap_ok(cpu_f32_to_f16(ldexpf(1.0f, -25)) == 0 && cpu_f32_to_f16(ldexpf(1.5f, -25)) == 1,
           "f16: 2^-25 (a tie with 0) rounds to 0, 1.5 2^-25 to the smallest subnormal");
    tap_ok(cpu_f32_to_bf16(FLT_MAX) == 0x7f80 && cpu_f32_to_bf16(3.3895314e38f) == 0x7f7f,
           "bf16: FLT_MAX rounds up to +inf, the largest bf16 stays");
    tap_ok((cpu_f32_to_bf16(-NAN) & 0xffc0) == 0xffc0 && (cpu_f32_to_f16(NAN) & 0x7e00) == 0x7e00,
           "NaN stays a quiet NaN with its sign");
    return tap_done();
}
