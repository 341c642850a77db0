/* compare.c: the compare of compare.h. Each side is read (compare-read.c) into its own table of
 * a temporary SQLite file (compare-private.h), and the base too when one is known. Both side
 * tables are then walked in key order with two cursors: equal encodings are the same item;
 * otherwise the decoded items are compared with ddb_diff_items (numbers by value, sets as
 * sets), and an empty diff is still the same item. A difference is classified against the base
 * (looked up by key) and kept in the diffs table, which ddb_compare_result_foreach walks
 * again. */
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "compare/compare-private.h"
#include "core/error.h"
#include "core/itemcodec.h"
#include "core/keycodec.h"
#include "staging/diff.h"

const char *
ddb_compare_kind_name (DdbCompareKind kind)
{
  switch (kind)
    {
    case DDB_COMPARE_SAME:
      return "same";
    case DDB_COMPARE_CHANGED:
      return "changed";
    case DDB_COMPARE_ONLY_HERE:
      return "only-here";
    case DDB_COMPARE_ONLY_THERE:
      return "only-there";
    }
  return "unknown";
}

const char *
ddb_compare_class_name (DdbCompareClass klass)
{
  switch (klass)
    {
    case DDB_COMPARE_NO_BASE:
      return "none";
    case DDB_COMPARE_EDITED_HERE:
      return "edited-here";
    case DDB_COMPARE_EDITED_THERE:
      return "edited-there";
    case DDB_COMPARE_EDITED_BOTH:
      return "both";
    }
  return "unknown";
}

gboolean
compare_sql_error (sqlite3 *db, GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "The compare's temporary database: %s",
               sqlite3_errmsg (db));
  return FALSE;
}

gboolean
compare_sql_exec (sqlite3 *db, const char *sql, GError **error)
{
  if (sqlite3_exec (db, sql, NULL, NULL, NULL) != SQLITE_OK)
    return compare_sql_error (db, error);
  return TRUE;
}

/* ---- key schemas ---- */

static void
key_schema_clear (CompareKeySchema *s)
{
  for (guint i = 0; i < 2; i++)
    {
      g_clear_pointer (&s->name[i], g_free);
      g_clear_pointer (&s->type[i], g_free);
    }
  s->n = 0;
}

static gboolean
describe_keys (const DdbCompareSide *side, CompareKeySchema *out, GCancellable *cancellable,
               GError **error)
{
  json_t *request = json_pack ("{s:s}", "TableName", side->table);
  json_t *response = NULL, *table, *schema, *defs, *entry, *def;
  size_t i, j;
  gboolean ok;

  ok = ddb_backend_call (side->backend, "DescribeTable", request, cancellable, &response, error);
  json_decref (request);
  if (!ok)
    {
      json_decref (response);
      return FALSE;
    }
  table = json_object_get (response, "Table");
  schema = json_object_get (table, "KeySchema");
  defs = json_object_get (table, "AttributeDefinitions");
  json_array_foreach (schema, i, entry)
    {
      const char *name = json_string_value (json_object_get (entry, "AttributeName"));
      const char *kt = json_string_value (json_object_get (entry, "KeyType"));
      guint slot = g_strcmp0 (kt, "RANGE") == 0 ? 1 : 0;

      if (name == NULL || i >= 2)
        break;
      out->name[slot] = g_strdup (name);
      json_array_foreach (defs, j, def)
        if (g_strcmp0 (json_string_value (json_object_get (def, "AttributeName")), name) == 0)
          out->type[slot] = g_strdup (json_string_value (json_object_get (def, "AttributeType")));
      out->n++;
    }
  json_decref (response);
  if (out->name[0] == NULL || out->type[0] == NULL || (out->n == 2 && out->type[1] == NULL))
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "DescribeTable gave no usable key schema for %s", side->table);
      return FALSE;
    }
  return TRUE;
}

static char *
key_schema_text (const CompareKeySchema *s)
{
  if (s->n == 1)
    return g_strdup_printf ("%s (%s)", s->name[0], s->type[0]);
  return g_strdup_printf ("%s (%s), %s (%s)", s->name[0], s->type[0], s->name[1], s->type[1]);
}

char *
compare_key_spec (const CompareKeySchema *keys)
{
  if (keys->n == 1)
    return g_strdup_printf ("%s:%s", keys->name[0], keys->type[0]);
  return g_strdup_printf ("%s:%s,%s:%s", keys->name[0], keys->type[0], keys->name[1],
                          keys->type[1]);
}

static gboolean
same_schemas (const CompareKeySchema *a, const CompareKeySchema *b)
{
  gboolean same = a->n == b->n;

  for (guint i = 0; same && i < a->n; i++)
    same = g_strcmp0 (a->name[i], b->name[i]) == 0 && g_strcmp0 (a->type[i], b->type[i]) == 0;
  return same;
}

static gboolean
same_types (const CompareKeySchema *a, const CompareKeySchema *b)
{
  gboolean same = a->n == b->n;

  for (guint i = 0; same && i < a->n; i++)
    same = g_strcmp0 (a->type[i], b->type[i]) == 0;
  return same;
}

/* The key schema of the compare: both table sides' (they must agree), or the one table side's
 * when the other is an export. */
static gboolean
settle_keys (DdbCompareResult *r, GCancellable *cancellable, GError **error)
{
  const DdbCompareOptions *o = &r->options;
  CompareKeySchema other = { 0 };
  gboolean ok = TRUE;

  if (o->here.export_path != NULL && o->there.export_path != NULL)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Both sides are exports: a compare needs at least one table, whose "
                           "key schema it reads the exports with");
      return FALSE;
    }
  if (o->here.export_path == NULL)
    ok = describe_keys (&o->here, &r->keys, cancellable, error);
  if (ok && o->there.export_path == NULL)
    ok = describe_keys (&o->there, o->here.export_path == NULL ? &other : &r->keys, cancellable,
                        error);
  if (ok && other.n > 0 && !same_schemas (&r->keys, &other) && o->map_keys
      && same_types (&r->keys, &other))
    {
      r->rename = TRUE;
      for (guint i = 0; i < other.n; i++)
        r->there_names[i] = g_strdup (other.name[i]);
    }
  else if (ok && other.n > 0 && !same_schemas (&r->keys, &other))
    {
      g_autofree char *ta = key_schema_text (&r->keys), *tb = key_schema_text (&other);

      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "The key schemas differ: %s has %s, %s has %s; a compare needs the same key "
                   "attribute names and types (or the same types, with the names mapped)",
                   o->here.table, ta, o->there.table, tb);
      ok = FALSE;
    }
  key_schema_clear (&other);
  return ok;
}

/* ---- excluded paths ---- */

/* "a.b.c" or "a[2].b" -> path; FALSE for an empty name or a bad index. */
static gboolean
parse_path (const char *text, DdbPath *out)
{
  GArray *elems = g_array_new (FALSE, TRUE, sizeof (DdbPathElem));
  const char *p = text;
  gboolean ok = TRUE;

  while (ok && *p != '\0')
    {
      DdbPathElem e = { 0 };
      const char *end = p + strcspn (p, ".[");

      if (end == p)
        {
          ok = FALSE;
          break;
        }
      e.name = g_strndup (p, (gsize) (end - p));
      g_array_append_val (elems, e);
      p = end;
      while (ok && *p == '[')
        {
          char *stop = NULL;
          guint64 index = g_ascii_strtoull (p + 1, &stop, 10);

          ok = stop != p + 1 && *stop == ']' && index <= G_MAXUINT32;
          if (ok)
            {
              DdbPathElem ie = { NULL, (guint32) index };

              g_array_append_val (elems, ie);
              p = stop + 1;
            }
        }
      if (ok && *p == '.')
        {
          p++;
          ok = *p != '\0';
        }
      else if (ok && *p != '\0')
        ok = FALSE;
    }
  out->n = elems->len;
  out->elems = (DdbPathElem *) g_array_free (elems, FALSE);
  if (!ok || out->n == 0 || out->elems[out->n - 1].name == NULL)
    {
      ddb_path_clear (out);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_excludes (DdbCompareResult *r, GError **error)
{
  guint n = r->exclude_names != NULL ? g_strv_length (r->exclude_names) : 0;

  r->exclude = g_new0 (DdbPath, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const char *text = r->exclude_names[i];

      if (!parse_path (text, &r->exclude[i]))
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "%s is not an attribute path to exclude (names joined by \".\", list "
                       "elements as [N], ending with a name)",
                       text);
          return FALSE;
        }
      r->n_exclude = i + 1;
      for (guint k = 0; k < r->keys.n; k++)
        if (strcmp (r->exclude[i].elems[0].name, r->keys.name[k]) == 0)
          {
            g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                         "%s is a key attribute and cannot be excluded from the compare", text);
            return FALSE;
          }
    }
  return TRUE;
}

DdbValue *
compare_strip (DdbCompareResult *r, const DdbValue *item)
{
  DdbValue *copy = ddb_value_copy (item);

  for (guint i = 0; i < r->n_exclude; i++)
    {
      if (r->exclude[i].n == 1)
        ddb_value_map_remove (copy, r->exclude[i].elems[0].name);
      else if (ddb_path_lookup (copy, &r->exclude[i]) != NULL)
        ddb_path_set (copy, &r->exclude[i], NULL);
    }
  return copy;
}

gboolean
compare_encode_key (DdbCompareResult *r, const DdbValue *item, GByteArray *out, GError **error)
{
  for (guint i = 0; i < r->keys.n; i++)
    {
      const DdbValue *v = ddb_value_map_get (item, r->keys.name[i]);

      if (v == NULL)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "An item read has no key attribute %s", r->keys.name[i]);
          return FALSE;
        }
      if (!ddb_key_encode (v, out, error))
        return FALSE;
    }
  return TRUE;
}

/* ---- the result ---- */

static DdbCompareResult *
result_open (const DdbCompareOptions *o, GError **error)
{
  g_autoptr (DdbCompareResult) r = g_new0 (DdbCompareResult, 1);
  g_autofree char *tmpl = g_build_filename (o->temp_dir != NULL ? o->temp_dir : g_get_tmp_dir (),
                                            "dynoscope-compare-XXXXXX", NULL);

  r->options = *o;
  r->options.here.table = r->strings[0] = g_strdup (o->here.table);
  r->options.there.table = r->strings[1] = g_strdup (o->there.table);
  r->options.here.export_path = r->strings[2] = g_strdup (o->here.export_path);
  r->options.there.export_path = r->strings[3] = g_strdup (o->there.export_path);
  r->options.base_path = r->strings[4] = g_strdup (o->base_path);
  r->exclude_names = g_strdupv ((char **) o->exclude);
  r->options.exclude = (const char *const *) r->exclude_names;
  r->options.temp_dir = NULL;
  r->options.filter = o->filter != NULL ? json_incref (o->filter) : NULL;
  r->partition_names = g_strdupv ((char **) o->partitions);
  r->options.partitions = (const char *const *) r->partition_names;
  r->dir = g_mkdtemp (g_steal_pointer (&tmpl));
  if (r->dir == NULL)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "Cannot create the compare's temporary folder: %s", g_strerror (saved));
      return NULL;
    }
  r->path = g_build_filename (r->dir, "compare.db", NULL);
  if (sqlite3_open_v2 (r->path, &r->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)
      != SQLITE_OK)
    {
      compare_sql_error (r->db, error);
      return NULL;
    }
  if (!compare_sql_exec (
          r->db,
          "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; "
          "PRAGMA temp_store = FILE; PRAGMA cache_size = -32768; "
          "CREATE TABLE here (k BLOB PRIMARY KEY, item BLOB NOT NULL, cmp BLOB, size INTEGER) "
          "WITHOUT ROWID; "
          "CREATE TABLE there (k BLOB PRIMARY KEY, item BLOB NOT NULL, cmp BLOB, size INTEGER) "
          "WITHOUT ROWID; "
          "CREATE TABLE base (k BLOB PRIMARY KEY, item BLOB, cmp BLOB, size INTEGER) "
          "WITHOUT ROWID; "
          "CREATE TABLE diffs (k BLOB PRIMARY KEY, kind INTEGER NOT NULL, class INTEGER NOT "
          "NULL) WITHOUT ROWID",
          error))
    return NULL;
  return g_steal_pointer (&r);
}

static gboolean
check_side (const DdbCompareSide *s)
{
  return s->export_path != NULL || (s->backend != NULL && s->table != NULL);
}

DdbCompareResult *
ddb_compare_run (const DdbCompareOptions *options, DdbCompareProgress progress, gpointer user_data,
                 GCancellable *cancellable, GError **error)
{
  g_autoptr (DdbCompareResult) r = NULL;

  g_return_val_if_fail (
      options != NULL && check_side (&options->here) && check_side (&options->there), NULL);
  r = result_open (options, error);
  if (r == NULL || !settle_keys (r, cancellable, error) || !parse_excludes (r, error)
      || !compare_select_init (r, error)
      || !compare_read_base (r, progress, user_data, cancellable, error)
      || !compare_read_side (r, 0, progress, user_data, cancellable, error)
      || !compare_read_side (r, 1, progress, user_data, cancellable, error)
      || !compare_classify (r, cancellable, error))
    return NULL;
  return g_steal_pointer (&r);
}

const DdbCompareCounts *
ddb_compare_result_counts (DdbCompareResult *result)
{
  return &result->counts;
}

const char *
ddb_compare_result_base (DdbCompareResult *result)
{
  return result->counts.has_base ? result->base_text : NULL;
}

const DdbCompareOptions *
ddb_compare_result_options (DdbCompareResult *result)
{
  return &result->options;
}

gboolean
ddb_compare_result_identical (DdbCompareResult *result)
{
  return result->counts.changed == 0 && result->counts.only_here == 0
         && result->counts.only_there == 0;
}

void
ddb_compare_result_free (DdbCompareResult *result)
{
  if (result == NULL)
    return;
  if (result->db != NULL)
    sqlite3_close (result->db);
  if (result->path != NULL)
    g_unlink (result->path);
  if (result->dir != NULL)
    g_rmdir (result->dir);
  key_schema_clear (&result->keys);
  for (guint i = 0; i < result->n_exclude; i++)
    ddb_path_clear (&result->exclude[i]);
  g_free (result->exclude);
  for (guint i = 0; i < G_N_ELEMENTS (result->strings); i++)
    g_free (result->strings[i]);
  g_strfreev (result->exclude_names);
  g_strfreev (result->partition_names);
  json_decref ((json_t *) result->options.filter);
  compare_select_clear (result);
  for (guint i = 0; i < 2; i++)
    g_free (result->there_names[i]);
  g_free (result->base_text);
  g_free (result->path);
  g_free (result->dir);
  g_free (result);
}
