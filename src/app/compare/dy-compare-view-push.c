/* dy-compare-view-push.c: the Compare window's Stage Push (see dy-compare-view.h): all the
 * pushable differences or the selected ones staged on there's connection by ddb_push_stage on a
 * worker thread (dy_staging_push_async), asked first when there is no base, refused with the
 * reason when changes are already open there; then the staging panel opens on that table with
 * what was done in a toast. */
#define G_LOG_DOMAIN "dynoscope-compare-view"

#include <glib/gi18n.h>

#include "app/compare/dy-compare-view-private.h"
#include "app/staging/dy-staging.h"

typedef struct {
  DyCompareView *self;
  GHashTable *keys; /* the selected keys' texts, or NULL: all */
} PushData;

static gboolean
push_select (const DdbCompareDifference *difference, gpointer user_data)
{
  PushData *p = user_data;
  g_autofree char *key = dy_compare_view_key_text (difference->key);

  return g_hash_table_contains (p->keys, key);
}

static void
push_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  PushData *p = user_data;
  DyCompareView *self = p->self;
  g_autoptr (GError) error = NULL;
  DdbPushCounts counts = { 0 };
  gboolean ok = dy_staging_push_finish (DY_STAGING (source), result, &counts, &error);
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

  self->pushing = FALSE;
  g_clear_pointer (&p->keys, g_hash_table_unref);
  g_free (p);
  if (!self->disposed)
    {
      self->has_push_counts = ok;
      self->push_counts = counts;
      dy_compare_view_update_actions (self);
    }
  if (!ok)
    {
      gboolean open = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
      g_autofree char *message = NULL;

      if (open)
        /* TRANSLATORS: the push was refused: changes are already staged on that table */
        message = g_strdup_printf (_ ("Nothing was staged: %s"), error->message);
      else
        message = g_strdup_printf (_ ("The push could not be staged: %s"), error->message);
      if (!self->disposed)
        {
          /* the whole message is in the error bar; a toast is one line */
          AdwToast *toast = adw_toast_new (open ? _ ("Nothing was staged: changes are already "
                                                     "open on the other side’s table")
                                                : _ ("The push could not be staged"));

          dy_compare_view_set_error (self, message);
          adw_toast_set_timeout (toast, 8);
          adw_toast_overlay_add_toast (self->toast_overlay, toast);
        }
      if (counts.staged == 0 || !DY_IS_WINDOW (parent))
        {
          g_object_unref (self);
          return;
        }
    }
  if (DY_IS_WINDOW (parent) && self->result_other != NULL)
    {
      g_autofree char *text = NULL;

      /* TRANSLATORS: what the push staged; the staging panel shows it, to commit */
      text = g_strdup_printf (
          g_dngettext (NULL,
                       "%u change staged for the other side (creates: %u, updates: %u, "
                       "deletes: %u) · edited there, left alone: %u · conflicts, not pushed: %u",
                       "%u changes staged for the other side (creates: %u, updates: %u, "
                       "deletes: %u) · edited there, left alone: %u · conflicts, not pushed: %u",
                       counts.staged),
          counts.staged, counts.creates, counts.updates, counts.deletes, counts.left_there,
          counts.conflicts);
      dy_window_show_staging (DY_WINDOW (parent), self->result_other,
                              ddb_compare_result_options (self->result)->there.table);
      dy_window_toast (DY_WINDOW (parent), text);
      gtk_window_present (parent);
    }
  g_object_unref (self);
}

static void
start_push (DyCompareView *self, gboolean selected)
{
  PushData *p;

  if (self->pushing || self->result == NULL || self->result_other == NULL)
    return;
  p = g_new0 (PushData, 1);
  p->self = g_object_ref (self);
  if (selected)
    p->keys = dy_compare_view_selected_keys (self);
  self->pushing = TRUE;
  dy_compare_view_set_error (self, NULL);
  dy_compare_view_update_actions (self);
  dy_staging_push_async (dy_staging_get_default (), self->result_other, self->result,
                         &self->result_lock, selected ? push_select : NULL, p, push_done, p);
}

static void
confirm_response (AdwMessageDialog *dialog, const char *response, gpointer user_data)
{
  DyCompareView *self = user_data;

  if (g_str_equal (response, "stage"))
    start_push (self, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "dy-selected")));
}

GtkWidget *
dy_compare_view_stage_push (DyCompareView *self, gboolean selected)
{
  guint n;
  g_autofree char *here = NULL;
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  g_return_val_if_fail (DY_IS_COMPARE_VIEW (self), NULL);
  if (self->pushing || self->result == NULL || self->result_other == NULL)
    return NULL;
  if (self->counts.has_base)
    {
      start_push (self, selected);
      return NULL;
    }
  n = dy_compare_view_count_pushable (self, selected);
  /* TRANSLATORS: this side of a compare: a table and its connection */
  here = g_strdup_printf (_ ("%s in %s"), self->table, dy_connection_get_title (self->connection));
  /* TRANSLATORS: asked before a push without a base; the first %s is the other side, the
   * second this table */
  body = g_strdup_printf (
      g_dngettext (NULL,
                   "No base is known: the push makes %s equal to %s, %u change. Changes made "
                   "there since are overwritten. Nothing is written until you commit.",
                   "No base is known: the push makes %s equal to %s, %u changes. Changes made "
                   "there since are overwritten. Nothing is written until you commit.",
                   n),
      self->result_other_name, here, n);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _ ("Stage a Two-Way Push?"), body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "stage",
                                    _ ("_Stage Push"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "stage",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data (G_OBJECT (dialog), "dy-selected", GINT_TO_POINTER (selected));
  g_signal_connect_object (dialog, "response", G_CALLBACK (confirm_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

gboolean
dy_compare_view_get_pushing (DyCompareView *self)
{
  return self->pushing;
}

GtkWidget *
dy_compare_view_get_push_button (DyCompareView *self)
{
  return self->push_button;
}

gboolean
dy_compare_view_get_push_counts (DyCompareView *self, DdbPushCounts *counts)
{
  if (self->has_push_counts && counts != NULL)
    *counts = self->push_counts;
  return self->has_push_counts;
}
