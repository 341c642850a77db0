/* sqlstage.c: staging one attribute of each row of a SQL result, guarded by what the row
 * showed. */
#include "staging/sqlstage.h"

#include <string.h>

#include "core/ddbjson.h"
#include "core/itemsize.h"
#include "core/keycodec.h"
#include "staging/batchread.h"
#include "staging/staging-private.h"

#define MAX_PARTITION_KEY_BYTES 2048
#define MAX_SORT_KEY_BYTES 1024
/* A conflict's message shows the value the item holds now up to this many characters: the
 * side-by-side view is for reading all of it. */
#define MAX_SHOWN_CHARS 200

/* One row between the checks, the read and the staging. */
typedef struct {
  char *failure;     /* the row's own problem, found before reading: it is not read */
  DdbValue *current; /* the item as read; NULL: absent, or not read */
} RowState;

void
ddb_sql_stage_row_free (DdbSqlStageRow *row)
{
  if (row == NULL)
    return;
  g_clear_pointer (&row->key, ddb_value_free);
  g_clear_pointer (&row->shown, ddb_value_free);
  g_clear_pointer (&row->value, ddb_value_free);
  g_free (row);
}

void
ddb_sql_stage_report_clear (DdbSqlStageReport *report)
{
  g_clear_pointer (&report->failures, g_ptr_array_unref);
}

G_GNUC_PRINTF (4, 5)
static void
add_failure (DdbSqlStageReport *report, gboolean conflict, const DdbValue *key, const char *format,
             ...)
{
  DdbExprStageFailure *f = g_new0 (DdbExprStageFailure, 1);
  va_list ap;

  va_start (ap, format);
  f->message = g_strdup_vprintf (format, ap);
  va_end (ap);
  f->key = key != NULL ? ddb_value_copy (key) : NULL;
  g_ptr_array_add (report->failures, f);
  if (conflict)
    report->n_conflicts++;
  else
    report->n_failed++;
}

static void
state_clear (RowState *state)
{
  g_clear_pointer (&state->failure, g_free);
  g_clear_pointer (&state->current, ddb_value_free);
}

static char *
join_names (const char *const *names)
{
  return g_strjoinv (", ", (char **) names);
}

static const char *
key_schema_name (json_t *key_schema, const char *key_type)
{
  json_t *elem;
  gsize i;

  json_array_foreach (key_schema, i, elem)
    if (g_strcmp0 (json_string_value (json_object_get (elem, "KeyType")), key_type) == 0)
      return json_string_value (json_object_get (elem, "AttributeName"));
  return NULL;
}

static gboolean
attribute_type (json_t *definitions, const char *name, DdbType *out)
{
  json_t *elem;
  gsize i;

  json_array_foreach (definitions, i, elem)
    if (g_strcmp0 (json_string_value (json_object_get (elem, "AttributeName")), name) == 0)
      return ddb_type_from_name (json_string_value (json_object_get (elem, "AttributeType")), out);
  return FALSE;
}

/* What needs no backend: the attribute is one that can be set. */
static gboolean
check_attribute (const DdbSqlStageSpec *spec, GError **error)
{
  if (spec->attribute == NULL || spec->attribute[0] == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "No attribute to set: choose the column's attribute");
      return FALSE;
    }
  for (guint i = 0; spec->key_names[i] != NULL; i++)
    if (strcmp (spec->attribute, spec->key_names[i]) == 0)
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     "%s is a key attribute of %s: a key cannot be updated, only the item "
                     "deleted and created again",
                     spec->attribute, spec->table);
        return FALSE;
      }
  return TRUE;
}

/* The table's key must be the result's, in order; TYPES receives the key attributes' types. */
static gboolean
check_key (DdbBackend *backend, const DdbSqlStageSpec *spec, DdbType types[2],
           GCancellable *cancellable, GError **error)
{
  json_t *req = json_pack ("{ss}", "TableName", spec->table);
  json_t *described = NULL;
  json_t *table, *key_schema;
  const char *table_key[3] = { NULL, NULL, NULL };
  gboolean ok;

  ok = ddb_backend_call (backend, "DescribeTable", req, cancellable, &described, error);
  json_decref (req);
  if (!ok)
    {
      g_clear_pointer (&described, json_decref);
      return FALSE;
    }
  table = json_object_get (described, "Table");
  key_schema = json_object_get (table, "KeySchema");
  table_key[0] = key_schema_name (key_schema, "HASH");
  table_key[1] = key_schema_name (key_schema, "RANGE");
  ok = table_key[0] != NULL
       && g_strv_length ((char **) spec->key_names) == (table_key[1] != NULL ? 2u : 1u);
  for (guint i = 0; ok && table_key[i] != NULL; i++)
    ok = strcmp (table_key[i], spec->key_names[i]) == 0;
  for (guint i = 0; ok && table_key[i] != NULL; i++)
    ok = attribute_type (json_object_get (table, "AttributeDefinitions"), table_key[i], &types[i]);
  if (!ok)
    {
      g_autofree char *wanted = join_names (spec->key_names);
      g_autofree char *found = join_names (table_key);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "The result's key (%s) is not the key of table %s (%s)", wanted, spec->table,
                   found);
    }
  json_decref (described);
  return ok;
}

/* The row's own problem, or NULL: its key holds exactly the table's key attributes, of their
 * types and within their limits, and its value is one DynamoDB accepts. */
static char *
check_row (const DdbSqlStageRow *row, const char *const *names, const DdbType *types)
{
  GError *local = NULL;
  guint n = 0;

  if (row == NULL || row->key == NULL || row->key->type != DDB_TYPE_M)
    return g_strdup ("The row has no key");
  for (; names[n] != NULL; n++)
    {
      const DdbValue *v = ddb_value_map_get (row->key, names[n]);
      gsize limit = n == 0 ? MAX_PARTITION_KEY_BYTES : MAX_SORT_KEY_BYTES;

      if (v == NULL)
        return g_strdup_printf ("The row's key has no attribute %s", names[n]);
      if (v->type != types[n])
        return g_strdup_printf ("The key attribute %s is of type %s; the table's is %s", names[n],
                                ddb_type_name (v->type), ddb_type_name (types[n]));
      if (v->type != DDB_TYPE_N && v->bytes.len == 0)
        return g_strdup_printf ("The key attribute %s is empty", names[n]);
      if (v->type != DDB_TYPE_N && v->bytes.len > limit)
        return g_strdup_printf ("The key attribute %s is over %" G_GSIZE_FORMAT " bytes", names[n],
                                limit);
    }
  for (guint i = 0; i < ddb_value_map_size (row->key); i++)
    {
      const char *name = ddb_value_map_nth (row->key, i)->name;

      if (!g_strv_contains (names, name))
        return g_strdup_printf ("The row's key holds %s, which is not a key attribute of the "
                                "table",
                                name);
    }
  if (row->value != NULL && !ddb_value_validate (row->value, &local))
    {
      char *message = g_strdup (local->message);

      g_error_free (local);
      return message;
    }
  return NULL;
}

/* The key attributes of ITEM (a row's key or an item) in key order, comparable as bytes (so
 * that 1 and 1.0 are one key), or NULL when one is missing or not of a key type. */
static GBytes *
key_code (const DdbValue *item, const char *const *names)
{
  g_autoptr (GByteArray) out = g_byte_array_new ();

  for (guint i = 0; names[i] != NULL; i++)
    {
      const DdbValue *v = ddb_value_map_get (item, names[i]);

      if (v == NULL || !ddb_key_encode (v, out, NULL))
        return NULL;
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static DdbValue *
item_key (const DdbValue *item, const char *const *names)
{
  DdbValue *key = ddb_value_new_m ();

  for (guint i = 0; names[i] != NULL; i++)
    ddb_value_map_set (key, names[i], ddb_value_copy (ddb_value_map_get (item, names[i])));
  return key;
}

/* Reads the items of the rows that passed their checks (batchread.h). */
static gboolean
read_items (DdbBackend *backend, const DdbSqlStageSpec *spec, GPtrArray *rows, RowState *states,
            GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  g_autoptr (GArray) at = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GPtrArray) items = NULL;

  for (guint i = 0; i < rows->len; i++)
    {
      const DdbSqlStageRow *row = g_ptr_array_index (rows, i);

      if (states[i].failure != NULL)
        continue;
      g_ptr_array_add (keys, row->key);
      g_array_append_val (at, i);
    }
  if (keys->len == 0)
    return TRUE;
  items = ddb_batch_read_items (backend, spec->table, keys, cancellable, error);
  if (items == NULL)
    return FALSE;
  for (guint k = 0; k < at->len; k++)
    states[g_array_index (at, guint, k)].current = g_steal_pointer (&g_ptr_array_index (items, k));
  return TRUE;
}

/* The conflict's message: what the item's attribute holds now. */
static void
add_conflict (DdbSqlStageReport *report, const char *attribute, const DdbValue *key,
              const DdbValue *now)
{
  g_autofree char *text = NULL;

  if (now == NULL)
    {
      add_failure (report, TRUE, key, "The item no longer has %s", attribute);
      return;
    }
  text = ddb_json_format_value (now);
  if (g_utf8_strlen (text, -1) > MAX_SHOWN_CHARS)
    {
      g_autofree char *cut = g_utf8_substring (text, 0, MAX_SHOWN_CHARS);

      g_free (text);
      text = g_strconcat (cut, "…", NULL);
    }
  add_failure (report, TRUE, key, "The item's %s is now %s", attribute, text);
}

/* One row: FALSE only when the store failed (*ERROR set). */
static gboolean
stage_row (DdbStaging *staging, const DdbSqlStageSpec *spec, const DdbSqlStageRow *row,
           const RowState *state, DdbSqlStageReport *report, GError **error)
{
  g_autoptr (DdbValue) key = NULL;
  g_autoptr (DdbValue) target = NULL;
  const DdbValue *now;
  GError *local = NULL;
  gsize size;

  if (state->failure != NULL)
    {
      const DdbValue *given = row != NULL ? row->key : NULL;

      add_failure (report, FALSE, given != NULL && given->type == DDB_TYPE_M ? given : NULL, "%s",
                   state->failure);
      return TRUE;
    }
  if (state->current == NULL)
    {
      add_failure (report, TRUE, row->key, "The item no longer exists");
      return TRUE;
    }
  /* In key order, partition key first, as exprstage and fan-out take it from the item. */
  key = item_key (state->current, spec->key_names);
  now = ddb_value_map_get (state->current, spec->attribute);
  if (!ddb_value_equal (now, row->shown))
    {
      add_conflict (report, spec->attribute, key, now);
      return TRUE;
    }
  if (ddb_value_equal (row->value, row->shown))
    {
      report->n_unchanged++;
      return TRUE;
    }
  target = ddb_value_copy (state->current);
  if (row->value != NULL)
    ddb_value_map_set (target, spec->attribute, ddb_value_copy (row->value));
  else
    ddb_value_map_remove (target, spec->attribute);
  size = ddb_item_size (target);
  if (size > DDB_MAX_ITEM_SIZE)
    {
      add_failure (report, FALSE, key,
                   "The item would be %" G_GSIZE_FORMAT " bytes, over DynamoDB's limit of %d", size,
                   DDB_MAX_ITEM_SIZE);
      return TRUE;
    }
  if (ddb_staging_stage_update (staging, spec->connection, spec->table, key, state->current, target,
                                NULL, &local))
    {
      report->n_staged++;
      return TRUE;
    }
  if (ddb_staging_is_item_refusal (local))
    {
      add_failure (report, FALSE, key, "%s", local->message);
      g_error_free (local);
      return TRUE;
    }
  g_propagate_error (error, local);
  return FALSE;
}

/* Checks each row and notes the item it reads; the same item twice fails the second time. */
static void
check_rows (const DdbSqlStageSpec *spec, const DdbType *types, GPtrArray *rows,
            GHashTable *rows_by_key, RowState *states)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const DdbSqlStageRow *row = g_ptr_array_index (rows, i);
      GBytes *code;

      states[i].failure = check_row (row, spec->key_names, types);
      if (states[i].failure != NULL)
        continue;
      code = key_code (row->key, spec->key_names);
      if (g_hash_table_contains (rows_by_key, code))
        {
          states[i].failure = g_strdup ("The result holds the same item twice");
          g_bytes_unref (code);
          continue;
        }
      g_hash_table_insert (rows_by_key, code, GUINT_TO_POINTER (i));
    }
}

gboolean
ddb_sql_stage (DdbStaging *staging, DdbBackend *backend, const DdbSqlStageSpec *spec,
               GPtrArray *rows, GCancellable *cancellable, DdbSqlStageReport *report,
               GError **error)
{
  g_autoptr (GHashTable) rows_by_key = NULL;
  RowState *states;
  DdbType types[2] = { DDB_TYPE_S, DDB_TYPE_S };
  gboolean ok;
  GError *local = NULL;

  g_return_val_if_fail (spec->key_names != NULL && spec->key_names[0] != NULL, FALSE);
  g_return_val_if_fail (spec->connection != NULL && spec->table != NULL, FALSE);
  memset (report, 0, sizeof *report);
  report->failures = g_ptr_array_new_with_free_func (ddb_expr_stage_failure_free);
  if (!check_attribute (spec, error) || !check_key (backend, spec, types, cancellable, error))
    return FALSE;

  rows_by_key
      = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
  states = g_new0 (RowState, rows->len);
  check_rows (spec, types, rows, rows_by_key, states);
  ok = read_items (backend, spec, rows, states, cancellable, error)
       && !g_cancellable_set_error_if_cancelled (cancellable, error)
       && ddb_staging_batch_begin (staging, error);
  if (ok)
    {
      for (guint i = 0; ok && i < rows->len; i++)
        ok = stage_row (staging, spec, g_ptr_array_index (rows, i), &states[i], report, &local);
      /* After a failure it rolls back and sets no error of its own. */
      if (!ddb_staging_batch_end (staging, ok, error))
        ok = FALSE;
      if (local != NULL)
        g_propagate_error (error, local);
    }
  for (guint i = 0; i < rows->len; i++)
    state_clear (&states[i]);
  g_free (states);
  if (!ok)
    {
      /* Rolled back, or never begun: the counts would describe nothing. */
      report->n_staged = report->n_unchanged = report->n_conflicts = report->n_failed = 0;
      g_ptr_array_set_size (report->failures, 0);
    }
  return ok;
}
