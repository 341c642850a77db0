/* hash.c: SHA-256 and HMAC-SHA256 over GLib's GChecksum and GHmac, secret wiping and a
 * constant-time comparison. GLib keeps its own state on the heap and clears it only partly, so
 * only our copies of keys and digests are wiped here; GLib is already loaded everywhere this
 * runs, libcrypto would not be in dynoscope-serve. */
#include "net/hash.h"

#include <string.h>

void
ddb_sha256 (const void *data, gsize len, guint8 out[DDB_SHA256_LEN])
{
  GChecksum *checksum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize out_len = DDB_SHA256_LEN;

  g_checksum_update (checksum, data, (gssize) len);
  g_checksum_get_digest (checksum, out, &out_len);
  g_checksum_free (checksum);
  g_assert (out_len == DDB_SHA256_LEN);
}

void
ddb_hmac_sha256 (const void *key, gsize key_len, const void *data, gsize data_len,
                 guint8 out[DDB_SHA256_LEN])
{
  GHmac *hmac = g_hmac_new (G_CHECKSUM_SHA256, key, key_len);
  gsize out_len = DDB_SHA256_LEN;

  g_hmac_update (hmac, data, (gssize) data_len);
  g_hmac_get_digest (hmac, out, &out_len);
  g_hmac_unref (hmac);
  g_assert (out_len == DDB_SHA256_LEN);
}

void
ddb_secure_zero (void *p, gsize len)
{
  if (p != NULL && len > 0)
    explicit_bzero (p, len);
}

gboolean
ddb_memeq_const (const void *a, const void *b, gsize len)
{
  const volatile guint8 *x = a;
  const volatile guint8 *y = b;
  guint8 diff = 0;

  for (gsize i = 0; i < len; i++)
    diff |= x[i] ^ y[i];
  return diff == 0;
}
