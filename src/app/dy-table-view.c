/* dy-table-view.c: a table tab: filter row, Query or Scan, paged results, item collections. */
#define G_LOG_DOMAIN "dynoscope-table-view"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#ifdef __linux__
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "app/dy-describe.h"
#include "app/dy-format.h"
#include "app/dy-group.h"
#include "app/dy-item.h"
#include "app/dy-query.h"
#include "app/dy-rows.h"
#include "app/dy-staging.h"
#include "app/dy-table-view.h"
#include "core/itemsize.h"

typedef struct {
  char *name; /* NULL: the table */
  char *pk;
  DdbType pk_type;
  char *sk; /* NULL: no sort key */
  DdbType sk_type;
} KeyInfo;

struct _DyTableView {
  GtkBox parent_instance;

  GtkDropDown *index_dropdown;
  GtkLabel *pk_label;
  GtkEntry *pk_entry;
  GtkLabel *sk_label;
  GtkDropDown *sk_op_dropdown;
  GtkEntry *sk_entry;
  GtkEntry *sk_entry2;
  GtkToggleButton *desc_toggle;
  GtkEntry *filter_attr_entry;
  GtkDropDown *filter_op_dropdown;
  GtkDropDown *filter_type_dropdown;
  GtkEntry *filter_value_entry;
  GtkSpinButton *limit_spin;
  GtkLabel *mode_label;
  GtkButton *more_button;
  GtkRevealer *request_revealer;
  GtkTextView *request_view;
  GtkRevealer *error_revealer;
  GtkLabel *error_label;
  GtkRevealer *stale_revealer;
  GtkColumnView *column_view;
  DyInspector *inspector;
  GtkLabel *footer_label;
  GtkSpinner *spinner;
  GtkMenuButton *describe_button;
  GtkGrid *describe_grid;
  GtkBox *extra_filters_box;
  GtkMenuButton *columns_button;
  GtkBox *columns_box;
  GtkProgressBar *progress_bar;
  GtkButton *cancel_button;

  DyConnection *connection;
  char *table_name;
  GPtrArray *keys; /* KeyInfo*: [0] the table, then its indexes */
  DyRows *items;
  GtkSingleSelection *selection;
  DyRowList *order; /* the rows in a column's order, when sorted and not grouped */
  DyRowFeed *feed;  /* the rows as loaded, handed to the grid a few at a time */
  GHashTable *columns; /* attribute name -> GtkColumnViewColumn (owned by the view) */
  GHashTable *bound_cells; /* GtkListItem of the attribute cells bound now: tinted again when
                            * what is staged changes */
  gulong staging_handler;
  gulong committed_handler;
  GHashTable *seen_columns; /* names the results of the last Run hold */
  gboolean prune_columns;   /* once the Run's pages are in, drop the columns not seen */
  gboolean follow_up; /* the Run's first, small page is out: the rest of a full page follows */
  GtkColumnViewColumn *tree_column;
  json_t *request;  /* of the current results, without ExclusiveStartKey */
  json_t *last_key; /* LastEvaluatedKey of the last page */
  char *operation;
  GCancellable *cancellable;
  gboolean ready;
  gboolean running;
  gboolean grouped;
  gboolean sorting; /* a column sorts the rows */
  gboolean sort_dirty; /* rows came after the order was made */
  guint arrange_serial; /* of the last sort or grouping asked for; older ones are dropped */
  gboolean arranging;   /* a sort or grouping runs on a worker */
  GCancellable *arrange_cancellable;
  gboolean loading_all;
  gint64 load_started; /* monotonic µs */
  guint64 load_scanned_before;
  guint64 scanned;
  guint pages;
  guint requests;
  double capacity;
  GArray *filter_conds;      /* DyFilterCond of the extra filter rows, refilled by fill_spec */
  GHashTable *hidden_columns; /* names the column chooser hid, kept across Runs */
  GCancellable *describe_cancellable; /* not replaced by each Run, unlike cancellable */
  json_t *description; /* DescribeTable's Table */
  json_t *ttl;         /* DescribeTimeToLive's TimeToLiveDescription */
  char *ttl_error;
};

G_DEFINE_FINAL_TYPE (DyTableView, dy_table_view, GTK_TYPE_BOX)

enum {
  PROP_0,
  PROP_CONNECTION,
  PROP_TABLE_NAME,
  PROP_GROUPED,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
key_info_free (KeyInfo *info)
{
  g_free (info->name);
  g_free (info->pk);
  g_free (info->sk);
  g_free (info);
}

static const KeyInfo *
current_keys (DyTableView *self)
{
  guint i = gtk_drop_down_get_selected (self->index_dropdown);

  if (self->keys->len == 0)
    return NULL;
  return self->keys->pdata[i < self->keys->len ? i : 0];
}

static void
fill_spec (DyTableView *self, DyQuerySpec *spec)
{
  const KeyInfo *keys = current_keys (self);
  static const DdbType filter_types[] = { DDB_TYPE_S, DDB_TYPE_N, DDB_TYPE_BOOL };
  guint type = gtk_drop_down_get_selected (self->filter_type_dropdown);

  memset (spec, 0, sizeof *spec);
  spec->table_name = self->table_name;
  if (keys == NULL)
    return;
  spec->index_name = keys->name;
  spec->pk_name = keys->pk;
  spec->pk_type = keys->pk_type;
  spec->sk_name = keys->sk;
  spec->sk_type = keys->sk_type;
  spec->pk_value = gtk_editable_get_text (GTK_EDITABLE (self->pk_entry));
  spec->sk_op = (DySortOp) gtk_drop_down_get_selected (self->sk_op_dropdown);
  spec->sk_value = gtk_editable_get_text (GTK_EDITABLE (self->sk_entry));
  spec->sk_value2 = gtk_editable_get_text (GTK_EDITABLE (self->sk_entry2));
  spec->descending = gtk_toggle_button_get_active (self->desc_toggle);
  spec->filter_attr = gtk_editable_get_text (GTK_EDITABLE (self->filter_attr_entry));
  spec->filter_op = (DyFilterOp) gtk_drop_down_get_selected (self->filter_op_dropdown);
  spec->filter_type = filter_types[MIN (type, G_N_ELEMENTS (filter_types) - 1)];
  spec->filter_value = gtk_editable_get_text (GTK_EDITABLE (self->filter_value_entry));
  g_array_set_size (self->filter_conds, 0);
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->extra_filters_box));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      DyFilterCond cond;
      guint t = gtk_drop_down_get_selected (g_object_get_data (G_OBJECT (row), "type"));

      cond.attr = gtk_editable_get_text (g_object_get_data (G_OBJECT (row), "attr"));
      cond.op = (DyFilterOp) gtk_drop_down_get_selected (g_object_get_data (G_OBJECT (row), "op"));
      cond.type = filter_types[MIN (t, G_N_ELEMENTS (filter_types) - 1)];
      cond.value = gtk_editable_get_text (g_object_get_data (G_OBJECT (row), "value"));
      g_array_append_val (self->filter_conds, cond);
    }
  spec->filters = (const DyFilterCond *) (void *) self->filter_conds->data;
  spec->n_filters = self->filter_conds->len;
  spec->limit = (guint) gtk_spin_button_get_value_as_int (self->limit_spin);
}

static void
set_request_text (DyTableView *self, json_t *request)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->request_view);
  g_autofree char *text = json_dumps (request, JSON_INDENT (2));

  gtk_text_buffer_set_text (buffer, text, -1);
}

static void
show_error (DyTableView *self, const char *message)
{
  if (message != NULL)
    gtk_label_set_text (self->error_label, message);
  gtk_revealer_set_reveal_child (self->error_revealer, message != NULL);
}

static void
update_actions (DyTableView *self)
{
  gboolean more = self->ready && !self->running && self->last_key != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.run", self->ready);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.load-more", more);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.load-all", more);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.cancel", self->running);
}

/* Says before running what will run: a Query of one partition or a Scan of everything. */
static void
update_preview (DyTableView *self)
{
  DyQuerySpec spec;
  g_autoptr (GError) error = NULL;
  json_t *request;
  const KeyInfo *keys = current_keys (self);
  g_autofree char *text = NULL;
  DySortOp op;

  if (keys == NULL)
    return;
  op = (DySortOp) gtk_drop_down_get_selected (self->sk_op_dropdown);
  gtk_widget_set_visible (GTK_WIDGET (self->sk_entry), keys->sk != NULL && op != DY_SORT_NONE);
  gtk_widget_set_visible (GTK_WIDGET (self->sk_entry2), keys->sk != NULL && op == DY_SORT_BETWEEN);
  fill_spec (self, &spec);
  if (dy_query_spec_is_query (&spec))
    /* TRANSLATORS: %s is the partition key attribute's name */
    text = g_strdup_printf (_("Will Query one partition (%s given)"), keys->pk);
  else
    text = g_strdup (_("Will Scan the whole table: no partition key value"));
  gtk_label_set_text (self->mode_label, text);
  gtk_widget_set_sensitive (GTK_WIDGET (self->sk_op_dropdown), keys->sk != NULL && dy_query_spec_is_query (&spec));
  gtk_widget_set_sensitive (GTK_WIDGET (self->desc_toggle), dy_query_spec_is_query (&spec));

  if (self->running)
    return;
  request = dy_query_build (&spec, &error);
  if (request == NULL)
    {
      gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->request_view), error->message, -1);
      return;
    }
  set_request_text (self, request);
  json_decref (request);
}

static void
update_key_labels (DyTableView *self)
{
  const KeyInfo *keys = current_keys (self);
  g_autofree char *pk = NULL;

  if (keys == NULL)
    return;
  pk = g_strdup_printf ("%s =", keys->pk);
  gtk_label_set_text (self->pk_label, pk);
  gtk_label_set_text (self->sk_label, keys->sk != NULL ? keys->sk : _("no sort key"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->sk_label), keys->sk != NULL);
  update_preview (self);
}

static void
update_footer (DyTableView *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  g_autofree char *text = NULL;

  if (self->requests == 0)
    text = g_strdup (_("Nothing run yet"));
  else
    /* TRANSLATORS: the footer of a table view */
    text = g_strdup_printf (_("%u items shown · %" G_GUINT64_FORMAT " scanned · %u pages · "
                              "%u requests · %g capacity units%s"),
                            shown, self->scanned, self->pages, self->requests, self->capacity,
                            self->last_key != NULL ? _(" · more pages remain") : "");
  gtk_label_set_text (self->footer_label, text);
}

static void
set_running (DyTableView *self, gboolean running)
{
  if (self->running == running)
    return;
  self->running = running;
  gtk_spinner_set_spinning (self->spinner, running);
  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button), running);
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

/* Grid cells. */

/* The grid's rows are items (flat) or tree rows of collections and items (grouped). */
static GObject *
row_item (gpointer row)
{
  if (GTK_IS_TREE_LIST_ROW (row))
    return gtk_tree_list_row_get_item (row);
  return row != NULL ? g_object_ref (row) : NULL;
}

static GObject *
row_object (GtkListItem *list_item)
{
  return row_item (gtk_list_item_get_item (list_item));
}

static gboolean
query_cell_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                    gpointer user_data)
{
  const char *text = g_object_get_data (G_OBJECT (widget), "tooltip");

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  /* GtkInscription, made for cells, is much cheaper to create, measure and bind than a
   * GtkLabel: the grid keeps a couple of hundred rows of every column alive. */
  GtkWidget *label = gtk_inscription_new (NULL);

  gtk_inscription_set_xalign (GTK_INSCRIPTION (label), 0);
  gtk_inscription_set_text_overflow (GTK_INSCRIPTION (label),
                                     GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (label), 48);
  gtk_widget_add_css_class (label, "grid-cell");
  /* The tooltip is asked for when shown: setting tooltip text on every bind makes GTK query
   * the pointer (an X11 round trip) per cell, which stalls scrolling. */
  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect (label, "query-tooltip", G_CALLBACK (query_cell_tooltip), NULL);
  gtk_list_item_set_child (list_item, label);
}

/* Tints an attribute cell by what is staged on its item: the pending operation over the whole
 * row, and for an update the changed attributes' own cells marked. */
static void
tint_cell (DyTableView *self, GtkListItem *list_item)
{
  static const char *const classes[] = { "staged-create", "staged-update", "staged-delete",
                                         "staged-cell" };
  g_autoptr (GObject) object = row_object (list_item);
  GtkWidget *cell = gtk_list_item_get_child (list_item);
  const char *name = g_object_get_data (G_OBJECT (cell), "attribute");
  const char *const *changed = NULL;
  DyStagedKind kind = DY_STAGED_NONE;

  if (DY_IS_ITEM (object))
    kind = dy_staging_lookup (dy_staging_get_default (), self->connection, self->table_name,
                              dy_item_get_value (DY_ITEM (object)), &changed);
  for (gsize i = 0; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (cell, classes[i]);
  if (kind == DY_STAGED_NONE)
    return;
  gtk_widget_add_css_class (cell, dy_staging_kind_css_class (kind));
  if (kind == DY_STAGED_UPDATE && changed != NULL && g_strv_contains (changed, name))
    gtk_widget_add_css_class (cell, "staged-cell");
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  DyTableView *self = user_data;
  const char *name = g_object_get_data (G_OBJECT (factory), "attribute");
  g_autoptr (GObject) object = row_object (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  const DdbValue *value = NULL;
  g_autofree char *text = NULL;

  if (DY_IS_ITEM (object))
    value = dy_item_get_attribute (DY_ITEM (object), name);
  if (value != NULL)
    text = dy_format_value (value);
  gtk_inscription_set_text (GTK_INSCRIPTION (label), text);
  g_object_set_data (G_OBJECT (label), "tooltip",
                     value != NULL ? (gpointer) ddb_type_name (value->type) : NULL);
  /* The factory, and so the name, lives as long as the column. */
  g_object_set_data (G_OBJECT (label), "attribute", (gpointer) name);
  tint_cell (self, list_item);
  g_hash_table_add (self->bound_cells, list_item);
}

static void
unbind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  DyTableView *self = user_data;

  g_hash_table_remove (self->bound_cells, list_item);
}

/* A commit wrote to this table: the rows shown may hold values it replaced. They are not
 * patched in place (a commit's outcome per item is the table's to say, read again), the user
 * is told and offered a new Run. */
static void
staging_committed (DyStaging *staging, DyConnection *connection, const char *table,
                   guint n_committed, DyTableView *self)
{
  if (connection == self->connection && (table == NULL || g_str_equal (table, self->table_name))
      && g_list_model_get_n_items (G_LIST_MODEL (self->items)) > 0)
    gtk_revealer_set_reveal_child (self->stale_revealer, TRUE);
}

static void
staging_changed (DyTableView *self)
{
  GHashTableIter iter;
  gpointer list_item;

  g_hash_table_iter_init (&iter, self->bound_cells);
  while (g_hash_table_iter_next (&iter, &list_item, NULL))
    tint_cell (self, list_item);
}

static void
setup_tree_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *flag = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (flag), 0);
  gtk_label_set_ellipsize (GTK_LABEL (flag), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (flag, "caption");
  gtk_widget_set_has_tooltip (flag, TRUE);
  g_signal_connect (flag, "query-tooltip", G_CALLBACK (query_cell_tooltip), NULL);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), flag);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  g_object_set_data (G_OBJECT (expander), "label", label);
  g_object_set_data (G_OBJECT (expander), "flag", flag);
  gtk_list_item_set_child (list_item, expander);
}

static gboolean
has_lsi (DyTableView *self)
{
  return json_array_size (json_object_get (self->description, "LocalSecondaryIndexes")) > 0;
}

/* What a collection row flags: its share of the 10 GB LSI limit, and shards. */
static char *
group_flags (DyTableView *self, DyGroup *group, int *level, char **tooltip)
{
  g_autofree char *limit = dy_collection_limit_text (dy_group_get_total_size (group), level);
  const char *base = dy_group_get_shard_base (group);
  GString *text = g_string_new (NULL);

  /* The size is of the items loaded (and without index projections): a lower bound. */
  g_string_append_printf (text, g_str_has_prefix (limit, "<") ? "%s" : "≥ %s", limit);
  if (!has_lsi (self))
    {
      *level = 0;
      *tooltip = g_strdup (_("Size of the loaded items against the 10 GB item collection "
                             "limit. This table has no local secondary index, so the limit "
                             "does not apply to it."));
    }
  else
    *tooltip = g_strdup (_("Size of the loaded items against the 10 GB item collection limit "
                           "of tables with a local secondary index: past it, writes to this "
                           "partition key fail. Index projections add to the real size."));
  if (dy_group_is_shard_set (group))
    g_string_append_printf (text, _(" · %u shards (hot key)"),
                            dy_group_get_shard_count (group));
  else if (base != NULL && dy_group_get_shard_count (group) > 1)
    /* TRANSLATORS: a collection that is one shard of a partition written across keys */
    g_string_append_printf (text, _(" · shard %s/%u"), dy_group_get_shard_suffix (group),
                            dy_group_get_shard_count (group));
  else if (base != NULL)
    /* TRANSLATORS: a numbered key next to its base key, e.g. WS#acme#01 next to WS#acme */
    g_string_append_printf (text, _(" · looks like a shard of %s"), base);
  return g_string_free (text, FALSE);
}

static void
bind_tree_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  DyTableView *self = user_data;
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *label = g_object_get_data (G_OBJECT (expander), "label");
  GtkWidget *flag = g_object_get_data (G_OBJECT (expander), "flag");
  g_autoptr (GObject) object = row_object (list_item);
  g_autofree char *text = NULL;
  g_autofree char *flags = NULL;
  g_autofree char *tooltip = NULL;
  int level = 0;

  if (!GTK_IS_TREE_LIST_ROW (gtk_list_item_get_item (list_item)))
    return; /* the column is hidden when the rows are flat */
  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander),
                                  gtk_list_item_get_item (list_item));
  gtk_widget_remove_css_class (flag, "warning");
  gtk_widget_remove_css_class (flag, "error");
  gtk_widget_remove_css_class (flag, "accent");
  gtk_widget_remove_css_class (flag, "dim-label");
  if (DY_IS_GROUP (object))
    {
      DyGroup *group = DY_GROUP (object);
      g_autofree char *size = dy_format_size (dy_group_get_total_size (group));
      guint n = dy_group_get_n_items (group);

      /* TRANSLATORS: an item collection: its partition key value, item count and size */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s — %u item, %s",
                                           "%s — %u items, %s", n),
                              dy_group_get_key_text (group), n, size);
      flags = group_flags (self, group, &level, &tooltip);
      gtk_widget_add_css_class (label, "heading");
      if (level > 0)
        gtk_widget_add_css_class (flag, level > 1 ? "error" : "warning");
      else if (dy_group_get_shard_base (group) != NULL)
        gtk_widget_add_css_class (flag, "accent");
      else
        gtk_widget_add_css_class (flag, "dim-label");
    }
  else if (DY_IS_ITEM (object))
    {
      const KeyInfo *keys = current_keys (self);
      const DdbValue *sk = keys != NULL && keys->sk != NULL
                             ? dy_item_get_attribute (DY_ITEM (object), keys->sk) : NULL;

      text = sk != NULL ? dy_format_key (sk) : g_strdup ("");
      gtk_widget_remove_css_class (label, "heading");
    }
  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "");
  gtk_label_set_text (GTK_LABEL (flag), flags != NULL ? flags : "");
  gtk_widget_set_visible (flag, flags != NULL);
  g_object_set_data_full (G_OBJECT (flag), "tooltip", g_steal_pointer (&tooltip), g_free);
}

/* A width that shows the column's values whole when they are short (the page measured them
 * on its worker): GtkColumnView sizes columns by their cells' minimum width, which for
 * ellipsizing labels is one character. */
static int
column_width (const char *name, DyRowPage *page)
{
  int chars = (int) g_utf8_strlen (name, -1) + 2;

  for (guint i = 0; page != NULL && i < page->names->len; i++)
    if (g_str_equal (page->names->pdata[i], name))
      chars = MAX (chars, g_array_index (page->widths, int, i));
  return CLAMP (chars * 8 + 24, 72, 360);
}

static void
column_visible_changed (GtkColumnViewColumn *column, GParamSpec *pspec, DyTableView *self)
{
  const char *name = gtk_column_view_column_get_title (column);

  if (gtk_column_view_column_get_visible (column))
    g_hash_table_remove (self->hidden_columns, name);
  else
    g_hash_table_add (self->hidden_columns, g_strdup (name));
}

static void rebuild_rows (DyTableView *self);

static GtkSorter *
column_sorter (DyTableView *self)
{
  return gtk_column_view_get_sorter (self->column_view);
}

static void
sorter_changed (DyTableView *self)
{
  gboolean sorting = gtk_sorter_get_order (column_sorter (self)) != GTK_SORTER_ORDER_NONE;

  /* Grouped, a sort model in place follows its sorter by itself; flat, the order is made
   * again from the sorter's columns. */
  if (!self->grouped || sorting != self->sorting)
    rebuild_rows (self);
}

/* Client-side sorting of the rows loaded: items by the column's attribute (numbers exactly,
 * strings by bytes); collections keep their order. */
static int
compare_cells (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const char *name = user_data;
  int c;

  if (!DY_IS_ITEM ((gpointer) a) || !DY_IS_ITEM ((gpointer) b))
    return GTK_ORDERING_EQUAL;
  c = dy_format_compare_cells (dy_item_get_attribute (DY_ITEM ((gpointer) a), name),
                               dy_item_get_attribute (DY_ITEM ((gpointer) b), name));
  return c < 0 ? GTK_ORDERING_SMALLER : c > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static void
add_column (DyTableView *self, const char *name, DyRowPage *page)
{
  GtkListItemFactory *factory;
  GtkColumnViewColumn *column;
  GtkCustomSorter *sorter;

  if (!g_hash_table_contains (self->seen_columns, name))
    g_hash_table_add (self->seen_columns, g_strdup (name));
  if (g_hash_table_contains (self->columns, name))
    return;
  factory = gtk_signal_list_item_factory_new ();
  g_object_set_data_full (G_OBJECT (factory), "attribute", g_strdup (name), g_free);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), self);
  column = gtk_column_view_column_new (name, factory);
  sorter = gtk_custom_sorter_new (compare_cells, g_strdup (name), g_free);
  gtk_column_view_column_set_sorter (column, GTK_SORTER (sorter));
  g_object_unref (sorter);
  gtk_column_view_column_set_visible (column, !g_hash_table_contains (self->hidden_columns, name));
  g_signal_connect (column, "notify::visible", G_CALLBACK (column_visible_changed), self);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_fixed_width (column, column_width (name, page));
  gtk_column_view_append_column (self->column_view, column);
  g_hash_table_insert (self->columns, g_strdup (name), column);
}

/* Columns stay from one Run to the next (with their widths and visibility), so that a Run
 * does not tear down and rebuild every cell of the grid; those the new results do not hold
 * go once its pages are in. */
static void
prune_columns (DyTableView *self)
{
  GHashTableIter iter;
  gpointer name, column;

  self->prune_columns = FALSE;
  g_hash_table_iter_init (&iter, self->columns);
  while (g_hash_table_iter_next (&iter, &name, &column))
    if (!g_hash_table_contains (self->seen_columns, name))
      {
        g_signal_handlers_disconnect_by_func (column, column_visible_changed, self);
        gtk_column_view_remove_column (self->column_view, column);
        g_hash_table_iter_remove (&iter);
      }
}

static void
add_key_columns (DyTableView *self, DyRowPage *page)
{
  const KeyInfo *table = self->keys->pdata[0];
  const KeyInfo *keys = current_keys (self);

  add_column (self, table->pk, page);
  if (table->sk != NULL)
    add_column (self, table->sk, page);
  add_column (self, keys->pk, page);
  if (keys->sk != NULL)
    add_column (self, keys->sk, page);
}

/* Rows. */

static GListModel *
create_children (gpointer item, gpointer user_data)
{
  if (DY_IS_GROUP (item))
    return g_object_ref (dy_group_get_items (DY_GROUP (item)));
  return NULL;
}

/* Sorting and grouping read every row loaded, so they run on a worker over a snapshot of the
 * rows, unless there are so few that doing it at once costs less than a frame. */
#define ARRANGE_AT_ONCE 1000

/* A Run's first request, without a Limit of the user's, reads this many items: a screenful
 * (and the couple of hundred rows the grid makes widgets for). */
#define FIRST_PAGE_ITEMS 100

/* Client-side sorting by columns: the column view's sorter says which columns sort, in which
 * priority and direction, only through comparisons, so ask it with probe items holding one or
 * two attributes. Returns SortKey*, the primary column first. */
typedef struct {
  char *name;
  gboolean descending;
} SortKey;

static void
sort_key_free (SortKey *key)
{
  g_free (key->name);
  g_free (key);
}

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
  const SortKey *ka = *(SortKey **) a;
  const SortKey *kb = *(SortKey **) b;
  int first = ka->descending ? GTK_ORDERING_LARGER : GTK_ORDERING_SMALLER;

  /* A's column alone would answer FIRST, B's the opposite: the answer says which one leads. */
  return probe (user_data, ka->name, TRUE, kb->name, ka->descending == kb->descending ? FALSE : TRUE)
             == first ? -1 : 1;
}

static GPtrArray *
sort_keys (DyTableView *self)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func ((GDestroyNotify) sort_key_free);
  GHashTableIter iter;
  gpointer name;

  g_hash_table_iter_init (&iter, self->columns);
  while (g_hash_table_iter_next (&iter, &name, NULL))
    {
      int order = probe (self, name, TRUE, NULL, FALSE);
      SortKey *key;

      if (order == GTK_ORDERING_EQUAL)
        continue;
      key = g_new0 (SortKey, 1);
      key->name = g_strdup (name);
      key->descending = order == GTK_ORDERING_LARGER;
      g_ptr_array_add (keys, key);
    }
  g_ptr_array_sort_with_data (keys, compare_priority, self);
  return keys;
}

typedef struct {
  DyRows *rows;
  DyRowsSnapshot *snapshot;
  GPtrArray *keys; /* SortKey*: sorting */
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
  if (job->keys != NULL)
    g_ptr_array_unref (job->keys);
  g_free (job->pk);
  g_free (job->sk);
  g_free (job);
}

typedef struct {
  DdbValue **values; /* n_keys per row */
  GPtrArray *keys;
} SortData;

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const SortData *data = user_data;
  guint ra = *(const guint32 *) a;
  guint rb = *(const guint32 *) b;
  guint k = data->keys->len;

  for (guint j = 0; j < k; j++)
    {
      const SortKey *key = data->keys->pdata[j];
      int c = dy_format_compare_cells (data->values[ra * k + j], data->values[rb * k + j]);

      if (c != 0)
        return key->descending ? -c : c;
    }
  return ra < rb ? -1 : ra > rb;
}

/* The rows' positions in the keys' order; NULL if cancelled or unreadable. */
static GArray *
sort_rows (Arrange *job, GCancellable *cancellable, GError **error)
{
  guint n = dy_rows_snapshot_get_n (job->snapshot);
  guint k = job->keys->len;
  SortData data = { g_new0 (DdbValue *, (gsize) n * k), job->keys };
  GArray *positions = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  gboolean ok = TRUE;

  for (guint32 i = 0; i < n && ok; i++)
    {
      g_autoptr (DdbValue) item = dy_rows_snapshot_read (job->snapshot, i, error);

      if (item == NULL || (i % 4096 == 0 && g_cancellable_set_error_if_cancelled (cancellable, error)))
        ok = FALSE;
      for (guint j = 0; ok && j < k; j++)
        {
          const DdbValue *value = ddb_value_map_get (item, ((SortKey *) job->keys->pdata[j])->name);

          data.values[i * k + j] = value != NULL ? ddb_value_copy (value) : NULL;
        }
      g_array_append_val (positions, i);
    }
  if (ok)
    g_qsort_with_data (positions->data, (int) positions->len, sizeof (guint32), compare_rows, &data);
  for (gsize i = 0; i < (gsize) n * k; i++)
    g_clear_pointer (&data.values[i], ddb_value_free);
  g_free (data.values);
  if (!ok)
    g_clear_pointer (&positions, g_array_unref);
  return positions;
}

typedef struct {
  DyGroup *group;
  GArray *positions; /* guint32 */
  guint64 size;
} Collection;

static void
collection_free (Collection *c)
{
  g_clear_object (&c->group);
  if (c->positions != NULL)
    g_array_unref (c->positions);
  g_free (c);
}

typedef struct {
  DdbValue **sk;
  gboolean descending;
} GroupSort;

static int
compare_in_collection (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const GroupSort *data = user_data;
  const DdbValue *va = data->sk[*(const guint32 *) a];
  const DdbValue *vb = data->sk[*(const guint32 *) b];
  int c;

  /* Items of a GSI may lack its sort key only if they are not in it; keep them last anyway. */
  if (va == NULL || vb == NULL)
    c = (va == NULL) - (vb == NULL);
  else
    c = dy_format_compare_keys (va, vb);
  return data->descending ? -c : c;
}

/* The collections (DyGroup) of the rows by partition key, in first-seen order, each with its
 * items in sort-key order, then shard sets gathered; NULL if cancelled or unreadable. */
static GListModel *
group_rows (Arrange *job, GCancellable *cancellable, GError **error)
{
  guint n = dy_rows_snapshot_get_n (job->snapshot);
  g_autoptr (GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) collections = g_ptr_array_new_with_free_func ((GDestroyNotify) collection_free);
  GroupSort sort = { job->sk != NULL ? g_new0 (DdbValue *, MAX (n, 1)) : NULL, job->descending };
  g_autoptr (GListStore) groups = g_list_store_new (DY_TYPE_GROUP);
  gboolean ok = TRUE;

  for (guint32 i = 0; i < n && ok; i++)
    {
      g_autoptr (DdbValue) item = dy_rows_snapshot_read (job->snapshot, i, error);
      const DdbValue *pk;
      g_autofree char *text = NULL;
      Collection *c;

      if (item == NULL || (i % 4096 == 0 && g_cancellable_set_error_if_cancelled (cancellable, error)))
        {
          ok = FALSE;
          break;
        }
      pk = ddb_value_map_get (item, job->pk);
      text = pk != NULL ? dy_format_key (pk) : g_strdup (_("(no partition key)"));
      c = g_hash_table_lookup (by_key, text);
      if (c == NULL)
        {
          c = g_new0 (Collection, 1);
          c->group = dy_group_new (text);
          c->positions = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_hash_table_insert (by_key, g_steal_pointer (&text), c);
          g_ptr_array_add (collections, c);
        }
      g_array_append_val (c->positions, i);
      c->size += ddb_item_size (item);
      if (sort.sk != NULL)
        {
          const DdbValue *sk = ddb_value_map_get (item, job->sk);

          sort.sk[i] = sk != NULL ? ddb_value_copy (sk) : NULL;
        }
    }
  for (guint i = 0; ok && i < collections->len; i++)
    {
      Collection *c = collections->pdata[i];
      g_autoptr (DyRowList) items = NULL;

      if (sort.sk != NULL)
        g_qsort_with_data (c->positions->data, (int) c->positions->len, sizeof (guint32),
                           compare_in_collection, &sort);
      items = dy_row_list_new (job->rows, g_steal_pointer (&c->positions));
      dy_group_set_items (c->group, G_LIST_MODEL (items), c->size);
      g_list_store_append (groups, c->group);
    }
  for (guint i = 0; sort.sk != NULL && i < n; i++)
    g_clear_pointer (&sort.sk[i], ddb_value_free);
  g_free (sort.sk);
  return ok ? dy_group_collect_shards (G_LIST_MODEL (groups)) : NULL;
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
  gpointer done = job->keys != NULL ? (gpointer) sort_rows (job, cancellable, &error)
                                    : (gpointer) group_rows (job, cancellable, &error);

  if (done == NULL)
    g_task_return_error (task, error);
  else if (job->keys != NULL)
    g_task_return_pointer (task, done, (GDestroyNotify) g_array_unref);
  else
    g_task_return_pointer (task, done, g_object_unref);
}

static void rows_added (DyTableView *self, guint from, guint to);

static void
show_sorted (DyTableView *self, GArray *positions)
{
  guint sorted = positions->len;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->items));

  g_clear_object (&self->order);
  self->order = dy_row_list_new (self->items, positions);
  self->sort_dirty = FALSE;
  /* Rows loaded while it sorted go at the end, until the next sort. */
  if (sorted < n)
    rows_added (self, sorted, n);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->order));
}

static void
show_groups (DyTableView *self, GListModel *groups)
{
  GtkTreeListModel *tree = gtk_tree_list_model_new (g_object_ref (groups), FALSE, FALSE,
                                                    create_children, NULL, NULL);

  /* Sorting by a column header sorts the items within their collection, a step at a time. */
  if (self->sorting)
    {
      GtkSortListModel *sorted = gtk_sort_list_model_new (
        G_LIST_MODEL (g_object_ref (tree)),
        GTK_SORTER (gtk_tree_list_row_sorter_new (g_object_ref (column_sorter (self)))));

      gtk_sort_list_model_set_incremental (sorted, TRUE);
      gtk_single_selection_set_model (self->selection, G_LIST_MODEL (sorted));
      g_object_unref (sorted);
    }
  else
    gtk_single_selection_set_model (self->selection, G_LIST_MODEL (tree));
  gtk_column_view_column_set_visible (self->tree_column, TRUE);
  /* The first collection opens at once, so grouping shows items, not only headings. */
  if (g_list_model_get_n_items (G_LIST_MODEL (tree)) > 0)
    {
      g_autoptr (GtkTreeListRow) first = gtk_tree_list_model_get_row (tree, 0);

      gtk_tree_list_row_set_expanded (first, TRUE);
    }
  g_object_unref (tree);
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
        show_error (self, error->message);
    }
  else if (job->keys != NULL)
    show_sorted (self, done);
  else
    {
      show_groups (self, done);
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
  const KeyInfo *info = current_keys (self);
  g_autoptr (GTask) task = NULL;

  g_cancellable_cancel (self->arrange_cancellable);
  g_clear_object (&self->arrange_cancellable);
  self->arrange_cancellable = g_cancellable_new ();
  job->rows = g_object_ref (self->items);
  job->snapshot = dy_rows_snapshot (self->items);
  job->keys = keys;
  if (keys == NULL)
    {
      job->pk = g_strdup (info->pk);
      job->sk = g_strdup (info->sk);
      job->descending = gtk_toggle_button_get_active (self->desc_toggle);
    }
  job->serial = ++self->arrange_serial;
  self->arranging = TRUE;
  if (dy_rows_snapshot_get_n (job->snapshot) <= ARRANGE_AT_ONCE)
    {
      /* Few rows: the result is shown before this returns. */
      g_autoptr (GError) error = NULL;
      gpointer done = keys != NULL ? (gpointer) sort_rows (job, NULL, &error)
                                   : (gpointer) group_rows (job, NULL, &error);

      show_arranged (self, job, done, error);
      arrange_free (job);
      return;
    }
  task = g_task_new (self, self->arrange_cancellable, arranged, NULL);
  g_task_set_source_tag (task, arrange);
  g_task_set_task_data (task, job, (GDestroyNotify) arrange_free);
  g_task_run_in_thread (task, arrange_thread);
}

static void
rebuild_rows (DyTableView *self)
{
  GPtrArray *keys = NULL;

  self->sorting = gtk_sorter_get_order (column_sorter (self)) != GTK_SORTER_ORDER_NONE;
  /* A sort or grouping on its way is for rows shown before. */
  g_cancellable_cancel (self->arrange_cancellable);
  self->arrange_serial++;
  self->arranging = FALSE;
  self->sort_dirty = FALSE;
  if (self->grouped && self->ready)
    {
      g_clear_object (&self->order);
      arrange (self, NULL);
      return;
    }
  gtk_column_view_column_set_visible (self->tree_column, FALSE);
  if (self->sorting && self->ready)
    keys = sort_keys (self);
  if (keys == NULL || keys->len == 0)
    {
      /* Without a sort column the grid shows the rows as loaded, in DynamoDB's order, at no
       * cost. */
      g_clear_object (&self->order);
      gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->feed));
      if (keys != NULL)
        g_ptr_array_unref (keys);
      return;
    }
  /* Until the new order is made, the grid shows the previous one (rows loaded since at its
   * end), or the rows as loaded. */
  if (self->order == NULL
      || gtk_single_selection_get_model (self->selection) != G_LIST_MODEL (self->order))
    {
      g_clear_object (&self->order);
      gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->feed));
    }
  arrange (self, keys);
}

/* Rows added while the grid shows a column's order: they go at its end until sorted again. */
static void
rows_added (DyTableView *self, guint from, guint to)
{
  if (self->order != NULL && !self->grouped)
    {
      dy_row_list_append_range (self->order, from, to);
      self->sort_dirty = TRUE;
    }
}

/* After a page or Load All: the order or the collections take in the new rows. */
static void
rearrange (DyTableView *self)
{
  if (self->grouped || (self->sorting && (self->sort_dirty || self->order == NULL)))
    rebuild_rows (self);
}

static char *
item_title (DyTableView *self, DyItem *item)
{
  const KeyInfo *table = self->keys->pdata[0];
  const DdbValue *pk = dy_item_get_attribute (item, table->pk);
  const DdbValue *sk = table->sk != NULL ? dy_item_get_attribute (item, table->sk) : NULL;
  g_autofree char *pk_text = pk != NULL ? dy_format_key (pk) : NULL;
  g_autofree char *sk_text = sk != NULL ? dy_format_key (sk) : NULL;

  if (sk_text != NULL)
    return g_strdup_printf ("%s · %s", pk_text, sk_text);
  return g_strdup (pk_text != NULL ? pk_text : "");
}

static void
selection_changed (DyTableView *self)
{
  g_autoptr (GObject) object = row_item (gtk_single_selection_get_selected_item (self->selection));

  if (DY_IS_ITEM (object))
    {
      g_autofree char *title = item_title (self, DY_ITEM (object));

      dy_inspector_set_item (self->inspector, DY_ITEM (object), title);
    }
  else
    dy_inspector_set_item (self->inspector, NULL, NULL);
}

/* Running. */

typedef struct {
  json_t *response; /* only the page's figures */
  DyRowPage *rows;
} Page;

static void
page_free (Page *page)
{
  json_decref (page->response);
  dy_row_page_free (page->rows);
  g_free (page);
}

typedef struct {
  char *operation;
  json_t *request;
  DyRowStore *store;
} PageRequest;

static void
page_request_free (PageRequest *data)
{
  g_free (data->operation);
  json_decref (data->request);
  dy_row_store_unref (data->store);
  g_free (data);
}

/* Parsing items, encoding them into the store and collecting their attribute names is done
 * on the worker, off the main thread: a 1 MB page can hold thousands of items. Takes
 * RESPONSE. */
static const char *const page_members[] = { "ScannedCount", "ConsumedCapacity",
                                            "LastEvaluatedKey" };

static Page *
parse_page (DyRowStore *store, json_t *response, GError **error)
{
  Page *page;
  DyRowPage *rows = dy_row_page_new (store, json_object_get (response, "Items"), error);

  if (rows == NULL)
    {
      json_decref (response);
      return NULL;
    }
  page = g_new0 (Page, 1);
  page->rows = rows;
  /* Only the page's figures go to the main thread: freeing a 1 MB response tree there would
   * stall it. */
  page->response = json_object ();
  for (guint k = 0; k < G_N_ELEMENTS (page_members); k++)
    if (json_object_get (response, page_members[k]) != NULL)
      json_object_set (page->response, page_members[k], json_object_get (response, page_members[k]));
  json_decref (response);
  return page;
}

/* A page's response tree (many megabytes of small blocks for a 1 MB page) is freed on the
 * worker that read it; without this, that thread's malloc arena would keep the memory. Not
 * after every page of Load All, whose worker reuses it: trimming takes every arena's lock,
 * the main thread's too. */
static void
release_freed_memory (void)
{
#ifdef __GLIBC__
  malloc_trim (0);
#endif
}

static void
page_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DyTableView *self = source;
  PageRequest *data = task_data;
  GError *error = NULL;
  json_t *response = dy_connection_call_sync (self->connection, data->operation, data->request,
                                              cancellable, &error);
  Page *page;

  if (response == NULL || (page = parse_page (data->store, response, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  release_freed_memory ();
  g_task_return_pointer (task, page, (GDestroyNotify) page_free);
}

/* Adds a page's items to the results, on the main thread. */
static void
apply_page (DyTableView *self, Page *page)
{
  json_t *capacity;
  json_t *last_key;
  guint before = g_list_model_get_n_items (G_LIST_MODEL (self->items));

  add_key_columns (self, page->rows);
  for (guint i = 0; i < page->rows->names->len; i++)
    add_column (self, page->rows->names->pdata[i], page->rows);
  if (dy_rows_add_page (self->items, page->rows))
    rows_added (self, before, g_list_model_get_n_items (G_LIST_MODEL (self->items)));
  self->pages++;
  self->scanned += json_integer_value (json_object_get (page->response, "ScannedCount"));
  capacity = json_object_get (json_object_get (page->response, "ConsumedCapacity"),
                              "CapacityUnits");
  self->capacity += json_number_value (capacity);
  last_key = json_object_get (page->response, "LastEvaluatedKey");
  g_clear_pointer (&self->last_key, json_decref);
  self->last_key = last_key != NULL ? json_incref (last_key) : NULL;
}

static void send_next_page (DyTableView *self);

static void
page_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyTableView *self = DY_TABLE_VIEW (source);
  g_autoptr (GError) error = NULL;
  Page *page = g_task_propagate_pointer (G_TASK (result), &error);
  gint64 t0 = g_get_monotonic_time ();

  if (page == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  set_running (self, FALSE);
  if (page == NULL)
    {
      self->follow_up = FALSE;
      show_error (self, error->message);
      update_footer (self);
      return;
    }
  show_error (self, NULL);
  apply_page (self, page);
  if (self->follow_up && self->last_key != NULL)
    {
      self->follow_up = FALSE;
      send_next_page (self);
    }
  else
    {
      self->follow_up = FALSE;
      if (self->prune_columns)
        prune_columns (self);
    }
  rearrange (self);
  update_actions (self);
  update_footer (self);
  g_debug ("page of %u items applied in %.1f ms", page->rows->lengths->len,
           (g_get_monotonic_time () - t0) / 1000.0);
  page_free (page);
}

static void
send_page (DyTableView *self, json_t *request)
{
  g_autoptr (GTask) task = NULL;
  PageRequest *data = g_new0 (PageRequest, 1);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  if (self->loading_all)
    {
      self->loading_all = FALSE;
      gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
    }
  data->operation = g_strdup (self->operation);
  data->request = json_deep_copy (request);
  data->store = dy_row_store_ref (dy_rows_get_store (self->items));
  set_request_text (self, request);
  self->requests++;
  set_running (self, TRUE);
  task = g_task_new (self, self->cancellable, page_done, NULL);
  g_task_set_source_tag (task, send_page);
  g_task_set_task_data (task, data, (GDestroyNotify) page_request_free);
  g_task_run_in_thread (task, page_thread);
}

/* The page after the last one, as the results' request continues. */
static void
send_next_page (DyTableView *self)
{
  json_t *request = json_deep_copy (self->request);

  json_object_set (request, "ExclusiveStartKey", self->last_key);
  send_page (self, request);
  json_decref (request);
}

/* Empties the results: the grid first lets go of its rows, so that it does not walk them. */
static void
clear_items (DyTableView *self)
{
  g_cancellable_cancel (self->arrange_cancellable);
  g_clear_object (&self->order);
  if (gtk_single_selection_get_model (self->selection) == G_LIST_MODEL (self->feed))
    {
      /* The rows with widgets (around the first one visible) go a few at a time. */
      GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view));
      double upper = adjustment != NULL ? gtk_adjustment_get_upper (adjustment) : 0;
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->feed));
      guint first = upper > 0 ? (guint) (gtk_adjustment_get_value (adjustment) / upper * n) : 0;

      dy_row_feed_drain (self->feed, first);
    }
  else
    gtk_single_selection_set_model (self->selection, NULL);
  dy_rows_clear (self->items);
}

static void
run_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  g_autoptr (GError) error = NULL;
  DyQuerySpec spec;
  json_t *request;

  if (!self->ready)
    return;
  fill_spec (self, &spec);
  request = dy_query_build (&spec, &error);
  if (request == NULL)
    {
      show_error (self, error->message);
      return;
    }
  g_clear_pointer (&self->request, json_decref);
  g_clear_pointer (&self->last_key, json_decref);
  gtk_revealer_set_reveal_child (self->stale_revealer, FALSE);
  self->request = request;
  g_free (self->operation);
  self->operation = g_strdup (dy_query_spec_operation (&spec));
  self->scanned = 0;
  self->pages = 0;
  self->requests = 0;
  self->capacity = 0;
  {
    gint64 t0 = g_get_monotonic_time ();

    clear_items (self);
    g_hash_table_remove_all (self->seen_columns);
    self->prune_columns = TRUE;
    rebuild_rows (self);
    g_debug ("results cleared in %.1f ms", (g_get_monotonic_time () - t0) / 1000.0);
  }
  /* Without a Limit of the user's, the first request reads only a screenful so that rows show
   * at once; the rest of a full page follows it. */
  self->follow_up = spec.limit == 0;
  if (self->follow_up)
    {
      json_t *first = json_deep_copy (request);

      json_object_set_new (first, "Limit", json_integer (FIRST_PAGE_ITEMS));
      send_page (self, first);
      json_decref (first);
    }
  else
    send_page (self, request);
  update_footer (self);
}

static void
load_more_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);

  if (self->running || self->last_key == NULL || self->request == NULL)
    return;
  send_next_page (self);
  update_footer (self);
}

/* Extra filter conditions: rows of attribute, operator, type and value, AND-joined. */

static void
remove_filter_row (GtkButton *button, DyTableView *self)
{
  GtkWidget *row = gtk_widget_get_parent (GTK_WIDGET (button));

  gtk_box_remove (self->extra_filters_box, row);
  update_preview (self);
}

static void
add_filter_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (_("and"));
  GtkWidget *attr = gtk_entry_new ();
  GtkWidget *op = gtk_drop_down_new (g_object_ref (gtk_drop_down_get_model (self->filter_op_dropdown)),
                                     NULL);
  GtkWidget *type = gtk_drop_down_new (g_object_ref (gtk_drop_down_get_model (self->filter_type_dropdown)),
                                       NULL);
  GtkWidget *value = gtk_entry_new ();
  GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");

  gtk_widget_add_css_class (row, "filter-row");
  gtk_widget_set_size_request (label, gtk_widget_get_width (gtk_widget_get_first_child (
                                 gtk_widget_get_parent (GTK_WIDGET (self->filter_attr_entry)))), -1);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_entry_set_placeholder_text (GTK_ENTRY (attr), _("attribute"));
  gtk_editable_set_width_chars (GTK_EDITABLE (attr), 12);
  gtk_entry_set_placeholder_text (GTK_ENTRY (value), _("value"));
  gtk_widget_set_hexpand (value, TRUE);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (op), DY_FILTER_EQ);
  gtk_widget_set_tooltip_text (remove, _("Remove this condition"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (attr), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Filter attribute"), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (value), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Filter value"), -1);
  gtk_box_append (GTK_BOX (row), label);
  gtk_box_append (GTK_BOX (row), attr);
  gtk_box_append (GTK_BOX (row), op);
  gtk_box_append (GTK_BOX (row), type);
  gtk_box_append (GTK_BOX (row), value);
  gtk_box_append (GTK_BOX (row), remove);
  g_object_set_data (G_OBJECT (row), "attr", attr);
  g_object_set_data (G_OBJECT (row), "op", op);
  g_object_set_data (G_OBJECT (row), "type", type);
  g_object_set_data (G_OBJECT (row), "value", value);
  g_object_set_data (G_OBJECT (row), "remove", remove);
  g_signal_connect_swapped (attr, "changed", G_CALLBACK (update_preview), self);
  g_signal_connect_swapped (value, "changed", G_CALLBACK (update_preview), self);
  g_signal_connect_swapped (op, "notify::selected", G_CALLBACK (update_preview), self);
  g_signal_connect_swapped (type, "notify::selected", G_CALLBACK (update_preview), self);
  g_signal_connect (remove, "clicked", G_CALLBACK (remove_filter_row), self);
  gtk_box_append (self->extra_filters_box, row);
  gtk_widget_grab_focus (attr);
  update_preview (self);
}

/* The column chooser: a check button per column, filled each time it opens. */

static void
fill_column_chooser (DyTableView *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->columns_box))) != NULL)
    gtk_box_remove (self->columns_box, child);
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      GtkWidget *check;

      if (column == self->tree_column)
        continue;
      check = gtk_check_button_new_with_label (gtk_column_view_column_get_title (column));
      g_object_bind_property (column, "visible", check, "active",
                              G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
      gtk_box_append (self->columns_box, check);
    }
  if (gtk_widget_get_first_child (GTK_WIDGET (self->columns_box)) == NULL)
    gtk_box_append (self->columns_box, gtk_label_new (_("Run first: columns are the attributes "
                                                        "the results hold")));
}

/* Load all: every remaining page, read on a worker that hands each page to the main thread
 * as it comes (at most two waiting, so memory stays bounded), with progress and a rate. */

typedef struct {
  DyTableView *view; /* a reference */
  char *operation;
  json_t *request;
  json_t *start_key;
  DyRowStore *store;
  GMutex lock;
  GCond cond;
  guint waiting; /* pages handed over and not yet applied */
} LoadAll;

/* LoadAll is shared (atomic reference count) by the task and each page on its way. */
static void
load_all_clear (LoadAll *data)
{
  g_object_unref (data->view);
  g_free (data->operation);
  json_decref (data->request);
  if (data->start_key != NULL)
    json_decref (data->start_key);
  dy_row_store_unref (data->store);
  g_mutex_clear (&data->lock);
  g_cond_clear (&data->cond);
}

static void
load_all_release (LoadAll *data)
{
  g_atomic_rc_box_release_full (data, (GDestroyNotify) load_all_clear);
}

typedef struct {
  LoadAll *load;
  GCancellable *cancellable;
  Page *page;
} Delivery;

static void
update_progress (DyTableView *self)
{
  gint64 elapsed = g_get_monotonic_time () - self->load_started;
  guint64 scanned = self->scanned - self->load_scanned_before;
  guint64 rate = elapsed > 0 ? scanned * G_USEC_PER_SEC / (guint64) elapsed : 0;
  gint64 total = json_integer_value (json_object_get (self->description, "ItemCount"));
  g_autofree char *text = NULL;

  /* TRANSLATORS: progress of Load All: items shown, items read, pages, items read a second */
  text = g_strdup_printf (_("%u items · %" G_GUINT64_FORMAT " read · %u pages · %"
                            G_GUINT64_FORMAT " items/s"),
                          g_list_model_get_n_items (G_LIST_MODEL (self->items)), self->scanned,
                          self->pages, rate);
  gtk_progress_bar_set_text (self->progress_bar, text);
  /* ItemCount is DynamoDB's estimate (refreshed about every six hours): a guide only. */
  if (total > 0 && self->operation != NULL && g_str_equal (self->operation, "Scan"))
    gtk_progress_bar_set_fraction (self->progress_bar, MIN (1.0, (double) self->scanned / (double) total));
  else
    gtk_progress_bar_pulse (self->progress_bar);
}

static gboolean
deliver_page (gpointer user_data)
{
  Delivery *delivery = user_data;
  DyTableView *self = delivery->load->view;

  /* A cancelled load drops what was still on its way: LastEvaluatedKey stays that of the last
   * page shown, so Load More resumes with no gap and no duplicate. */
  if (!g_cancellable_is_cancelled (delivery->cancellable))
    {
      self->requests++;
      apply_page (self, delivery->page);
      update_progress (self);
      update_footer (self);
    }
  g_mutex_lock (&delivery->load->lock);
  delivery->load->waiting--;
  g_cond_signal (&delivery->load->cond);
  g_mutex_unlock (&delivery->load->lock);
  return G_SOURCE_REMOVE;
}

static void
delivery_free (Delivery *delivery)
{
  load_all_release (delivery->load);
  page_free (delivery->page);
  g_object_unref (delivery->cancellable);
  g_free (delivery);
}

static void
load_all_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  LoadAll *data = task_data;
  json_t *key = data->start_key != NULL ? json_incref (data->start_key) : NULL;

  while (key != NULL)
    {
      json_t *request = json_deep_copy (data->request);
      json_t *response;
      GError *error = NULL;
      Page *page;
      Delivery *delivery;
      json_t *next;

      g_mutex_lock (&data->lock);
      while (data->waiting >= 2 && !g_cancellable_is_cancelled (cancellable))
        g_cond_wait_until (&data->cond, &data->lock, g_get_monotonic_time () + 50 * G_TIME_SPAN_MILLISECOND);
      g_mutex_unlock (&data->lock);
      json_object_set_new (request, "ExclusiveStartKey", key);
      response = dy_connection_call_sync (data->view->connection, data->operation, request,
                                          cancellable, &error);
      json_decref (request);
      if (response == NULL || (page = parse_page (data->store, response, &error)) == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      if (g_task_return_error_if_cancelled (task))
        {
          page_free (page);
          return;
        }
      next = json_object_get (page->response, "LastEvaluatedKey");
      key = next != NULL ? json_incref (next) : NULL;
      delivery = g_new0 (Delivery, 1);
      delivery->load = g_atomic_rc_box_acquire (data);
      delivery->cancellable = g_object_ref (cancellable);
      delivery->page = page;
      g_mutex_lock (&data->lock);
      data->waiting++;
      g_mutex_unlock (&data->lock);
      g_main_context_invoke_full (NULL, G_PRIORITY_DEFAULT, deliver_page, delivery,
                                  (GDestroyNotify) delivery_free);
    }
  release_freed_memory ();
  /* Done once the last page is applied: the main loop runs the deliveries in order, and the
   * task's callback after them. */
  g_task_return_boolean (task, TRUE);
}

/* Load All reads on a thread of its own at a lower priority than the window's: on a busy
 * machine the main thread gets a core first, and a scan of millions of items never makes it
 * wait. (A thread of the shared pool could not get its priority back.) */
static gpointer
load_all_main (gpointer data)
{
  GTask *task = data;

#ifdef __linux__
  if (setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), 10) != 0)
    g_debug ("Load All at the usual priority: %s", g_strerror (errno));
#endif
  load_all_thread (task, g_task_get_source_object (task), g_task_get_task_data (task),
                   g_task_get_cancellable (task));
  g_object_unref (task);
  return NULL;
}

static void
finish_load_all (DyTableView *self)
{
  self->loading_all = FALSE;
  self->follow_up = FALSE;
  if (self->prune_columns)
    prune_columns (self);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
  set_running (self, FALSE);
  rearrange (self);
  update_actions (self);
  update_footer (self);
}

static void
load_all_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyTableView *self = DY_TABLE_VIEW (source);
  g_autoptr (GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return; /* cancel_action has finished it (or a new Run replaced it) */
      show_error (self, error->message);
    }
  finish_load_all (self);
}

static void
load_all_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  g_autoptr (GTask) task = NULL;
  LoadAll *data;

  if (self->running || self->last_key == NULL || self->request == NULL)
    return;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  data = g_atomic_rc_box_new0 (LoadAll);
  data->view = g_object_ref (self);
  data->operation = g_strdup (self->operation);
  data->request = json_deep_copy (self->request);
  data->start_key = json_incref (self->last_key);
  data->store = dy_row_store_ref (dy_rows_get_store (self->items));
  g_mutex_init (&data->lock);
  g_cond_init (&data->cond);
  self->loading_all = TRUE;
  self->load_started = g_get_monotonic_time ();
  self->load_scanned_before = self->scanned;
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), TRUE);
  show_error (self, NULL);
  set_running (self, TRUE);
  update_progress (self);
  task = g_task_new (self, self->cancellable, load_all_done, NULL);
  g_task_set_source_tag (task, load_all_action);
  g_task_set_task_data (task, data, (GDestroyNotify) load_all_release);
  g_thread_unref (g_thread_new ("dy-load-all", load_all_main, g_object_ref (task)));
}

static void
cancel_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);

  if (!self->running)
    return;
  g_cancellable_cancel (self->cancellable);
  finish_load_all (self);
}

static void
focus_filter_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->pk_entry));
}

static void
copy_request_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  g_autofree char *text = dy_table_view_dup_request_text (self);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

/* DescribeTable: which keys the filter row offers. */

static gboolean
attribute_type (json_t *definitions, const char *name, DdbType *type)
{
  size_t i;
  json_t *def;

  json_array_foreach (definitions, i, def)
    if (g_strcmp0 (json_string_value (json_object_get (def, "AttributeName")), name) == 0)
      return ddb_type_from_name (json_string_value (json_object_get (def, "AttributeType")),
                                 type);
  return FALSE;
}

static KeyInfo *
key_info_new (const char *name, json_t *schema, json_t *definitions)
{
  KeyInfo *info = g_new0 (KeyInfo, 1);
  size_t i;
  json_t *element;

  info->name = g_strdup (name);
  json_array_foreach (schema, i, element)
    {
      const char *attr = json_string_value (json_object_get (element, "AttributeName"));
      const char *kind = json_string_value (json_object_get (element, "KeyType"));

      if (g_strcmp0 (kind, "HASH") == 0)
        {
          info->pk = g_strdup (attr);
          attribute_type (definitions, attr, &info->pk_type);
        }
      else if (g_strcmp0 (kind, "RANGE") == 0)
        {
          info->sk = g_strdup (attr);
          attribute_type (definitions, attr, &info->sk_type);
        }
    }
  return info;
}

static void
add_indexes (DyTableView *self, GtkStringList *choices, json_t *indexes, json_t *definitions,
             const char *kind)
{
  size_t i;
  json_t *index;

  json_array_foreach (indexes, i, index)
    {
      const char *name = json_string_value (json_object_get (index, "IndexName"));
      KeyInfo *info = key_info_new (name, json_object_get (index, "KeySchema"), definitions);
      g_autofree char *label = NULL;

      if (info->pk == NULL)
        {
          key_info_free (info);
          continue;
        }
      /* TRANSLATORS: an index in the index picker: kind (GSI, LSI), name, its keys */
      label = g_strdup_printf (_("%s %s (%s%s%s)"), kind, name, info->pk,
                               info->sk != NULL ? ", " : "", info->sk != NULL ? info->sk : "");
      g_ptr_array_add (self->keys, info);
      gtk_string_list_append (choices, label);
    }
}

static void
fill_description (DyTableView *self)
{
  g_autoptr (GPtrArray) rows = NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->describe_grid))) != NULL)
    gtk_grid_remove (self->describe_grid, child);
  if (self->description == NULL)
    return;
  rows = dy_describe_rows (self->description, self->ttl, self->ttl_error);
  for (guint i = 0; i < rows->len; i++)
    {
      DyDescribeRow *row = rows->pdata[i];
      GtkWidget *label = gtk_label_new (row->label);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      if (row->heading)
        {
          gtk_widget_add_css_class (label, "heading");
          gtk_widget_set_margin_top (label, 8);
          gtk_grid_attach (self->describe_grid, label, 0, (int) i, 2, 1);
        }
      else
        {
          GtkWidget *value = gtk_label_new (row->value);

          gtk_widget_add_css_class (label, "dim-label");
          gtk_label_set_xalign (GTK_LABEL (value), 0);
          gtk_label_set_selectable (GTK_LABEL (value), TRUE);
          gtk_label_set_wrap (GTK_LABEL (value), TRUE);
          gtk_label_set_max_width_chars (GTK_LABEL (value), 48);
          gtk_grid_attach (self->describe_grid, label, 0, (int) i, 1, 1);
          gtk_grid_attach (self->describe_grid, value, 1, (int) i, 1, 1);
        }
    }
}

static void
ttl_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyTableView) self = user_data;
  g_autoptr (GError) error = NULL;
  json_t *response = dy_connection_call_finish (DY_CONNECTION (source), result, &error);

  if (response == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      /* Some servers have no TTL: the rest of the description stands. */
      self->ttl_error = g_strdup (error->message);
    }
  else
    {
      self->ttl = json_incref (json_object_get (response, "TimeToLiveDescription"));
      if (self->ttl == NULL)
        self->ttl = json_object ();
      json_decref (response);
    }
  fill_description (self);
}

static void
describe_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (DyTableView) self = user_data;
  g_autoptr (GError) error = NULL;
  json_t *response = dy_connection_call_finish (DY_CONNECTION (source), result, &error);
  json_t *table;
  json_t *definitions;
  KeyInfo *info;
  GtkStringList *choices;
  g_autofree char *label = NULL;

  if (response == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, error->message);
      return;
    }
  table = json_object_get (response, "Table");
  definitions = json_object_get (table, "AttributeDefinitions");
  info = key_info_new (NULL, json_object_get (table, "KeySchema"), definitions);
  if (info->pk == NULL)
    {
      key_info_free (info);
      json_decref (response);
      show_error (self, _("DescribeTable gave no key schema"));
      return;
    }
  g_ptr_array_add (self->keys, info);
  self->description = json_incref (table);
  fill_description (self);
  {
    json_t *request = json_pack ("{ss}", "TableName", self->table_name);

    dy_connection_call_async (self->connection, "DescribeTimeToLive", request,
                              self->describe_cancellable, ttl_done, g_object_ref (self));
    json_decref (request);
  }
  choices = gtk_string_list_new (NULL);
  /* TRANSLATORS: the table itself in the index picker, with its keys */
  label = g_strdup_printf (_("Table (%s%s%s)"), info->pk, info->sk != NULL ? ", " : "",
                           info->sk != NULL ? info->sk : "");
  gtk_string_list_append (choices, label);
  add_indexes (self, choices, json_object_get (table, "GlobalSecondaryIndexes"), definitions,
               "GSI");
  add_indexes (self, choices, json_object_get (table, "LocalSecondaryIndexes"), definitions,
               "LSI");
  gtk_drop_down_set_model (self->index_dropdown, G_LIST_MODEL (choices));
  g_object_unref (choices);
  json_decref (response);
  self->ready = TRUE;
  update_key_labels (self);
  update_actions (self);
}

static void
index_changed (DyTableView *self)
{
  update_key_labels (self);
}

/* GObject. */

static void
dy_table_view_constructed (GObject *object)
{
  DyTableView *self = DY_TABLE_VIEW (object);
  json_t *request = json_pack ("{ss}", "TableName", self->table_name);

  G_OBJECT_CLASS (dy_table_view_parent_class)->constructed (object);
  self->staging_handler = g_signal_connect_swapped (dy_staging_get_default (), "changed",
                                                    G_CALLBACK (staging_changed), self);
  self->committed_handler = g_signal_connect (dy_staging_get_default (), "committed",
                                              G_CALLBACK (staging_committed), self);
  dy_connection_call_async (self->connection, "DescribeTable", request,
                            self->describe_cancellable, describe_done, g_object_ref (self));
  json_decref (request);
  update_actions (self);
  update_footer (self);
}

static void
dy_table_view_dispose (GObject *object)
{
  DyTableView *self = DY_TABLE_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->describe_cancellable);
  g_clear_signal_handler (&self->staging_handler, dy_staging_get_default ());
  g_clear_signal_handler (&self->committed_handler, dy_staging_get_default ());
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_TABLE_VIEW);
  g_cancellable_cancel (self->arrange_cancellable);
  g_clear_object (&self->order);
  g_clear_object (&self->selection);
  g_clear_object (&self->feed);
  g_clear_object (&self->tree_column);
  G_OBJECT_CLASS (dy_table_view_parent_class)->dispose (object);
}

static void
dy_table_view_finalize (GObject *object)
{
  DyTableView *self = DY_TABLE_VIEW (object);

  g_clear_object (&self->connection);
  g_free (self->table_name);
  g_free (self->operation);
  g_ptr_array_unref (self->keys);
  g_clear_object (&self->items);
  g_hash_table_unref (self->columns);
  g_hash_table_unref (self->bound_cells);
  g_hash_table_unref (self->seen_columns);
  g_clear_pointer (&self->request, json_decref);
  g_clear_pointer (&self->last_key, json_decref);
  g_clear_pointer (&self->description, json_decref);
  g_clear_pointer (&self->ttl, json_decref);
  g_free (self->ttl_error);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->describe_cancellable);
  g_clear_object (&self->arrange_cancellable);
  g_array_unref (self->filter_conds);
  g_hash_table_unref (self->hidden_columns);
  G_OBJECT_CLASS (dy_table_view_parent_class)->finalize (object);
}

static void
dy_table_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DyTableView *self = DY_TABLE_VIEW (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      g_value_set_object (value, self->connection);
      break;
    case PROP_TABLE_NAME:
      g_value_set_string (value, self->table_name);
      break;
    case PROP_GROUPED:
      g_value_set_boolean (value, self->grouped);
      break;
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dy_table_view_set_property (GObject *object, guint prop_id, const GValue *value,
                            GParamSpec *pspec)
{
  DyTableView *self = DY_TABLE_VIEW (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      self->connection = g_value_dup_object (value);
      break;
    case PROP_TABLE_NAME:
      self->table_name = g_value_dup_string (value);
      break;
    case PROP_GROUPED:
      if (self->grouped != g_value_get_boolean (value))
        {
          self->grouped = g_value_get_boolean (value);
          rebuild_rows (self);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dy_table_view_class_init (DyTableViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = dy_table_view_constructed;
  object_class->dispose = dy_table_view_dispose;
  object_class->finalize = dy_table_view_finalize;
  object_class->get_property = dy_table_view_get_property;
  object_class->set_property = dy_table_view_set_property;

  properties[PROP_CONNECTION] =
    g_param_spec_object ("connection", NULL, NULL, DY_TYPE_CONNECTION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TABLE_NAME] =
    g_param_spec_string ("table-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_GROUPED] =
    g_param_spec_boolean ("grouped", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (DY_TYPE_INSPECTOR);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dy-table-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DyTableView, index_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, pk_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, pk_entry);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, sk_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, sk_op_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, sk_entry);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, sk_entry2);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, desc_toggle);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, filter_attr_entry);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, filter_op_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, filter_type_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, filter_value_entry);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, limit_spin);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, mode_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, more_button);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, request_revealer);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, request_view);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, error_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, stale_revealer);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, column_view);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, inspector);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, footer_label);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, spinner);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, describe_button);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, describe_grid);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, extra_filters_box);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, columns_button);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, columns_box);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DyTableView, cancel_button);
  gtk_widget_class_bind_template_callback (widget_class, fill_column_chooser);
  gtk_widget_class_bind_template_callback (widget_class, update_preview);
  gtk_widget_class_bind_template_callback (widget_class, index_changed);

  gtk_widget_class_install_action (widget_class, "view.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "view.load-more", NULL, load_more_action);
  gtk_widget_class_install_action (widget_class, "view.focus-filter", NULL, focus_filter_action);
  gtk_widget_class_install_action (widget_class, "view.add-filter", NULL, add_filter_action);
  gtk_widget_class_install_action (widget_class, "view.load-all", NULL, load_all_action);
  gtk_widget_class_install_action (widget_class, "view.cancel", NULL, cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "view.cancel", NULL);
  gtk_widget_class_install_action (widget_class, "view.copy-request", NULL, copy_request_action);
  gtk_widget_class_install_property_action (widget_class, "view.group", "grouped");
}

static void
dy_table_view_init (DyTableView *self)
{
  GtkListItemFactory *factory;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->keys = g_ptr_array_new_with_free_func ((GDestroyNotify) key_info_free);
  self->items = dy_rows_new ();
  self->feed = dy_row_feed_new (G_LIST_MODEL (self->items));
  self->columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->bound_cells = g_hash_table_new (NULL, NULL);
  self->seen_columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cancellable = g_cancellable_new ();
  self->describe_cancellable = g_cancellable_new ();
  self->arrange_cancellable = g_cancellable_new ();
  self->filter_conds = g_array_new (FALSE, FALSE, sizeof (DyFilterCond));
  self->hidden_columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item",
                            G_CALLBACK (selection_changed), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_tree_cell), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_tree_cell), self);
  self->tree_column = gtk_column_view_column_new (_("Collection"), factory);
  gtk_column_view_column_set_resizable (self->tree_column, TRUE);
  gtk_column_view_column_set_fixed_width (self->tree_column, 560);
  gtk_column_view_column_set_visible (self->tree_column, FALSE);
  gtk_column_view_append_column (self->column_view, self->tree_column);
  g_signal_connect_swapped (column_sorter (self), "changed", G_CALLBACK (sorter_changed), self);
  rebuild_rows (self);
}

GtkWidget *
dy_table_view_new (DyConnection *connection, const char *table_name)
{
  return g_object_new (DY_TYPE_TABLE_VIEW, "connection", connection, "table-name", table_name,
                       NULL);
}

DyConnection *
dy_table_view_get_connection (DyTableView *self)
{
  return self->connection;
}

const char *
dy_table_view_get_table_name (DyTableView *self)
{
  return self->table_name;
}

gboolean
dy_table_view_get_ready (DyTableView *self)
{
  return self->ready;
}

gboolean
dy_table_view_get_running (DyTableView *self)
{
  return self->running;
}

gboolean
dy_table_view_get_can_load_more (DyTableView *self)
{
  return self->last_key != NULL;
}

gboolean
dy_table_view_get_grouped (DyTableView *self)
{
  return self->grouped;
}

GListModel *
dy_table_view_get_items (DyTableView *self)
{
  return G_LIST_MODEL (self->items);
}

GtkSelectionModel *
dy_table_view_get_rows (DyTableView *self)
{
  return GTK_SELECTION_MODEL (self->selection);
}

gboolean
dy_table_view_get_arranging (DyTableView *self)
{
  GListModel *model = gtk_single_selection_get_model (self->selection);

  return self->arranging
         || (GTK_IS_SORT_LIST_MODEL (model)
             && gtk_sort_list_model_get_pending (GTK_SORT_LIST_MODEL (model)) > 0);
}

gboolean
dy_table_view_get_described (DyTableView *self)
{
  return self->description != NULL && (self->ttl != NULL || self->ttl_error != NULL);
}

DyInspector *
dy_table_view_get_inspector (DyTableView *self)
{
  return self->inspector;
}

void
dy_table_view_get_stats (DyTableView *self, guint64 *scanned, guint *pages, guint *requests,
                         double *capacity)
{
  *scanned = self->scanned;
  *pages = self->pages;
  *requests = self->requests;
  *capacity = self->capacity;
}

char *
dy_table_view_dup_request_text (DyTableView *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->request_view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}
