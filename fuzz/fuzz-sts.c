/* fuzz-sts.c: libFuzzer target for STS's XML answers (net/sts.h). Each input is parsed as the
 * answer to AssumeRole, to AssumeRoleWithWebIdentity and to GetCallerIdentity, with a success
 * status, an error status and a status taken from the input. Aborts when a parser answers
 * neither credentials nor an error (or both), when an error is not in DDB_AWS_ERROR or its
 * message is not UTF-8, when the outcome depends on anything but whether the status is 2xx, or
 * when an error answer quotes the secret key that a success answer held.
 *
 * And against GMarkup, which sts.c used before its own XML reader (tests/net/sts-gmarkup.h):
 * when both take the input, every operation at every status must give the same outcome (the
 * fields, or the error message). Where only one takes it, nothing is checked (tests/net/
 * test-sts.c lists the kinds and why); with FUZZ_STS_DISAGREEMENTS naming a directory, each such
 * input is written there, as ours-<sha1> (the reader alone takes it) or gmarkup-<sha1>, for a
 * look with a third reader. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/sts.h"

#include "../tests/net/sts-gmarkup.h"
#include "fuzz-gslice.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static gboolean
is_2xx (guint status)
{
  return status >= 200 && status <= 299;
}

static void
check_error (const GError *error)
{
  if (error == NULL || error->domain != DDB_AWS_ERROR
      || error->code != DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL || error->message == NULL
      || !g_utf8_validate (error->message, -1, NULL))
    abort ();
}

static gboolean
same (const char *a, const char *b)
{
  return g_strcmp0 (a, b) == 0;
}

/* How many times NEEDLE occurs in HAYSTACK (overlaps counted). */
static guint
count (const char *haystack, const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* One operation at every status; the answers at statuses of the same class agree. */
static void
check_credentials (const char *operation, const char *body, gsize len, const guint *statuses,
                   guint n_statuses)
{
  DdbAwsCredentials *ok_creds = NULL;
  char *ok_message = NULL, *err_message = NULL;

  for (guint i = 0; i < n_statuses; i++)
    {
      GError *error = NULL;
      DdbAwsCredentials *creds
          = ddb_sts_parse_credentials (operation, statuses[i], body, len, "fuzz", &error);

      if (creds == NULL)
        {
          check_error (error);
          if (is_2xx (statuses[i]))
            {
              if (ok_creds != NULL || (ok_message != NULL && !same (ok_message, error->message)))
                abort ();
              if (ok_message == NULL)
                ok_message = g_strdup (error->message);
            }
          else
            {
              /* "(403)" and "(400)" differ; the error code, when the XML names one, does not. */
              if (err_message == NULL && strstr (error->message, "An error occurred (") != NULL)
                err_message = g_strdup (error->message);
            }
          g_error_free (error);
          continue;
        }

      /* Credentials only ever come from a 2xx answer, complete. */
      if (error != NULL || !is_2xx (statuses[i]) || ok_message != NULL)
        abort ();
      if (creds->creds.access_key_id == NULL || creds->creds.secret_access_key == NULL
          || creds->creds.session_token == NULL || !same (creds->method, "fuzz"))
        abort ();
      if (ok_creds == NULL)
        ok_creds = creds;
      else
        {
          if (!same (ok_creds->creds.access_key_id, creds->creds.access_key_id)
              || !same (ok_creds->creds.secret_access_key, creds->creds.secret_access_key)
              || !same (ok_creds->creds.session_token, creds->creds.session_token)
              || ok_creds->expiration != creds->expiration)
            abort ();
          ddb_aws_credentials_free (creds);
        }
    }

  /* An error answer's message never shows the secret key of the same body's credentials
   * (a long one: a short one may be a word of the message by chance), unless the body has it
   * a second time, as an error code or message. */
  if (ok_creds != NULL && err_message != NULL
      && strlen (ok_creds->creds.secret_access_key) >= 16
      && strstr (err_message, ok_creds->creds.secret_access_key) != NULL
      && count (body, ok_creds->creds.secret_access_key) < 2)
    abort ();

  ddb_aws_credentials_free (ok_creds);
  g_free (ok_message);
  g_free (err_message);
}

static void
check_caller_identity (const char *body, gsize len, const guint *statuses, guint n_statuses)
{
  char *first_arn = NULL;
  gboolean have_first = FALSE;

  for (guint i = 0; i < n_statuses; i++)
    {
      GError *error = NULL;
      char *arn = NULL, *account = NULL, *user_id = NULL;
      gboolean ok = ddb_sts_parse_caller_identity (statuses[i], body, len, &arn, &account,
                                                   &user_id, &error);

      if (!ok)
        {
          check_error (error);
          if (arn != NULL || account != NULL || user_id != NULL)
            abort ();
          g_error_free (error);
          continue;
        }
      if (error != NULL || arn == NULL || !is_2xx (statuses[i]))
        abort ();
      if (!g_utf8_validate (arn, -1, NULL) || (account && !g_utf8_validate (account, -1, NULL))
          || (user_id && !g_utf8_validate (user_id, -1, NULL)))
        abort ();
      if (have_first && !same (first_arn, arn))
        abort ();
      if (!have_first)
        {
          first_arn = g_strdup (arn);
          have_first = TRUE;
        }
      g_free (arn);
      g_free (account);
      g_free (user_id);

      /* The out parameters are optional. */
      if (!ddb_sts_parse_caller_identity (statuses[i], body, len, NULL, NULL, NULL, NULL))
        abort ();
    }
  g_free (first_arn);
}

static void
keep_disagreement (const char *body, gsize len, gboolean ours)
{
  const char *dir = getenv ("FUZZ_STS_DISAGREEMENTS");
  char *sum, *name, *path;

  if (dir == NULL)
    return;
  sum = g_compute_checksum_for_data (G_CHECKSUM_SHA1, (const guchar *) body, len);
  name = g_strconcat (ours ? "ours-" : "gmarkup-", sum, NULL);
  path = g_build_filename (dir, name, NULL);
  g_file_set_contents (path, body, (gssize) len, NULL);
  g_free (path);
  g_free (name);
  g_free (sum);
}

static void
check_against_gmarkup (const char *body, gsize len, const guint *statuses, guint n_statuses)
{
  gboolean ours = sts_ours_accepts (body, len);
  gboolean gmarkup = sts_reference_accepts (body, len);

  if (ours != gmarkup)
    {
      keep_disagreement (body, len, ours);
      return;
    }
  if (!ours || sts_reference_misreads_comments (body, len))
    return;
  for (guint i = 0; i < n_statuses; i++)
    {
      char *diff = sts_outcome_compare (body, len, statuses[i]);

      if (diff != NULL)
        {
          fprintf (stderr, "the reader and GMarkup disagree: %s\n", diff);
          abort ();
        }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* NUL-terminated for the strstr above; the parsers get the length. */
  char *body = g_malloc (size + 1);
  guint statuses[4] = { 200, 299, 403, 0 };

  memcpy (body, data, size);
  body[size] = '\0';
  /* Any status: 0 (no answer), 1xx, 3xx, 5xx, ...; from the input so that it varies. */
  statuses[3] = size > 0 ? (guint) data[size - 1] * 3u + (guint) size % 7u : 0;

  check_credentials ("AssumeRole", body, size, statuses, G_N_ELEMENTS (statuses));
  check_credentials ("AssumeRoleWithWebIdentity", body, size, statuses, G_N_ELEMENTS (statuses));
  check_caller_identity (body, size, statuses, G_N_ELEMENTS (statuses));
  check_against_gmarkup (body, size, statuses, G_N_ELEMENTS (statuses));
  g_free (body);
  return 0;
}
