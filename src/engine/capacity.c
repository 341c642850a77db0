/* capacity.c: the capacity units a call consumes, as DynamoDB counts them, and the
 * ConsumedCapacity object of its response. */
#include "engine/request.h"

#include <string.h>

#include "core/error.h"

#define READ_UNIT_BYTES 4096
#define WRITE_UNIT_BYTES 1024

gboolean
ddb_req_return_capacity (json_t *req, DdbReturnCapacity *out, GError **error)
{
  /* DynamoDB's own order of the enum in its message. */
  static const char *const allowed[] = { "INDEXES", "TOTAL", "NONE", NULL };
  static const DdbReturnCapacity modes[] = { DDB_RCC_INDEXES, DDB_RCC_TOTAL, DDB_RCC_NONE };
  int i = ddb_req_enum (req, "ReturnConsumedCapacity", allowed, 2, error);

  if (i < 0)
    return FALSE;
  *out = modes[i];
  return TRUE;
}

double
ddb_capacity_read_units (gsize bytes, gboolean consistent)
{
  gsize units = (bytes + READ_UNIT_BYTES - 1) / READ_UNIT_BYTES;

  if (units == 0)
    units = 1;
  return consistent ? (double) units : (double) units / 2.0;
}

double
ddb_capacity_write_units (gsize bytes)
{
  gsize units = (bytes + WRITE_UNIT_BYTES - 1) / WRITE_UNIT_BYTES;

  return units == 0 ? 1.0 : (double) units;
}

void
ddb_capacity_init (DdbCapacity *cap, const char *table_name)
{
  memset (cap, 0, sizeof *cap);
  cap->table_name = g_strdup (table_name);
}

void
ddb_capacity_clear (DdbCapacity *cap)
{
  g_clear_pointer (&cap->table_name, g_free);
  g_clear_pointer (&cap->gsi_read, g_hash_table_unref);
  g_clear_pointer (&cap->gsi_write, g_hash_table_unref);
  g_clear_pointer (&cap->lsi_read, g_hash_table_unref);
  g_clear_pointer (&cap->lsi_write, g_hash_table_unref);
  cap->table_read = cap->table_write = 0;
}

void
ddb_capacity_add_index (DdbCapacity *cap, const DdbIndexDef *index, gboolean write, double units)
{
  GHashTable **table = index->global ? (write ? &cap->gsi_write : &cap->gsi_read)
                                     : (write ? &cap->lsi_write : &cap->lsi_read);
  double *slot;

  if (*table == NULL)
    *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  slot = g_hash_table_lookup (*table, index->name);
  if (slot == NULL)
    {
      slot = g_new0 (double, 1);
      g_hash_table_insert (*table, g_strdup (index->name), slot);
    }
  *slot += units;
}

/* Adds every index of `units` (name -> double*) into `by_name`, summing reads and writes. */
static double
merge_units (GHashTable *by_name, GHashTable *units)
{
  GHashTableIter it;
  gpointer key, value;
  double total = 0;

  if (units == NULL)
    return 0;
  g_hash_table_iter_init (&it, units);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      double *slot = g_hash_table_lookup (by_name, key);

      if (slot == NULL)
        {
          slot = g_new0 (double, 1);
          g_hash_table_insert (by_name, g_strdup (key), slot);
        }
      *slot += *(double *) value;
      total += *(double *) value;
    }
  return total;
}

static int
name_cmp (gconstpointer a, gconstpointer b, gpointer user_data)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static json_t *
units_object (double units)
{
  return json_pack ("{s:f}", "CapacityUnits", units);
}

/* {"idx": {"CapacityUnits": n}, ...} in name order, or NULL when there is none. */
static json_t *
indexes_object (GHashTable *by_name)
{
  g_autofree gpointer *names = NULL;
  guint n;
  json_t *obj;

  if (g_hash_table_size (by_name) == 0)
    return NULL;
  names = g_hash_table_get_keys_as_array (by_name, &n);
  g_qsort_with_data (names, n, sizeof (gpointer), name_cmp, NULL);
  obj = json_object ();
  for (guint i = 0; i < n; i++)
    {
      double *units = g_hash_table_lookup (by_name, names[i]);
      json_object_set_new (obj, names[i], units_object (*units));
    }
  return obj;
}

json_t *
ddb_capacity_to_json (const DdbCapacity *cap, DdbReturnCapacity mode)
{
  g_autoptr (GHashTable) gsi = NULL;
  g_autoptr (GHashTable) lsi = NULL;
  double table, total;
  json_t *out, *obj;

  if (mode == DDB_RCC_NONE)
    return NULL;
  gsi = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  lsi = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  table = cap->table_read + cap->table_write;
  total = table;
  total += merge_units (gsi, cap->gsi_read);
  total += merge_units (gsi, cap->gsi_write);
  total += merge_units (lsi, cap->lsi_read);
  total += merge_units (lsi, cap->lsi_write);

  out = json_object ();
  json_object_set_new (out, "TableName",
                       json_string (cap->table_name != NULL ? cap->table_name : ""));
  json_object_set_new (out, "CapacityUnits", json_real (total));
  if (mode == DDB_RCC_INDEXES)
    {
      json_object_set_new (out, "Table", units_object (table));
      if ((obj = indexes_object (lsi)) != NULL)
        json_object_set_new (out, "LocalSecondaryIndexes", obj);
      if ((obj = indexes_object (gsi)) != NULL)
        json_object_set_new (out, "GlobalSecondaryIndexes", obj);
    }
  return out;
}

/* {"CapacityUnits": r + w, "ReadCapacityUnits": r, "WriteCapacityUnits": w}, each split member
 * only when that kind was consumed. */
static json_t *
split_object (double read, double write)
{
  json_t *obj = units_object (read + write);

  if (read > 0)
    json_object_set_new (obj, "ReadCapacityUnits", json_real (read));
  if (write > 0)
    json_object_set_new (obj, "WriteCapacityUnits", json_real (write));
  return obj;
}

static double
units_of (GHashTable *units, const char *name)
{
  double *slot = units != NULL ? g_hash_table_lookup (units, name) : NULL;

  return slot != NULL ? *slot : 0;
}

static double
sum_units (GHashTable *units)
{
  GHashTableIter it;
  gpointer value;
  double total = 0;

  if (units == NULL)
    return 0;
  g_hash_table_iter_init (&it, units);
  while (g_hash_table_iter_next (&it, NULL, &value))
    total += *(double *) value;
  return total;
}

/* The indexes of `read` and `write`, split, in name order; NULL when there is none. */
static json_t *
split_indexes_object (GHashTable *read, GHashTable *write)
{
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree gpointer *sorted = NULL;
  GHashTable *sources[2] = { read, write };
  GHashTableIter it;
  gpointer key;
  guint n;
  json_t *obj;

  for (guint s = 0; s < 2; s++)
    {
      if (sources[s] == NULL)
        continue;
      g_hash_table_iter_init (&it, sources[s]);
      while (g_hash_table_iter_next (&it, &key, NULL))
        g_hash_table_add (names, key);
    }
  if (g_hash_table_size (names) == 0)
    return NULL;
  sorted = g_hash_table_get_keys_as_array (names, &n);
  g_qsort_with_data (sorted, n, sizeof (gpointer), name_cmp, NULL);
  obj = json_object ();
  for (guint i = 0; i < n; i++)
    json_object_set_new (obj, sorted[i],
                         split_object (units_of (read, sorted[i]), units_of (write, sorted[i])));
  return obj;
}

json_t *
ddb_capacity_to_json_split (const DdbCapacity *cap, DdbReturnCapacity mode)
{
  double read, write;
  json_t *out, *obj;

  if (mode == DDB_RCC_NONE)
    return NULL;
  read = cap->table_read + sum_units (cap->gsi_read) + sum_units (cap->lsi_read);
  write = cap->table_write + sum_units (cap->gsi_write) + sum_units (cap->lsi_write);
  out = split_object (read, write);
  json_object_set_new (out, "TableName",
                       json_string (cap->table_name != NULL ? cap->table_name : ""));
  if (mode == DDB_RCC_INDEXES)
    {
      json_object_set_new (out, "Table", split_object (cap->table_read, cap->table_write));
      if ((obj = split_indexes_object (cap->lsi_read, cap->lsi_write)) != NULL)
        json_object_set_new (out, "LocalSecondaryIndexes", obj);
      if ((obj = split_indexes_object (cap->gsi_read, cap->gsi_write)) != NULL)
        json_object_set_new (out, "GlobalSecondaryIndexes", obj);
    }
  return out;
}
