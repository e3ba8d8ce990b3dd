/*
 * handles.c - the per-context table from handle token to object.
 *
 * Tokens are never reused (a 40-bit counter per context), so a stale
 * handle can never alias a newer object: it simply is not in the table.
 * Open addressing with linear probing and tombstones; keys are spread by
 * a 64-bit mix because tokens of one context differ only in their low
 * bits.
 */
#include "gpuk_internal.h"

#include <stdlib.h>

#define GK_TOMB UINT64_MAX

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static int grow(gk_handles *h)
{
    size_t ncap = h->cap ? h->cap * 2 : 64;
    /* only live entries move: rehashing drops the tombstones */
    if (h->live * 4 < h->cap)
        ncap = h->cap;
    gk_slot *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return -1;
    for (size_t i = 0; i < h->cap; i++) {
        uint64_t k = h->slots[i].key;
        if (k == 0 || k == GK_TOMB)
            continue;
        size_t j = mix(k) & (ncap - 1);
        while (ns[j].key != 0)
            j = (j + 1) & (ncap - 1);
        ns[j] = h->slots[i];
    }
    free(h->slots);
    h->slots = ns;
    h->cap = ncap;
    h->used = h->live;
    return 0;
}

int gk_handles_put(gk_handles *h, uint64_t key, void *obj)
{
    if ((h->used + 1) * 4 > h->cap * 3 && grow(h) != 0)
        return -1;
    size_t j = mix(key) & (h->cap - 1);
    while (h->slots[j].key != 0 && h->slots[j].key != GK_TOMB)
        j = (j + 1) & (h->cap - 1);
    if (h->slots[j].key == 0)
        h->used++;
    h->slots[j].key = key;
    h->slots[j].obj = obj;
    h->live++;
    return 0;
}

static gk_slot *find(const gk_handles *h, uint64_t key)
{
    if (h->cap == 0 || key == 0 || key == GK_TOMB)
        return NULL;
    size_t j = mix(key) & (h->cap - 1);
    for (size_t probes = 0; probes < h->cap; probes++) {
        gk_slot *s = &h->slots[j];
        if (s->key == key)
            return s;
        if (s->key == 0)
            return NULL;
        j = (j + 1) & (h->cap - 1);
    }
    return NULL;
}

void *gk_handles_get(const gk_handles *h, uint64_t key)
{
    gk_slot *s = find(h, key);
    return s ? s->obj : NULL;
}

void *gk_handles_del(gk_handles *h, uint64_t key)
{
    gk_slot *s = find(h, key);
    if (!s)
        return NULL;
    void *obj = s->obj;
    s->key = GK_TOMB;
    s->obj = NULL;
    h->live--;
    return obj;
}

void gk_handles_each(const gk_handles *h, void (*fn)(uint64_t key, void *obj, void *arg),
                     void *arg)
{
    for (size_t i = 0; i < h->cap; i++) {
        uint64_t k = h->slots[i].key;
        if (k != 0 && k != GK_TOMB)
            fn(k, h->slots[i].obj, arg);
    }
}

void gk_handles_free(gk_handles *h)
{
    free(h->slots);
    h->slots = NULL;
    h->cap = h->used = h->live = 0;
}
