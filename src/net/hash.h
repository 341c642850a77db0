/* hash.h: the hashing SigV4 needs (SHA-256, HMAC-SHA256) over GLib, plus wiping secrets and
 * comparing them in constant time, so src/net (and the lean dynoscope-serve) need no libcrypto. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DDB_SHA256_LEN 32

void ddb_sha256 (const void *data, gsize len, guint8 out[DDB_SHA256_LEN]);
void ddb_hmac_sha256 (const void *key, gsize key_len, const void *data, gsize data_len,
                      guint8 out[DDB_SHA256_LEN]);

/* Zeroes len bytes at p in a way the compiler may not drop as a dead store. NULL is allowed. */
void ddb_secure_zero (void *p, gsize len);

/* TRUE when the len bytes at a and b are equal; takes the same time whichever bytes differ. */
gboolean ddb_memeq_const (const void *a, const void *b, gsize len);

G_END_DECLS
