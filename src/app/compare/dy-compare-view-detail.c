/* dy-compare-view-detail.c: the Compare window's detail (see dy-compare-view.h): the selected
 * difference read again from the compare's temporary database on a worker thread (the list keeps
 * only keys), and its values side by side, a path a row: base | here | there with a base (each
 * side marked where it differs from the base), here | there without (there struck where a push
 * replaces it, here tinted where it writes), as the staging panel renders values. */
#define G_LOG_DOMAIN "dynoscope-compare-view"

#include <glib/gi18n.h>

#include "app/compare/dy-compare-view-private.h"
#include "app/common/dy-diff-markup.h"
#include "core/expr.h"
#include "staging/diff.h"

/* Paths shown before "and N more". */
#define MAX_PATHS 200

typedef struct {
  char *path;
  DdbValue *base, *here, *there; /* NULL: absent on that side */
} DetailRow;

static void
detail_row_free (DetailRow *r)
{
  g_free (r->path);
  g_clear_pointer (&r->base, ddb_value_free);
  g_clear_pointer (&r->here, ddb_value_free);
  g_clear_pointer (&r->there, ddb_value_free);
  g_free (r);
}

typedef struct {
  guint generation; /* of the window's result this reads (the task holds the window) */
  guint index, at;
  GCancellable *cancellable;
  gboolean found;
  DdbCompareKind kind;
  DdbCompareClass klass;
  gboolean pushable;
  gboolean has_base;
  DdbValue *key;
  GPtrArray *rows; /* DetailRow* */
} DetailData;

static void
detail_data_free (DetailData *d)
{
  g_clear_pointer (&d->key, ddb_value_free);
  g_clear_pointer (&d->rows, g_ptr_array_unref);
  g_free (d);
}

static DdbValue *
copy_or_null (const DdbValue *v)
{
  return v != NULL ? ddb_value_copy (v) : NULL;
}

static void
add_row (DetailData *d, const DdbCompareDifference *diff, char *path, const DdbPath *p)
{
  DetailRow *r = g_new0 (DetailRow, 1);

  r->path = path;
  if (diff->base != NULL)
    r->base = copy_or_null (ddb_path_lookup (diff->base, p));
  if (diff->here != NULL)
    r->here = copy_or_null (ddb_path_lookup (diff->here, p));
  if (diff->there != NULL)
    r->there = copy_or_null (ddb_path_lookup (diff->there, p));
  g_ptr_array_add (d->rows, r);
}

/* The top-level attributes of ITEM not listed yet. */
static void
add_attributes (DetailData *d, const DdbCompareDifference *diff, const DdbValue *item,
                GHashTable *seen)
{
  for (guint i = 0; item != NULL && i < ddb_value_map_size (item); i++)
    {
      const char *name = ddb_value_map_nth (item, i)->name;
      DdbPathElem elem = { (char *) name, 0 };
      DdbPath p = { 1, &elem };

      if (!g_hash_table_add (seen, (gpointer) name))
        continue;
      add_row (d, diff, g_strdup (name), &p);
    }
}

static gboolean
detail_each (const DdbCompareDifference *diff, gpointer data)
{
  DetailData *d = data;

  if (g_cancellable_is_cancelled (d->cancellable))
    return FALSE;
  if (d->at++ < d->index)
    return TRUE;
  d->found = TRUE;
  d->kind = diff->kind;
  d->klass = diff->klass;
  d->pushable = ddb_push_is_pushable (diff);
  d->key = ddb_value_copy (diff->key);
  d->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) detail_row_free);
  if (diff->diff != NULL)
    for (guint i = 0; i < diff->diff->len; i++)
      {
        DdbDiffEntry *e = g_ptr_array_index (diff->diff, i);

        add_row (d, diff, ddb_path_to_string (&e->path), &e->path);
      }
  else
    {
      /* an item on one side only: all its attributes (and the base's) */
      g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

      add_attributes (d, diff, diff->here, seen);
      add_attributes (d, diff, diff->there, seen);
      add_attributes (d, diff, diff->base, seen);
    }
  return FALSE;
}

static void
detail_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DyCompareView *self = source;
  DetailData *d = task_data;
  GError *error = NULL;
  gboolean ok = TRUE;

  d->cancellable = cancellable;
  g_mutex_lock (&self->result_lock);
  /* a compare made since replaced the result this was asked of */
  if (self->generation == d->generation && self->result != NULL)
    ok = ddb_compare_result_foreach (self->result, detail_each, d, &error);
  else
    g_cancellable_cancel (cancellable);
  g_mutex_unlock (&self->result_lock);
  if (!ok)
    g_task_return_error (task, error);
  else if (g_task_return_error_if_cancelled (task))
    return;
  else
    g_task_return_boolean (task, d->found);
}

/* Rendering. */

static void
clear_grid (DyCompareView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->detail_grid))) != NULL)
    gtk_grid_remove (self->detail_grid, child);
}

static GtkWidget *
cell (GtkGrid *grid, int column, int row, const char *markup, const char *css)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 28);
  gtk_widget_set_valign (label, GTK_ALIGN_START);
  gtk_widget_set_hexpand (label, column > 0);
  if (css != NULL)
    gtk_widget_add_css_class (label, css);
  gtk_grid_attach (grid, label, column, row, 1, 1);
  return label;
}

static const char *
detail_caption (const DetailData *d)
{
  if (d->has_base)
    switch (d->klass)
      {
      case DDB_COMPARE_EDITED_HERE:
        return d->kind == DDB_COMPARE_ONLY_HERE
                   ? _ ("Created here since the base: a push creates it there")
               : d->kind == DDB_COMPARE_ONLY_THERE
                   ? _ ("Deleted here since the base: a push deletes it there, if it still "
                        "holds its base version")
                   : _ ("Edited here since the base: a push updates it there, if the paths it "
                        "touches still hold their base values");
      case DDB_COMPARE_EDITED_THERE:
        return _ ("Edited there since the base, not here: left alone, never reverted");
      case DDB_COMPARE_EDITED_BOTH:
      default:
        return _ ("Edited on both sides since the base: a conflict, not pushed (stage a merged "
                  "version by hand)");
      }
  switch (d->kind)
    {
    case DDB_COMPARE_ONLY_HERE:
      return _ ("Only here: a push creates it there");
    case DDB_COMPARE_ONLY_THERE:
      return _ ("Only there: a push deletes it there");
    case DDB_COMPARE_CHANGED:
    default:
      return _ ("Changed: a push makes it there as it is here");
    }
}

static void
show_data (DyCompareView *self, DetailData *d)
{
  g_autofree char *title = dy_diff_key_title (d->key);
  GtkGrid *grid = self->detail_grid;
  int column = 1;
  guint shown = MIN (d->rows->len, (guint) MAX_PATHS);

  clear_grid (self);
  gtk_label_set_text (self->detail_title, title);
  gtk_label_set_text (self->detail_caption, detail_caption (d));
  {
    g_autofree char *attribute = g_markup_escape_text (_ ("Attribute"), -1);

    cell (grid, 0, 0, attribute, "heading");
  }
  if (d->has_base)
    {
      g_autofree char *base = g_markup_escape_text (_ ("Base"), -1);

      cell (grid, column++, 0, base, "heading");
    }
  {
    g_autofree char *here = g_markup_escape_text (_ ("Here"), -1);
    g_autofree char *there = g_markup_escape_text (_ ("There"), -1);

    gtk_widget_set_tooltip_text (cell (grid, column++, 0, here, "heading"), self->table);
    gtk_widget_set_tooltip_text (cell (grid, column++, 0, there, "heading"),
                                 self->result_other_name);
  }
  for (guint i = 0; i < shown; i++)
    {
      DetailRow *r = g_ptr_array_index (d->rows, i);
      g_autofree char *path = g_markup_escape_text (r->path, -1);
      g_autofree char *base = NULL;
      g_autofree char *here = NULL;
      g_autofree char *there = NULL;
      int row = (int) i + 1;

      column = 1;
      cell (grid, 0, row, path, "monospace");
      if (d->has_base)
        {
          base = dy_diff_value_markup (r->base, DY_DIFF_SAME);
          here = dy_diff_side_markup (r->base, r->here);
          there = dy_diff_side_markup (r->base, r->there);
          cell (grid, column++, row, base, NULL);
        }
      else
        {
          /* the push makes there as here: there's value is what it replaces */
          here = dy_diff_side_markup (r->there, r->here);
          there = dy_diff_value_markup (
              r->there, dy_diff_same_value (r->here, r->there) ? DY_DIFF_SAME : DY_DIFF_OLD);
        }
      cell (grid, column++, row, here, NULL);
      cell (grid, column++, row, there, NULL);
    }
  if (d->rows->len > shown)
    {
      g_autofree char *more = g_strdup_printf (
          g_dngettext (NULL, "and %u more path", "and %u more paths", d->rows->len - shown),
          d->rows->len - shown);

      gtk_label_set_text (self->detail_more, more);
    }
  else
    gtk_label_set_text (self->detail_more, "");
  gtk_widget_set_visible (GTK_WIDGET (self->detail_more), d->rows->len > shown);
  gtk_stack_set_visible_child_name (self->detail_stack, "detail");
}

static void
detail_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyCompareView *self = DY_COMPARE_VIEW (source);
  DetailData *d = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  gboolean found = g_task_propagate_boolean (G_TASK (result), &error);

  if (self->disposed || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      || d->index != self->detail_index || d->generation != self->generation)
    return;
  g_clear_object (&self->detail_cancellable);
  if (error != NULL || !found)
    {
      clear_grid (self);
      gtk_label_set_text (self->detail_title, "");
      gtk_label_set_text (self->detail_caption,
                          error != NULL ? error->message : _ ("The difference is gone"));
      gtk_stack_set_visible_child_name (self->detail_stack, "detail");
      self->detail_ready = TRUE;
      return;
    }
  show_data (self, d);
  self->detail_ready = TRUE;
}

void
dy_compare_view_show_detail (DyCompareView *self, guint index)
{
  GTask *task;
  DetailData *d;

  if (index == self->detail_index && (self->detail_ready || self->detail_cancellable != NULL))
    return;
  if (self->detail_cancellable != NULL)
    g_cancellable_cancel (self->detail_cancellable);
  g_clear_object (&self->detail_cancellable);
  self->detail_index = index;
  self->detail_ready = FALSE;
  if (index == G_MAXUINT || self->result == NULL)
    {
      gtk_stack_set_visible_child_name (self->detail_stack, "none");
      return;
    }
  gtk_stack_set_visible_child_name (self->detail_stack, "loading");
  self->detail_cancellable = g_cancellable_new ();
  d = g_new0 (DetailData, 1);
  d->generation = self->generation;
  d->index = index;
  d->has_base = self->counts.has_base;
  task = g_task_new (self, self->detail_cancellable, detail_done, NULL);
  g_task_set_source_tag (task, dy_compare_view_show_detail);
  g_task_set_task_data (task, d, (GDestroyNotify) detail_data_free);
  g_task_run_in_thread (task, detail_thread);
  g_object_unref (task);
}

gboolean
dy_compare_view_get_detail_ready (DyCompareView *self)
{
  return self->detail_ready;
}

char *
dy_compare_view_dup_detail_text (DyCompareView *self)
{
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "%s\n%s\n", gtk_label_get_text (self->detail_title),
                          gtk_label_get_text (self->detail_caption));
  for (int row = 0;; row++)
    {
      GtkWidget *first = gtk_grid_get_child_at (self->detail_grid, 0, row);

      if (first == NULL)
        break;
      for (int column = 0;; column++)
        {
          GtkWidget *label = gtk_grid_get_child_at (self->detail_grid, column, row);

          if (label == NULL)
            break;
          g_string_append_printf (text, "%s%s", column > 0 ? " | " : "",
                                  gtk_label_get_text (GTK_LABEL (label)));
        }
      g_string_append_c (text, '\n');
    }
  if (gtk_widget_get_visible (GTK_WIDGET (self->detail_more)))
    g_string_append_printf (text, "%s\n", gtk_label_get_text (self->detail_more));
  return g_string_free (text, FALSE);
}
