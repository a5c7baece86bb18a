/* st_json.c: the JSON grammar of serde_json (de.rs, read.rs) as the
 * safetensors crate meets it: strings with escapes and surrogate pairs,
 * numbers with serde_json's range rule, literals, any value skipped with the
 * nesting limit.  Every failure goes through tfs__st_err -> tfs__fail. */
#include "st_internal.h"

#include <string.h>

tfs_status tfs__st_err(st_ctx *c, tfs_rule rule, size_t pos) {
    if (TFS_RULE_IS_OFF(rule)) return ST_STOP;
    return tfs__fail(c->err, rule, 8u + (uint64_t)pos, c->cur_index);
}

tfs_status tfs__st_unexpected(st_ctx *c) {
    return c->pos >= c->n ? tfs__st_err(c, TFS_ST111, c->n) : tfs__st_err(c, TFS_ST110, c->pos);
}

void tfs__st_strict(st_ctx *c, tfs_rule rule, size_t pos, int64_t index) {
    if (!TFS_RULE_HIT(rule, (c->flags & TFS_STRICT) != 0)) return; /* TFS_RULE_OFF: never recorded */
    if (c->strict_rule != TFS_RULE_NONE && c->strict_pos <= pos) return;
    c->strict_rule = rule;
    c->strict_pos = (uint32_t)pos;
    c->strict_index = index;
}

tfs_status tfs__st_literal(st_ctx *c, const char *lit, size_t len) {
    for (size_t k = 0; k < len; k++) {
        if (c->pos >= c->n || c->j[c->pos] != (uint8_t)lit[k]) return tfs__st_unexpected(c);
        c->pos++;
    }
    return TFS_OK;
}

/* ------------------------------------------------------------- strings */

/* Bytes that end a plain run inside a string: '"', '\\', or < 0x20.
 * SWAR over 8 bytes; the lowest flagged byte is exact (borrows only
 * propagate upwards), which is the first one in memory order once the word
 * is read little-endian. */
static inline bool special(uint8_t b) { return b == '"' || b == '\\' || b < 0x20u; }

static int hexval(uint8_t b) {
    if (b >= '0' && b <= '9') return b - '0';
    if (b >= 'a' && b <= 'f') return b - 'a' + 10;
    if (b >= 'A' && b <= 'F') return b - 'A' + 10;
    return -1;
}

/* Four hex digits at j[p..p+4): 0..0xFFFF, -1 bad digit, -2 end of text. */
static int32_t hex4(const st_ctx *c, size_t p) {
    int32_t v = 0;
    for (size_t k = 0; k < 4; k++) {
        if (p + k >= c->n) return -2;
        int h = hexval(c->j[p + k]);
        if (h < 0) return -1;
        v = (v << 4) | h;
    }
    return v;
}

/* Validate the escape starting with the backslash at i; returns the position
 * after it, or 0 after reporting an error (an escape never ends at 0). */
static size_t check_escape(st_ctx *c, size_t i, tfs_status *st) {
    const uint8_t *j = c->j;
    if (i + 1 >= c->n) {
        *st = tfs__st_err(c, TFS_ST111, c->n);
        return 0;
    }
    switch (j[i + 1]) {
    case '"':
    case '\\':
    case '/':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't': return i + 2;
    case 'u': break;
    default: *st = tfs__st_err(c, TFS_ST115, i); return 0;
    }
    int32_t cp = hex4(c, i + 2);
    if (cp == -2) {
        *st = tfs__st_err(c, TFS_ST111, c->n);
        return 0;
    }
    if (cp < 0) {
        *st = tfs__st_err(c, TFS_ST115, i);
        return 0;
    }
    if (cp >= 0xDC00 && cp <= 0xDFFF) {
        *st = tfs__st_err(c, TFS_ST116, i);
        return 0;
    }
    if (cp < 0xD800 || cp > 0xDBFF) return i + 6;
    /* high surrogate: a \uDC00..DFFF escape must follow */
    size_t k = i + 6;
    if (k >= c->n || (j[k] == '\\' && k + 1 >= c->n)) {
        *st = tfs__st_err(c, TFS_ST111, c->n);
        return 0;
    }
    if (j[k] != '\\' || j[k + 1] != 'u') {
        *st = tfs__st_err(c, TFS_ST116, i);
        return 0;
    }
    int32_t lo = hex4(c, k + 2);
    if (lo == -2) {
        *st = tfs__st_err(c, TFS_ST111, c->n);
        return 0;
    }
    if (lo < 0) {
        *st = tfs__st_err(c, TFS_ST115, k);
        return 0;
    }
    if (lo < 0xDC00 || lo > 0xDFFF) {
        *st = tfs__st_err(c, TFS_ST116, i);
        return 0;
    }
    return k + 6;
}

tfs_status tfs__st_scan_string(st_ctx *c, bool *esc) {
    const uint8_t *j = c->j;
    size_t n = c->n, i = c->pos + 1;
    *esc = false;
    for (;;) {
        while (i + 8 <= n) {
            uint64_t m = st_special_mask(st_load_le8(j + i));
            if (m) {
                i += (size_t)__builtin_ctzll(m) >> 3;
                goto found;
            }
            i += 8;
        }
        while (i < n && !special(j[i])) i++;
        if (i >= n) return tfs__st_err(c, TFS_ST111, n);
    found:
        if (j[i] == '"') {
            c->pos = i + 1;
            return TFS_OK;
        }
        if (j[i] != '\\') return tfs__st_err(c, TFS_ST114, i);
        *esc = true;
        tfs_status st = TFS_OK;
        i = check_escape(c, i, &st);
        if (!i) return st;
    }
}

static size_t put_utf8(uint8_t *d, uint32_t cp) {
    if (cp < 0x80u) {
        d[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800u) {
        d[0] = (uint8_t)(0xC0u | (cp >> 6));
        d[1] = (uint8_t)(0x80u | (cp & 0x3Fu));
        return 2;
    }
    if (cp < 0x10000u) {
        d[0] = (uint8_t)(0xE0u | (cp >> 12));
        d[1] = (uint8_t)(0x80u | ((cp >> 6) & 0x3Fu));
        d[2] = (uint8_t)(0x80u | (cp & 0x3Fu));
        return 3;
    }
    d[0] = (uint8_t)(0xF0u | (cp >> 18));
    d[1] = (uint8_t)(0x80u | ((cp >> 12) & 0x3Fu));
    d[2] = (uint8_t)(0x80u | ((cp >> 6) & 0x3Fu));
    d[3] = (uint8_t)(0x80u | (cp & 0x3Fu));
    return 4;
}

static uint32_t hex4_valid(const uint8_t *p) {
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) v = (v << 4) | (uint32_t)hexval(p[k]);
    return v;
}

size_t tfs__st_decode(const uint8_t *j, size_t start, size_t end, uint8_t *dst) {
    size_t o = 0;
    for (size_t i = start + 1; i + 1 < end;) {
        uint8_t b = j[i];
        if (b != '\\') {
            dst[o++] = b;
            i++;
            continue;
        }
        uint8_t e = j[i + 1];
        i += 2;
        switch (e) {
        case 'b': dst[o++] = '\b'; break;
        case 'f': dst[o++] = '\f'; break;
        case 'n': dst[o++] = '\n'; break;
        case 'r': dst[o++] = '\r'; break;
        case 't': dst[o++] = '\t'; break;
        case 'u': {
            uint32_t cp = hex4_valid(j + i);
            i += 4;
            if (cp >= 0xD800u && cp <= 0xDBFFu) { /* validated pair */
                uint32_t lo = hex4_valid(j + i + 2);
                i += 6;
                cp = 0x10000u + ((cp - 0xD800u) << 10) + (lo - 0xDC00u);
            }
            o += put_utf8(dst + o, cp);
            break;
        }
        default: dst[o++] = e; break; /* " \ / */
        }
    }
    return o;
}

/* ------------------------------------------------------------- numbers */

/* serde_json's overflow! macro: would a * 10 + b exceed max? */
#define ST_OVERFLOW10(a, b, max) ((a) >= (max) / 10 && ((a) > (max) / 10 || (b) > (max) % 10))

/* serde_json f64_from_parts (without float_roundtrip): the value
 * significand x 10^exponent is out of range when the f64 product
 * (significand as f64) * POW10[exponent] is infinite, or the exponent is past
 * 308 with a nonzero significand.  Below 10^289 no u64 significand can
 * overflow, so only the top of the POW10 table is needed.  Negative
 * exponents only divide: never an error.
 *
 * Computed exactly in integers, not with a double multiply: where C
 * evaluates doubles in a wider format (FLT_EVAL_METHOD != 0: i386 with x87)
 * the product is rounded twice and f64::MAX itself came out infinite.  Both
 * factors are split into an integer mantissa (at most 53 bits, the u64
 * rounded to nearest, ties to even, as Rust's `as f64`) and a power of two;
 * the product rounds to infinity exactly when it reaches the midpoint
 * between f64::MAX and 2^1024, (2^54 - 1) x 2^970 (the tie goes to the even
 * side, 2^1024). */

/* decimal literals of 10^289 .. 10^308: each is the nearest double, like
 * serde_json's POW10 entries; read back as bits, never multiplied */
static const double k_pow10_top[20] = {
    1e289, 1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298,
    1e299, 1e300, 1e301, 1e302, 1e303, 1e304, 1e305, 1e306, 1e307, 1e308,
};

static unsigned bit_len(uint64_t v) {
    unsigned n = 0;
    for (; v; v >>= 1) n++;
    return n;
}

static bool out_of_range(uint64_t significand, int32_t exponent) {
    if (exponent < 289) return false;
    if (exponent > 308) return significand != 0;
    if (significand == 0) return false;
    /* significand as f64: m1 x 2^e1, m1 <= 2^53 */
    unsigned len = bit_len(significand);
    uint64_t m1 = significand;
    int e = 0;
    if (len > 53) {
        unsigned s = len - 53;
        uint64_t rest = significand & ((UINT64_C(1) << s) - 1u), half = UINT64_C(1) << (s - 1u);
        m1 = significand >> s;
        e = (int)s;
        if (rest > half || (rest == half && (m1 & 1u))) m1++;
    }
    /* POW10[exponent] (normal, IEEE-754 binary64): m2 x 2^e2, 2^52 <= m2 < 2^53 */
    uint64_t bits;
    memcpy(&bits, &k_pow10_top[exponent - 289], sizeof bits);
    uint64_t m2 = (bits & ((UINT64_C(1) << 52) - 1u)) | (UINT64_C(1) << 52);
    e += (int)((bits >> 52) & 0x7FFu) - 1075;
    /* m1 x m2 (at most 106 bits) as hi:lo from 32-bit halves */
    uint64_t a0 = m1 & 0xFFFFFFFFu, a1 = m1 >> 32, b0 = m2 & 0xFFFFFFFFu, b1 = m2 >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    uint64_t lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
    uint64_t hi = a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    unsigned plen = hi ? 64u + bit_len(hi) : bit_len(lo); /* 53 .. 106 */
    /* the product lies in [2^(plen-1+e), 2^(plen+e)); the midpoint is in [2^1023, 2^1024) */
    if ((int)plen + e != 1024) return (int)plen + e > 1024;
    /* 1e308: m1 == 1, the product is m2 < 2^53 at 2^971, below the midpoint */
    if (plen < 54u) return false;
    /* its top 54 bits against 2^54 - 1, the midpoint's (its lower bits are 0) */
    unsigned s = plen - 54u;
    uint64_t top = s >= 64u ? hi >> (s - 64u) : s == 0 ? lo : (lo >> s) | (hi << (64u - s));
    return top == (UINT64_C(1) << 54) - 1u;
}

static inline bool digit(uint8_t b) { return b >= '0' && b <= '9'; }

tfs_status tfs__st_scan_number(st_ctx *c, uint64_t *val, bool *is_u64) {
    const uint8_t *j = c->j;
    size_t n = c->n, p = c->pos, start = c->pos;
    bool neg = false;
    *is_u64 = false;
    *val = 0;
    if (j[p] == '-') {
        neg = true;
        p++;
    }
    if (p >= n) return tfs__st_err(c, TFS_ST111, n);
    uint64_t sig = 0;
    int32_t exp = 0;
    bool is_float = false;
    if (j[p] == '0') {
        p++;
        if (p < n && digit(j[p])) return tfs__st_err(c, TFS_ST110, p); /* leading zero */
    } else if (j[p] >= '1' && j[p] <= '9') {
        sig = (uint64_t)(j[p++] - '0');
        while (p < n && digit(j[p])) {
            uint64_t d = (uint64_t)(j[p] - '0');
            if (ST_OVERFLOW10(sig, d, UINT64_MAX)) { /* parse_long_integer */
                is_float = true;
                while (p < n && digit(j[p])) {
                    p++;
                    exp++;
                }
                break;
            }
            sig = sig * 10u + d;
            p++;
        }
    } else {
        return tfs__st_err(c, TFS_ST110, p);
    }
    if (p < n && j[p] == '.') { /* parse_decimal */
        is_float = true;
        p++;
        int32_t after = 0;
        bool dropped = false;
        while (p < n && digit(j[p])) {
            uint64_t d = (uint64_t)(j[p] - '0');
            if (ST_OVERFLOW10(sig, d, UINT64_MAX)) { /* parse_decimal_overflow */
                while (p < n && digit(j[p])) p++;
                dropped = true;
                break;
            }
            sig = sig * 10u + d;
            after--;
            p++;
        }
        if (after == 0 && !dropped) return p >= n ? tfs__st_err(c, TFS_ST111, n) : tfs__st_err(c, TFS_ST110, p);
        exp += after;
    }
    if (p < n && (j[p] == 'e' || j[p] == 'E')) { /* parse_exponent */
        is_float = true;
        p++;
        bool pos_exp = true;
        if (p < n && (j[p] == '+' || j[p] == '-')) {
            pos_exp = j[p] == '+';
            p++;
        }
        if (p >= n) return tfs__st_err(c, TFS_ST111, n);
        if (!digit(j[p])) return tfs__st_err(c, TFS_ST110, p);
        int32_t e = j[p++] - '0';
        bool e_over = false;
        while (p < n && digit(j[p])) {
            int32_t d = j[p] - '0';
            if (ST_OVERFLOW10(e, d, INT32_MAX)) { /* parse_exponent_overflow */
                if (sig != 0 && pos_exp) return tfs__st_err(c, TFS_ST117, start);
                while (p < n && digit(j[p])) p++;
                e_over = true;
                break;
            }
            e = e * 10 + d;
            p++;
        }
        if (!e_over) {
            int64_t fe = pos_exp ? (int64_t)exp + e : (int64_t)exp - e; /* saturating in serde */
            if (fe > INT32_MAX) fe = INT32_MAX;
            if (fe < INT32_MIN) fe = INT32_MIN;
            if (out_of_range(sig, (int32_t)fe)) return tfs__st_err(c, TFS_ST117, start);
        }
    } else if (is_float && out_of_range(sig, exp)) {
        return tfs__st_err(c, TFS_ST117, start);
    }
    c->pos = p;
    if (!neg && !is_float) {
        *is_u64 = true;
        *val = sig;
    }
    return TFS_OK;
}

/* ------------------------------------------------------------- any value */

tfs_status tfs__st_skip_value(st_ctx *c, unsigned depth) {
    /* Containers opened here, innermost last: 1 = object, 0 = array. */
    uint8_t stack[ST_MAX_DEPTH];
    unsigned sp = 0;
    const uint8_t *j = c->j;
    tfs_status st;
    bool esc;
value:
    if (st_at_end(c)) return tfs__st_err(c, TFS_ST111, c->n);
    switch (j[c->pos]) {
    case '{':
    case '[':
        if (TFS_BUG_CHECK(S7, depth + sp + 1 >= ST_MAX_DEPTH, false)) return tfs__st_err(c, TFS_ST113, c->pos);
        stack[sp++] = j[c->pos] == '{';
        c->pos++;
        st_ws(c);
        if (c->pos < c->n && j[c->pos] == (stack[sp - 1] ? '}' : ']')) {
            c->pos++;
            sp--;
            goto after;
        }
        if (stack[sp - 1]) goto key;
        goto value;
    case '"':
        if ((st = st_string(c, &esc)) != TFS_OK) return st;
        goto after;
    case 't':
        if ((st = tfs__st_literal(c, "true", 4)) != TFS_OK) return st;
        goto after;
    case 'f':
        if ((st = tfs__st_literal(c, "false", 5)) != TFS_OK) return st;
        goto after;
    case 'n':
        if ((st = tfs__st_literal(c, "null", 4)) != TFS_OK) return st;
        goto after;
    default:
        if (j[c->pos] == '-' || digit(j[c->pos])) {
            uint64_t v;
            bool u;
            if ((st = st_number(c, &v, &u)) != TFS_OK) return st;
            goto after;
        }
        return tfs__st_unexpected(c);
    }
key:
    if (c->pos >= c->n || j[c->pos] != '"') return tfs__st_unexpected(c);
    if ((st = st_string(c, &esc)) != TFS_OK) return st;
    st_ws(c);
    if (c->pos >= c->n || j[c->pos] != ':') return tfs__st_unexpected(c);
    c->pos++;
    st_ws(c);
    goto value;
after:
    if (sp == 0) return TFS_OK;
    st_ws(c);
    if (st_at_end(c)) return tfs__st_err(c, TFS_ST111, c->n);
    if (j[c->pos] == ',') {
        c->pos++;
        st_ws(c);
        if (stack[sp - 1]) goto key;
        goto value;
    }
    if (j[c->pos] == (stack[sp - 1] ? '}' : ']')) {
        c->pos++;
        sp--;
        goto after;
    }
    return tfs__st_err(c, TFS_ST110, c->pos);
}
