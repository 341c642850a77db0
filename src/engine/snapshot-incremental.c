/* snapshot-incremental.c: DynamoDB's incremental exports (exportType INCREMENTAL_EXPORT) read
 * and applied on top of a full export (through a DdbSnapshotChangeSink: the import's puts and
 * deletes inside its transaction, or compare's table of a side), giving the table as of the
 * last incremental export's exportToTime.
 *
 * An incremental export's data lines are changes, in DynamoDB JSON
 *   {"Metadata":{"WriteTimestampMicros":{"N":"…"}},"Keys":{…},"NewImage":{…},"OldImage":{…}}
 * or in Ion ($ion_1_0 {Metadata:{…},Keys:{…},…}). A change with a NewImage puts it; one without
 * (a delete: Keys alone, or Keys and OldImage) deletes the item. DynamoDB compacts an export to
 * one change per item; should a key come twice, the change with the later WriteTimestampMicros
 * wins (the later line on a tie), across exports too.
 *
 * The exports are applied in the order of their exportToTime, and must cover the time from the
 * full export's exportTime on without a gap: the first starts (exportFromTime) at or before it,
 * each next one at or before the end of the one before. One ending at or before the full
 * export's time adds nothing and is refused as a likely mistake. Times are only compared when
 * the full export records one (a snapshot file records none). */
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/ion.h"
#include "core/itemsize.h"
#include "core/keycodec.h"
#include "core/number.h"
#include "engine/item-ops.h"
#include "engine/snapshot-private.h"

void
snap_change_clear (SnapChange *change)
{
  g_clear_pointer (&change->keys, ddb_value_free);
  g_clear_pointer (&change->new_image, ddb_value_free);
  change->write_us = -1;
}

/* Metadata.WriteTimestampMicros: a non-negative integer N. */
static gboolean
metadata_time (const DdbValue *metadata, gint64 *out, GError **error)
{
  const DdbValue *v;
  g_autofree char *text = NULL;
  guint64 n;

  *out = -1;
  if (metadata == NULL)
    return TRUE;
  v = ddb_value_map_get (metadata, "WriteTimestampMicros");
  if (v == NULL)
    return TRUE;
  if (v->type == DDB_TYPE_N)
    text = ddb_number_to_string (&v->number);
  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT64, &n, NULL))
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Metadata.WriteTimestampMicros is not a whole number of microseconds");
      return FALSE;
    }
  *out = (gint64) n;
  return TRUE;
}

static gboolean
change_from_json (const char *line, gsize len, SnapChange *out, GError **error)
{
  json_auto_t *root = NULL;
  json_error_t jerr;
  const char *name;
  json_t *member;
  g_autoptr (DdbValue) metadata = NULL;

  root = json_loadb (line, len, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &jerr);
  if (root == NULL)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "%s", jerr.text);
      return FALSE;
    }
  if (!json_is_object (root))
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Expected an incremental export record {\"Keys\": {...}, ...}");
      return FALSE;
    }
  json_object_foreach (root, name, member)
    {
      DdbValue **slot = strcmp (name, "Keys") == 0       ? &out->keys
                        : strcmp (name, "NewImage") == 0 ? &out->new_image
                        : strcmp (name, "Metadata") == 0 ? &metadata
                                                         : NULL;

      if (strcmp (name, "OldImage") == 0)
        {
          /* Checked as an item, not kept: the new image or the delete is what applies. */
          g_autoptr (DdbValue) old = ddb_json_to_item (member, error);

          if (old == NULL)
            {
              g_prefix_error (error, "OldImage: ");
              return FALSE;
            }
          continue;
        }
      if (slot == NULL)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "Unexpected member \"%s\" in an incremental export record%s", name,
                       strcmp (name, "Item") == 0 ? " (a full export's line)" : "");
          return FALSE;
        }
      *slot = ddb_json_to_item (member, error);
      if (*slot == NULL)
        {
          g_prefix_error (error, "%s: ", name);
          return FALSE;
        }
    }
  if (out->keys == NULL)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "An incremental export record without Keys");
      return FALSE;
    }
  return metadata_time (metadata, &out->write_us, error);
}

/* The next change of an Ion data file. */
static gboolean
next_ion_change (ItemSource *src, SnapChange *out, GError **error)
{
  DdbIonRecord rec;
  GError *inner = NULL;
  gboolean ok;

  if (!snap_ion_source_next (src, &rec, error))
    return FALSE;
  if (rec.line == 0)
    return TRUE; /* the end */
  if (rec.item != NULL)
    {
      ddb_ion_record_clear (&rec);
      src->refused_item = TRUE;
      g_set_error_literal (&inner, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Ion: a full export's record (Item) in an incremental export");
      return snap_item_error (error, inner, src->file->display, src->item_line);
    }
  out->keys = g_steal_pointer (&rec.keys);
  out->new_image = g_steal_pointer (&rec.new_image);
  ok = metadata_time (rec.metadata, &out->write_us, &inner);
  ddb_ion_record_clear (&rec);
  if (ok)
    return TRUE;
  snap_change_clear (out);
  src->refused_item = TRUE;
  return snap_item_error (error, inner, src->file->display, src->item_line);
}

gboolean
snap_change_source_next (ItemSource *src, SnapChange *out, GError **error)
{
  const char *line;
  gsize len;
  GError *inner = NULL;

  memset (out, 0, sizeof *out);
  out->write_us = -1;
  src->refused_item = FALSE;
  if (src->file->ion)
    return next_ion_change (src, out, error);
  do
    {
      if (!snap_line_reader_next (&src->lr, &line, &len, src->file->display, &inner))
        {
          if (inner == NULL)
            return TRUE; /* the end */
          g_propagate_error (error, inner);
          return FALSE;
        }
    }
  while (snap_is_blank (line, len));
  src->item_line = src->lr.line;
  if (change_from_json (line, len, out, &inner))
    return TRUE;
  snap_change_clear (out);
  src->refused_item = TRUE;
  return snap_item_error (error, inner, src->file->display, src->item_line);
}

/* ---- The exports, in order ---- */

static void
sources_free (gpointer data)
{
  Sources *s = data;

  snap_sources_clear (s);
  g_free (s);
}

static int
by_to_time (gconstpointer a, gconstpointer b)
{
  const Sources *x = *(const Sources *const *) a;
  const Sources *y = *(const Sources *const *) b;

  return x->to_time_us < y->to_time_us ? -1 : x->to_time_us > y->to_time_us ? 1 : 0;
}

static char *
format_time (gint64 us)
{
  g_autoptr (GDateTime) t = g_date_time_new_from_unix_utc (us / G_USEC_PER_SEC);
  g_autoptr (GDateTime) exact = t != NULL ? g_date_time_add (t, us % G_USEC_PER_SEC) : NULL;

  return exact != NULL ? g_date_time_format (exact, "%Y-%m-%dT%H:%M:%S.%fZ") : g_strdup ("?");
}

GPtrArray *
snap_load_incrementals (const Sources *base, const char *const *paths, GError **error)
{
  g_autoptr (GPtrArray) list = g_ptr_array_new_with_free_func (sources_free);
  gint64 covered = base->format == DDB_SNAPSHOT_S3 ? base->export_time_us : 0;
  const char *covered_by = base->display;

  if (base->incremental)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "%s: an incremental export cannot be imported alone: give the full export "
                   "first, then the incremental exports",
                   base->display);
      return NULL;
    }
  for (guint i = 0; paths != NULL && paths[i] != NULL; i++)
    {
      Sources *s = g_new0 (Sources, 1);

      g_ptr_array_add (list, s);
      if (!snap_load_sources (s, paths[i], DDB_SNAPSHOT_S3, base->store, error))
        return NULL;
      if (!s->incremental)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "%s: not an incremental export (its manifest-summary.json has no "
                       "exportType INCREMENTAL_EXPORT); only the first source may be a full one",
                       s->display);
          return NULL;
        }
    }
  g_ptr_array_sort (list, by_to_time);
  for (guint i = 0; i < list->len; i++)
    {
      Sources *s = g_ptr_array_index (list, i);

      if (covered != 0 && s->to_time_us <= covered)
        {
          g_autofree char *to = format_time (s->to_time_us);
          g_autofree char *at = format_time (covered);

          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "%s: the incremental export ends at %s, not after %s (%s): it would "
                       "change nothing",
                       s->display, to, covered_by, at);
          return NULL;
        }
      if (covered != 0 && s->from_time_us > covered)
        {
          g_autofree char *from = format_time (s->from_time_us);
          g_autofree char *at = format_time (covered);

          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "%s: a gap: the incremental export starts at %s, but %s ends at %s; "
                       "changes between them would be missing",
                       s->display, from, covered_by, at);
          return NULL;
        }
      covered = s->to_time_us;
      covered_by = s->display;
    }
  return g_steal_pointer (&list);
}

/* ---- Applying them ---- */

typedef struct {
  const DdbSnapshotChangeSink *sink;
  const DdbTableDef *def;
  Progress *pr;
  GCancellable *cancellable;
  GHashTable *written; /* key bytes -> gint64* write time of the change applied */
} Apply;

/* The change's key attributes are exactly the table's, and a new image holds the same key and
 * is an item PutItem would take. */
static gboolean
check_change (const Apply *a, const SnapChange *c, GError **error)
{
  guint want = a->def->key.range_name != NULL ? 2 : 1;

  if (!ddb_item_check_keys (a->def, c->keys, error))
    return FALSE;
  if (ddb_value_map_size (c->keys) != want)
    {
      g_autofree char *spec = snap_key_spec_string (&a->def->key);

      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "Keys holds %u attributes, the table's key is %s", ddb_value_map_size (c->keys),
                   spec);
      return FALSE;
    }
  if (c->new_image == NULL)
    return TRUE;
  if (ddb_item_size (c->new_image) > DDB_MAX_ITEM_SIZE)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "NewImage: Item size has exceeded the maximum allowed size");
      return FALSE;
    }
  if (!ddb_item_check_keys (a->def, c->new_image, error)
      || !ddb_item_check_index_keys (a->def, c->new_image, FALSE, error))
    {
      g_prefix_error (error, "NewImage: ");
      return FALSE;
    }
  for (guint k = 0; k < want; k++)
    {
      const char *name = k == 0 ? a->def->key.hash_name : a->def->key.range_name;

      if (!ddb_value_equal (ddb_value_map_get (c->keys, name),
                            ddb_value_map_get (c->new_image, name)))
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "NewImage's %s differs from Keys'", name);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
apply_change (Apply *a, const SnapChange *c, GError **error)
{
  GByteArray *encoded = g_byte_array_new ();
  g_autoptr (GBytes) key = NULL;
  gint64 *seen;

  ddb_key_encode (ddb_value_map_get (c->keys, a->def->key.hash_name), encoded, NULL);
  if (a->def->key.range_name != NULL)
    ddb_key_encode (ddb_value_map_get (c->keys, a->def->key.range_name), encoded, NULL);
  key = g_byte_array_free_to_bytes (encoded);
  seen = g_hash_table_lookup (a->written, key);
  if (seen != NULL && c->write_us < *seen)
    return TRUE; /* a later change of the item is applied already */
  if (seen == NULL)
    {
      seen = g_new (gint64, 1);
      g_hash_table_insert (a->written, g_bytes_ref (key), seen);
    }
  *seen = c->write_us;
  return c->new_image != NULL ? a->sink->put (c->new_image, a->sink->data, error)
                              : a->sink->remove (c->keys, a->sink->data, error);
}

static gboolean
apply_file (Apply *a, const Sources *s, const SourceFile *f, guint64 *records, GError **error)
{
  ItemSource src;
  SnapChange c;
  guint64 count = 0;
  gboolean ok = TRUE;

  if (!snap_source_file_check (f, a->cancellable, error))
    return FALSE;
  if (!snap_item_source_open (&src, DDB_SNAPSHOT_S3, f, &a->def->key, a->cancellable, error))
    {
      snap_item_source_close (&src);
      return FALSE;
    }
  while ((ok = snap_change_source_next (&src, &c, error)) && c.keys != NULL)
    {
      GError *local = NULL;

      if (!check_change (a, &c, &local) || !apply_change (a, &c, &local))
        {
          snap_change_clear (&c);
          ok = snap_item_error (error, local, f->display, src.item_line);
          break;
        }
      snap_change_clear (&c);
      count++;
      a->pr->p.items++;
      if ((a->pr->p.items & 63) == 0)
        {
          if (g_cancellable_set_error_if_cancelled (a->cancellable, error))
            {
              ok = FALSE;
              break;
            }
          snap_progress_tick (a->pr);
        }
    }
  if (ok)
    ok = snap_item_source_finish (&src, &a->pr->p.bytes, error);
  if (ok)
    a->pr->p.files++;
  snap_item_source_close (&src);
  if (ok && f->has_count && count != f->count)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "%s: manifest-files.json gives itemCount %" G_GUINT64_FORMAT
                   ", the file holds %" G_GUINT64_FORMAT " records",
                   f->display, f->count, count);
      ok = FALSE;
    }
  if (!ok)
    g_prefix_error (error, "%s: ", s->display);
  *records += count;
  return ok;
}

gboolean
snap_apply_incrementals (const DdbSnapshotChangeSink *sink, const DdbTableDef *def,
                         GPtrArray *incrementals, Progress *pr, GCancellable *cancellable,
                         GError **error)
{
  g_autoptr (GHashTable) written
      = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, g_free);
  Apply a = { sink, def, pr, cancellable, written };

  for (guint i = 0; incrementals != NULL && i < incrementals->len; i++)
    {
      const Sources *s = g_ptr_array_index (incrementals, i);
      guint64 records = 0;

      for (guint k = 0; k < s->files->len; k++)
        if (!apply_file (&a, s, g_ptr_array_index (s->files, k), &records, error))
          return FALSE;
      if (s->has_total && records != s->total)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "%s: manifest-summary.json gives itemCount %" G_GUINT64_FORMAT
                       ", the data files hold %" G_GUINT64_FORMAT " records",
                       s->display, s->total, records);
          return FALSE;
        }
    }
  return TRUE;
}
