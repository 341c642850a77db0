/* dy-compare-view-list.c: the Compare window's list (see dy-compare-view.h): a small row object
 * per difference (kind, class and key; the items stay in the compare's temporary database),
 * filtered by kind or class, with a multiple selection; the summary of the counts; and the
 * pushable rows counted for Stage Push. */
#define G_LOG_DOMAIN "dynoscope-compare-view"

#include <glib/gi18n.h>

#include "app/compare/dy-compare-view-private.h"
#include "app/common/dy-diff-markup.h"
#include "app/common/dy-format.h"
#include "compare/push.h"
#include "core/ddbjson.h"

/* Rows. */

struct _DyCompareRow {
  GObject parent_instance;

  DdbCompareKind kind;
  DdbCompareClass klass;
  gboolean pushable;
  guint index;
  DdbValue *key;
  char *title;
};

G_DEFINE_FINAL_TYPE (DyCompareRow, dy_compare_row, G_TYPE_OBJECT)

static void
dy_compare_row_finalize (GObject *object)
{
  DyCompareRow *self = DY_COMPARE_ROW (object);

  ddb_value_free (self->key);
  g_free (self->title);
  G_OBJECT_CLASS (dy_compare_row_parent_class)->finalize (object);
}

static void
dy_compare_row_class_init (DyCompareRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_compare_row_finalize;
}

static void
dy_compare_row_init (DyCompareRow *self)
{
}

DyCompareRow *
dy_compare_row_new (const DdbCompareDifference *difference, guint index)
{
  DyCompareRow *self = g_object_new (DY_TYPE_COMPARE_ROW, NULL);

  self->kind = difference->kind;
  self->klass = difference->klass;
  self->pushable = ddb_push_is_pushable (difference);
  self->index = index;
  self->key = ddb_value_copy (difference->key);
  self->title = dy_diff_key_title (difference->key);
  return self;
}

DdbCompareKind
dy_compare_row_get_kind (DyCompareRow *self)
{
  return self->kind;
}

DdbCompareClass
dy_compare_row_get_class (DyCompareRow *self)
{
  return self->klass;
}

const DdbValue *
dy_compare_row_get_key (DyCompareRow *self)
{
  return self->key;
}

const char *
dy_compare_row_get_title (DyCompareRow *self)
{
  return self->title;
}

guint
dy_compare_row_get_index (DyCompareRow *self)
{
  return self->index;
}

gboolean
dy_compare_row_get_pushable (DyCompareRow *self)
{
  return self->pushable;
}

/* The kind as a badge. */
static const char *
kind_text (DdbCompareKind kind)
{
  switch (kind)
    {
    case DDB_COMPARE_CHANGED:
      return C_ ("compare", "Changed");
    case DDB_COMPARE_ONLY_HERE:
      return C_ ("compare", "Only here");
    case DDB_COMPARE_ONLY_THERE:
      return C_ ("compare", "Only there");
    case DDB_COMPARE_SAME:
    default:
      return C_ ("compare", "Same");
    }
}

static const char *
kind_css (DdbCompareKind kind)
{
  return kind == DDB_COMPARE_ONLY_HERE    ? "staged-create"
         : kind == DDB_COMPARE_ONLY_THERE ? "staged-delete"
                                          : "staged-update";
}

static const char *
class_text (DdbCompareClass klass)
{
  switch (klass)
    {
    case DDB_COMPARE_EDITED_HERE:
      return C_ ("compare", "edited here");
    case DDB_COMPARE_EDITED_THERE:
      return C_ ("compare", "edited there");
    case DDB_COMPARE_EDITED_BOTH:
      return C_ ("compare", "both: a conflict");
    case DDB_COMPARE_NO_BASE:
    default:
      return "";
    }
}

static void
row_setup (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *badge = gtk_label_new (NULL);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *caption = gtk_label_new (NULL);

  gtk_widget_add_css_class (badge, "staged-badge");
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  /* one width, so that the keys line up */
  gtk_widget_set_size_request (badge, 84, -1);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (GTK_LABEL (caption), 0);
  gtk_widget_add_css_class (caption, "caption");
  gtk_widget_add_css_class (caption, "dim-label");
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_widget_set_valign (texts, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (texts), title);
  gtk_box_append (GTK_BOX (texts), caption);
  gtk_box_append (GTK_BOX (box), badge);
  gtk_box_append (GTK_BOX (box), texts);
  gtk_widget_set_margin_top (box, 2);
  gtk_widget_set_margin_bottom (box, 2);
  g_object_set_data (G_OBJECT (box), "badge", badge);
  g_object_set_data (G_OBJECT (box), "title", title);
  g_object_set_data (G_OBJECT (box), "caption", caption);
  gtk_list_item_set_child (item, box);
}

static void
row_bind (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer user_data)
{
  DyCompareView *self = user_data;
  DyCompareRow *row = gtk_list_item_get_item (item);
  GObject *box = G_OBJECT (gtk_list_item_get_child (item));
  GtkWidget *badge = g_object_get_data (box, "badge");
  GtkWidget *title = g_object_get_data (box, "title");
  GtkWidget *caption = g_object_get_data (box, "caption");
  const char *classes[] = { "staged-create", "staged-update", "staged-delete", "compare-kept" };

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (badge, classes[i]);
  /* coloured as the change a push stages for it; grey when a push leaves it alone (or there
   * is nothing to push to) */
  gtk_widget_add_css_class (
      badge, row->pushable && self->result_other != NULL ? kind_css (row->kind) : "compare-kept");
  gtk_label_set_text (GTK_LABEL (badge), kind_text (row->kind));
  gtk_label_set_text (GTK_LABEL (title), row->title);
  gtk_widget_set_tooltip_text (title, row->title);
  gtk_label_set_text (GTK_LABEL (caption), class_text (row->klass));
  gtk_widget_set_visible (caption, row->klass != DDB_COMPARE_NO_BASE);
}

/* The filter. */

static gboolean
row_shown (gpointer item, gpointer user_data)
{
  DyCompareView *self = user_data;
  DyCompareRow *row = item;

  switch (self->show)
    {
    case DY_COMPARE_SHOW_CHANGED:
      return row->kind == DDB_COMPARE_CHANGED;
    case DY_COMPARE_SHOW_ONLY_HERE:
      return row->kind == DDB_COMPARE_ONLY_HERE;
    case DY_COMPARE_SHOW_ONLY_THERE:
      return row->kind == DDB_COMPARE_ONLY_THERE;
    case DY_COMPARE_SHOW_PUSHABLE:
      return row->pushable;
    case DY_COMPARE_SHOW_EDITED_HERE:
      return row->klass == DDB_COMPARE_EDITED_HERE;
    case DY_COMPARE_SHOW_EDITED_THERE:
      return row->klass == DDB_COMPARE_EDITED_THERE;
    case DY_COMPARE_SHOW_BOTH:
      return row->klass == DDB_COMPARE_EDITED_BOTH;
    case DY_COMPARE_SHOW_ALL:
    default:
      return TRUE;
    }
}

static void
update_count (DyCompareView *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->shown));
  guint all = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  g_autofree char *text = NULL;

  if (shown == all)
    text = g_strdup_printf (g_dngettext (NULL, "%'u difference", "%'u differences", all), all);
  else
    /* TRANSLATORS: the differences the filter shows, of all of them */
    text = g_strdup_printf (
        g_dngettext (NULL, "%'u of %'u difference", "%'u of %'u differences", all), shown, all);
  gtk_label_set_text (self->list_count_label, text);
}

void
dy_compare_view_set_show (DyCompareView *self, DyCompareShow show)
{
  GtkFilter *filter = gtk_filter_list_model_get_filter (self->shown);

  g_return_if_fail (DY_IS_COMPARE_VIEW (self));
  if (gtk_drop_down_get_selected (self->show_dropdown) != (guint) show)
    {
      /* the dropdown calls back here */
      gtk_drop_down_set_selected (self->show_dropdown, show);
      return;
    }
  self->show = show;
  gtk_filter_changed (filter, GTK_FILTER_CHANGE_DIFFERENT);
  update_count (self);
}

static void
show_changed (DyCompareView *self)
{
  guint selected = gtk_drop_down_get_selected (self->show_dropdown);

  if (selected != GTK_INVALID_LIST_POSITION)
    dy_compare_view_set_show (self, (DyCompareShow) selected);
}

/* The selection: the detail shows the first selected row. */
static void
selection_changed (DyCompareView *self)
{
  g_autoptr (GtkBitset) set
      = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  g_autoptr (DyCompareRow) row = NULL;

  dy_compare_view_update_push (self);
  if (gtk_bitset_is_empty (set))
    {
      dy_compare_view_show_detail (self, G_MAXUINT);
      return;
    }
  row = g_list_model_get_item (G_LIST_MODEL (self->shown), gtk_bitset_get_minimum (set));
  dy_compare_view_show_detail (self, row != NULL ? row->index : G_MAXUINT);
}

GListModel *
dy_compare_view_get_rows (DyCompareView *self)
{
  return G_LIST_MODEL (self->shown);
}

GtkSelectionModel *
dy_compare_view_get_selection (DyCompareView *self)
{
  return GTK_SELECTION_MODEL (self->selection);
}

void
dy_compare_view_list_init (DyCompareView *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkCustomFilter *filter = gtk_custom_filter_new (row_shown, self, NULL);

  self->rows = g_list_store_new (DY_TYPE_COMPARE_ROW);
  self->shown
      = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->rows)), GTK_FILTER (filter));
  self->selection = gtk_multi_selection_new (g_object_ref (G_LIST_MODEL (self->shown)));
  g_signal_connect (factory, "setup", G_CALLBACK (row_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (row_bind), self);
  gtk_list_view_set_factory (self->list_view, factory);
  g_object_unref (factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->selection, "selection-changed", G_CALLBACK (selection_changed),
                            self);
  g_signal_connect_swapped (self->shown, "items-changed", G_CALLBACK (selection_changed), self);
  g_signal_connect_swapped (self->show_dropdown, "notify::selected", G_CALLBACK (show_changed),
                            self);
}

/* The summary. */

void
dy_compare_view_clear_result (DyCompareView *self)
{
  g_list_store_remove_all (self->rows);
  self->n_pushable = 0;
  self->has_counts = FALSE;
  gtk_label_set_text (self->summary_label, "");
  gtk_label_set_text (self->classes_label, "");
  gtk_label_set_text (self->base_label, "");
  gtk_label_set_text (self->sizes_label, "");
  update_count (self);
  dy_compare_view_update_push (self);
}

void
dy_compare_view_show_result (DyCompareView *self, GPtrArray *rows, double seconds)
{
  const DdbCompareCounts *c = &self->counts;
  g_autofree char *same = dy_format_count (c->same);
  g_autofree char *changed = dy_format_count (c->changed);
  g_autofree char *only_here = dy_format_count (c->only_here);
  g_autofree char *only_there = dy_format_count (c->only_there);
  g_autofree char *items_here = dy_format_count (c->items_here);
  g_autofree char *items_there = dy_format_count (c->items_there);
  g_autofree char *bytes_here = dy_format_size (c->bytes_here);
  g_autofree char *bytes_there = dy_format_size (c->bytes_there);
  g_autofree char *summary = NULL;
  g_autofree char *sizes = NULL;
  g_autofree char *base = NULL;

  /* TRANSLATORS: the compare's summary: items the same on both sides, changed, and on one
   * side only */
  summary = g_strdup_printf (_ ("%s same · %s changed · %s only here · %s only there"), same,
                             changed, only_here, only_there);
  gtk_label_set_text (self->summary_label, summary);
  if (c->has_base)
    {
      g_autofree char *edited_here = dy_format_count (c->edited_here);
      g_autofree char *edited_there = dy_format_count (c->edited_there);
      g_autofree char *both = dy_format_count (c->both);
      g_autofree char *classes = NULL;

      /* TRANSLATORS: the three-way classes of the differences against the base */
      classes = g_strdup_printf (_ ("%s edited here (pushable) · %s edited there (left alone) · "
                                    "%s edited on both sides (conflicts)"),
                                 edited_here, edited_there, both);
      gtk_label_set_text (self->classes_label, classes);
      /* TRANSLATORS: where the base of a three-way compare came from */
      base = g_strdup_printf (_ ("Base: %s"), ddb_compare_result_base (self->result));
    }
  else if (self->result_other == NULL)
    {
      gtk_label_set_text (self->classes_label, "");
      base = g_strdup (_ ("No base is known: the differences are two-way"));
    }
  else
    {
      gtk_label_set_text (self->classes_label, "");
      /* TRANSLATORS: %s is the other side of the compare (a table or an export) */
      base = g_strdup_printf (_ ("No base is known: a push makes %s equal to this table"),
                              self->result_other_name);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->classes_label), c->has_base);
  gtk_label_set_text (self->base_label, base);
  /* TRANSLATORS: the items read on each side, their size, and the time the compare took */
  sizes = g_strdup_printf (_ ("Here %s items (%s) · there %s items (%s) · read in %.1f s"),
                           items_here, bytes_here, items_there, bytes_there, seconds);
  gtk_label_set_text (self->sizes_label, sizes);

  {
    GtkStringList *shows = GTK_STRING_LIST (gtk_drop_down_get_model (self->show_dropdown));
    guint n = g_list_model_get_n_items (G_LIST_MODEL (shows));
    const char *classes[]
        = { _ ("Edited Here"), _ ("Edited There"), _ ("Edited on Both Sides"), NULL };

    if (self->show > DY_COMPARE_SHOW_PUSHABLE && !c->has_base)
      dy_compare_view_set_show (self, DY_COMPARE_SHOW_ALL);
    if (c->has_base && n == DY_COMPARE_SHOW_EDITED_HERE)
      gtk_string_list_splice (shows, n, 0, classes);
    else if (!c->has_base && n > DY_COMPARE_SHOW_EDITED_HERE)
      gtk_string_list_splice (shows, DY_COMPARE_SHOW_EDITED_HERE, n - DY_COMPARE_SHOW_EDITED_HERE,
                              NULL);
  }
  self->n_pushable = 0;
  for (guint i = 0; i < rows->len; i++)
    self->n_pushable += ((DyCompareRow *) rows->pdata[i])->pushable;
  g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)),
                       rows->pdata, rows->len);
  g_ptr_array_unref (rows);
  update_count (self);
  dy_compare_view_update_push (self);
}

char *
dy_compare_view_dup_summary_text (DyCompareView *self)
{
  GtkLabel *labels[]
      = { self->summary_label, self->classes_label, self->base_label, self->sizes_label };
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    if (*gtk_label_get_text (labels[i]) != '\0')
      g_string_append_printf (text, "%s\n", gtk_label_get_text (labels[i]));
  return g_string_free (text, FALSE);
}

/* What a push would stage. */

guint
dy_compare_view_count_pushable (DyCompareView *self, gboolean selected_only)
{
  GListModel *model = selected_only ? G_LIST_MODEL (self->shown) : G_LIST_MODEL (self->rows);
  g_autoptr (GtkBitset) set = NULL;
  GtkBitsetIter iter;
  guint n = 0;
  guint position;

  if (!selected_only)
    return self->n_pushable;
  set = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  for (gboolean ok = gtk_bitset_iter_init_first (&iter, set, &position); ok;
       ok = gtk_bitset_iter_next (&iter, &position))
    {
      g_autoptr (DyCompareRow) row = g_list_model_get_item (model, position);

      n += row != NULL && row->pushable;
    }
  return n;
}

char *
dy_compare_view_key_text (const DdbValue *key)
{
  return ddb_json_format_item (key);
}

GHashTable *
dy_compare_view_selected_keys (DyCompareView *self)
{
  GHashTable *keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GtkBitset) set
      = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  GtkBitsetIter iter;
  guint position;

  for (gboolean ok = gtk_bitset_iter_init_first (&iter, set, &position); ok;
       ok = gtk_bitset_iter_next (&iter, &position))
    {
      g_autoptr (DyCompareRow) row = g_list_model_get_item (G_LIST_MODEL (self->shown), position);

      if (row != NULL && row->pushable)
        g_hash_table_add (keys, dy_compare_view_key_text (row->key));
    }
  return keys;
}

void
dy_compare_view_update_push (DyCompareView *self)
{
  guint all = self->has_counts ? dy_compare_view_count_pushable (self, FALSE) : 0;
  guint selected = self->has_counts ? dy_compare_view_count_pushable (self, TRUE) : 0;
  gboolean can
      = self->has_counts && self->result_other != NULL && !self->pushing && self->task == NULL;
  g_autofree char *text = NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.push", can && all > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.push-selected", can && selected > 0);
  if (!self->has_counts)
    text = g_strdup ("");
  else if (self->result_other == NULL)
    text = g_strdup (_ ("The other side is an export: nothing to push to"));
  else if (self->counts.has_base)
    {
      g_autofree char *there = dy_format_count (self->counts.edited_there);
      g_autofree char *both = dy_format_count (self->counts.both);

      /* TRANSLATORS: what a three-way push stages: the edits made here, not those made there
       * nor the conflicts */
      text = g_strdup_printf (g_dngettext (NULL,
                                           "%u edit made here to push · edited there, left "
                                           "alone: %s · conflicts, not pushed: %s",
                                           "%u edits made here to push · edited there, left "
                                           "alone: %s · conflicts, not pushed: %s",
                                           all),
                              all, there, both);
    }
  else
    text = g_strdup_printf (
        g_dngettext (NULL, "%u difference to push", "%u differences to push", all), all);
  gtk_label_set_text (self->push_label, text);
}
