/* snapshot.c: what every snapshot format shares: format names, progress reports and the key
 * specifications of an import ("pk:S,sk:N", "NAME:pk:S"). The formats live in snapshot-lines.c
 * (reading), snapshot-csv.c, snapshot-s3.c; the two directions in snapshot-import.c and
 * snapshot-export.c. */
#include <string.h>

#include "core/error.h"
#include "engine/request.h"
#include "engine/snapshot-private.h"

#define PROGRESS_INTERVAL_US (100 * 1000)

/* ---- Formats ---- */

static const char *const format_names[] = {
  [DDB_SNAPSHOT_AUTO] = "auto", [DDB_SNAPSHOT_S3] = "s3",   [DDB_SNAPSHOT_JSONL] = "jsonl",
  [DDB_SNAPSHOT_JSON] = "json", [DDB_SNAPSHOT_CSV] = "csv",
};

gboolean
ddb_snapshot_format_from_name (const char *name, DdbSnapshotFormat *out)
{
  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (format_names); i++)
    {
      if (g_ascii_strcasecmp (name, format_names[i]) == 0)
        {
          *out = (DdbSnapshotFormat) i;
          return TRUE;
        }
    }
  return FALSE;
}

const char *
ddb_snapshot_format_name (DdbSnapshotFormat format)
{
  if ((guint) format >= G_N_ELEMENTS (format_names))
    return NULL;
  return format_names[format];
}

/* ---- Progress ---- */
void
snap_progress_init (Progress *pr, DdbSnapshotProgressFunc func, gpointer data)
{
  memset (pr, 0, sizeof *pr);
  pr->start = g_get_monotonic_time ();
  /* The first tick reports at once, so that a short import still shows one. */
  pr->last_report = pr->start - PROGRESS_INTERVAL_US;
  pr->func = func;
  pr->data = data;
}

static void
progress_compute (Progress *pr, gint64 now)
{
  pr->p.seconds = (double) (now - pr->start) / G_USEC_PER_SEC;
  if (pr->p.seconds > 0)
    {
      pr->p.items_per_second = (double) pr->p.items / pr->p.seconds;
      pr->p.bytes_per_second = (double) pr->p.bytes / pr->p.seconds;
    }
}

void
snap_progress_tick (Progress *pr)
{
  gint64 now;

  if (pr->func == NULL)
    return;
  now = g_get_monotonic_time ();
  if (now - pr->last_report < PROGRESS_INTERVAL_US)
    return;
  pr->last_report = now;
  progress_compute (pr, now);
  pr->func (&pr->p, pr->data);
}

void
snap_progress_finish (Progress *pr, DdbSnapshotProgress *out)
{
  progress_compute (pr, g_get_monotonic_time ());
  pr->p.done = TRUE;
  if (pr->func != NULL)
    pr->func (&pr->p, pr->data);
  if (out != NULL)
    *out = pr->p;
}

/* ---- Key specifications ---- */
/* "name:T" with T one of S N B; the name is everything before the last ':'. */
static gboolean
parse_key_attr (const char *text, const char *what, char **name, DdbType *type, GError **error)
{
  const char *colon = strrchr (text, ':');
  DdbType t;

  if (colon == NULL || colon == text)
    return ddb_set_validation_error (
        error, "Invalid %s \"%s\": expected NAME:TYPE with TYPE one of S, N, B", what, text);
  if (!ddb_type_from_name (colon + 1, &t)
      || (t != DDB_TYPE_S && t != DDB_TYPE_N && t != DDB_TYPE_B))
    return ddb_set_validation_error (
        error, "Invalid %s \"%s\": the type of a key attribute must be S, N or B", what, text);
  if (colon - text > MAX_ATTRIBUTE_NAME || !g_utf8_validate_len (text, colon - text, NULL))
    return ddb_set_validation_error (
        error, "Invalid %s \"%s\": an attribute name is 1 to 255 bytes of UTF-8", what, text);
  *name = g_strndup (text, colon - text);
  *type = t;
  return TRUE;
}

/* "pk:S" or "pk:S,sk:N". */
gboolean
snap_parse_key_spec (const char *spec, const char *what, DdbKeyDef *key, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (spec, ",", -1);
  guint n = g_strv_length (parts);

  memset (key, 0, sizeof *key);
  if (n < 1 || n > 2)
    return ddb_set_validation_error (
        error, "Invalid %s \"%s\": expected PK:TYPE or PK:TYPE,SK:TYPE", what, spec);
  if (!parse_key_attr (parts[0], what, &key->hash_name, &key->hash_type, error))
    return FALSE;
  if (n == 2)
    {
      if (!parse_key_attr (parts[1], what, &key->range_name, &key->range_type, error))
        {
          g_clear_pointer (&key->hash_name, g_free);
          return FALSE;
        }
      if (strcmp (key->hash_name, key->range_name) == 0)
        {
          g_clear_pointer (&key->hash_name, g_free);
          g_clear_pointer (&key->range_name, g_free);
          return ddb_set_validation_error (error,
                                           "Invalid %s \"%s\": the partition key and the sort key "
                                           "must be different attributes",
                                           what, spec);
        }
    }
  return TRUE;
}
char *
snap_key_spec_string (const DdbKeyDef *key)
{
  if (key->range_name == NULL)
    return g_strdup_printf ("%s:%s", key->hash_name, ddb_type_name (key->hash_type));
  return g_strdup_printf ("%s:%s,%s:%s", key->hash_name, ddb_type_name (key->hash_type),
                          key->range_name, ddb_type_name (key->range_type));
}
DdbIndexDef *
snap_parse_gsi_spec (const char *spec, GError **error)
{
  const char *colon = strchr (spec, ':');
  json_auto_t *req = NULL;
  g_autofree char *name = NULL;
  DdbIndexDef *index;

  if (colon == NULL)
    {
      ddb_set_validation_error (error, "Invalid index \"%s\": expected NAME:PK:TYPE[,SK:TYPE]",
                                spec);
      return NULL;
    }
  name = g_strndup (spec, colon - spec);
  req = json_pack ("{ss}", "IndexName", name);
  if (req == NULL || ddb_req_table_name (req, "IndexName", error) == NULL)
    {
      if (req == NULL)
        ddb_set_validation_error (error, "Invalid index \"%s\": the name is not UTF-8", spec);
      return NULL;
    }
  index = g_new0 (DdbIndexDef, 1);
  index->name = g_steal_pointer (&name);
  index->global = TRUE;
  index->projection = DDB_PROJECTION_ALL;
  index->provisioned
      = json_pack ("{sI sI sI}", "NumberOfDecreasesToday", (json_int_t) 0, "ReadCapacityUnits",
                   (json_int_t) 0, "WriteCapacityUnits", (json_int_t) 0);
  if (!snap_parse_key_spec (colon + 1, "index key", &index->key, error))
    {
      ddb_index_def_free (index);
      return NULL;
    }
  return index;
}

gboolean
ddb_snapshot_check_key_spec (const char *spec, gboolean gsi, GError **error)
{
  if (gsi)
    {
      DdbIndexDef *index = snap_parse_gsi_spec (spec, error);

      if (index == NULL)
        return FALSE;
      ddb_index_def_free (index);
      return TRUE;
    }
  else
    {
      DdbKeyDef key;

      if (!snap_parse_key_spec (spec, "key", &key, error))
        return FALSE;
      ddb_key_def_clear (&key);
      return TRUE;
    }
}
