/* crypto-glib.c: the five OpenSSL functions SigV4 (src/net/sigv4.c) calls, over GLib's SHA-256
 * and HMAC, linked into dynoscope-serve only. libcrypto is 1.4 MB of resident memory and 0.6 ms
 * of start-up for two hashes GLib (already loaded) has; dynoscope-serve must stay lean. If
 * sigv4.c ever needs more of OpenSSL the link pulls libcrypto back in, and the test
 * `serve-lean` (no libcrypto in dynoscope-serve) fails, so this never silently mixes with the real
 * library. Only SHA-256 exists here: any other digest aborts. */
#include <glib.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <string.h>

/* EVP_MD is opaque: its address is all that is ever compared. */
static const char sha256_md;

const EVP_MD *
EVP_sha256 (void)
{
  return (const EVP_MD *) &sha256_md;
}

int
EVP_Digest (const void *data, size_t count, unsigned char *md, unsigned int *size,
            const EVP_MD *type, ENGINE *impl)
{
  GChecksum *checksum;
  gsize len = 32;

  if (type != EVP_sha256 () || impl != NULL)
    g_error ("crypto-glib: only SHA-256 is available");
  checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (checksum, data, count);
  g_checksum_get_digest (checksum, md, &len);
  g_checksum_free (checksum);
  if (size != NULL)
    *size = (unsigned int) len;
  return len == 32;
}

unsigned char *
HMAC (const EVP_MD *evp_md, const void *key, int key_len, const unsigned char *data,
      size_t data_len, unsigned char *md, unsigned int *md_len)
{
  GHmac *hmac;
  gsize len = 32;

  if (evp_md != EVP_sha256 () || md == NULL || key_len < 0)
    g_error ("crypto-glib: only HMAC-SHA-256 into a buffer is available");
  hmac = g_hmac_new (G_CHECKSUM_SHA256, key, (gsize) key_len);
  g_hmac_update (hmac, data, data_len);
  g_hmac_get_digest (hmac, md, &len);
  g_hmac_unref (hmac);
  if (md_len != NULL)
    *md_len = (unsigned int) len;
  return len == 32 ? md : NULL;
}

int
CRYPTO_memcmp (const void *in_a, const void *in_b, size_t len)
{
  const volatile unsigned char *a = in_a;
  const volatile unsigned char *b = in_b;
  unsigned char diff = 0;

  /* Constant time: every byte is looked at whatever differs first. */
  for (size_t i = 0; i < len; i++)
    diff |= a[i] ^ b[i];
  return diff;
}

void
OPENSSL_cleanse (void *ptr, size_t len)
{
  explicit_bzero (ptr, len);
}
