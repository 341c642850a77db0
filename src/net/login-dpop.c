/* login-dpop.c: the `aws login` DPoP key (from its PEM) and the ES256-signed proof JWT. */
#include "net/login-dpop.h"

#include "net/hash.h"
#include "net/secret-json.h"

#include <gio/gio.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/x509.h>
#include <string.h>

#define COORD_LEN 32 /* P-256 */

struct _DdbDpopKey {
  EVP_PKEY *pkey;
  guint8 x[COORD_LEN];
  guint8 y[COORD_LEN];
};

void
ddb_dpop_key_free (DdbDpopKey *key)
{
  if (key == NULL)
    return;
  EVP_PKEY_free (key->pkey);
  g_free (key);
}

static gboolean
invalid_key (GError **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "Unable to load private key from cached token: the dpopKey is not a "
                       "P-256 private key");
  return FALSE;
}

static gboolean
get_coord (EVP_PKEY *pkey, const char *param, guint8 out[COORD_LEN])
{
  BIGNUM *bn = NULL;
  gboolean ok;

  if (!EVP_PKEY_get_bn_param (pkey, param, &bn))
    return FALSE;
  ok = BN_bn2binpad (bn, out, COORD_LEN) == COORD_LEN;
  BN_free (bn);
  return ok;
}

DdbDpopKey *
ddb_dpop_key_new_from_pem (const char *pem, GError **error)
{
  g_auto (GStrv) lines = g_strsplit_set (pem, "\r\n", -1);
  GString *b64 = g_string_new (NULL);
  const unsigned char *p;
  guint8 *der;
  gsize der_len = 0;
  EVP_PKEY *pkey;
  char group[64] = "";
  DdbDpopKey *key;

  /* botocore: splitlines, drop the armour lines, join, strip, b64decode. */
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (!g_str_has_prefix (lines[i], "-----BEGIN") && !g_str_has_prefix (lines[i], "-----END"))
        g_string_append (b64, lines[i]);
      ddb_secure_zero (lines[i], strlen (lines[i]));
    }
  g_strstrip (b64->str);
  b64->len = strlen (b64->str);
  if (b64->len == 0 || b64->len % 4 != 0
      || strspn (b64->str, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
             != b64->len)
    {
      ddb_secret_string_free (b64);
      invalid_key (error);
      return NULL;
    }
  der = g_base64_decode_inplace (b64->str, &der_len);
  p = der;
  pkey = d2i_AutoPrivateKey (NULL, &p, (long) der_len);
  ddb_secret_string_free (b64);
  if (pkey == NULL || !EVP_PKEY_is_a (pkey, "EC")
      || !EVP_PKEY_get_utf8_string_param (pkey, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group,
                                          NULL)
      || OBJ_txt2nid (group) != NID_X9_62_prime256v1)
    {
      EVP_PKEY_free (pkey);
      invalid_key (error);
      return NULL;
    }
  key = g_new0 (DdbDpopKey, 1);
  key->pkey = pkey;
  if (!get_coord (pkey, OSSL_PKEY_PARAM_EC_PUB_X, key->x)
      || !get_coord (pkey, OSSL_PKEY_PARAM_EC_PUB_Y, key->y))
    {
      ddb_dpop_key_free (key);
      invalid_key (error);
      return NULL;
    }
  return key;
}

char *
ddb_base64url_encode (const guint8 *data, gsize len)
{
  char *s = g_base64_encode (data, len);
  gsize n = strlen (s);

  while (n > 0 && s[n - 1] == '=')
    s[--n] = '\0';
  for (char *c = s; *c != '\0'; c++)
    if (*c == '+')
      *c = '-';
    else if (*c == '/')
      *c = '_';
  return s;
}

char *
ddb_dpop_key_jwk (DdbDpopKey *key)
{
  g_autofree char *x = ddb_base64url_encode (key->x, COORD_LEN);
  g_autofree char *y = ddb_base64url_encode (key->y, COORD_LEN);

  return g_strdup_printf ("{\"kty\":\"EC\",\"x\":\"%s\",\"y\":\"%s\",\"crv\":\"P-256\"}", x, y);
}

/* ES256: ECDSA P-256 over SHA-256, the signature as r || s, each padded to 32 bytes. */
static gboolean
sign_es256 (DdbDpopKey *key, const char *input, guint8 out[2 * COORD_LEN])
{
  EVP_MD_CTX *ctx = EVP_MD_CTX_new ();
  unsigned char der[80];
  size_t der_len = sizeof der;
  const unsigned char *p = der;
  ECDSA_SIG *sig = NULL;
  const BIGNUM *r, *s;
  gboolean ok = FALSE;

  if (ctx != NULL && EVP_DigestSignInit (ctx, NULL, EVP_sha256 (), NULL, key->pkey) == 1
      && EVP_DigestSign (ctx, der, &der_len, (const unsigned char *) input, strlen (input)) == 1
      && (sig = d2i_ECDSA_SIG (NULL, &p, (long) der_len)) != NULL)
    {
      ECDSA_SIG_get0 (sig, &r, &s);
      ok = BN_bn2binpad (r, out, COORD_LEN) == COORD_LEN
           && BN_bn2binpad (s, out + COORD_LEN, COORD_LEN) == COORD_LEN;
    }
  ECDSA_SIG_free (sig);
  EVP_MD_CTX_free (ctx);
  return ok;
}

char *
ddb_dpop_proof (DdbDpopKey *key, const char *method, const char *url, gint64 iat, const char *jti,
                GError **error)
{
  g_autofree char *jwk = ddb_dpop_key_jwk (key);
  g_autofree char *header = NULL;
  g_autofree char *header_b64 = NULL;
  g_autofree char *payload_b64 = NULL;
  g_autofree char *input = NULL;
  g_autofree char *sig_b64 = NULL;
  g_autoptr (GString) payload = g_string_new ("{\"htm\":");
  guint8 sig[2 * COORD_LEN];

  header = g_strdup_printf ("{\"typ\":\"dpop+jwt\",\"alg\":\"ES256\",\"jwk\":%s}", jwk);
  ddb_secret_json_append_string (payload, method);
  g_string_append (payload, ",\"htu\":");
  ddb_secret_json_append_string (payload, url);
  g_string_append_printf (payload, ",\"iat\":%" G_GINT64_FORMAT ",\"jti\":", iat);
  ddb_secret_json_append_string (payload, jti);
  g_string_append_c (payload, '}');

  header_b64 = ddb_base64url_encode ((const guint8 *) header, strlen (header));
  payload_b64 = ddb_base64url_encode ((const guint8 *) payload->str, payload->len);
  input = g_strconcat (header_b64, ".", payload_b64, NULL);
  if (!sign_es256 (key, input, sig))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           "Signing the DPoP proof with the cached dpopKey failed");
      return NULL;
    }
  sig_b64 = ddb_base64url_encode (sig, sizeof sig);
  return g_strconcat (input, ".", sig_b64, NULL);
}
