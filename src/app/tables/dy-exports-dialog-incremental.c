/* dy-exports-dialog-incremental.c: the exports dialog's incremental exports: the form's
 * Type, Changes From (where the newest completed export ended, to the millisecond), Until and
 * Images, the request they make, and an incremental export opened with the full export before it
 * and the incremental exports since. */
#define G_LOG_DOMAIN "dynoscope-exports"

#include <glib/gi18n.h>
#include <math.h>

#include "app/tables/dy-exports-dialog-private.h"
#include "core/timestamp.h"

/* A completed export's seconds (ExportTime for a full export, else the incremental
 * specification's ExportToTime), or -1. */
static double
export_end (json_t *d)
{
  json_t *t = dy_export_is_incremental (d) ? json_object_get (
                  json_object_get (d, "IncrementalExportSpecification"), "ExportToTime")
                                           : json_object_get (d, "ExportTime");

  return json_is_number (t) ? json_number_value (t) : -1;
}

static int
compare_ends (gconstpointer a, gconstpointer b)
{
  double ea = export_end (*(json_t **) a), eb = export_end (*(json_t **) b);

  return ea < eb ? -1 : ea > eb;
}

/* An incremental export opened: the newest completed full export of the table made before it
 * ends, with the completed incremental exports after that one up to it, in time order (the
 * import refuses a gap between them, naming it). */
void
dy_exports_dialog_open_incremental (GtkButton *button, DyExportsDialog *self)
{
  json_t *target
      = g_hash_table_lookup (self->described, g_object_get_data (G_OBJECT (button), "arn"));
  g_autoptr (GPtrArray) chain = g_ptr_array_new ();
  g_autoptr (GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *full_url = NULL;
  json_t *full = NULL;
  GHashTableIter iter;
  gpointer value;
  double end;

  if (target == NULL)
    return;
  end = export_end (target);
  g_hash_table_iter_init (&iter, self->described);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (dy_export_is_completed (value) && !dy_export_is_incremental (value)
        && export_end (value) >= 0 && export_end (value) < end
        && (full == NULL || export_end (value) > export_end (full)))
      full = value;
  if (full == NULL)
    {
      dy_exports_dialog_show_error (
          self, _ ("No full export of the table was made before this incremental one: an "
                   "incremental export opens on top of one"));
      return;
    }
  g_hash_table_iter_init (&iter, self->described);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (dy_export_is_completed (value) && dy_export_is_incremental (value)
        && export_end (value) > export_end (full) && export_end (value) <= end)
      g_ptr_array_add (chain, value);
  g_ptr_array_sort (chain, compare_ends);
  for (guint i = 0; i < chain->len; i++)
    g_ptr_array_add (urls, dy_export_manifest_url (chain->pdata[i]));
  g_ptr_array_add (urls, NULL);
  full_url = dy_export_manifest_url (full);
  dy_exports_dialog_show_error (self, NULL);
  dy_exports_dialog_emit_open (self, full_url, (const char *const *) urls->pdata);
}

gboolean
dy_exports_dialog_is_incremental (DyExportsDialog *self)
{
  return adw_combo_row_get_selected (self->type_row) == 1;
}

/* SECONDS since the epoch as the local "2026-12-06 07:12:03.783" (milliseconds when it has a
 * fraction: an incremental export must start exactly where the last export ended), rounded up
 * to the millisecond (a time before the earliest one allowed is refused). */
static char *
local_time_exact (double seconds)
{
  /* less a microsecond, so that a time of whole milliseconds stays as it is */
  gint64 ms = (gint64) ceil (seconds * 1000 - 0.001);
  g_autoptr (GDateTime) t = g_date_time_new_from_unix_local (ms / 1000);

  if (t == NULL)
    return NULL;
  if (ms % 1000 == 0)
    return g_date_time_format (t, "%Y-%m-%d %H:%M:%S");
  {
    g_autofree char *whole = g_date_time_format (t, "%Y-%m-%d %H:%M:%S");

    return g_strdup_printf ("%s.%03d", whole, (int) (ms % 1000));
  }
}

/* Incremental chosen: Changes From starts where the table's newest completed export ended (so
 * that it goes on top of it), else at the earliest time point-in-time recovery allows; unless
 * the user wrote a time of their own there. */
void
dy_exports_dialog_update_from (DyExportsDialog *self)
{
  const char *now = gtk_editable_get_text (GTK_EDITABLE (self->from_row));
  double from = self->earliest_s;
  GHashTableIter iter;
  gpointer d;
  g_autofree char *text = NULL;

  if (!dy_exports_dialog_is_incremental (self)
      || (*now != '\0' && g_strcmp0 (now, self->from_default) != 0))
    return;
  g_hash_table_iter_init (&iter, self->described);
  while (g_hash_table_iter_next (&iter, NULL, &d))
    if (dy_export_is_completed (d))
      from = MAX (from, export_end (d));
  if (from < 0)
    return;
  text = local_time_exact (from);
  gtk_editable_set_text (GTK_EDITABLE (self->from_row), text);
  g_free (self->from_default);
  self->from_default = g_steal_pointer (&text);
}

/* ROW's time (local unless it says otherwise) as JSON epoch seconds into *OUT, NULL when ROW is
 * empty; FALSE (the error shown) when it is not a time. */
static gboolean
row_time (DyExportsDialog *self, AdwEntryRow *row, json_t **out)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (row));
  DdbTime t;

  *out = NULL;
  if (*text == '\0')
    return TRUE;
  if (!ddb_time_from_string (text, -1, NULL, &t))
    {
      g_autofree char *message = g_strdup_printf (
          _ ("%s: “%s” is not a time: give a date and time such as 2026-12-07 10:30 (local "
             "time) or ISO 8601 with its zone"),
          adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), text);

      dy_exports_dialog_show_error (self, message);
      return FALSE;
    }
  *out = t.usec % G_USEC_PER_SEC == 0 ? json_integer (t.usec / G_USEC_PER_SEC)
                                      : json_real ((double) t.usec / G_USEC_PER_SEC);
  return TRUE;
}

/* An incremental export's type and specification into REQ (ExportTableToPointInTime's) when the
 * form asks for one; FALSE (the error shown) when its times are wrong. */
gboolean
dy_exports_dialog_add_incremental (DyExportsDialog *self, json_t *req)
{
  json_t *from = NULL, *to = NULL, *spec;

  json_object_set_new (
      req, "ExportType",
      json_string (dy_exports_dialog_is_incremental (self) ? "INCREMENTAL_EXPORT" : "FULL_EXPORT"));
  if (!dy_exports_dialog_is_incremental (self))
    return TRUE;
  if (!row_time (self, self->from_row, &from) || !row_time (self, self->to_row, &to))
    {
      json_decref (from);
      return FALSE;
    }
  if (from == NULL || (to != NULL && json_number_value (to) <= json_number_value (from)))
    {
      dy_exports_dialog_show_error (
          self, from == NULL ? _ ("An incremental export needs the time it starts from")
                             : _ ("An incremental export ends after it starts"));
      json_decref (from);
      json_decref (to);
      return FALSE;
    }
  spec = json_pack ("{so ss}", "ExportFromTime", from, "ExportViewType",
                    adw_combo_row_get_selected (self->view_row) == 1 ? "NEW_IMAGE"
                                                                     : "NEW_AND_OLD_IMAGES");
  if (to != NULL)
    json_object_set_new (spec, "ExportToTime", to);
  json_object_set_new (req, "IncrementalExportSpecification", spec);
  return TRUE;
}

void
dy_exports_dialog_incremental_init (DyExportsDialog *self, AdwPreferencesGroup *group)
{
  g_autoptr (GtkStringList) types
      = gtk_string_list_new ((const char *[]){ _ ("Full"), _ ("Incremental"), NULL });
  g_autoptr (GtkStringList) views
      = gtk_string_list_new ((const char *[]){ _ ("New and old"), _ ("New only"), NULL });

  self->type_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->type_row), _ ("Type"));
  adw_combo_row_set_model (self->type_row, G_LIST_MODEL (types));
  self->from_row = ADW_ENTRY_ROW (adw_entry_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->from_row), _ ("Changes From"));
  self->to_row = ADW_ENTRY_ROW (adw_entry_row_new ());
  /* TRANSLATORS: the end of an incremental export's period; empty means now */
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->to_row), _ ("Until (empty: now)"));
  self->view_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->view_row), _ ("Images"));
  adw_combo_row_set_model (self->view_row, G_LIST_MODEL (views));
  adw_preferences_group_add (group, GTK_WIDGET (self->type_row));
  adw_preferences_group_add (group, GTK_WIDGET (self->from_row));
  adw_preferences_group_add (group, GTK_WIDGET (self->to_row));
  adw_preferences_group_add (group, GTK_WIDGET (self->view_row));
  g_signal_connect_swapped (self->type_row, "notify::selected",
                            G_CALLBACK (dy_exports_dialog_update_from), self);
}
