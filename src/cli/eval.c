/* eval.c: `dynoscope-cli eval`: reads items (DynamoDB JSON, one per line, bare or wrapped as
 * {"Item": …} as in an S3 export), keeps those matching a condition, applies an update and a
 * projection, and writes them back as DynamoDB JSON lines or plain JSON. Every bad line stops
 * the run with its line number: nothing is skipped silently. */
#include <errno.h>
#include <glib/gi18n.h>
#include <jansson.h>
#include <stdio.h>

#include "cli/eval.h"
#include "core/ddbjson.h"
#include "core/error.h"
#include "core/expr.h"
#include "core/plainjson.h"

typedef struct {
  char *condition;
  char *update;
  char *projection;
  char *names_json;
  char *values_json;
  gboolean plain;
  gboolean count_only;
  char **files;

  GHashTable *names;  /* "#n" -> char* */
  GHashTable *values; /* ":v" -> DdbValue* */
  DdbValue *values_map;
  DdbNode *cond;
  DdbUpdate *upd;
  DdbProjection *proj;
} EvalRun;

static void
eval_run_clear (EvalRun *run)
{
  g_free (run->condition);
  g_free (run->update);
  g_free (run->projection);
  g_free (run->names_json);
  g_free (run->values_json);
  g_strfreev (run->files);
  g_clear_pointer (&run->names, g_hash_table_unref);
  g_clear_pointer (&run->values, g_hash_table_unref);
  g_clear_pointer (&run->values_map, ddb_value_free);
  g_clear_pointer (&run->cond, ddb_node_free);
  g_clear_pointer (&run->upd, ddb_update_free);
  g_clear_pointer (&run->proj, ddb_projection_free);
}

static gboolean
load_names (EvalRun *run, GError **error)
{
  json_error_t jerr;
  json_t *root;
  const char *key;
  json_t *val;

  run->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (run->names_json == NULL)
    return TRUE;
  root = json_loads (run->names_json, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
  if (root == NULL || !json_is_object (root))
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   _ ("--names must be a JSON object such as {\"#n\": \"name\"}: %s"),
                   root == NULL ? jerr.text : _ ("not an object"));
      json_decref (root);
      return FALSE;
    }
  json_object_foreach (root, key, val)
    {
      if (!json_is_string (val))
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       _ ("--names: the value of “%s” must be a string"), key);
          json_decref (root);
          return FALSE;
        }
      /* Names are C strings from here on, and no item can hold a name with U+0000 (JSON object
       * keys cannot), so such a name is refused rather than cut short at the NUL. */
      if (strlen (json_string_value (val)) != json_string_length (val))
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       _ ("--names: the value of “%s” cannot hold U+0000"), key);
          json_decref (root);
          return FALSE;
        }
      g_hash_table_insert (run->names, g_strdup (key), g_strdup (json_string_value (val)));
    }
  json_decref (root);
  return TRUE;
}

static gboolean
load_values (EvalRun *run, GError **error)
{
  run->values = g_hash_table_new (g_str_hash, g_str_equal);
  if (run->values_json == NULL)
    return TRUE;
  /* ExpressionAttributeValues has the shape of an item: ":v" -> typed value. */
  run->values_map = ddb_json_parse_item (run->values_json, -1, error);
  if (run->values_map == NULL)
    {
      g_prefix_error (error, _ ("--values: "));
      return FALSE;
    }
  for (guint i = 0; i < ddb_value_map_size (run->values_map); i++)
    {
      DdbAttr *attr = ddb_value_map_nth (run->values_map, i);
      g_hash_table_insert (run->values, attr->name, attr->value);
    }
  return TRUE;
}

static gboolean
prepare (EvalRun *run, GError **error)
{
  g_autoptr (DdbExprContext) ctx = NULL;

  if (!load_names (run, error) || !load_values (run, error))
    return FALSE;
  ctx = ddb_expr_context_new (run->names, run->values);
  if (run->condition != NULL)
    {
      run->cond = ddb_condition_parse (DDB_EXPR_CONDITION, run->condition, ctx, error);
      if (run->cond == NULL)
        return FALSE;
    }
  if (run->update != NULL)
    {
      run->upd = ddb_update_parse (run->update, ctx, error);
      if (run->upd == NULL)
        return FALSE;
    }
  if (run->projection != NULL)
    {
      run->proj = ddb_projection_parse (run->projection, ctx, error);
      if (run->proj == NULL)
        return FALSE;
    }
  return ddb_expr_context_check_unused (ctx, error);
}

/* A line is an item, or {"Item": item} as in the S3 export layout. The wrapper reading is tried
 * first: a bare item whose only attribute is named "Item" cannot also parse as a wrapped item,
 * because its value would be a type descriptor, not a map of attributes. */
static DdbValue *
parse_line (const char *line, gsize len, GError **error)
{
  json_error_t jerr;
  /* Strings may hold U+0000, as DynamoDB's may. */
  json_t *root = json_loadb (line, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
  DdbValue *item = NULL;

  if (root == NULL)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_SERIALIZATION, _ ("not valid JSON: %s"), jerr.text);
      return NULL;
    }
  if (json_is_object (root) && json_object_size (root) == 1)
    {
      json_t *inner = json_object_get (root, "Item");
      if (inner != NULL && json_is_object (inner))
        item = ddb_json_to_item (inner, NULL);
    }
  if (item == NULL)
    item = ddb_json_to_item (root, error);
  json_decref (root);
  return item;
}

static gboolean
write_item (EvalRun *run, const DdbValue *item, GError **error)
{
  g_autofree char *text = NULL;

  if (run->plain)
    text = ddb_plain_format_value (item, DDB_PLAIN_TAGGED, error);
  else
    text = ddb_json_format_item (item);
  if (text == NULL)
    return FALSE;
  puts (text);
  return TRUE;
}

/* Evaluates one item; sets *matched. */
static gboolean
process_item (EvalRun *run, DdbValue *item, gboolean *matched, GError **error)
{
  g_autoptr (DdbValue) projected = NULL;

  *matched = TRUE;
  if (run->cond != NULL && !ddb_condition_eval (run->cond, item, matched, error))
    return FALSE;
  if (!*matched || run->count_only)
    return TRUE;
  if (run->upd != NULL && !ddb_update_apply (run->upd, item, error))
    return FALSE;
  if (run->proj != NULL)
    {
      projected = ddb_projection_apply (run->proj, item);
      return write_item (run, projected, error);
    }
  return write_item (run, item, error);
}

static gboolean
process_stream (EvalRun *run, FILE *in, const char *name, guint64 *n_read, guint64 *n_matched,
                GError **error)
{
  g_autofree char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  guint64 lineno = 0;

  while ((len = getline (&line, &cap, in)) >= 0)
    {
      g_autoptr (DdbValue) item = NULL;
      gboolean matched;

      lineno++;
      while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        line[--len] = '\0';
      if (len == 0)
        continue;
      item = parse_line (line, (gsize) len, error);
      if (item == NULL || !process_item (run, item, &matched, error))
        {
          g_prefix_error (error, "%s:%" G_GUINT64_FORMAT ": ", name, lineno);
          return FALSE;
        }
      (*n_read)++;
      if (matched)
        (*n_matched)++;
    }
  if (ferror (in))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO, _ ("%s: read error"), name);
      return FALSE;
    }
  return TRUE;
}

int
cli_eval_main (int argc, char **argv)
{
  EvalRun run = { 0 };
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  guint64 n_read = 0, n_matched = 0;
  int status = 0;
  GOptionEntry entries[] = {
    { "condition", 'c', 0, G_OPTION_ARG_STRING, &run.condition,
      N_ ("Keep the items for which the condition expression is true"), N_ ("EXPR") },
    { "update", 'u', 0, G_OPTION_ARG_STRING, &run.update,
      N_ ("Apply an update expression to each kept item"), N_ ("EXPR") },
    { "projection", 'p', 0, G_OPTION_ARG_STRING, &run.projection,
      N_ ("Write only these attributes (a projection expression)"), N_ ("EXPR") },
    { "names", 'n', 0, G_OPTION_ARG_STRING, &run.names_json,
      N_ ("ExpressionAttributeNames as JSON, e.g. {\"#d\": \"Detail\"}"), N_ ("JSON") },
    { "values", 'v', 0, G_OPTION_ARG_STRING, &run.values_json,
      N_ ("ExpressionAttributeValues as DynamoDB JSON, e.g. {\":p\": {\"S\": \"PROJ#\"}}"),
      N_ ("JSON") },
    { "plain", 0, 0, G_OPTION_ARG_NONE, &run.plain,
      N_ ("Write plain JSON (binary and sets in the tagged form) instead of DynamoDB JSON"), NULL },
    { "count", 0, 0, G_OPTION_ARG_NONE, &run.count_only, N_ ("Only count the matching items"),
      NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &run.files, NULL, N_ ("[FILE…]") },
    { NULL },
  };

  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      octx, _ ("Evaluate DynamoDB expressions over items read from DynamoDB JSON lines (one item "
               "per line, bare or as {\"Item\": …} like an S3 export) in the FILEs or on standard "
               "input. Matching items are written to standard output; a summary goes to standard "
               "error."));
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      fprintf (stderr, "dynoscope-cli eval: %s\n", error->message);
      eval_run_clear (&run);
      return 2;
    }

  if (!prepare (&run, &error))
    {
      fprintf (stderr, "dynoscope-cli eval: %s\n", error->message);
      eval_run_clear (&run);
      return 1;
    }

  if (run.files == NULL || run.files[0] == NULL)
    {
      if (!process_stream (&run, stdin, _ ("<stdin>"), &n_read, &n_matched, &error))
        status = 1;
    }
  else
    {
      for (guint i = 0; run.files[i] != NULL && status == 0; i++)
        {
          const char *path = run.files[i];
          gboolean is_stdin = g_strcmp0 (path, "-") == 0;
          FILE *in = is_stdin ? stdin : fopen (path, "r");

          if (in == NULL)
            {
              g_set_error (&error, G_FILE_ERROR, G_FILE_ERROR_NOENT, _ ("cannot open %s: %s"), path,
                           g_strerror (errno));
              status = 1;
              break;
            }
          if (!process_stream (&run, in, path, &n_read, &n_matched, &error))
            status = 1;
          if (!is_stdin)
            fclose (in);
        }
    }

  if (status != 0)
    fprintf (stderr, "dynoscope-cli eval: %s\n", error->message);
  else if (run.count_only)
    printf ("%llu\n", (unsigned long long) n_matched);
  else
    fprintf (stderr,
             ngettext ("%llu item read, %llu matched\n", "%llu items read, %llu matched\n",
                       n_read == 1 ? 1 : 2),
             (unsigned long long) n_read, (unsigned long long) n_matched);
  eval_run_clear (&run);
  return status;
}
