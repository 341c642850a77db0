/* cg-fanout.c: ddb_codegen_fanout_program: a Query and a suffix range checked, then handed to
 * its language's writer, which writes the Query once per suffix instead of once. */
#define G_LOG_DOMAIN "dynoscope-codegen"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "codegen/codegen-private.h"
#include "core/error.h"

/* DynamoDB's limit on a partition key value. */
#define KEY_LIMIT 2048

guint
cg_fanout_last (const CgFanout *fanout)
{
  return fanout->first + (fanout->n - 1);
}

static guint
digits_of (guint n)
{
  guint d = 1;

  while (n >= 10)
    {
      n /= 10;
      d++;
    }
  return d;
}

static gboolean
check_fanout (json_t *request, const CgFanout *f, GError **error)
{
  json_t *values = json_object_get (request, "ExpressionAttributeValues");
  json_t *value = f->placeholder != NULL ? json_object_get (values, f->placeholder) : NULL;
  json_t *select = json_object_get (request, "Select");

  if (f->placeholder == NULL || f->prefix == NULL)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "%s",
                   _ ("A fan-out Query needs a placeholder and a key prefix"));
      return FALSE;
    }
  if (!g_utf8_validate (f->prefix, -1, NULL))
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "%s",
                   _ ("The key prefix is not valid UTF-8"));
      return FALSE;
    }
  if (value == NULL)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   _ ("The placeholder %s is not in the Query's ExpressionAttributeValues"),
                   f->placeholder);
      return FALSE;
    }
  if (!json_is_string (json_object_get (value, "S")))
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   _ ("The value of %s is not a string (S): a suffix makes a string key"),
                   f->placeholder);
      return FALSE;
    }
  if (f->n < 1 || f->n > DDB_CODEGEN_FANOUT_MAX)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   _ ("A fan-out Query has 1 to %u suffixes, not %u"), DDB_CODEGEN_FANOUT_MAX,
                   f->n);
      return FALSE;
    }
  if (f->first > G_MAXUINT - (f->n - 1))
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   _ ("The suffixes from %u on, %u of them, run past %u"), f->first, f->n,
                   G_MAXUINT);
      return FALSE;
    }
  if (f->width > 10)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   _ ("A suffix is padded to at most 10 digits, not %u"), f->width);
      return FALSE;
    }
  if (strlen (f->prefix) + MAX (f->width, digits_of (cg_fanout_last (f))) > KEY_LIMIT)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   _ ("The prefix and its suffix make a key past DynamoDB's %u bytes"), KEY_LIMIT);
      return FALSE;
    }
  if (json_object_get (request, "ExclusiveStartKey") != NULL)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "%s",
                   _ ("A fan-out Query cannot start at an ExclusiveStartKey: each shard pages "
                      "on its own"));
      return FALSE;
    }
  if (json_is_string (select) && strcmp (json_string_value (select), "COUNT") == 0)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "%s",
                   _ ("A fan-out Query prints items: Select COUNT is not written"));
      return FALSE;
    }
  return TRUE;
}

char *
ddb_codegen_fanout_program (DdbLang lang, json_t *query_request, const char *placeholder,
                            const char *prefix, guint first, guint n_suffixes, guint width,
                            const DdbCodegenTarget *target, GError **error)
{
  static const DdbCodegenTarget no_target = { NULL, NULL, NULL };
  CgFanout fanout = { placeholder, prefix, first, n_suffixes, width };
  json_auto_t *checked = cg_check ("Query", query_request, error);
  json_auto_t *request = NULL;
  g_autofree char *key = NULL;
  CgJob job;

  if (checked == NULL || !check_fanout (checked, &fanout, error))
    return NULL;
  request = json_deep_copy (checked);
  /* The request as written holds the first shard's key: a valid Query on its own. */
  key = g_strdup_printf ("%s%0*u", prefix, (int) width, first);
  json_object_set_new (
      json_object_get (json_object_get (request, "ExpressionAttributeValues"), placeholder), "S",
      json_string (key));
  job.operation = "Query";
  job.shape = cg_operation_shape ("Query");
  job.request = request;
  job.target = target != NULL ? target : &no_target;
  job.flow = CG_READ_PAGES;
  job.fanout = &fanout;
  switch (lang)
    {
    case DDB_LANG_CLI:
      return cg_write_cli (&job);
    case DDB_LANG_PYTHON:
      return cg_write_python (&job);
    case DDB_LANG_JS:
      return cg_write_js (&job);
    case DDB_LANG_JAVA:
      return cg_write_java (&job);
    case DDB_LANG_GO:
      return cg_write_go (&job);
    case DDB_LANG_RUST:
      return cg_write_rust (&job);
    }
  g_return_val_if_reached (NULL);
}
