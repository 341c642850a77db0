/* test-hash.c: src/net/hash.c against FIPS 180-4 SHA-256 and RFC 4231 HMAC-SHA256 vectors, the
 * constant-time comparison and the wipe. */
#include <stdlib.h>

#include "net/awsconfig.h"
#include "net/hash.h"

#include <string.h>

static char *
hex (const guint8 *b, gsize len)
{
  GString *s = g_string_new ("");

  for (gsize i = 0; i < len; i++)
    g_string_append_printf (s, "%02x", b[i]);
  return g_string_free (s, FALSE);
}

static void
check_sha256 (const char *data, gsize len, const char *expected)
{
  guint8 md[DDB_SHA256_LEN];
  g_autofree char *got = NULL;

  ddb_sha256 (data, len, md);
  got = hex (md, sizeof md);
  g_assert_cmpstr (got, ==, expected);
}

static void
test_sha256 (void)
{
  check_sha256 ("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  check_sha256 ("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  /* Embedded NULs are data, not terminators. */
  check_sha256 ("a\0b", 3, "59b271ae1bbcb1d31d41929817f4b16fb439eb4f31520b5ad1d5ce98920a7138");
}

static void
check_hmac (const void *key, gsize key_len, const char *data, const char *expected)
{
  guint8 md[DDB_SHA256_LEN];
  g_autofree char *got = NULL;

  ddb_hmac_sha256 (key, key_len, data, strlen (data), md);
  got = hex (md, sizeof md);
  g_assert_cmpstr (got, ==, expected);
}

static void
test_hmac_rfc4231 (void)
{
  guint8 key1[20], key6[131];

  memset (key1, 0x0b, sizeof key1);
  check_hmac (key1, sizeof key1, "Hi There",
              "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  check_hmac ("Jefe", 4, "what do ya want for nothing?",
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  /* A key longer than the block is hashed first. */
  memset (key6, 0xaa, sizeof key6);
  check_hmac (key6, sizeof key6, "Test Using Larger Than Block-Size Key - Hash Key First",
              "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

static void
test_memeq_const (void)
{
  g_assert_true (ddb_memeq_const ("abcdef", "abcdef", 6));
  g_assert_false (ddb_memeq_const ("abcdef", "abcdeg", 6));
  g_assert_false (ddb_memeq_const ("abcdef", "bbcdef", 6));
  /* Only len bytes count. */
  g_assert_true (ddb_memeq_const ("abcX", "abcY", 3));
  g_assert_true (ddb_memeq_const ("x", "y", 0));
}

static void
test_secure_zero (void)
{
  char buf[8] = "secret!";
  const char zeros[8] = { 0 };

  ddb_secure_zero (buf, sizeof buf);
  g_assert_cmpmem (buf, sizeof buf, zeros, sizeof zeros);
  ddb_secure_zero (NULL, 0);
}

/* A secret GString grows into new blocks; what it held is equal, whatever the growth. */
static void
test_secret_string (void)
{
  GString *s = ddb_secret_string_new (0);
  GString *expected = g_string_new (NULL);

  for (int i = 0; i < 5000; i++)
    {
      char c = (char) ('a' + i % 26);

      if (i % 3 == 0)
        {
          ddb_secret_string_append_c (s, c);
          g_string_append_c (expected, c);
        }
      else
        {
          ddb_secret_string_append (s, "xyz");
          ddb_secret_string_append_len (s, "12345", i % 6);
          g_string_append (expected, "xyz");
          g_string_append_len (expected, "12345", i % 6);
        }
      g_assert_cmpuint (s->len, <, s->allocated_len);
    }
  g_assert_cmpstr (s->str, ==, expected->str);
  g_assert_cmpuint (s->len, ==, expected->len);
  ddb_secret_string_free (s);
  ddb_secret_string_free (NULL);
  g_string_free (expected, TRUE);
}

/* The secret variables' values are wiped in place, their names (and the others) kept. */
static void
test_environ_wipe (void)
{
  char **envp = g_new0 (char *, 8);

  envp[0] = g_strdup ("AWS_ACCESS_KEY_ID=AKIAEXAMPLE");
  envp[1] = g_strdup ("AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI");
  envp[2] = g_strdup ("AWS_SESSION_TOKEN=IQoJb3JpZ2lu");
  envp[3] = g_strdup ("AWS_SECRET_ACCESS_KEY_X=not-this-one");
  envp[4] = g_strdup ("AWS_CONTAINER_AUTHORIZATION_TOKEN=abc");
  envp[5] = g_strdup ("DYNOSCOPE_SERVE_AUTH=k:s");
  envp[6] = g_strdup ("HOME=/home/u");
  ddb_environ_wipe_secrets (envp);
  g_assert_cmpstr (envp[0], ==, "AWS_ACCESS_KEY_ID=AKIAEXAMPLE");
  g_assert_cmpstr (envp[1], ==, "AWS_SECRET_ACCESS_KEY=");
  g_assert_cmpmem (envp[1] + 22, 13, "\0\0\0\0\0\0\0\0\0\0\0\0\0", 13);
  g_assert_cmpstr (envp[2], ==, "AWS_SESSION_TOKEN=");
  g_assert_cmpstr (envp[3], ==, "AWS_SECRET_ACCESS_KEY_X=not-this-one");
  g_assert_cmpstr (envp[4], ==, "AWS_CONTAINER_AUTHORIZATION_TOKEN=");
  g_assert_cmpstr (envp[5], ==, "DYNOSCOPE_SERVE_AUTH=");
  g_assert_cmpstr (envp[6], ==, "HOME=/home/u");
  g_assert_cmpstr (g_environ_getenv (envp, "AWS_SECRET_ACCESS_KEY"), ==, "");
  ddb_environ_free (envp);
  ddb_environ_free (NULL);
}

/* The secret variables leave the process environment (a copy GIO makes holds none), wiped where
 * they were, and stay readable through ddb_environ_getenv, ddb_environ_get and ddb_aws_getenv. */
static void
test_environ_hide (void)
{
  char *before;
  char **envp;

  g_setenv ("AWS_SECRET_ACCESS_KEY", "hidden-secret-value", TRUE);
  g_setenv ("AWS_ACCESS_KEY_ID", "AKIDSHOWN", TRUE);
  before = getenv ("AWS_SECRET_ACCESS_KEY");
  ddb_environ_hide_secrets ();
  g_assert_null (g_getenv ("AWS_SECRET_ACCESS_KEY"));
  g_assert_cmpstr (before, ==, ""); /* wiped where it was */
  g_assert_cmpstr (ddb_environ_getenv ("AWS_SECRET_ACCESS_KEY"), ==, "hidden-secret-value");
  g_assert_cmpstr (ddb_aws_getenv (NULL, "AWS_SECRET_ACCESS_KEY"), ==, "hidden-secret-value");
  g_assert_cmpstr (ddb_environ_getenv ("AWS_ACCESS_KEY_ID"), ==, "AKIDSHOWN");
  g_assert_null (ddb_environ_getenv ("AWS_SESSION_TOKEN"));
  envp = g_get_environ ();
  g_assert_null (g_environ_getenv (envp, "AWS_SECRET_ACCESS_KEY"));
  g_strfreev (envp);
  envp = ddb_environ_get ();
  g_assert_cmpstr (g_environ_getenv (envp, "AWS_SECRET_ACCESS_KEY"), ==, "hidden-secret-value");
  g_assert_cmpstr (g_environ_getenv (envp, "AWS_ACCESS_KEY_ID"), ==, "AKIDSHOWN");
  ddb_environ_free (envp);
  /* a second call keeps what the first took, or takes a value set since */
  ddb_environ_hide_secrets ();
  g_assert_cmpstr (ddb_environ_getenv ("AWS_SECRET_ACCESS_KEY"), ==, "hidden-secret-value");
  g_setenv ("AWS_SECRET_ACCESS_KEY", "another-secret", TRUE);
  ddb_environ_hide_secrets ();
  g_assert_null (g_getenv ("AWS_SECRET_ACCESS_KEY"));
  g_assert_cmpstr (ddb_environ_getenv ("AWS_SECRET_ACCESS_KEY"), ==, "another-secret");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_log_writer_default_set_use_stderr (TRUE);
  g_test_add_func ("/hash/sha256", test_sha256);
  g_test_add_func ("/hash/hmac-rfc4231", test_hmac_rfc4231);
  g_test_add_func ("/hash/memeq-const", test_memeq_const);
  g_test_add_func ("/hash/secure-zero", test_secure_zero);
  g_test_add_func ("/hash/secret-string", test_secret_string);
  g_test_add_func ("/hash/environ-wipe", test_environ_wipe);
  g_test_add_func ("/hash/environ-hide", test_environ_hide);
  return g_test_run ();
}
