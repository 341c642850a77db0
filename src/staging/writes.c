/* writes.c: conditional writes for staged changes, with their optimistic-locking conditions. */
#include "core/ddbjson.h"
#include "core/expr.h"
#include "core/itemsize.h"
#include "staging/diff.h"
#include "staging/writes.h"

/* DynamoDB's limits on one expression (developer guide, "Expression limits"). */
#define MAX_OPERATORS 300

typedef struct {
  json_t *names;  /* "#n0" -> name */
  json_t *values; /* ":v0" -> value */
  GHashTable *by_name;
} Placeholders;

static void
placeholders_init (Placeholders *ph)
{
  ph->names = json_object ();
  ph->values = json_object ();
  ph->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static void
placeholders_clear (Placeholders *ph)
{
  json_decref (ph->names);
  json_decref (ph->values);
  g_hash_table_unref (ph->by_name);
}

static void
append_name (Placeholders *ph, GString *out, const char *name)
{
  const char *p = g_hash_table_lookup (ph->by_name, name);

  if (p == NULL)
    {
      char *made = g_strdup_printf ("#n%u", g_hash_table_size (ph->by_name));

      json_object_set_new (ph->names, made, json_string (name));
      g_hash_table_insert (ph->by_name, g_strdup (name), made);
      p = made;
    }
  g_string_append (out, p);
}

static void
append_path (Placeholders *ph, GString *out, const DdbPath *path)
{
  for (guint i = 0; i < path->n; i++)
    {
      if (path->elems[i].name != NULL)
        {
          if (i > 0)
            g_string_append_c (out, '.');
          append_name (ph, out, path->elems[i].name);
        }
      else
        g_string_append_printf (out, "[%u]", path->elems[i].index);
    }
}

static void
append_value (Placeholders *ph, GString *out, const DdbValue *value)
{
  g_autofree char *p = g_strdup_printf (":v%zu", json_object_size (ph->values));

  json_object_set_new (ph->values, p, ddb_value_to_json (value));
  g_string_append (out, p);
}

static void
append_and (GString *out)
{
  if (out->len > 0)
    g_string_append (out, " AND ");
}

/* Members shared by every write: table, key or item, placeholders, return values. */
static json_t *
finish_request (const DdbChange *change, Placeholders *ph, GString *condition, GString *update)
{
  json_t *req = json_object ();

  json_object_set_new (req, "TableName", json_string (change->table));
  if (update != NULL)
    json_object_set_new (req, "UpdateExpression", json_string (update->str));
  json_object_set_new (req, "ConditionExpression", json_string (condition->str));
  if (json_object_size (ph->names) > 0)
    json_object_set (req, "ExpressionAttributeNames", ph->names);
  if (json_object_size (ph->values) > 0)
    json_object_set (req, "ExpressionAttributeValues", ph->values);
  json_object_set_new (req, "ReturnValuesOnConditionCheckFailure", json_string ("ALL_OLD"));
  return req;
}

static const char *
first_key_name (const DdbChange *change)
{
  return ddb_value_map_nth (change->key, 0)->name;
}

static gboolean
too_long (GString *expr, const char *what, GError **error)
{
  if (expr->len <= 4096)
    return FALSE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               "The staged change needs a %s of %zu bytes, over DynamoDB's 4 KB", what,
               expr->len);
  return TRUE;
}

static gboolean
build_update (const DdbChange *change, const char *version, DdbWrite *out, GError **error)
{
  g_autoptr (GPtrArray) entries = ddb_change_diff (change);
  g_autoptr (GString) set = g_string_new (NULL);
  g_autoptr (GString) remove = g_string_new (NULL);
  g_autoptr (GString) condition = g_string_new ("attribute_exists(");
  g_autoptr (GString) update = g_string_new (NULL);
  gboolean version_touched = FALSE;
  Placeholders ph;

  if (entries->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "The staged update changes nothing");
      return FALSE;
    }
  placeholders_init (&ph);
  append_name (&ph, condition, first_key_name (change));
  g_string_append_c (condition, ')');
  for (guint i = 0; i < entries->len; i++)
    {
      DdbDiffEntry *e = g_ptr_array_index (entries, i);
      const char *top = e->path.elems[0].name;

      if (ddb_value_map_get (change->key, top) != NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "The staged update changes the key attribute %s; stage a delete and a "
                       "create instead",
                       top);
          placeholders_clear (&ph);
          return FALSE;
        }
      version_touched |= version != NULL && strcmp (top, version) == 0;
      append_and (condition);
      if (e->old_value == NULL)
        {
          g_string_append (condition, "attribute_not_exists(");
          append_path (&ph, condition, &e->path);
          g_string_append_c (condition, ')');
        }
      else
        {
          append_path (&ph, condition, &e->path);
          g_string_append (condition, " = ");
          append_value (&ph, condition, e->old_value);
        }
      if (e->new_value != NULL)
        {
          g_string_append (set, set->len > 0 ? ", " : "SET ");
          append_path (&ph, set, &e->path);
          g_string_append (set, " = ");
          append_value (&ph, set, e->new_value);
        }
      else
        {
          g_string_append (remove, remove->len > 0 ? ", " : "REMOVE ");
          append_path (&ph, remove, &e->path);
        }
    }
  g_string_append (update, set->str);
  if (remove->len > 0)
    g_string_append_printf (update, "%s%s", update->len > 0 ? " " : "", remove->str);
  if (version != NULL && !version_touched)
    {
      g_autoptr (DdbValue) one = NULL;
      DdbNumber n;

      ddb_number_set_int (&n, 1);
      one = ddb_value_new_n (&n);
      g_string_append (update, " ADD ");
      append_name (&ph, update, version);
      g_string_append_c (update, ' ');
      append_value (&ph, update, one);
    }
  if (too_long (update, "UpdateExpression", error)
      || too_long (condition, "ConditionExpression", error))
    {
      placeholders_clear (&ph);
      return FALSE;
    }
  out->operation = "UpdateItem";
  out->action = "Update";
  out->request = finish_request (change, &ph, condition, update);
  json_object_set_new (out->request, "Key", ddb_item_to_json (change->key));
  placeholders_clear (&ph);
  return TRUE;
}

static void
build_create (const DdbChange *change, const char *version, DdbWrite *out)
{
  g_autoptr (GString) condition = g_string_new ("attribute_not_exists(");
  g_autoptr (DdbValue) item = ddb_value_copy (change->target);
  Placeholders ph;

  if (version != NULL && ddb_value_map_get (item, version) == NULL)
    {
      DdbNumber n;

      ddb_number_set_int (&n, 1);
      ddb_value_map_set (item, version, ddb_value_new_n (&n));
    }
  placeholders_init (&ph);
  append_name (&ph, condition, first_key_name (change));
  g_string_append_c (condition, ')');
  out->operation = "PutItem";
  out->action = "Put";
  out->request = finish_request (change, &ph, condition, NULL);
  json_object_set_new (out->request, "Item", ddb_item_to_json (item));
  placeholders_clear (&ph);
}

/* Adds "#a = :v" for an attribute if the condition still fits, else leaves it as it was. */
static gboolean
try_add_equal (Placeholders *ph, GString *condition, guint *operators, const DdbAttr *attr)
{
  gsize len = condition->len;
  g_autofree char *value_name = g_strdup_printf (":v%zu", json_object_size (ph->values));
  guint ops = *operators + (len > 0 ? 2 : 1);
  GString *probe = g_string_new (NULL);
  gboolean fits;

  /* probed apart, so that a refused attribute leaves no placeholder behind */
  append_and (probe);
  g_string_append (probe, "#n0000 = ");
  g_string_append (probe, value_name);
  fits = ops <= MAX_OPERATORS && len + probe->len + 4 <= 4096;
  g_string_free (probe, TRUE);
  if (!fits)
    return FALSE;
  append_and (condition);
  append_name (ph, condition, attr->name);
  g_string_append (condition, " = ");
  append_value (ph, condition, attr->value);
  *operators = ops;
  return TRUE;
}

static void
build_delete (const DdbChange *change, const char *version, DdbWrite *out)
{
  g_autoptr (GString) condition = g_string_new (NULL);
  guint operators = 0;
  guint n = ddb_value_map_size (change->original);
  guint n_fitted = 0;
  Placeholders ph;

  placeholders_init (&ph);
  /* key attributes first, so that whatever fits guards the item's existence */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < n; i++)
      {
        DdbAttr *attr = ddb_value_map_nth (change->original, i);
        gboolean is_key = ddb_value_map_get (change->key, attr->name) != NULL;

        if (is_key == (pass == 0) && try_add_equal (&ph, condition, &operators, attr))
          n_fitted++;
      }
  if (n_fitted < n)
    {
      DdbValue *v = version != NULL ? ddb_value_map_get (change->original, version) : NULL;

      if (v != NULL)
        {
          DdbAttr attr = { (char *) version, strlen (version), v };

          placeholders_clear (&ph);
          placeholders_init (&ph);
          g_string_truncate (condition, 0);
          operators = 0;
          try_add_equal (&ph, condition, &operators, &attr);
        }
      else
        out->needs_precheck = TRUE;
    }
  out->operation = "DeleteItem";
  out->action = "Delete";
  out->request = finish_request (change, &ph, condition, NULL);
  json_object_set_new (out->request, "Key", ddb_item_to_json (change->key));
  placeholders_clear (&ph);
}

gboolean
ddb_write_build (const DdbChange *change, const char *version_attribute, DdbWrite *out,
                 GError **error)
{
  memset (out, 0, sizeof *out);
  g_return_val_if_fail (ddb_value_map_size (change->key) > 0, FALSE);
  switch (change->kind)
    {
    case DDB_CHANGE_UPDATE:
      return build_update (change, version_attribute, out, error);
    case DDB_CHANGE_CREATE:
      build_create (change, version_attribute, out);
      return TRUE;
    case DDB_CHANGE_DELETE:
      build_delete (change, version_attribute, out);
      return TRUE;
    }
  g_return_val_if_reached (FALSE);
}

void
ddb_write_clear (DdbWrite *write)
{
  g_clear_pointer (&write->request, json_decref);
}

/* A equals B attribute by attribute, IGNORE aside. */
static gboolean
items_equal_except (const DdbValue *a, const DdbValue *b, const char *ignore)
{
  guint n_a = 0, n_b = 0;

  for (guint i = 0; i < ddb_value_map_size (a); i++)
    {
      DdbAttr *attr = ddb_value_map_nth (a, i);
      DdbValue *other;

      if (ignore != NULL && strcmp (attr->name, ignore) == 0)
        continue;
      other = ddb_value_map_get_len (b, attr->name, attr->name_len);
      if (other == NULL || !ddb_value_equal (attr->value, other))
        return FALSE;
      n_a++;
    }
  for (guint i = 0; i < ddb_value_map_size (b); i++)
    if (ignore == NULL || strcmp (ddb_value_map_nth (b, i)->name, ignore) != 0)
      n_b++;
  return n_a == n_b;
}

static gboolean
same (const DdbValue *a, const DdbValue *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return ddb_value_equal (a, b);
}

DdbWriteOutcome
ddb_write_judge (const DdbChange *change, const DdbValue *current, const char *version_attribute)
{
  g_autoptr (GPtrArray) entries = NULL;
  gboolean all_new = TRUE, all_old = TRUE;

  switch (change->kind)
    {
    case DDB_CHANGE_CREATE:
      if (current == NULL)
        return DDB_WRITE_NOT_APPLIED;
      return items_equal_except (change->target, current, version_attribute) ? DDB_WRITE_APPLIED
                                                                              : DDB_WRITE_CHANGED;
    case DDB_CHANGE_DELETE:
      if (current == NULL)
        return DDB_WRITE_APPLIED;
      return items_equal_except (change->original, current, version_attribute)
               ? DDB_WRITE_NOT_APPLIED
               : DDB_WRITE_CHANGED;
    case DDB_CHANGE_UPDATE:
      break;
    }
  if (current == NULL)
    return DDB_WRITE_CHANGED;
  entries = ddb_change_diff (change);
  for (guint i = 0; i < entries->len; i++)
    {
      DdbDiffEntry *e = g_ptr_array_index (entries, i);
      const DdbValue *now = ddb_path_lookup (current, &e->path);

      all_new &= same (now, e->new_value);
      all_old &= same (now, e->old_value);
    }
  if (all_new)
    return DDB_WRITE_APPLIED;
  return all_old ? DDB_WRITE_NOT_APPLIED : DDB_WRITE_CHANGED;
}

guint64
ddb_write_units (gsize size_before, gsize size_after)
{
  return MAX ((MAX (size_before, size_after) + 1023) / 1024, 1);
}

guint64
ddb_change_write_units (const DdbChange *change)
{
  return ddb_write_units (change->original != NULL ? ddb_item_size (change->original) : 0,
                          change->target != NULL ? ddb_item_size (change->target) : 0);
}
