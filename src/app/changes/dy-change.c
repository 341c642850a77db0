/* dy-change.c: a Streams record turned into what a row of the Changes view shows. */
#define G_LOG_DOMAIN "dynoscope-change"

#include <glib/gi18n.h>
#include <string.h>

#include "app/changes/dy-change.h"
#include "app/common/dy-format.h"
#include "core/ddbjson.h"
#include "staging/diff.h"

/* An image's text is a preview: past this many bytes the rest is left out (never inside a
 * value, so a number shown is always whole). */
#define IMAGE_TEXT_MAX 600

static void
diff_free (DyChangeDiff *diff)
{
  g_free (diff->path);
  g_free (diff->old_text);
  g_free (diff->new_text);
  g_free (diff);
}

void
dy_change_free (DyChange *change)
{
  if (change == NULL)
    return;
  g_free (change->event_name);
  g_free (change->sequence_number);
  g_free (change->key_text);
  g_free (change->key_folded);
  g_free (change->view_type);
  g_free (change->image_text);
  g_clear_pointer (&change->diffs, g_ptr_array_unref);
  g_free (change);
}

static gboolean
is_key_name (const char *name, const char *const *key_names, DdbValue *keys)
{
  if (keys != NULL && ddb_value_map_get (keys, name) != NULL)
    return TRUE;
  return key_names != NULL && g_strv_contains (key_names, name);
}

static int
compare_attr_names (gconstpointer a, gconstpointer b)
{
  return strcmp ((*(DdbAttr *const *) a)->name, (*(DdbAttr *const *) b)->name);
}

static char *
key_text (DdbValue *keys, const char *const *key_names)
{
  GString *out = g_string_new (NULL);
  g_autoptr (GPtrArray) rest = g_ptr_array_new ();

  for (guint i = 0; key_names != NULL && key_names[i] != NULL; i++)
    {
      DdbValue *v = ddb_value_map_get (keys, key_names[i]);
      g_autofree char *text = NULL;

      if (v == NULL)
        continue;
      text = dy_format_key (v);
      g_string_append_printf (out, "%s%s = %s", out->len > 0 ? ", " : "", key_names[i], text);
    }
  /* a key attribute the caller did not name (the schema is unknown): after, in name order */
  for (guint i = 0; i < ddb_value_map_size (keys); i++)
    {
      DdbAttr *a = ddb_value_map_nth (keys, i);

      if (key_names == NULL || !g_strv_contains (key_names, a->name))
        g_ptr_array_add (rest, a);
    }
  g_ptr_array_sort (rest, compare_attr_names);
  for (guint i = 0; i < rest->len; i++)
    {
      DdbAttr *a = rest->pdata[i];
      g_autofree char *text = dy_format_key (a->value);

      g_string_append_printf (out, "%s%s = %s", out->len > 0 ? ", " : "", a->name, text);
    }
  return g_string_free (out, FALSE);
}

static char *
image_text (DdbValue *image, const char *const *key_names, DdbValue *keys)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < ddb_value_map_size (image); i++)
    {
      DdbAttr *a = ddb_value_map_nth (image, i);
      g_autofree char *text = NULL;

      if (is_key_name (a->name, key_names, keys))
        continue;
      if (out->len >= IMAGE_TEXT_MAX)
        {
          g_string_append (out, ", …");
          break;
        }
      text = dy_format_value (a->value);
      g_string_append_printf (out, "%s%s = %s", out->len > 0 ? ", " : "", a->name, text);
    }
  return g_string_free (out, FALSE);
}

static GPtrArray *
diffs_of (DdbValue *old_image, DdbValue *new_image)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) diff_free);
  g_autoptr (GPtrArray) entries = ddb_diff_items (old_image, new_image);

  for (guint i = 0; i < entries->len; i++)
    {
      DdbDiffEntry *e = entries->pdata[i];
      DyChangeDiff *d = g_new0 (DyChangeDiff, 1);

      d->path = ddb_path_to_string (&e->path);
      d->kind = e->old_value == NULL   ? DY_CHANGE_DIFF_ADDED
                : e->new_value == NULL ? DY_CHANGE_DIFF_REMOVED
                                       : DY_CHANGE_DIFF_CHANGED;
      if (e->old_value != NULL)
        d->old_text = dy_format_value (e->old_value);
      if (e->new_value != NULL)
        d->new_text = dy_format_value (e->new_value);
      g_ptr_array_add (out, d);
    }
  return out;
}

static DdbValue *
image (json_t *ddb, const char *member, GError **error)
{
  json_t *json = json_object_get (ddb, member);

  if (json == NULL)
    return NULL;
  return ddb_json_to_item (json, error);
}

/* userIdentity of a TTL deletion: {"Type": "Service", "PrincipalId": "dynamodb.amazonaws.com"}
 * (the SDKs' documents spell the members type and principalId). */
static gboolean
removed_by_ttl (json_t *record)
{
  json_t *who = json_object_get (record, "userIdentity");
  json_t *type = json_object_get (who, "Type");
  json_t *principal = json_object_get (who, "PrincipalId");

  if (type == NULL)
    type = json_object_get (who, "type");
  if (principal == NULL)
    principal = json_object_get (who, "principalId");
  return g_strcmp0 (json_string_value (type), "Service") == 0
         && g_strcmp0 (json_string_value (principal), "dynamodb.amazonaws.com") == 0;
}

DyChange *
dy_change_new (json_t *record, const char *const *key_names, GError **error)
{
  g_autoptr (DyChange) change = g_new0 (DyChange, 1);
  json_t *ddb = json_object_get (record, "dynamodb");
  json_t *when = json_object_get (ddb, "ApproximateCreationDateTime");
  json_t *size = json_object_get (ddb, "SizeBytes");
  g_autoptr (DdbValue) keys = NULL;
  g_autoptr (DdbValue) old_image = NULL;
  g_autoptr (DdbValue) new_image = NULL;
  GError *local = NULL;
  const char *name;

  if (!json_is_object (record) || !json_is_object (ddb))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("The stream record has no “dynamodb” member"));
      return NULL;
    }
  name = json_string_value (json_object_get (record, "eventName"));
  change->event_name = g_strdup (name != NULL ? name : "");
  change->event = g_strcmp0 (name, "INSERT") == 0   ? DY_CHANGE_INSERT
                  : g_strcmp0 (name, "MODIFY") == 0 ? DY_CHANGE_MODIFY
                  : g_strcmp0 (name, "REMOVE") == 0 ? DY_CHANGE_REMOVE
                                                    : DY_CHANGE_OTHER;
  change->sequence_number = g_strdup (json_string_value (json_object_get (ddb, "SequenceNumber")));
  change->view_type = g_strdup (json_string_value (json_object_get (ddb, "StreamViewType")));
  /* epoch seconds; AWS sends a number that may have a fraction */
  change->time_s = json_is_number (when) ? (gint64) json_number_value (when) : 0;
  change->size_bytes = json_is_integer (size) ? json_integer_value (size) : -1;
  change->ttl = change->event == DY_CHANGE_REMOVE && removed_by_ttl (record);

  keys = json_object_get (ddb, "Keys") != NULL ? image (ddb, "Keys", &local) : ddb_value_new_m ();
  if (local == NULL)
    old_image = image (ddb, "OldImage", &local);
  if (local == NULL)
    new_image = image (ddb, "NewImage", &local);
  if (local != NULL)
    {
      g_propagate_prefixed_error (error, local, _("A stream record could not be read: "));
      return NULL;
    }
  change->key_text = key_text (keys, key_names);
  change->key_folded = g_utf8_casefold (change->key_text, -1);
  change->both_images = old_image != NULL && new_image != NULL;
  if (change->event == DY_CHANGE_MODIFY && change->both_images)
    change->diffs = diffs_of (old_image, new_image);
  else
    {
      DdbValue *shown = change->event == DY_CHANGE_REMOVE ? old_image : new_image;

      change->diffs = g_ptr_array_new_with_free_func ((GDestroyNotify) diff_free);
      if (shown == NULL)
        shown = old_image != NULL ? old_image : new_image;
      if (shown != NULL)
        change->image_text = image_text (shown, key_names, keys);
    }
  return g_steal_pointer (&change);
}

const char *
dy_change_event_label (const DyChange *change)
{
  return change->event_name;
}

char *
dy_change_time_text (const DyChange *change, GDateTime *now)
{
  g_autoptr (GDateTime) utc = NULL;
  g_autoptr (GDateTime) local = NULL;

  if (change->time_s <= 0)
    return g_strdup ("");
  utc = g_date_time_new_from_unix_utc (change->time_s);
  if (utc == NULL)
    return g_strdup ("");
  local = g_date_time_to_local (utc);
  if (now != NULL && g_date_time_get_year (now) == g_date_time_get_year (local)
      && g_date_time_get_day_of_year (now) == g_date_time_get_day_of_year (local))
    return g_date_time_format (local, "%H:%M:%S");
  return g_date_time_format (local, "%Y-%m-%d %H:%M:%S");
}

gboolean
dy_change_matches (const DyChange *change, const char *filter)
{
  g_autofree char *folded = NULL;

  if (filter == NULL || *filter == '\0')
    return TRUE;
  folded = g_utf8_casefold (filter, -1);
  return strstr (change->key_folded, folded) != NULL;
}

char *
dy_change_diff_text (const DyChangeDiff *diff)
{
  switch (diff->kind)
    {
    case DY_CHANGE_DIFF_ADDED:
      return g_strdup_printf ("+ %s: %s", diff->path, diff->new_text);
    case DY_CHANGE_DIFF_REMOVED:
      return g_strdup_printf ("− %s: %s", diff->path, diff->old_text);
    case DY_CHANGE_DIFF_CHANGED:
    default:
      return g_strdup_printf ("%s: %s → %s", diff->path, diff->old_text, diff->new_text);
    }
}

char *
dy_change_detail_text (const DyChange *change)
{
  GString *out = g_string_new (NULL);

  if (change->event == DY_CHANGE_MODIFY && change->both_images)
    for (guint i = 0; i < change->diffs->len; i++)
      {
        g_autofree char *line = dy_change_diff_text (change->diffs->pdata[i]);

        g_string_append_printf (out, "%s%s", i > 0 ? "\n" : "", line);
      }
  else if (change->image_text != NULL)
    g_string_append (out, change->image_text);
  else if (g_strcmp0 (change->view_type, "KEYS_ONLY") == 0)
    g_string_append (out, _("The stream keeps keys only (view type KEYS_ONLY)"));
  if (change->event == DY_CHANGE_MODIFY && !change->both_images
      && g_strcmp0 (change->view_type, "KEYS_ONLY") != 0)
    {
      g_string_append (out, out->len > 0 ? "\n" : "");
      /* TRANSLATORS: after a MODIFY's one image; %s is the stream view type */
      g_string_append_printf (out, _("No diff: view type %s carries one image"),
                              change->view_type != NULL ? change->view_type : "?");
    }
  return g_string_free (out, FALSE);
}

/* The list item. */

struct _DyChangeObject {
  GObject parent_instance;
  DyChange *change;
};

G_DEFINE_FINAL_TYPE (DyChangeObject, dy_change_object, G_TYPE_OBJECT)

static void
dy_change_object_finalize (GObject *object)
{
  dy_change_free (DY_CHANGE_OBJECT (object)->change);
  G_OBJECT_CLASS (dy_change_object_parent_class)->finalize (object);
}

static void
dy_change_object_class_init (DyChangeObjectClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_change_object_finalize;
}

static void
dy_change_object_init (DyChangeObject *self)
{
}

DyChangeObject *
dy_change_object_new (DyChange *change)
{
  DyChangeObject *self = g_object_new (DY_TYPE_CHANGE_OBJECT, NULL);

  self->change = change;
  return self;
}

const DyChange *
dy_change_object_get (DyChangeObject *self)
{
  return self->change;
}
