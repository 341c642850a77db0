/* hash.c: SHA-256 and HMAC-SHA256 over GLib's GChecksum and GHmac, secret wiping and a
 * constant-time comparison. GLib keeps its own state on the heap and clears it only partly, so
 * only our copies of keys and digests are wiped here; GLib is already loaded everywhere this
 * runs, libcrypto would not be in dynoscope-serve. */
#include "net/hash.h"

#include <stdlib.h>
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

void
ddb_secret_free (char *secret)
{
  if (secret == NULL)
    return;
  ddb_secure_zero (secret, strlen (secret));
  g_free (secret);
}

void
ddb_secret_string_free (GString *s)
{
  if (s == NULL)
    return;
  ddb_secure_zero (s->str, s->allocated_len);
  g_string_free (s, TRUE);
}

void
ddb_environ_free (char **envp)
{
  for (char **e = envp; e != NULL && *e != NULL; e++)
    ddb_secure_zero (*e, strlen (*e));
  g_strfreev (envp);
}

static const char *const secret_names[] = {
  "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
  "AWS_SECURITY_TOKEN",    "AWS_CONTAINER_AUTHORIZATION_TOKEN",
  "DYNOSCOPE_SERVE_AUTH",  NULL,
};
#define N_SECRET_NAMES (G_N_ELEMENTS (secret_names) - 1)

const char *const *
ddb_environ_secret_names (void)
{
  return secret_names;
}

void
ddb_environ_wipe_secrets (char **envp)
{
  for (char **e = envp; e != NULL && *e != NULL; e++)
    for (gsize i = 0; i < N_SECRET_NAMES; i++)
      {
        gsize len = strlen (secret_names[i]);

        if (strncmp (*e, secret_names[i], len) == 0 && (*e)[len] == '=')
          ddb_secure_zero (*e + len + 1, strlen (*e + len + 1));
      }
}

/* The values ddb_environ_hide_secrets took, by secret_names' index (NULL: none); kept for the
 * life of the process. */
static char *hidden[N_SECRET_NAMES];

void
ddb_environ_hide_secrets (void)
{
  for (gsize i = 0; i < N_SECRET_NAMES; i++)
    {
      char *value = getenv (secret_names[i]);

      if (value == NULL)
        continue;
      if (hidden[i] != NULL)
        ddb_secret_free (hidden[i]);
      hidden[i] = g_strdup (value);
      /* unsetenv frees nothing (glibc keeps the strings it was given or made): wipe them */
      ddb_secure_zero (value, strlen (value));
      g_unsetenv (secret_names[i]);
    }
}

const char *
ddb_environ_getenv (const char *name)
{
  for (gsize i = 0; i < N_SECRET_NAMES; i++)
    if (hidden[i] != NULL && strcmp (name, secret_names[i]) == 0)
      return hidden[i];
  return g_getenv (name);
}

char **
ddb_environ_get (void)
{
  char **envp = g_get_environ ();
  guint n = g_strv_length (envp);

  for (gsize i = 0; i < N_SECRET_NAMES; i++)
    {
      gsize name_len = strlen (secret_names[i]), value_len;
      char *entry;

      /* a value set since it was hidden is the newer one */
      if (hidden[i] == NULL || g_environ_getenv (envp, secret_names[i]) != NULL)
        continue;
      /* made in one block (g_environ_setenv's printf grows a buffer, freeing copies unwiped) */
      value_len = strlen (hidden[i]);
      entry = g_malloc (name_len + value_len + 2);
      memcpy (entry, secret_names[i], name_len);
      entry[name_len] = '=';
      memcpy (entry + name_len + 1, hidden[i], value_len + 1);
      envp = g_renew (char *, envp, n + 2);
      envp[n++] = entry;
      envp[n] = NULL;
    }
  return envp;
}

GString *
ddb_secret_string_new (gsize reserve)
{
  return g_string_sized_new (MAX (reserve, 64));
}

/* Makes room for LEN more bytes (and the NUL) in a new block, wiping the old one. */
static void
secret_string_reserve (GString *s, gsize len)
{
  gsize need = s->len + len + 1;
  gsize size = MAX (s->allocated_len, 64);
  char *moved;

  if (need <= s->allocated_len)
    return;
  while (size < need)
    size *= 2;
  moved = g_malloc (size);
  memcpy (moved, s->str, s->len + 1);
  ddb_secure_zero (s->str, s->allocated_len);
  g_free (s->str);
  s->str = moved;
  s->allocated_len = size;
}

void
ddb_secret_string_append_len (GString *s, const char *text, gsize len)
{
  secret_string_reserve (s, len);
  g_string_append_len (s, text, (gssize) len);
}

void
ddb_secret_string_append (GString *s, const char *text)
{
  ddb_secret_string_append_len (s, text, strlen (text));
}

void
ddb_secret_string_append_c (GString *s, char c)
{
  secret_string_reserve (s, 1);
  g_string_append_c (s, c);
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
