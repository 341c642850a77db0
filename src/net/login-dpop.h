/* login-dpop.h: the DPoP proof (RFC 9449) that the `aws login` token refresh carries, as
 * botocore builds it: a JWT signed ES256 with the P-256 key that `aws login` keeps in its cache
 * (the cache's "dpopKey": PEM, SEC1 "EC PRIVATE KEY" or PKCS#8). OpenSSL does the curve
 * arithmetic. The key never leaves this file; messages never quote it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _DdbDpopKey DdbDpopKey;

/* Loads the key as botocore does: the lines starting with -----BEGIN / -----END dropped, the
 * rest joined and base64-decoded to DER. Error (G_IO_ERROR_INVALID_DATA) when that is not a
 * P-256 private key. */
DdbDpopKey *ddb_dpop_key_new_from_pem (const char *pem, GError **error);
void ddb_dpop_key_free (DdbDpopKey *key);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbDpopKey, ddb_dpop_key_free)

/* The public key's JWK as botocore writes it into the proof's header:
 * {"kty":"EC","x":"<base64url>","y":"<base64url>","crv":"P-256"}. */
char *ddb_dpop_key_jwk (DdbDpopKey *key);

/* The proof for an HTTP METHOD to URL at IAT (seconds since the epoch) with the unique id JTI:
 * base64url(header).base64url(payload).base64url(r || s), header
 * {"typ":"dpop+jwt","alg":"ES256","jwk":...}, payload {"htm":..,"htu":..,"iat":..,"jti":..}
 * (compact JSON, in that order, as botocore's json.dumps(separators=(',', ':')) writes). */
char *ddb_dpop_proof (DdbDpopKey *key, const char *method, const char *url, gint64 iat,
                      const char *jti, GError **error);

/* base64url without padding (RFC 7515's base64url). */
char *ddb_base64url_encode (const guint8 *data, gsize len);

G_END_DECLS
