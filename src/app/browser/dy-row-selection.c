/* dy-row-selection.c: a multiple selection kept as positions only (see the header). */
#include "app/browser/dy-row-selection.h"

#include "app/browser/dy-row-feed.h"

struct _DyRowSelection {
  GObject parent_instance;

  GListModel *model;
  GtkBitset *selected;
  gulong items_handler;
  gulong replaced_handler;
};

static void dy_row_selection_list_model_init (GListModelInterface *iface);
static void dy_row_selection_selection_model_init (GtkSelectionModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DyRowSelection, dy_row_selection, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      dy_row_selection_list_model_init)
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SELECTION_MODEL,
                                                      dy_row_selection_selection_model_init))

enum { PROP_0, PROP_MODEL, N_PROPS };
static GParamSpec *props[N_PROPS];

static GType
get_item_type (GListModel *list)
{
  return G_TYPE_OBJECT;
}

static guint
get_n_items (GListModel *list)
{
  DyRowSelection *self = DY_ROW_SELECTION (list);

  return self->model != NULL ? g_list_model_get_n_items (self->model) : 0;
}

static gpointer
get_item (GListModel *list, guint position)
{
  DyRowSelection *self = DY_ROW_SELECTION (list);

  return self->model != NULL ? g_list_model_get_item (self->model, position) : NULL;
}

static void
dy_row_selection_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static gboolean
is_selected (GtkSelectionModel *model, guint position)
{
  return gtk_bitset_contains (DY_ROW_SELECTION (model)->selected, position);
}

static GtkBitset *
get_selection_in_range (GtkSelectionModel *model, guint position, guint n_items)
{
  GtkBitset *range = gtk_bitset_new_range (position, n_items);

  gtk_bitset_intersect (range, DY_ROW_SELECTION (model)->selected);
  return range;
}

/* The rows in MASK take their state from SELECTED; the others keep theirs. */
static gboolean
set_selection (GtkSelectionModel *model, GtkBitset *selected, GtkBitset *mask)
{
  DyRowSelection *self = DY_ROW_SELECTION (model);
  g_autoptr (GtkBitset) changed = gtk_bitset_copy (self->selected);
  g_autoptr (GtkBitset) wanted = gtk_bitset_copy (selected);
  guint n = get_n_items (G_LIST_MODEL (self));
  guint first, last;

  gtk_bitset_intersect (wanted, mask);
  gtk_bitset_subtract (self->selected, mask);
  gtk_bitset_union (self->selected, wanted);
  /* rows past the model's end cannot be selected */
  gtk_bitset_remove_range_closed (self->selected, n, G_MAXUINT);
  gtk_bitset_difference (changed, self->selected); /* symmetric: what changed */
  if (gtk_bitset_is_empty (changed))
    return TRUE;
  first = gtk_bitset_get_minimum (changed);
  last = gtk_bitset_get_maximum (changed);
  gtk_selection_model_selection_changed (model, first, last - first + 1);
  return TRUE;
}

static void
dy_row_selection_selection_model_init (GtkSelectionModelInterface *iface)
{
  iface->is_selected = is_selected;
  iface->get_selection_in_range = get_selection_in_range;
  iface->set_selection = set_selection;
}

static void
model_items_changed (DyRowSelection *self, guint position, guint removed, guint added)
{
  gtk_bitset_splice (self->selected, position, removed, added);
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

/* A feed's rows that show other rows now, in place (dy-row-feed.h), are not selected. */
static void
model_rows_replaced (DyRowSelection *self, guint position, guint n_items)
{
  g_autoptr (GtkBitset) range = gtk_bitset_new_range (position, n_items);
  g_autoptr (GtkBitset) unselected = gtk_bitset_new_empty ();

  gtk_bitset_intersect (range, self->selected);
  if (!gtk_bitset_is_empty (range))
    set_selection (GTK_SELECTION_MODEL (self), unselected, range);
}

static void
disconnect_model (DyRowSelection *self)
{
  g_clear_signal_handler (&self->items_handler, self->model);
  g_clear_signal_handler (&self->replaced_handler, self->model);
  g_clear_object (&self->model);
}

void
dy_row_selection_set_model (DyRowSelection *self, GListModel *model)
{
  guint before = get_n_items (G_LIST_MODEL (self));
  guint after;

  g_return_if_fail (DY_IS_ROW_SELECTION (self));
  if (self->model == model)
    return;
  if (self->model != NULL)
    disconnect_model (self);
  gtk_bitset_remove_all (self->selected);
  /* Every row out, then every row in, in two emissions: given one (0, BEFORE, AFTER), GTK
   * 4.8's list views look for each item they track (the scroll anchor, the focus) among the
   * AFTER new items, reading every one of a million rows on the main thread. */
  if (before > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, before, 0);
  if (model != NULL)
    {
      self->model = g_object_ref (model);
      self->items_handler = g_signal_connect_swapped (model, "items-changed",
                                                      G_CALLBACK (model_items_changed), self);
      if (DY_IS_ROW_FEED (model))
        self->replaced_handler = g_signal_connect_swapped (model, "rows-replaced",
                                                           G_CALLBACK (model_rows_replaced), self);
    }
  after = get_n_items (G_LIST_MODEL (self));
  if (after > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, 0, after);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MODEL]);
}

GListModel *
dy_row_selection_get_model (DyRowSelection *self)
{
  return self->model;
}

guint64
dy_row_selection_get_n_selected (DyRowSelection *self)
{
  return gtk_bitset_get_size (self->selected);
}

static void
dy_row_selection_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DyRowSelection *self = DY_ROW_SELECTION (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dy_row_selection_set_property (GObject *object, guint prop_id, const GValue *value,
                               GParamSpec *pspec)
{
  DyRowSelection *self = DY_ROW_SELECTION (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      dy_row_selection_set_model (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dy_row_selection_dispose (GObject *object)
{
  DyRowSelection *self = DY_ROW_SELECTION (object);

  if (self->model != NULL)
    disconnect_model (self);
  G_OBJECT_CLASS (dy_row_selection_parent_class)->dispose (object);
}

static void
dy_row_selection_finalize (GObject *object)
{
  gtk_bitset_unref (DY_ROW_SELECTION (object)->selected);
  G_OBJECT_CLASS (dy_row_selection_parent_class)->finalize (object);
}

static void
dy_row_selection_class_init (DyRowSelectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = dy_row_selection_get_property;
  object_class->set_property = dy_row_selection_set_property;
  object_class->dispose = dy_row_selection_dispose;
  object_class->finalize = dy_row_selection_finalize;
  props[PROP_MODEL] = g_param_spec_object ("model", NULL, NULL, G_TYPE_LIST_MODEL,
                                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                               | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);
}

static void
dy_row_selection_init (DyRowSelection *self)
{
  self->selected = gtk_bitset_new_empty ();
}

DyRowSelection *
dy_row_selection_new (GListModel *model)
{
  return g_object_new (DY_TYPE_ROW_SELECTION, "model", model, NULL);
}
