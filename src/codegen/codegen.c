/* codegen.c: ddb_codegen_program: the request checked, then handed to its language's writer. */
#define G_LOG_DOMAIN "dynoscope-codegen"

#include <string.h>

#include "codegen/codegen-private.h"

char *
ddb_codegen_program (DdbLang lang, const char *operation, json_t *request,
                     const DdbCodegenTarget *target, GError **error)
{
  static const DdbCodegenTarget no_target = { NULL, NULL, NULL };
  json_auto_t *checked = cg_check (operation, request, error);
  CgJob job;

  if (checked == NULL)
    return NULL;
  job.operation = operation;
  job.shape = cg_operation_shape (operation);
  job.request = checked;
  job.target = target != NULL ? target : &no_target;
  job.flow = cg_operation_flow (operation);
  job.fanout = NULL;
  switch (lang)
    {
    case DDB_LANG_CLI: return cg_write_cli (&job);
    case DDB_LANG_PYTHON: return cg_write_python (&job);
    case DDB_LANG_JS: return cg_write_js (&job);
    case DDB_LANG_JAVA: return cg_write_java (&job);
    case DDB_LANG_GO: return cg_write_go (&job);
    case DDB_LANG_RUST: return cg_write_rust (&job);
    }
  g_return_val_if_reached (NULL);
}

static void
add_tables (GPtrArray *names, json_t *j)
{
  const char *key;
  json_t *v;
  gsize i;

  if (json_is_object (j))
    json_object_foreach (j, key, v)
      {
        if (strcmp (key, "TableName") == 0 && json_is_string (v))
          {
            gboolean seen = FALSE;

            for (guint n = 0; n < names->len; n++)
              seen = seen || strcmp (names->pdata[n], json_string_value (v)) == 0;
            if (!seen)
              g_ptr_array_add (names, (gpointer) json_string_value (v));
          }
        else if (strcmp (key, "RequestItems") == 0)
          {
            const char *table;
            json_t *inner;

            json_object_foreach (v, table, inner)
              g_ptr_array_add (names, (gpointer) table);
          }
        else
          add_tables (names, v);
      }
  else if (json_is_array (j))
    json_array_foreach (j, i, v)
      add_tables (names, v);
}

/* A comment line's text (takes TEXT): a line break, a control or a bidirectional override in a
 * profile name or URL must neither end the comment nor hide what follows it. */
static char *
comment_text (char *text)
{
  GString *out = g_string_new (NULL);

  const char *p = text;

  while (*p != '\0')
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_c (out, '?');
          p++;
          continue;
        }
      if (ddb_quote_must_escape (c))
        g_string_append_c (out, '?');
      else
        g_string_append_unichar (out, c);
      p = g_utf8_next_char (p);
    }
  g_free (text);
  return g_string_free (out, FALSE);
}

char *
cg_summary (const CgJob *job)
{
  g_autoptr (GPtrArray) tables = g_ptr_array_new ();
  GString *s = g_string_new (job->operation);
  const DdbCodegenTarget *t = job->target;

  add_tables (tables, job->request);
  for (guint i = 0; i < tables->len; i++)
    {
      g_string_append (s, i == 0 ? " " : i + 1 == tables->len ? " and " : ", ");
      g_string_append (s, tables->pdata[i]);
    }
  if (job->fanout != NULL)
    {
      const CgFanout *f = job->fanout;

      g_string_append_printf (s, " once per suffix, %s = %s%0*u", f->placeholder, f->prefix,
                              (int) f->width, f->first);
      if (f->n > 1)
        g_string_append_printf (s, " … %s%0*u (%u Queries)", f->prefix, (int) f->width,
                                cg_fanout_last (f), f->n);
    }
  g_string_append (s, " on ");
  g_string_append (s, t->endpoint_url != NULL ? t->endpoint_url : "AWS");
  if (t->profile != NULL || t->region != NULL)
    {
      g_string_append (s, " (");
      if (t->profile != NULL)
        g_string_append_printf (s, "profile %s", t->profile);
      if (t->region != NULL)
        g_string_append_printf (s, "%sregion %s", t->profile != NULL ? ", " : "", t->region);
      g_string_append (s, ")");
    }
  return comment_text (g_string_free (s, FALSE));
}
