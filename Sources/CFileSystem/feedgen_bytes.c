// Byte searches for the Swift modules: a substring search (memmem(3), a GNU extension Swift does
// not see, or thirty-two positions at a time), the first of four bytes, sixteen at a time where
// SSE2 is there, and a UTF-8 check that skips ASCII the same way.
#define _GNU_SOURCE
#include "feedgen_fs.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

int feedgen_contains(const void *bytes, size_t length, const void *needle, size_t needle_length) {
    return memmem(bytes, length, needle, needle_length) != NULL;
}

const void *feedgen_find(const void *bytes, size_t length, const void *needle, size_t needle_length) {
#if defined(__SSE2__)
    // glibc's memmem reads about a byte a cycle; the pages searched for link markers are mostly
    // other text. Thirty-two positions at a time: where the needle's first and last bytes both
    // match, the bytes between are compared (the "SIMD-friendly" generic search of W. Muła), in
    // a loop of its own rather than a call, which would take the vectors out of registers on
    // every pass.
    if (needle_length >= 2 && length >= needle_length) {
        const unsigned char *p = bytes, *n = needle;
        const __m128i first = _mm_set1_epi8((char)n[0]), last = _mm_set1_epi8((char)n[needle_length - 1]);
        const size_t span = needle_length - 1;
        size_t i = 0;
        for (; i + span + 32 <= length; i += 32) {
            __m128i a0 = _mm_loadu_si128((const __m128i *)(p + i));
            __m128i b0 = _mm_loadu_si128((const __m128i *)(p + i + span));
            __m128i a1 = _mm_loadu_si128((const __m128i *)(p + i + 16));
            __m128i b1 = _mm_loadu_si128((const __m128i *)(p + i + 16 + span));
            unsigned m0 = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a0, first), _mm_cmpeq_epi8(b0, last)));
            unsigned m1 = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a1, first), _mm_cmpeq_epi8(b1, last)));
            unsigned mask = m0 | (m1 << 16);
            while (__builtin_expect(mask != 0, 0)) {
                size_t at = i + (size_t)__builtin_ctz(mask);
                size_t k = 1;
                while (k < span && p[at + k] == n[k]) k++;
                if (k == span) return p + at;
                mask &= mask - 1;
            }
        }
        // The last positions, fewer than thirty-two.
        return memmem(p + i, length - i, needle, needle_length);
    }
#endif
    return memmem(bytes, length, needle, needle_length);
}

size_t feedgen_first_of4(const void *bytes, size_t length, unsigned char a, unsigned char b, unsigned char c, unsigned char d) {
    const unsigned char *p = bytes;
    size_t i = 0;
#if defined(__SSE2__)
    // Most of a Markdown body is plain text: four compares and a mask per sixteen bytes.
    const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b), vc = _mm_set1_epi8((char)c), vd = _mm_set1_epi8((char)d);
    for (; i + 16 <= length; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(p + i));
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
                                   _mm_or_si128(_mm_cmpeq_epi8(x, vc), _mm_cmpeq_epi8(x, vd)));
        int mask = _mm_movemask_epi8(hit);
        if (mask) return i + (size_t)__builtin_ctz((unsigned)mask);
    }
#endif
    for (; i < length; i++) {
        unsigned char x = p[i];
        if (x == a || x == b || x == c || x == d) return i;
    }
    return length;
}

int feedgen_utf8_check(const void *bytes, size_t length) {
    const unsigned char *p = bytes;
    size_t i = 0;
    int ascii = 1;
    while (i < length) {
#if defined(__SSE2__)
        // Most text is ASCII: sixteen bytes at a time until one has its high bit set.
        while (i + 16 <= length && _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(p + i))) == 0) i += 16;
        if (i >= length) break;
#endif
        unsigned char b0 = p[i];
        if (b0 < 0x80) {
            i++;
            continue;
        }
        ascii = 0;
        // The well-formed sequences of the Unicode Standard's table 3-7: the second byte's range
        // depends on the first (no overlong forms, no surrogates, nothing above U+10FFFF).
        size_t n;
        unsigned char lo = 0x80, hi = 0xBF;
        if (b0 >= 0xC2 && b0 <= 0xDF) {
            n = 2;
        } else if (b0 == 0xE0) {
            n = 3;
            lo = 0xA0;
        } else if (b0 == 0xED) {
            n = 3;
            hi = 0x9F;
        } else if (b0 >= 0xE1 && b0 <= 0xEF) {
            n = 3;
        } else if (b0 == 0xF0) {
            n = 4;
            lo = 0x90;
        } else if (b0 >= 0xF1 && b0 <= 0xF3) {
            n = 4;
        } else if (b0 == 0xF4) {
            n = 4;
            hi = 0x8F;
        } else {
            return 0;
        }
        if (length - i < n || p[i + 1] < lo || p[i + 1] > hi) return 0;
        for (size_t k = 2; k < n; k++) {
            if ((p[i + k] & 0xC0) != 0x80) return 0;
        }
        i += n;
    }
    return ascii ? 2 : 1;
}
