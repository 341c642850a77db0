/* dy-table-view-bulk.c: what is done with the grid's selected items — a selected collection
 * stands for all its items:
 *   - Stage Delete (Delete): one staged delete per item, guarded at commit by the item as it
 *     was read (staging/writes.h);
 *   - Copy As (Ctrl+C: DynamoDB JSON lines) and Export: the items as an export writes them
 *     (DynamoDB JSON lines, plain JSON, CSV), on a worker;
 *   - Copy To: staged puts into a table of any connection (bulk/dy-copy-dialog.c);
 * and Stage Items from File, a file's items staged into this table. Nothing is written here:
 * all of it goes through the staging area, and the commit sends it.
 *
 * The items are read on a worker from the rows' spill file (unless grouped). When the view
 * shows an index that projects fewer attributes than the items hold, they are read whole from
 * the table first (BatchGetItem, strongly consistent), so that a delete is guarded by, and a
 * copy carries, the whole item. */
#define G_LOG_DOMAIN "dynoscope-browser"

#include <glib/gi18n.h>
#include <string.h>

#include "app/browser/dy-grid.h"
#include "app/browser/dy-group.h"
#include "app/browser/dy-table-view-private.h"
#include "app/bulk/dy-bulk-report.h"
#include "app/bulk/dy-copy-dialog.h"
#include "engine/snapshot.h"
#include "staging/batchread.h"

/* ---- The selected items ---- */

static void
add_group_items (GPtrArray *items, DyGroup *group)
{
  GListModel *members = dy_group_get_items (group);

  for (guint i = 0; members != NULL && i < g_list_model_get_n_items (members); i++)
    {
      g_autoptr (GObject) member = g_list_model_get_item (members, i);

      if (DY_IS_ITEM (member))
        g_ptr_array_add (items, ddb_value_copy (dy_item_get_value (DY_ITEM (member))));
      else if (DY_IS_GROUP (member))
        add_group_items (items, DY_GROUP (member));
    }
}

/* Whether one of ROW's collections (a tree row's parents) is in GROUPS. */
static gboolean
inside_selected_group (gpointer row, GHashTable *groups)
{
  GtkTreeListRow *parent;

  if (!GTK_IS_TREE_LIST_ROW (row) || g_hash_table_size (groups) == 0)
    return FALSE;
  for (parent = gtk_tree_list_row_get_parent (row); parent != NULL;)
    {
      g_autoptr (GObject) held = gtk_tree_list_row_get_item (parent);
      GtkTreeListRow *up = gtk_tree_list_row_get_parent (parent);

      g_object_unref (parent);
      if (g_hash_table_contains (groups, held))
        {
          g_clear_object (&up);
          return TRUE;
        }
      parent = up;
    }
  return FALSE;
}

/* The selected items (DdbValue copies), each once: a selected collection gives all its items,
 * and its own rows, selected too, are not taken again. */
static GPtrArray *
selected_values (DyTableView *self)
{
  g_autoptr (GtkBitset) set = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  g_autoptr (GHashTable) groups = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  GtkBitsetIter iter;
  guint position;

  for (gboolean more = gtk_bitset_iter_init_first (&iter, set, &position); more;
       more = gtk_bitset_iter_next (&iter, &position))
    {
      g_autoptr (GObject) row = dy_row_feed_get_row (self->feed, position);
      GObject *held = dy_grid_row_item (row);

      if (DY_IS_GROUP (held))
        g_hash_table_add (groups, held);
      else
        g_clear_object (&held);
    }
  for (gboolean more = gtk_bitset_iter_init_first (&iter, set, &position); more;
       more = gtk_bitset_iter_next (&iter, &position))
    {
      g_autoptr (GObject) row = dy_row_feed_get_row (self->feed, position);
      g_autoptr (GObject) held = dy_grid_row_item (row);

      if (inside_selected_group (row, groups))
        continue;
      if (DY_IS_ITEM (held))
        g_ptr_array_add (items, ddb_value_copy (dy_item_get_value (DY_ITEM (held))));
      else if (DY_IS_GROUP (held))
        add_group_items (items, DY_GROUP (held));
    }
  return items;
}

/* The selected rows' positions in the view's rows (guint32), when the grid shows them flat, as
 * loaded or in a column's order: a worker then reads the items from a snapshot of the rows,
 * so that the main loop decodes none. NULL when grouped, or while the rows shown before are
 * being taken away. */
static GArray *
selected_positions (DyTableView *self)
{
  g_autoptr (GtkBitset) set = NULL;
  GtkBitsetIter iter;
  GArray *positions;
  guint position;

  if (dy_row_selection_get_model (self->selection) != G_LIST_MODEL (self->feed)
      || (!DY_IS_ROWS (dy_row_feed_get_source (self->feed))
          && !DY_IS_ROW_LIST (dy_row_feed_get_source (self->feed))))
    return NULL;
  set = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  positions = g_array_sized_new (FALSE, FALSE, sizeof (guint32), gtk_bitset_get_size (set));
  for (gboolean more = gtk_bitset_iter_init_first (&iter, set, &position); more;
       more = gtk_bitset_iter_next (&iter, &position))
    {
      guint at = dy_row_feed_get_source_position (self->feed, position);

      if (at == G_MAXUINT)
        {
          g_array_unref (positions);
          return NULL;
        }
      g_array_append_val (positions, at);
    }
  return positions;
}

/* The index the view shows projects fewer attributes than the table's items hold. */
static gboolean
index_projects_part (DyTableView *self)
{
  const DyTableViewKeys *keys = dy_table_view_current_keys (self);
  json_t *indexes[2];

  if (keys == NULL || keys->name == NULL || self->description == NULL)
    return FALSE;
  indexes[0] = json_object_get (self->description, "GlobalSecondaryIndexes");
  indexes[1] = json_object_get (self->description, "LocalSecondaryIndexes");
  for (guint k = 0; k < G_N_ELEMENTS (indexes); k++)
    {
      size_t i;
      json_t *index;

      json_array_foreach (indexes[k], i, index)
        if (g_strcmp0 (json_string_value (json_object_get (index, "IndexName")), keys->name) == 0)
          return g_strcmp0 (json_string_value (json_object_get (
                                json_object_get (index, "Projection"), "ProjectionType")),
                            "ALL")
                 != 0;
    }
  return FALSE;
}

/* ---- Bulk work on a worker: gather the items, then format, write or hand them back ---- */

typedef enum {
  BULK_DELETE,
  BULK_COPY_AS,
  BULK_EXPORT,
  BULK_COPY_TO,
} BulkKind;

typedef struct {
  BulkKind kind;
  DyRowsSnapshot *snapshot; /* the loaded rows, read on the worker: */
  GArray *positions;        /* those selected (guint32), or NULL: all of them; or */
  GPtrArray *items;         /* the selected items, gathered on the main thread (grouped) */
  gboolean refetch;         /* read whole from the table first */
  DyConnection *connection;
  char *table;
  GStrv key_names;
  guint n_gone; /* refetch: items no longer in the table */
  guint n_items; /* copy as, export: the items written (freed on the worker) */
  DdbSnapshotFormat format;
  char *path;   /* export */
  char *text;   /* copy as */
  DyConnection *target; /* copy to */
  char *target_table;
  gboolean overwrite;
} Bulk;

static void
bulk_free (Bulk *b)
{
  g_clear_pointer (&b->snapshot, dy_rows_snapshot_free);
  g_clear_pointer (&b->positions, g_array_unref);
  g_clear_pointer (&b->items, g_ptr_array_unref);
  g_clear_object (&b->connection);
  g_free (b->table);
  g_strfreev (b->key_names);
  g_free (b->path);
  g_free (b->text);
  g_clear_object (&b->target);
  g_free (b->target_table);
  g_free (b);
}

static gboolean
read_snapshot (Bulk *b, GCancellable *cancellable, GError **error)
{
  guint n = b->positions != NULL ? b->positions->len : dy_rows_snapshot_get_n (b->snapshot);

  b->items = g_ptr_array_new_full (n, (GDestroyNotify) ddb_value_free);
  for (guint i = 0; i < n; i++)
    {
      guint at = b->positions != NULL ? g_array_index (b->positions, guint32, i) : i;
      DdbValue *item;

      if ((i & 1023) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if ((item = dy_rows_snapshot_read (b->snapshot, at, error)) == NULL)
        return FALSE;
      g_ptr_array_add (b->items, item);
    }
  return TRUE;
}

/* The items read whole from the table by their keys; those gone are dropped (counted). */
static gboolean
refetch (Bulk *b, GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  g_autoptr (GPtrArray) whole = NULL;
  g_autoptr (GPtrArray) found = NULL;
  g_autoptr (DdbBackend) backend = dy_connection_open_backend (b->connection, 0, error);

  if (backend == NULL)
    return FALSE;
  for (guint i = 0; i < b->items->len; i++)
    {
      DdbValue *key = ddb_value_new_m ();

      for (guint k = 0; b->key_names[k] != NULL; k++)
        {
          const DdbValue *v = ddb_value_map_get (b->items->pdata[i], b->key_names[k]);

          if (v != NULL)
            ddb_value_map_set (key, b->key_names[k], ddb_value_copy (v));
        }
      g_ptr_array_add (keys, key);
    }
  if ((whole = ddb_batch_read_items (backend, b->table, keys, cancellable, error)) == NULL)
    return FALSE;
  found = g_ptr_array_new_full (whole->len, (GDestroyNotify) ddb_value_free);
  for (guint i = 0; i < whole->len; i++)
    if (whole->pdata[i] != NULL)
      g_ptr_array_add (found, g_steal_pointer (&whole->pdata[i]));
    else
      b->n_gone++;
  g_ptr_array_unref (b->items);
  b->items = g_steal_pointer (&found);
  return TRUE;
}

static void
bulk_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Bulk *b = task_data;
  GError *error = NULL;
  gboolean ok = TRUE;

  if (b->snapshot != NULL)
    ok = read_snapshot (b, cancellable, &error);
  if (ok && b->refetch)
    ok = refetch (b, cancellable, &error);
  if (ok && b->kind == BULK_COPY_AS)
    ok = (b->text = ddb_snapshot_format_items (b->items, b->format, &error)) != NULL;
  else if (ok && b->kind == BULK_EXPORT)
    ok = ddb_snapshot_write_items (b->path, b->items, b->format, NULL, NULL, cancellable, NULL,
                                   &error);
  /* the items of a copy or an export are not needed any more: freed here, not on the main
   * loop (a hundred thousand items take a while to free) */
  if (ok && (b->kind == BULK_COPY_AS || b->kind == BULK_EXPORT))
    {
      b->n_items = b->items->len;
      g_clear_pointer (&b->items, g_ptr_array_unref);
    }
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
set_busy (DyTableView *self, const char *status)
{
  g_free (self->bulk_status);
  self->bulk_status = g_strdup (status);
  if (status == NULL)
    g_clear_object (&self->bulk_cancellable);
  else if (self->bulk_cancellable == NULL)
    self->bulk_cancellable = g_cancellable_new ();
  dy_table_view_selection_update (self);
}

/* Tells the window: MESSAGE as a toast, and the staging panel shown for what was staged on
 * CONNECTION's TABLE (NULL: nothing staged). */
static void
announce (DyTableView *self, const char *message, DyConnection *connection, const char *table)
{
  g_signal_emit_by_name (self, "bulk-done", message, connection, table);
}

static char *
gone_note (Bulk *b)
{
  if (b->n_gone == 0)
    return g_strdup ("");
  /* TRANSLATORS: appended to what was done with the selected items */
  return g_strdup_printf (ngettext (" (%u item is no longer in the table)",
                                    " (%u items are no longer in the table)", b->n_gone),
                          b->n_gone);
}

static void
delete_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyTableView) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  DdbExprStageReport report = { 0 };

  set_busy (self, NULL);
  if (!dy_staging_stage_expression_finish (DY_STAGING (source), result, &report, &error))
    {
      dy_table_view_show_error (self, error->message);
      return;
    }
  if (report.n_failed > 0)
    {
      const DdbExprStageFailure *first = report.failures->pdata[0];

      /* TRANSLATORS: how many deletes were staged, how many refused, then the first refusal */
      text = g_strdup_printf (ngettext ("Staged %u delete; %u refused: %s",
                                        "Staged %u deletes; %u refused: %s", report.n_staged),
                              report.n_staged, report.n_failed, first->message);
      dy_table_view_show_error (self, text);
    }
  else
    text = g_strdup_printf (ngettext ("Staged %u delete", "Staged %u deletes", report.n_staged),
                            report.n_staged);
  announce (self, text, report.n_staged > 0 ? self->connection : NULL, self->table_name);
  ddb_expr_stage_report_clear (&report);
}

/* Puts staged into a table (a copy of the selection, a file's items): the view, where they
 * went, and whether they came from a file, for the report. */
typedef struct {
  DyTableView *view;
  DyConnection *target;
  char *table;
  gboolean from_file;
} Puts;

static void
puts_free (Puts *p)
{
  g_object_unref (p->view);
  g_object_unref (p->target);
  g_free (p->table);
  g_free (p);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Puts, puts_free)

static Puts *
puts_new (DyTableView *view, DyConnection *target, const char *table, gboolean from_file)
{
  Puts *p = g_new0 (Puts, 1);

  p->view = g_object_ref (view);
  p->target = g_object_ref (target);
  p->table = g_strdup (table);
  p->from_file = from_file;
  return p;
}

static void
puts_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (Puts) p = user_data;
  DyTableView *self = p->view;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  DdbCopyStageReport report = { 0 };
  guint n;

  set_busy (self, NULL);
  if (!dy_staging_copy_finish (DY_STAGING (source), result, &report, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        dy_table_view_show_error (self, error->message);
      return;
    }
  if (report.n_failed > 0)
    {
      dy_bulk_report_show (GTK_WIDGET (self), _ ("Nothing Was Staged"), &report);
      ddb_copy_stage_report_clear (&report);
      return;
    }
  n = report.n_created + report.n_overwritten;
  if (p->from_file)
    text = g_strdup_printf (ngettext ("Staged %u item of the file (%u overwriting, %u already "
                                      "there as they are)",
                                      "Staged %u items of the file (%u overwriting, %u already "
                                      "there as they are)",
                                      n),
                            n, report.n_overwritten, report.n_unchanged);
  else
    /* TRANSLATORS: items staged as copies into a table (%s) of a connection (%s) */
    text = g_strdup_printf (ngettext ("Staged %u item into %s in %s (%u overwriting, %u already "
                                      "there as they are)",
                                      "Staged %u items into %s in %s (%u overwriting, %u already "
                                      "there as they are)",
                                      n),
                            n, p->table, dy_connection_get_title (p->target),
                            report.n_overwritten, report.n_unchanged);
  announce (self, text, p->target, p->table);
  ddb_copy_stage_report_clear (&report);
}

/* TEXT (taken) on the clipboard, without a copy (a large selection is megabytes of it). */
static void
set_clipboard (DyTableView *self, char *text)
{
  g_autoptr (GBytes) bytes = g_bytes_new_take (text, strlen (text));
  g_autoptr (GdkContentProvider) provider
      = gdk_content_provider_new_for_bytes ("text/plain;charset=utf-8", bytes);

  gdk_clipboard_set_content (gtk_widget_get_clipboard (GTK_WIDGET (self)), provider);
}

static void
bulk_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyTableView *self = DY_TABLE_VIEW (source);
  Bulk *b = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autofree char *gone = NULL;
  g_autofree char *text = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      set_busy (self, NULL);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        dy_table_view_show_error (self, error->message);
      return;
    }
  gone = gone_note (b);
  switch (b->kind)
    {
    case BULK_COPY_AS:
      set_busy (self, NULL);
      set_clipboard (self, g_steal_pointer (&b->text));
      /* TRANSLATORS: %s: "DynamoDB JSON", "JSON" or "CSV"; then a note on missing items */
      text = g_strdup_printf (ngettext ("Copied %u item as %s%s", "Copied %u items as %s%s",
                                        b->n_items),
                              b->n_items,
                              b->format == DDB_SNAPSHOT_CSV    ? "CSV"
                              : b->format == DDB_SNAPSHOT_JSON ? "JSON"
                                                               : _ ("DynamoDB JSON"),
                              gone);
      announce (self, text, NULL, NULL);
      break;
    case BULK_EXPORT:
      {
        g_autofree char *name = g_path_get_basename (b->path);

        set_busy (self, NULL);
        text = g_strdup_printf (ngettext ("Exported %u item to %s%s", "Exported %u items to %s%s",
                                          b->n_items),
                                b->n_items, name, gone);
        announce (self, text, NULL, NULL);
      }
      break;
    case BULK_DELETE:
      {
        const char *key_names[] = { b->key_names[0], b->key_names[1], NULL };

        text = g_strdup_printf (ngettext ("Staging %u delete…", "Staging %u deletes…",
                                          b->items->len),
                                b->items->len);
        set_busy (self, text);
        dy_staging_stage_expression_async (dy_staging_get_default (), self->connection,
                                           self->table_name, key_names, NULL, NULL,
                                           g_steal_pointer (&b->items), delete_done,
                                           g_object_ref (self));
      }
      break;
    case BULK_COPY_TO:
      text = g_strdup_printf (ngettext ("Staging %u item into %s…", "Staging %u items into %s…",
                                        b->items->len),
                              b->items->len, b->target_table);
      set_busy (self, text);
      dy_staging_copy_async (dy_staging_get_default (), b->target, b->target_table,
                             (const char *const *) b->key_names, b->overwrite,
                             g_steal_pointer (&b->items), self->bulk_cancellable, puts_done,
                             puts_new (self, b->target, b->target_table, FALSE));
      break;
    }
}

/* Gathers the selection (read from the rows on the worker, unless grouped) and runs B's work
 * on it. */
static void
bulk_start (DyTableView *self, Bulk *b, const char *status)
{
  g_autoptr (GTask) task = NULL;
  const DyTableViewKeys *table;

  if (self->bulk_cancellable != NULL || self->keys == NULL || self->keys->len == 0)
    {
      bulk_free (b);
      return;
    }
  table = self->keys->pdata[0];
  b->connection = g_object_ref (self->connection);
  b->table = g_strdup (self->table_name);
  b->key_names = g_new0 (char *, 3);
  b->key_names[0] = g_strdup (table->pk);
  b->key_names[1] = g_strdup (table->sk);
  b->refetch = index_projects_part (self);
  if (dy_table_view_all_rows_selected (self))
    b->snapshot = dy_rows_snapshot (self->items);
  else if ((b->positions = selected_positions (self)) != NULL)
    b->snapshot = dy_rows_snapshot (self->items);
  else
    b->items = selected_values (self);
  set_busy (self, status);
  task = g_task_new (self, self->bulk_cancellable, bulk_done, NULL);
  g_task_set_source_tag (task, bulk_start);
  g_task_set_task_data (task, b, (GDestroyNotify) bulk_free);
  g_task_run_in_thread (task, bulk_thread);
}

static gboolean
format_from_name (const char *name, DdbSnapshotFormat *format)
{
  return ddb_snapshot_format_from_name (name, format) && *format != DDB_SNAPSHOT_S3
         && *format != DDB_SNAPSHOT_AUTO;
}

static void
delete_selected_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  Bulk *b = g_new0 (Bulk, 1);

  b->kind = BULK_DELETE;
  bulk_start (self, b, _ ("Reading the selected items…"));
}

static void
copy_selected_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  Bulk *b = g_new0 (Bulk, 1);

  b->kind = BULK_COPY_AS;
  if (!format_from_name (g_variant_get_string (parameter, NULL), &b->format))
    b->format = DDB_SNAPSHOT_JSONL;
  bulk_start (self, b, _ ("Copying the selected items…"));
}

void
dy_table_view_export_selected (DyTableView *self, const char *path, DdbSnapshotFormat format)
{
  Bulk *b = g_new0 (Bulk, 1);

  g_return_if_fail (DY_IS_TABLE_VIEW (self));
  b->kind = BULK_EXPORT;
  b->format = format;
  b->path = g_strdup (path);
  bulk_start (self, b, _ ("Exporting the selected items…"));
}

static void
export_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  g_autoptr (DyTableView) self = user_data;
  Bulk *b = g_object_get_data (G_OBJECT (dialog), "bulk");

  g_object_set_data (G_OBJECT (dialog), "bulk", NULL);
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      if (file != NULL && (b->path = g_file_get_path (file)) != NULL)
        {
          bulk_start (self, b, _ ("Exporting the selected items…"));
          b = NULL;
        }
    }
  g_clear_pointer (&b, bulk_free);
  g_object_unref (dialog);
}

static void
export_selected_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *name = NULL;
  GtkFileChooserNative *dialog;
  const char *suffix;
  Bulk *b = g_new0 (Bulk, 1);

  b->kind = BULK_EXPORT;
  if (!format_from_name (g_variant_get_string (parameter, NULL), &b->format))
    b->format = DDB_SNAPSHOT_JSONL;
  suffix = b->format == DDB_SNAPSHOT_CSV ? "csv" : b->format == DDB_SNAPSHOT_JSON ? "json" : "jsonl";
  dialog = gtk_file_chooser_native_new (_ ("Export the Selected Items"),
                                        GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), _ ("_Cancel"));
  gtk_file_filter_set_name (filter, b->format == DDB_SNAPSHOT_CSV    ? _ ("CSV")
                                    : b->format == DDB_SNAPSHOT_JSON ? _ ("JSON")
                                                                     : _ ("DynamoDB JSON lines"));
  {
    g_autofree char *pattern = g_strdup_printf ("*.%s", suffix);
    g_autofree char *gz = g_strdup_printf ("*.%s.gz", suffix);

    gtk_file_filter_add_pattern (filter, pattern);
    gtk_file_filter_add_pattern (filter, gz);
  }
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  name = g_strdup_printf ("%s.%s", self->table_name, suffix);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_object_set_data_full (G_OBJECT (dialog), "bulk", b, (GDestroyNotify) bulk_free);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (export_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
dy_table_view_copy_selected_to (DyTableView *self, DyConnection *target, const char *table,
                                gboolean overwrite)
{
  Bulk *b = g_new0 (Bulk, 1);

  b->kind = BULK_COPY_TO;
  b->target = g_object_ref (target);
  b->target_table = g_strdup (table);
  b->overwrite = overwrite;
  bulk_start (self, b, _ ("Reading the selected items…"));
}

static void
copy_dialog_chosen (DyTableView *self, DyConnection *target, const char *table,
                    gboolean overwrite)
{
  dy_table_view_copy_selected_to (self, target, table, overwrite);
}

static void
copy_selected_to_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  const DyTableViewKeys *table = self->keys->pdata[0];
  GtkRoot *root = gtk_widget_get_root (widget);
  DyCopyDialog *dialog = dy_copy_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                             self->connection, self->table_name, table->pk,
                                             table->sk);

  g_signal_connect_object (dialog, "chosen", G_CALLBACK (copy_dialog_chosen), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ---- Stage Items from File ---- */

static void
stage_file (DyTableView *self, const char *path, gboolean overwrite)
{
  g_autofree char *name = g_path_get_basename (path);
  g_autofree char *status = g_strdup_printf (_ ("Checking the items of %s…"), name);

  if (self->bulk_cancellable != NULL)
    return;
  set_busy (self, status);
  dy_staging_copy_file_async (dy_staging_get_default (), self->connection, self->table_name,
                              path, DDB_SNAPSHOT_AUTO, overwrite, self->bulk_cancellable,
                              puts_done, puts_new (self, self->connection, self->table_name, TRUE));
}

static void
stage_file_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  g_autoptr (DyTableView) self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      const char *choice = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "overwrite");

      if (path != NULL)
        stage_file (self, path, g_strcmp0 (choice, "true") == 0);
    }
  g_object_unref (dialog);
}

static void
stage_file_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  GtkFileChooserNative *dialog;
  static const char *const patterns[]
      = { "*.jsonl", "*.ndjson", "*.json", "*.csv", "*.jsonl.gz", "*.json.gz", "*.csv.gz" };

  dialog = gtk_file_chooser_native_new (_ ("Stage Items from a File"),
                                        GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Stage"), _ ("_Cancel"));
  /* TRANSLATORS: the kinds of files whose items can be staged */
  gtk_file_filter_set_name (filter, _ ("DynamoDB JSON lines, JSON, CSV"));
  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    gtk_file_filter_add_pattern (filter, patterns[i]);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (dialog), "overwrite",
                               _ ("Overwrite items that exist"), NULL, NULL);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (dialog), "overwrite", "false");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (stage_file_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
dy_table_view_stage_file (DyTableView *self, const char *path, gboolean overwrite)
{
  g_return_if_fail (DY_IS_TABLE_VIEW (self));
  stage_file (self, path, overwrite);
}

static void
cancel_bulk_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);

  g_cancellable_cancel (self->bulk_cancellable);
}

void
dy_table_view_bulk_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "view.delete-selected", NULL,
                                   delete_selected_action);
  gtk_widget_class_install_action (widget_class, "view.copy-selected", "s", copy_selected_action);
  gtk_widget_class_install_action (widget_class, "view.export-selected", "s",
                                   export_selected_action);
  gtk_widget_class_install_action (widget_class, "view.copy-selected-to", NULL,
                                   copy_selected_to_action);
  gtk_widget_class_install_action (widget_class, "view.stage-file", NULL, stage_file_action);
  gtk_widget_class_install_action (widget_class, "view.cancel-bulk", NULL, cancel_bulk_action);
  g_signal_new ("bulk-done", G_TYPE_FROM_CLASS (widget_class), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                NULL, G_TYPE_NONE, 3, G_TYPE_STRING, DY_TYPE_CONNECTION, G_TYPE_STRING);
}

void
dy_table_view_bulk_dispose (DyTableView *self)
{
  g_cancellable_cancel (self->bulk_cancellable);
  g_clear_object (&self->bulk_cancellable);
  g_clear_pointer (&self->bulk_status, g_free);
}
