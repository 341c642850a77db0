/* dy-staging-panel.c: the staging panel: change cards, commit with progress, the report. */
#define G_LOG_DOMAIN "dynoscope-staging-panel"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "app/common/dy-diff-markup.h"
#include "app/staging/dy-commit-confirm.h"
#include "app/staging/dy-fanout-dialog.h"
#include "app/common/dy-format.h"
#include "app/staging/dy-staging-panel-private.h"
#include "staging/writes.h"
#include "core/expr.h"
#include "staging/diff.h"
#include "staging/worddiff.h"

G_DEFINE_FINAL_TYPE (DyStagingPanel, dy_staging_panel, GTK_TYPE_BOX)

enum { PROP_0, PROP_N_CHANGES, N_PROPS };

static GParamSpec *properties[N_PROPS];

static void refresh (DyStagingPanel *self);

static void
toast (DyStagingPanel *self, const char *message)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (message));
  else
    g_message ("%s", message);
}

static void
toast_error (DyStagingPanel *self, const GError *error)
{
  toast (self, error->message);
}

static void
update_actions (DyStagingPanel *self)
{
  gboolean committing = self->cancellable != NULL;
  gboolean any = self->n_changes > 0;
  /* a read-only connection's changes can be staged and reviewed, not committed */
  gboolean read_only = self->connection != NULL && dy_connection_get_read_only (self->connection);
  g_autofree char *reason
      = read_only ? dy_connection_dup_read_only_reason (self->connection) : NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.commit-all",
                                 any && !committing && !read_only);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.commit-one", !committing && !read_only);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->commit_button), reason);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.discard-all", any && !committing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.discard", !committing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.reject", !committing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.requeue", !committing);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "panel.cancel", committing);
}

static void
set_n_changes (DyStagingPanel *self, guint n)
{
  if (self->n_changes == n)
    return;
  self->n_changes = n;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_CHANGES]);
}

static void
refresh (DyStagingPanel *self)
{
  GPtrArray *changes = NULL;
  const GError *error = NULL;
  guint n_tables = 0;
  g_autofree char *summary = NULL;

  g_clear_handle_id (&self->refresh_id, g_source_remove);
  /* the store is read on a worker thread: this shows its last snapshot, and is called again
   * when a newer one is in */
  if (self->connection != NULL)
    changes = dy_staging_peek (self->staging, self->connection, &n_tables, &error);
  if (changes == NULL && self->connection != NULL && error == NULL)
    {
      /* the first read is under way: keep what is shown rather than flash an empty list */
      gtk_label_set_text (self->summary_label, _ ("Reading the staged changes…"));
      update_actions (self);
      return;
    }
  if (changes == NULL)
    {
      dy_staging_panel_clear_cards (self);
      g_autofree char *described
          = error != NULL ? dy_connection_describe_error (self->connection, error, NULL) : NULL;
      g_autofree char *text
          = error != NULL
                ? g_strdup_printf (_ ("The staged changes could not be read: %s"), described)
                : g_strdup (_ ("Open a table to see its connection’s changes"));

      gtk_label_set_text (self->summary_label, text);
      gtk_stack_set_visible_child_name (self->list_stack, "empty");
      set_n_changes (self, 0);
      update_actions (self);
      return;
    }
  set_n_changes (self, changes->len);
  dy_staging_panel_show_cards (self, changes);
  {
    guint64 units = 0;
    g_autofree char *changes_text = NULL;
    g_autofree char *tables_text = NULL;
    g_autofree char *units_text = NULL;
    g_autofree char *twice_text = NULL;
    g_autofree char *tooltip = NULL;

    /* what their commit costs: each write's units, twice that inside a transaction */
    for (guint i = 0; i < changes->len; i++)
      units += ddb_change_write_units (changes->pdata[i]);
    units_text = dy_format_count (units);
    twice_text = dy_format_count (2 * units);
    changes_text = g_strdup_printf (g_dngettext (NULL, "%u change", "%u changes", changes->len),
                                    changes->len);
    tables_text = g_strdup_printf (g_dngettext (NULL, "%u table", "%u tables", n_tables), n_tables);
    /* TRANSLATORS: "3 changes in 2 tables · 5 WCU · Demo": the changes, the tables they touch,
     * the write capacity units their commit consumes, the connection */
    summary = g_strdup_printf (_ ("%s in %s · %s WCU · %s"), changes_text, tables_text,
                               units_text, dy_connection_get_title (self->connection));
    /* TRANSLATORS: the write capacity units of a commit: as single writes, in transactions */
    tooltip = g_strdup_printf (_ ("Committing them consumes about %s write capacity units as "
                                  "single writes, %s in transactions"),
                               units_text, twice_text);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->summary_label),
                                 changes->len > 0 ? tooltip : NULL);
  }
  gtk_label_set_text (self->summary_label,
                      changes->len > 0 ? summary : dy_connection_get_title (self->connection));
  gtk_stack_set_visible_child_name (self->list_stack, changes->len > 0 ? "list" : "empty");
  update_actions (self);
}

static gboolean
refresh_idle (gpointer data)
{
  DyStagingPanel *self = data;

  self->refresh_id = 0;
  refresh (self);
  return G_SOURCE_REMOVE;
}

static void
staging_changed (DyStagingPanel *self)
{
  /* many changes may come at once (a fan-out): one rebuild */
  if (self->refresh_id == 0)
    self->refresh_id = g_idle_add (refresh_idle, self);
}

/* Committing. */

static void
show_report (DyStagingPanel *self, const DdbCommitReport *report, const GError *error)
{
  static const char *const classes[] = { "report-ok", "report-warning", "report-error" };
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *title = NULL;
  int severity;
  guint done = report->committed + report->conflicts + report->failed;

  self->has_report = TRUE;
  self->report_counts[0] = report->committed;
  self->report_counts[1] = report->conflicts;
  self->report_counts[2] = report->failed;
  /* TRANSLATORS: the outcome of a commit: "3 committed · 1 conflict · 0 failed" */
  g_string_append_printf (text, _ ("%u committed · %u conflicted · %u failed"), report->committed,
                          report->conflicts, report->failed);
  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      title = g_strdup (_ ("Commit cancelled"));
      g_string_append (text, _ ("\nWhat was not sent stays staged."));
      severity = 1;
    }
  else if (error != NULL)
    {
      title = g_strdup (_ ("Commit stopped"));
      g_autofree char *described
          = self->connection != NULL ? dy_connection_describe_error (self->connection, error, NULL)
                                     : g_strdup (error->message);

      g_string_append_printf (text, "\n%s", described);
      severity = 2;
    }
  else if (report->failed > 0)
    {
      title = g_strdup_printf (
          g_dngettext (NULL, "%u change failed", "%u changes failed", report->failed),
          report->failed);
      severity = 2;
    }
  else if (report->conflicts > 0)
    {
      title = g_strdup_printf (g_dngettext (NULL, "%u conflict", "%u conflicts", report->conflicts),
                               report->conflicts);
      g_string_append (text, _ ("\nConflicted changes stay staged and were not written: "
                                "compare each with the item as it is now."));
      severity = 1;
    }
  else
    {
      title = g_strdup_printf (
          g_dngettext (NULL, "%u change committed", "%u changes committed", done), done);
      severity = 0;
    }
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self->report_box), classes[i]);
  gtk_widget_add_css_class (GTK_WIDGET (self->report_box), classes[severity]);
  gtk_image_set_from_icon_name (self->report_icon, severity == 0   ? "emblem-ok-symbolic"
                                                   : severity == 1 ? "dialog-warning-symbolic"
                                                                   : "dialog-error-symbolic");
  gtk_label_set_text (self->report_title, title);
  gtk_label_set_text (self->report_label, text->str);
  g_free (self->report_text);
  self->report_text = g_strdup_printf ("%s\n%s", title, text->str);
  gtk_revealer_set_reveal_child (self->report_revealer, TRUE);
}

static void
commit_progress (const DdbCommitProgress *progress, gpointer user_data)
{
  DyStagingPanel *self = user_data;
  guint done = progress->committed + progress->conflicts + progress->failed;
  double seconds = (g_get_monotonic_time () - self->commit_started) / (double) G_USEC_PER_SEC;
  g_autofree char *text = NULL;

  if (self->cancellable == NULL || self->disposed)
    return; /* a late report of a commit that has finished */
  gtk_progress_bar_set_fraction (self->progress_bar,
                                 progress->total > 0 ? (double) done / progress->total : 0);
  /* TRANSLATORS: commit progress: "40 of 100 · 230 changes/s" */
  text = g_strdup_printf (_ ("%u of %u · %.0f changes/s"), done, progress->total,
                          seconds > 0.05 ? done / seconds : 0.0);
  gtk_label_set_text (self->progress_label, text);
}

static void
commit_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyStagingPanel) self = user_data;
  DdbCommitReport report = { 0 };
  g_autoptr (GError) error = NULL;

  dy_staging_commit_finish (DY_STAGING (source), result, &report, &error);
  g_clear_object (&self->cancellable);
  if (self->disposed)
    {
      ddb_commit_report_clear (&report);
      return;
    }
  gtk_revealer_set_reveal_child (self->progress_revealer, FALSE);
  show_report (self, &report, error);
  ddb_commit_report_clear (&report);
  refresh (self);
}

static void
send_commit (DyStagingPanel *self, gint64 change_id)
{
  DdbCommitMode mode = gtk_drop_down_get_selected (self->mode_dropdown) == 1
                           ? DDB_COMMIT_SINGLE
                           : DDB_COMMIT_TRANSACTIONS;

  if (self->connection == NULL || self->cancellable != NULL)
    return;
  self->cancellable = g_cancellable_new ();
  self->commit_started = g_get_monotonic_time ();
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_label_set_text (self->progress_label, _ ("Starting…"));
  gtk_revealer_set_reveal_child (self->progress_revealer, TRUE);
  gtk_revealer_set_reveal_child (self->report_revealer, FALSE);
  update_actions (self);
  dy_staging_commit_async (self->staging, self->connection, NULL, change_id, mode,
                           self->cancellable, commit_progress, self, commit_done,
                           g_object_ref (self));
}

static DdbChange *get_change (DyStagingPanel *self, gint64 id, GError **error);

static void
confirmed (GObject *data)
{
  DyStagingPanel *self = DY_STAGING_PANEL (data);

  /* marked read-only meanwhile: nothing is sent (the backend would refuse it too) */
  if (!self->disposed && self->connection != NULL
      && !dy_connection_get_read_only (self->connection))
    send_commit (self, self->confirm_change);
}

/* The tables a commit of CHANGE_ID (0: all) writes to, as the cards show them. */
static GStrv
commit_tables (DyStagingPanel *self, gint64 change_id, guint *n_changes)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *changes = NULL;
  guint n_tables = 0;
  const GError *error = NULL;

  *n_changes = 0;
  if (change_id != 0)
    {
      g_autoptr (GError) local = NULL;
      DdbChange *change = get_change (self, change_id, &local);

      if (change != NULL)
        {
          g_strv_builder_add (builder, change->table);
          *n_changes = 1;
          ddb_change_free (change);
        }
      return g_strv_builder_end (builder);
    }
  changes = dy_staging_peek (self->staging, self->connection, &n_tables, &error);
  for (guint i = 0; changes != NULL && i < changes->len; i++)
    {
      const DdbChange *change = changes->pdata[i];

      /* what Commit All sends: conflicts and failures wait until they are put back */
      if (change->state != DDB_CHANGE_STAGED)
        continue;
      (*n_changes)++;
      if (g_hash_table_add (seen, change->table))
        g_strv_builder_add (builder, change->table);
    }
  return g_strv_builder_end (builder);
}

/* Commit, as the connection's mark allows: refused on a read-only connection, after the
 * tables' names are typed on a production one, at once on the others. */
static void
start_commit (DyStagingPanel *self, gint64 change_id)
{
  g_auto (GStrv) tables = NULL;
  guint n_changes;
  GtkRoot *root;

  if (self->connection == NULL || self->cancellable != NULL || self->confirm_dialog != NULL)
    return;
  if (dy_connection_get_read_only (self->connection))
    {
      g_autofree char *reason = dy_connection_dup_read_only_reason (self->connection);

      toast (self, reason);
      return;
    }
  if (!dy_connection_get_production (self->connection))
    {
      send_commit (self, change_id);
      return;
    }
  tables = commit_tables (self, change_id, &n_changes);
  if (tables[0] == NULL)
    return; /* nothing to send */
  root = gtk_widget_get_root (GTK_WIDGET (self));
  self->confirm_change = change_id;
  self->confirm_dialog
      = dy_commit_confirm_present (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   self->connection, (const char *const *) tables, n_changes,
                                   confirmed, G_OBJECT (self));
  g_object_add_weak_pointer (G_OBJECT (self->confirm_dialog), (gpointer *) &self->confirm_dialog);
}

/* Change ID as its card shows it (a card is built from the last read of the store), else read
 * from the store: the store's one row, not its whole list. A copy. */
static DdbChange *
get_change (DyStagingPanel *self, gint64 id, GError **error)
{
  GtkWidget *card;
  const DdbChange *shown;

  card = g_hash_table_lookup (self->cards, &id);
  shown = card != NULL ? g_object_get_data (G_OBJECT (card), "dy-change") : NULL;
  return shown != NULL ? dy_staging_panel_copy_change (shown) : dy_staging_get (self->staging, id, error);
}

/* Conflicts. */

static void
grid_cell (GtkGrid *grid, int column, int row, const char *text, const char *css)
{
  GtkWidget *label = dy_staging_panel_label_new (text, css);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_widget_set_valign (label, GTK_ALIGN_START);
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

static void
conflict_response (AdwMessageDialog *dialog, const char *response, gpointer user_data)
{
  DyStagingPanel *self = user_data;
  gint64 id = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (dialog), "dy-change-id"));
  g_autoptr (GError) error = NULL;
  gboolean ok = TRUE;

  if (g_str_equal (response, "discard"))
    ok = dy_staging_discard (self->staging, id, &error);
  else if (g_str_equal (response, "requeue"))
    ok = dy_staging_requeue (self->staging, id, &error);
  if (!ok)
    toast_error (self, error);
}

GtkWidget *
dy_staging_panel_show_conflict (DyStagingPanel *self, gint64 id)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbChange) change = get_change (self, id, &error);
  g_autoptr (GPtrArray) diff = NULL;
  g_autofree char *title = NULL;
  GtkWidget *dialog, *grid;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (change == NULL)
    {
      toast_error (self, error);
      return NULL;
    }
  if (change->state != DDB_CHANGE_CONFLICT)
    return NULL;
  diff = ddb_change_diff (change);
  title = dy_diff_key_title (change->key);
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, title,
                                   change->current == NULL
                                       ? _ ("The item no longer exists. Nothing was written.")
                                       : _ ("The item changed since this change was staged, so "
                                            "its condition failed and nothing was written. "
                                            "Compare what it expected with what the table holds "
                                            "now."));
  grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_widget_add_css_class (grid, "conflict-grid");
  /* a message dialog is narrow by default; four columns of values need room */
  gtk_widget_set_size_request (grid, 560, -1);
  grid_cell (GTK_GRID (grid), 0, 0, _ ("Attribute"), "heading");
  grid_cell (GTK_GRID (grid), 1, 0, _ ("Expected"), "heading");
  grid_cell (GTK_GRID (grid), 2, 0, _ ("Current"), "heading");
  grid_cell (GTK_GRID (grid), 3, 0, _ ("Staged"), "heading");
  for (guint i = 0; i < diff->len; i++)
    {
      DdbDiffEntry *e = g_ptr_array_index (diff, i);
      g_autofree char *path = ddb_path_to_string (&e->path);
      const DdbValue *now
          = change->current != NULL ? ddb_path_lookup (change->current, &e->path) : NULL;
      g_autofree char *expected = dy_diff_value_text (e->old_value);
      g_autofree char *current = dy_diff_value_text (now);
      g_autofree char *staged = dy_diff_value_text (e->new_value);
      gboolean differs = (now == NULL) != (e->old_value == NULL)
                         || (now != NULL && !ddb_value_equal (now, e->old_value));

      grid_cell (GTK_GRID (grid), 0, (int) i + 1, path, "monospace");
      grid_cell (GTK_GRID (grid), 1, (int) i + 1, expected != NULL ? expected : _ ("(absent)"),
                 NULL);
      grid_cell (GTK_GRID (grid), 2, (int) i + 1, current != NULL ? current : _ ("(absent)"),
                 differs ? "conflict-value" : NULL);
      grid_cell (GTK_GRID (grid), 3, (int) i + 1, staged != NULL ? staged : _ ("(absent)"), NULL);
    }
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), grid);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "discard", _ ("_Discard Change"),
                                    "requeue", _ ("_Overwrite at Next Commit"), "close",
                                    _ ("_Keep Staged"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "close");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "close");
  g_object_set_data (G_OBJECT (dialog), "dy-change-id", GSIZE_TO_POINTER ((gsize) id));
  g_signal_connect_object (dialog, "response", G_CALLBACK (conflict_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

/* Actions. */

static void
reject_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyStagingPanel *self = DY_STAGING_PANEL (widget);
  g_autoptr (GError) error = NULL;
  gint64 id;
  const char *path;

  g_variant_get (parameter, "(x&s)", &id, &path);
  if (!dy_staging_reject_path (self->staging, id, path, &error))
    toast_error (self, error);
}

static void
fanout_staged (DyFanoutDialog *dialog, guint n, DyStagingPanel *self)
{
  g_autofree char *text
      = g_strdup_printf (g_dngettext (NULL, "%u copy staged", "%u copies staged", n), n);

  toast (self, text);
}

/* The fan-out dialog prefilled from one changed attribute of a staged update. */
static void
fanout_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyStagingPanel *self = DY_STAGING_PANEL (widget);
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbChange) change = NULL;
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *dialog;
  const DdbValue *old_value, *new_value;
  const char *path;
  gint64 id;

  g_variant_get (parameter, "(x&s)", &id, &path);
  change = get_change (self, id, &error);
  if (change == NULL || self->connection == NULL)
    {
      if (error != NULL)
        toast_error (self, error);
      return;
    }
  /* only an update's changed top-level value has copies to fan out to */
  if (change->kind != DDB_CHANGE_UPDATE)
    return;
  old_value = ddb_value_map_get (change->original, path);
  new_value = ddb_value_map_get (change->target, path);
  if (old_value == NULL || new_value == NULL)
    return;
  dialog = dy_fanout_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, self->staging,
                                 self->connection, change->table);
  dy_fanout_dialog_set_change (DY_FANOUT_DIALOG (dialog), path, old_value, new_value);
  g_signal_connect_object (dialog, "staged", G_CALLBACK (fanout_staged), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
discard_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyStagingPanel *self = DY_STAGING_PANEL (widget);
  g_autoptr (GError) error = NULL;

  if (!dy_staging_discard (self->staging, g_variant_get_int64 (parameter), &error))
    toast_error (self, error);
}

static void
requeue_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyStagingPanel *self = DY_STAGING_PANEL (widget);
  g_autoptr (GError) error = NULL;

  if (!dy_staging_requeue (self->staging, g_variant_get_int64 (parameter), &error))
    toast_error (self, error);
}

static void
commit_one_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  start_commit (DY_STAGING_PANEL (widget), g_variant_get_int64 (parameter));
}

static void
commit_all_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  start_commit (DY_STAGING_PANEL (widget), 0);
}

static void
cancel_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyStagingPanel *self = DY_STAGING_PANEL (widget);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

static void
show_conflict_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_staging_panel_show_conflict (DY_STAGING_PANEL (widget), g_variant_get_int64 (parameter));
}

static void
discard_all_response (AdwMessageDialog *dialog, const char *response, gpointer user_data)
{
  DyStagingPanel *self = user_data;
  g_autoptr (GError) error = NULL;

  if (g_str_equal (response, "discard") && self->connection != NULL
      && !dy_staging_discard_all (self->staging, self->connection, NULL, &error))
    toast_error (self, error);
}

static void
discard_all_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyStagingPanel *self = DY_STAGING_PANEL (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autofree char *body = g_strdup_printf (
      g_dngettext (NULL, "%u staged change of %s will be lost. The tables are not touched.",
                   "%u staged changes of %s will be lost. The tables are not touched.",
                   self->n_changes),
      self->n_changes, self->connection != NULL ? dy_connection_get_title (self->connection) : "");
  GtkWidget *dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                              _ ("Discard All Staged Changes?"), body);

  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "discard",
                                    _ ("_Discard All"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "discard",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (discard_all_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
dismiss_report_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  gtk_revealer_set_reveal_child (DY_STAGING_PANEL (widget)->report_revealer, FALSE);
}

/* GObject. */

static void
dy_staging_panel_dispose (GObject *object)
{
  DyStagingPanel *self = DY_STAGING_PANEL (object);

  self->disposed = TRUE;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  g_clear_handle_id (&self->build_id, g_source_remove);
  if (self->confirm_dialog != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->confirm_dialog),
                                  (gpointer *) &self->confirm_dialog);
  self->confirm_dialog = NULL;
  if (self->connection != NULL)
    g_signal_handlers_disconnect_by_data (self->connection, self);
  if (self->staging != NULL)
    g_signal_handlers_disconnect_by_data (self->staging, self);
  g_clear_object (&self->staging);
  g_clear_object (&self->connection);
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_STAGING_PANEL);
  G_OBJECT_CLASS (dy_staging_panel_parent_class)->dispose (object);
}

static void
dy_staging_panel_finalize (GObject *object)
{
  DyStagingPanel *self = DY_STAGING_PANEL (object);

  g_hash_table_unref (self->cards);
  g_clear_pointer (&self->building, g_ptr_array_unref);
  g_clear_object (&self->cancellable);
  g_free (self->report_text);
  G_OBJECT_CLASS (dy_staging_panel_parent_class)->finalize (object);
}

static void
dy_staging_panel_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DyStagingPanel *self = DY_STAGING_PANEL (object);

  switch (prop_id)
    {
    case PROP_N_CHANGES:
      g_value_set_uint (value, self->n_changes);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dy_staging_panel_class_init (DyStagingPanelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->get_property = dy_staging_panel_get_property;
  properties[PROP_N_CHANGES]
      = g_param_spec_uint ("n-changes", NULL, NULL, 0, G_MAXUINT, 0,
                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (G_OBJECT_CLASS (klass), N_PROPS, properties);
  G_OBJECT_CLASS (klass)->dispose = dy_staging_panel_dispose;
  G_OBJECT_CLASS (klass)->finalize = dy_staging_panel_finalize;
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/dynoscope/Dynoscope/dy-staging-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, summary_label);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, report_revealer);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, report_box);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, report_icon);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, report_title);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, report_label);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, list_stack);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, card_box);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, progress_revealer);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, progress_label);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, mode_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DyStagingPanel, commit_button);

  gtk_widget_class_install_action (widget_class, "panel.reject", "(xs)", reject_action);
  gtk_widget_class_install_action (widget_class, "panel.discard", "x", discard_action);
  gtk_widget_class_install_action (widget_class, "panel.fanout", "(xs)", fanout_action);
  gtk_widget_class_install_action (widget_class, "panel.requeue", "x", requeue_action);
  gtk_widget_class_install_action (widget_class, "panel.commit-one", "x", commit_one_action);
  gtk_widget_class_install_action (widget_class, "panel.show-conflict", "x", show_conflict_action);
  gtk_widget_class_install_action (widget_class, "panel.commit-all", NULL, commit_all_action);
  gtk_widget_class_install_action (widget_class, "panel.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "panel.discard-all", NULL, discard_all_action);
  gtk_widget_class_install_action (widget_class, "panel.dismiss-report", NULL,
                                   dismiss_report_action);
}

static void
dy_staging_panel_init (DyStagingPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cards = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}

GtkWidget *
dy_staging_panel_new (DyStaging *staging)
{
  DyStagingPanel *self = g_object_new (DY_TYPE_STAGING_PANEL, NULL);

  self->staging = g_object_ref (staging != NULL ? staging : dy_staging_get_default ());
  g_signal_connect_swapped (self->staging, "changed", G_CALLBACK (staging_changed), self);
  refresh (self);
  return GTK_WIDGET (self);
}

/* The connection was marked (production, read-only) or unmarked: Commit and the cards follow. */
static void
mark_changed (DyStagingPanel *self)
{
  GHashTableIter iter;
  gpointer card;

  update_actions (self);
  g_hash_table_iter_init (&iter, self->cards);
  while (g_hash_table_iter_next (&iter, NULL, &card))
    dy_staging_panel_tint_card (self, card);
}

void
dy_staging_panel_set_connection (DyStagingPanel *self, DyConnection *connection)
{
  if (self->connection == connection)
    return;
  if (self->connection != NULL)
    g_signal_handlers_disconnect_by_data (self->connection, self);
  g_set_object (&self->connection, connection);
  if (connection != NULL)
    g_signal_connect_swapped (connection, "notify::mark", G_CALLBACK (mark_changed), self);
  /* what is shown, and the last report, were another connection's */
  dy_staging_panel_clear_cards (self);
  set_n_changes (self, 0);
  gtk_stack_set_visible_child_name (self->list_stack, "empty");
  gtk_revealer_set_reveal_child (self->report_revealer, FALSE);
  if (connection != NULL)
    dy_staging_prepare (self->staging, connection);
  refresh (self);
}

DyConnection *
dy_staging_panel_get_connection (DyStagingPanel *self)
{
  return self->connection;
}

void
dy_staging_panel_set_mode (DyStagingPanel *self, DdbCommitMode mode)
{
  gtk_drop_down_set_selected (self->mode_dropdown, mode == DDB_COMMIT_SINGLE ? 1 : 0);
}

/* GTK 4.8 leaves the buttons inside a moved widget watching their old action muxers (the
 * panel's own actions then look disabled): each actionable below WIDGET takes its action again. */
static void
rebind_actionables (GtkWidget *widget)
{
  if (GTK_IS_ACTIONABLE (widget) && gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)) != NULL)
    {
      g_autofree char *name = g_strdup (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)));

      gtk_actionable_set_action_name (GTK_ACTIONABLE (widget), NULL);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (widget), name);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    rebind_actionables (child);
}

void
dy_staging_panel_moved (DyStagingPanel *self)
{
  rebind_actionables (GTK_WIDGET (self));
}

guint
dy_staging_panel_get_n_changes (DyStagingPanel *self)
{
  return self->n_changes;
}

guint
dy_staging_panel_get_n_cards (DyStagingPanel *self)
{
  if (self->refresh_id != 0)
    refresh (self);
  dy_staging_panel_finish_cards (self);
  return g_hash_table_size (self->cards);
}

static void
collect_text (GtkWidget *widget, GString *out)
{
  if (GTK_IS_LABEL (widget))
    {
      g_string_append (out, gtk_label_get_text (GTK_LABEL (widget)));
      g_string_append_c (out, '\n');
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_text (child, out);
}

char *
dy_staging_panel_dup_card_text (DyStagingPanel *self, gint64 id)
{
  GtkWidget *card;
  GString *out;

  if (self->refresh_id != 0)
    refresh (self);
  dy_staging_panel_finish_cards (self);
  card = g_hash_table_lookup (self->cards, &id);
  if (card == NULL)
    return NULL;
  out = g_string_new (NULL);
  collect_text (card, out);
  return g_string_free (out, FALSE);
}

gboolean
dy_staging_panel_get_committing (DyStagingPanel *self)
{
  return self->cancellable != NULL;
}

gboolean
dy_staging_panel_get_report (DyStagingPanel *self, guint *committed, guint *conflicts,
                             guint *failed)
{
  if (committed != NULL)
    *committed = self->report_counts[0];
  if (conflicts != NULL)
    *conflicts = self->report_counts[1];
  if (failed != NULL)
    *failed = self->report_counts[2];
  return self->has_report;
}

GtkWidget *
dy_staging_panel_get_confirm_dialog (DyStagingPanel *self)
{
  return self->confirm_dialog;
}

const char *
dy_staging_panel_get_report_text (DyStagingPanel *self)
{
  return self->report_text;
}
