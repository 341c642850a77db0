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

/* Frees a string that may hold a secret, wiping it first. NULL is fine. */
void ddb_secret_free (char *secret);

/* Wipes the whole block of a GString that held a secret (not only its length) and frees it.
 * NULL is fine. */
void ddb_secret_string_free (GString *s);

/* g_string_append_len and friends for a GString that holds a secret: when the string must grow,
 * its bytes move to a new block and the old one is wiped (g_string's realloc would leave them in
 * freed memory). */
void ddb_secret_string_append_len (GString *s, const char *text, gsize len);
void ddb_secret_string_append (GString *s, const char *text);
void ddb_secret_string_append_c (GString *s, char c);

/* Frees a copy of the environment (g_get_environ), wiping every entry first: it may hold
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN and the like. NULL is fine. */
void ddb_environ_free (char **envp);

/* Wipes, in place, the values of the variables of ENVP that hold secrets (AWS_SECRET_ACCESS_KEY,
 * AWS_SESSION_TOKEN, AWS_SECURITY_TOKEN, AWS_CONTAINER_AUTHORIZATION_TOKEN,
 * DYNOSCOPE_SERVE_AUTH), leaving them set to "": g_environ_setenv and g_environ_unsetenv then
 * free nothing secret. */
void ddb_environ_wipe_secrets (char **envp);

/* Moves the secret variables (those ddb_environ_wipe_secrets knows) out of the process
 * environment into memory of its own, wiping their values where they were: a library that
 * copies the environment and frees the copy unwiped (GIO launching a browser, a subprocess
 * launcher) then copies no secret. ddb_aws_getenv, ddb_environ_getenv and ddb_environ_get
 * still see them; the programs started with the process environment do not. Call it first
 * thing in main, before any thread reads the environment (and again after setting one of them,
 * as a test does: the new value replaces the one hidden). */
void ddb_environ_hide_secrets (void);
/* NAME's value from the process environment, or the hidden one (see above); NULL: unset. */
const char *ddb_environ_getenv (const char *name);
/* g_get_environ () with the hidden secret variables put back: free it with ddb_environ_free. */
char **ddb_environ_get (void);
/* The names of the secret variables (NULL-terminated). */
const char *const *ddb_environ_secret_names (void);

/* A new GString that will hold a secret, with room for RESERVE bytes. */
GString *ddb_secret_string_new (gsize reserve);

/* TRUE when the len bytes at a and b are equal; takes the same time whichever bytes differ. */
gboolean ddb_memeq_const (const void *a, const void *b, gsize len);

G_END_DECLS
