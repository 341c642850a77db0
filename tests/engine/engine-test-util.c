/* engine-test-util.c: helpers shared by the engine tests (see engine-test-util.h). */
#include "engine-test-util.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "../core/test-util.h"

G_GNUC_PRINTF (1, 0)
static json_t *
json_v (const char *fmt, va_list ap)
{
  g_autofree char *text = g_strdup_vprintf (fmt, ap);
  g_autofree char *dq = tu_dq (text);
  json_error_t jerr;
  json_t *j = json_loads (dq, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);

  if (j == NULL)
    g_error ("bad test JSON %s: %s", dq, jerr.text);
  return j;
}

json_t *
etu_json (const char *fmt, ...)
{
  va_list ap;
  json_t *j;

  va_start (ap, fmt);
  j = json_v (fmt, ap);
  va_end (ap);
  return j;
}

DdbEngine *
etu_engine_new (void)
{
  GError *error = NULL;
  DdbEngine *e = ddb_engine_open (":memory:", &error);

  g_assert_no_error (error);
  g_assert_nonnull (e);
  return e;
}

json_t *
etu_call_ok (DdbEngine *e, const char *op, json_t *req)
{
  json_t *resp = NULL;
  GError *error = NULL;

  if (!ddb_engine_call (e, op, req, &resp, &error))
    {
      g_autofree char *text = json_dumps (req, JSON_COMPACT);
      g_error ("%s %s failed: %s: %s", op, text,
               error != NULL ? ddb_error_type_name (error->code) : "-",
               error != NULL ? error->message : "(no error)");
    }
  g_assert_nonnull (resp);
  return resp;
}

json_t *
etu_call_fails (DdbEngine *e, const char *op, json_t *req, DdbErrorCode code, const char *message)
{
  json_t *resp = NULL;
  GError *error = NULL;

  if (ddb_engine_call (e, op, req, &resp, &error))
    {
      g_autofree char *text = json_dumps (req, JSON_COMPACT);
      g_autofree char *out = json_dumps (resp, JSON_COMPACT);
      g_error ("%s %s should fail with %s \"%s\" but returned %s", op, text,
               ddb_error_type_name (code), message != NULL ? message : "", out);
    }
  if (error == NULL || error->domain != DDB_ERROR || error->code != (int) code
      || (message != NULL && g_strcmp0 (error->message, message) != 0))
    {
      g_autofree char *text = json_dumps (req, JSON_COMPACT);
      g_error ("%s %s: expected %s \"%s\", got %s \"%s\"", op, text, ddb_error_type_name (code),
               message != NULL ? message : "(any message)",
               error != NULL ? ddb_error_type_name (error->code) : "-",
               error != NULL ? error->message : "(no error)");
    }
  g_error_free (error);
  return resp;
}

json_t *
etu_ok (DdbEngine *e, const char *op, const char *fmt, ...)
{
  va_list ap;
  json_t *req, *resp;

  va_start (ap, fmt);
  req = json_v (fmt, ap);
  va_end (ap);
  resp = etu_call_ok (e, op, req);
  json_decref (req);
  return resp;
}

json_t *
etu_fails (DdbEngine *e, const char *op, DdbErrorCode code, const char *message, const char *fmt,
           ...)
{
  va_list ap;
  json_t *req, *extra;

  va_start (ap, fmt);
  req = json_v (fmt, ap);
  va_end (ap);
  extra = etu_call_fails (e, op, req, code, message);
  json_decref (req);
  return extra;
}

void
etu_assert_json (json_t *got, const char *expected)
{
  json_t *want = etu_json ("%s", expected);

  if (got == NULL || !json_equal (got, want))
    {
      g_autofree char *a = got != NULL ? json_dumps (got, JSON_SORT_KEYS | JSON_ENCODE_ANY)
                                       : g_strdup ("(absent)");
      g_autofree char *b = json_dumps (want, JSON_SORT_KEYS | JSON_ENCODE_ANY);
      g_error ("got %s\nexpected %s", a, b);
    }
  json_decref (want);
}

void
etu_create_table (DdbEngine *e, const char *table, const char *hash, const char *type)
{
  json_decref (etu_ok (e, "CreateTable",
                       "{'TableName': '%s', 'AttributeDefinitions': [{'AttributeName': '%s', "
                       "'AttributeType': '%s'}], 'KeySchema': [{'AttributeName': '%s', "
                       "'KeyType': 'HASH'}], 'BillingMode': 'PAY_PER_REQUEST'}",
                       table, hash, type, hash));
}

void
etu_put (DdbEngine *e, const char *table, const char *item)
{
  json_t *resp = etu_ok (e, "PutItem", "{'TableName': '%s', 'Item': %s}", table, item);

  etu_assert_json (resp, "{}");
  json_decref (resp);
}

char *
etu_tmp_dir (const char *tmpl)
{
  GError *error = NULL;
  char *dir = g_dir_make_tmp (tmpl, &error);

  g_assert_no_error (error);
  return dir;
}

void
etu_remove_tree (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *sub = g_build_filename (path, name, NULL);

      if (g_file_test (sub, G_FILE_TEST_IS_DIR))
        etu_remove_tree (sub);
      else
        g_unlink (sub);
    }
  if (d != NULL)
    g_dir_close (d);
  g_rmdir (path);
}

/* TEXT as one gzip member. */
GBytes *
etu_gzip (const char *text)
{
  g_autoptr (GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
  g_autoptr (GOutputStream) mem = g_memory_output_stream_new_resizable ();
  g_autoptr (GOutputStream) gz = g_converter_output_stream_new (mem, G_CONVERTER (z));
  GError *error = NULL;

  g_output_stream_write_all (gz, text, strlen (text), NULL, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_close (gz, NULL, &error);
  g_assert_no_error (error);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (mem));
}
