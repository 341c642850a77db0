/* dy-table-view-arrange.c: the order of the table view's grid: the rows as loaded, sorted by
 * the columns the user picked (client-side: every row loaded, numbers exactly), or grouped
 * into item collections by partition key; and of those, only the rows holding the text of Find
 * in Loaded Rows (dy-row-match.h) when it has one. Each reads every row, so past a few they
 * run on a worker over a snapshot of the rows while the grid shows the previous order. */
#define G_LOG_DOMAIN "dynoscope-table-view"

#include <glib/gi18n.h>

#include "app/browser/dy-group.h"
#include "app/common/dy-item.h"
#include "app/browser/dy-row-arrange.h"
#include "app/browser/dy-table-view-private.h"

static GtkSorter *
column_sorter (DyTableView *self)
{
  return gtk_column_view_get_sorter (self->column_view);
}

/* Sorting and grouping read every row loaded, so they run on a worker over a snapshot of the
 * rows, unless there are so few that doing it at once costs less than a frame. */
#define ARRANGE_AT_ONCE 1000

/* Client-side sorting by columns: the column view's sorter says which columns sort, in which
 * priority and direction, only through comparisons, so ask it with probe items holding one or
 * two attributes. Returns DyRowSortKey*, the primary column first. */
static DyItem *
probe_item (const char *name, const char *text, const char *name2, const char *text2)
{
  DdbValue *map = ddb_value_new_m ();

  ddb_value_map_set (map, name, ddb_value_new_s (text, -1));
  if (name2 != NULL)
    ddb_value_map_set (map, name2, ddb_value_new_s (text2, -1));
  return dy_item_new (map);
}

static int
probe (DyTableView *self, const char *name, gboolean a_first, const char *name2,
       gboolean a_first2)
{
  g_autoptr (DyItem) a = probe_item (name, a_first ? "a" : "b", name2, a_first2 ? "a" : "b");
  g_autoptr (DyItem) b = probe_item (name, a_first ? "b" : "a", name2, a_first2 ? "b" : "a");

  return gtk_sorter_compare (column_sorter (self), a, b);
}

static int
compare_priority (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const DyRowSortKey *ka = *(DyRowSortKey **) a;
  const DyRowSortKey *kb = *(DyRowSortKey **) b;
  int first = ka->descending ? GTK_ORDERING_LARGER : GTK_ORDERING_SMALLER;

  /* A's column alone would answer FIRST, B's the opposite: the answer says which one leads. */
  return probe (user_data, ka->name, TRUE, kb->name, ka->descending == kb->descending ? FALSE : TRUE)
             == first ? -1 : 1;
}

static GPtrArray *
sort_keys (DyTableView *self)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func ((GDestroyNotify) dy_row_sort_key_free);
  GHashTableIter iter;
  gpointer name;

  g_hash_table_iter_init (&iter, self->columns);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    {
      int order = probe (self, name, TRUE, NULL, FALSE);

      if (order != GTK_ORDERING_EQUAL)
        g_ptr_array_add (keys, dy_row_sort_key_new (name, order == GTK_ORDERING_LARGER));
    }
  g_ptr_array_sort_with_data (keys, compare_priority, self);
  return keys;
}

typedef struct {
  DyRows *rows;
  DyRowsSnapshot *snapshot;
  guint n;           /* rows in the snapshot */
  DyRowMatch *match; /* the rows kept: those holding Find's text; NULL: all */
  guint kept;        /* how many, once arranged */
  GPtrArray *keys;   /* DyRowSortKey*: sorting (none: the rows kept in their loaded order) */
  char *pk;        /* grouping */
  char *sk;
  gboolean descending;
  guint serial;
} Arrange;

static void
arrange_free (Arrange *job)
{
  g_object_unref (job->rows);
  dy_rows_snapshot_free (job->snapshot);
  dy_row_match_free (job->match);
  if (job->keys != NULL)
    g_ptr_array_unref (job->keys);
  g_free (job->pk);
  g_free (job->sk);
  g_free (job);
}

/* The job's sort (a GArray of positions) or grouping (a GtkTreeListModel of the collections,
 * the first one open, made here so that the main thread does not make a node per collection);
 * NULL if cancelled or unreadable. */
static gpointer
arrange_rows (Arrange *job, GCancellable *cancellable, GError **error)
{
  GListModel *groups;
  GtkTreeListModel *tree;

  if (job->keys != NULL)
    {
      GArray *positions
          = dy_row_arrange_sort (job->snapshot, job->match, job->keys, cancellable, error);

      if (positions != NULL)
        job->kept = positions->len;
      return positions;
    }
  groups = dy_row_arrange_group (job->rows, job->snapshot, job->match, job->pk, job->sk,
                                 job->descending, _ ("(no partition key)"), &job->kept, cancellable,
                                 error);
  if (groups == NULL)
    return NULL;
  tree = gtk_tree_list_model_new (groups, FALSE, FALSE, dy_group_tree_children, NULL, NULL);
  /* The first collection opens at once, so grouping shows items, not only headings. */
  if (g_list_model_get_n_items (G_LIST_MODEL (tree)) > 0)
    {
      g_autoptr (GtkTreeListRow) first = gtk_tree_list_model_get_row (tree, 0);

      gtk_tree_list_row_set_expanded (first, TRUE);
    }
  return tree;
}

static void
arranged_free (Arrange *job, gpointer done)
{
  if (done == NULL)
    return;
  if (job->keys != NULL)
    g_array_unref (done);
  else
    g_object_unref (done);
}

static void
arrange_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Arrange *job = task_data;
  GError *error = NULL;
  gpointer done = arrange_rows (job, cancellable, &error);

  dy_table_view_release_freed_memory ();
  if (done == NULL)
    g_task_return_error (task, error);
  else if (job->keys != NULL)
    g_task_return_pointer (task, done, (GDestroyNotify) g_array_unref);
  else
    g_task_return_pointer (task, done, g_object_unref);
}

static void
show_sorted (DyTableView *self, Arrange *job, GArray *positions)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->items));

  g_clear_object (&self->order);
  self->order = dy_row_list_new (self->items, positions);
  self->sort_dirty = FALSE;
  self->found = job->match != NULL ? job->kept : job->n;
  /* Rows loaded while it sorted go at the end, until the next sort (or are looked at by the
   * next Find, after their page). */
  if (job->n < n)
    dy_table_view_rows_added (self, job->n, n);
  dy_table_view_show_rows (self, G_LIST_MODEL (self->order));
  dy_table_view_find_update (self);
}

static void
show_groups (DyTableView *self, GtkTreeListModel *tree, guint kept)
{
  /* Sorting by a column header sorts the items within their collection, a step at a time. */
  if (self->sorting)
    {
      GtkSortListModel *sorted = gtk_sort_list_model_new (
        G_LIST_MODEL (g_object_ref (tree)),
        GTK_SORTER (gtk_tree_list_row_sorter_new (g_object_ref (column_sorter (self)))));

      gtk_sort_list_model_set_incremental (sorted, TRUE);
      dy_table_view_show_rows (self, G_LIST_MODEL (sorted));
      g_object_unref (sorted);
    }
  else
    dy_table_view_show_rows (self, G_LIST_MODEL (tree));
  gtk_column_view_column_set_visible (self->tree_column, TRUE);
  self->found = kept;
  dy_table_view_find_update (self);
}

void
dy_table_view_drop_waiting_groups (DyTableView *self)
{
  if (self->groups_idle == 0)
    return;
  g_clear_handle_id (&self->groups_idle, g_source_remove);
  g_clear_object (&self->groups_waiting);
  self->arranging = FALSE;
}

static gboolean
show_waiting_groups (gpointer data)
{
  DyTableView *self = data;
  g_autoptr (GListModel) tree = g_steal_pointer (&self->groups_waiting);

  self->groups_idle = 0;
  self->arranging = FALSE;
  show_groups (self, GTK_TREE_LIST_MODEL (tree), self->groups_kept);
  return G_SOURCE_REMOVE;
}

/* Shows a sort's or grouping's result DONE (taken), unless the rows changed meanwhile. */
static void
show_arranged (DyTableView *self, Arrange *job, gpointer done, GError *error)
{
  if (job->serial != self->arrange_serial)
    {
      arranged_free (job, done);
      return;
    }
  self->arranging = FALSE;
  if (done == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        dy_table_view_show_error (self, error->message);
    }
  else if (job->keys != NULL)
    show_sorted (self, job, done);
  else if (job->n > ARRANGE_AT_ONCE && !gtk_column_view_column_get_visible (self->tree_column))
    {
      /* GTK makes the Collection column's cells of every row with widgets as it is shown, and
       * the collections take the rows' places in the next iteration, after a frame: each
       * alone holds the window less than both. */
      gtk_column_view_column_set_visible (self->tree_column, TRUE);
      self->arranging = TRUE;
      self->groups_waiting = done;
      self->groups_kept = job->kept;
      self->groups_idle
          = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, show_waiting_groups, self, NULL);
    }
  else
    {
      show_groups (self, done, job->kept);
      g_object_unref (done);
    }
}

static void
arranged (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  gpointer done = g_task_propagate_pointer (G_TASK (result), &error);

  show_arranged (DY_TABLE_VIEW (source), g_task_get_task_data (G_TASK (result)), done, error);
}

/* Sorts (KEYS given) or groups the rows loaded, at once or on a worker. */
static void
arrange (DyTableView *self, GPtrArray *keys)
{
  Arrange *job = g_new0 (Arrange, 1);
  const DyTableViewKeys *info = dy_table_view_current_keys (self);
  g_autoptr (GTask) task = NULL;

  g_cancellable_cancel (self->arrange_cancellable);
  g_clear_object (&self->arrange_cancellable);
  self->arrange_cancellable = g_cancellable_new ();
  job->rows = g_object_ref (self->items);
  job->snapshot = dy_rows_snapshot (self->items);
  job->n = dy_rows_snapshot_get_n (job->snapshot);
  job->match = dy_row_match_new (self->find_text);
  job->keys = keys;
  if (keys == NULL)
    {
      job->pk = g_strdup (info->pk);
      job->sk = g_strdup (info->sk);
      job->descending = gtk_toggle_button_get_active (self->desc_toggle);
    }
  job->serial = ++self->arrange_serial;
  self->arranging = TRUE;
  if (job->n <= ARRANGE_AT_ONCE)
    {
      /* Few rows: the result is shown before this returns. */
      g_autoptr (GError) error = NULL;
      gpointer done = arrange_rows (job, NULL, &error);

      show_arranged (self, job, done, error);
      arrange_free (job);
      return;
    }
  task = g_task_new (self, self->arrange_cancellable, arranged, NULL);
  g_task_set_source_tag (task, arrange);
  g_task_set_task_data (task, job, (GDestroyNotify) arrange_free);
  g_task_run_in_thread (task, arrange_thread);
}

static gboolean
hide_tree_column (gpointer data)
{
  DyTableView *self = data;

  self->tree_hide_idle = 0;
  if (!self->grouped)
    gtk_column_view_column_set_visible (self->tree_column, FALSE);
  return G_SOURCE_REMOVE;
}

void
dy_table_view_rebuild_rows (DyTableView *self)
{
  GPtrArray *keys = NULL;

  self->sorting = gtk_sorter_get_order (column_sorter (self)) != GTK_SORTER_ORDER_NONE;
  /* A sort or grouping on its way is for rows shown before. */
  g_cancellable_cancel (self->arrange_cancellable);
  dy_table_view_drop_waiting_groups (self);
  self->arrange_serial++;
  self->arranging = FALSE;
  self->sort_dirty = FALSE;
  if (self->grouped && self->ready)
    {
      g_clear_object (&self->order);
      arrange (self, NULL);
      return;
    }
  /* GTK destroys the Collection column's cells of every row with widgets as it hides it: in
   * the next iteration, after a frame, so that the flat rows' taking the collections' places
   * and that each hold the window alone. */
  if (gtk_column_view_column_get_visible (self->tree_column) && self->tree_hide_idle == 0)
    self->tree_hide_idle = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, hide_tree_column, self, NULL);
  if (self->sorting && self->ready)
    keys = sort_keys (self);
  if ((keys == NULL || keys->len == 0) && !dy_table_view_finding (self))
    {
      /* Without a sort column the grid shows the rows as loaded, in DynamoDB's order, at no
       * cost. */
      g_clear_object (&self->order);
      dy_table_view_show_rows (self, G_LIST_MODEL (self->items));
      if (keys != NULL)
        g_ptr_array_unref (keys);
      self->found = g_list_model_get_n_items (G_LIST_MODEL (self->items));
      dy_table_view_find_update (self);
      return;
    }
  if (keys == NULL)
    keys = g_ptr_array_new_with_free_func ((GDestroyNotify) dy_row_sort_key_free);
  /* Until the new order is made, the grid shows the previous one (rows loaded since at its
   * end), or the rows as loaded. */
  if (self->order == NULL || dy_row_feed_get_source (self->feed) != G_LIST_MODEL (self->order))
    {
      g_clear_object (&self->order);
      dy_table_view_show_rows (self, G_LIST_MODEL (self->items));
    }
  arrange (self, keys);
}

void
dy_table_view_scroll_to_top (DyTableView *self)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view));

  if (adjustment != NULL)
    gtk_adjustment_set_value (adjustment, 0);
}

void
dy_table_view_show_rows (DyTableView *self, GListModel *source)
{
  if (dy_row_selection_get_model (self->selection) == G_LIST_MODEL (self->feed)
      && dy_row_feed_get_source (self->feed) == source)
    return;
  dy_row_feed_set_source (self->feed, source);
  dy_row_selection_set_model (self->selection, G_LIST_MODEL (self->feed));
  dy_table_view_scroll_to_top (self);
}

void
dy_table_view_rows_added (DyTableView *self, guint from, guint to)
{
  if (self->order != NULL && !self->grouped)
    {
      /* Rows Find has not looked at are not shown until it has. */
      if (!dy_table_view_finding (self))
        dy_row_list_append_range (self->order, from, to);
      self->sort_dirty = TRUE;
    }
  if (!dy_table_view_finding (self))
    self->found += to - from;
}

void
dy_table_view_rearrange (DyTableView *self)
{
  gboolean ordered = self->sorting || dy_table_view_finding (self);

  if (self->grouped || (ordered && (self->sort_dirty || self->order == NULL)))
    dy_table_view_rebuild_rows (self);
}
