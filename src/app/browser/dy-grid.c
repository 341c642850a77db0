/* dy-grid.c: the exact-value grid's cells (see dy-grid.h). */
#define G_LOG_DOMAIN "dynoscope-grid"

#include "app/common/dy-format.h"
#include "app/common/dy-format-time.h"
#include "app/browser/dy-grid.h"
#include "app/common/dy-item.h"

gpointer
dy_grid_row (gpointer item)
{
  return DY_IS_ROW_SLOT (item) ? dy_row_slot_get_row (item) : item;
}

/* The grid's rows are items (flat) or tree rows of collections and items (grouped). */
GObject *
dy_grid_row_item (gpointer row)
{
  row = dy_grid_row (row);
  if (GTK_IS_TREE_LIST_ROW (row))
    return gtk_tree_list_row_get_item (row);
  return row != NULL ? g_object_ref (row) : NULL;
}

/* A cell bound to a slot: the slot shows another row, so the cell is bound again. */
static void
slot_changed (DyRowSlot *slot, GtkListItem *list_item)
{
  GtkListItemFactory *factory = g_object_get_data (G_OBJECT (list_item), "dy-factory");

  g_object_set_data (G_OBJECT (list_item), "dy-rebinding", GINT_TO_POINTER (TRUE));
  g_signal_emit_by_name (factory, "unbind", list_item);
  g_signal_emit_by_name (factory, "bind", list_item);
  g_object_set_data (G_OBJECT (list_item), "dy-rebinding", NULL);
}

static gboolean
rebinding (GtkListItem *list_item)
{
  return g_object_get_data (G_OBJECT (list_item), "dy-rebinding") != NULL;
}

static void
follow_bind (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  gpointer item = gtk_list_item_get_item (list_item);
  gulong handler;

  if (!DY_IS_ROW_SLOT (item) || rebinding (list_item))
    return;
  handler = g_signal_connect (item, "changed", G_CALLBACK (slot_changed), list_item);
  g_object_set_data (G_OBJECT (list_item), "dy-factory", factory);
  g_object_set_data (G_OBJECT (list_item), "dy-slot-handler", GSIZE_TO_POINTER (handler));
}

static void
follow_unbind (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  gulong handler = GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (list_item), "dy-slot-handler"));

  if (handler == 0 || rebinding (list_item))
    return;
  g_signal_handler_disconnect (gtk_list_item_get_item (list_item), handler);
  g_object_set_data (G_OBJECT (list_item), "dy-slot-handler", NULL);
}

void
dy_grid_follow_slots (GtkListItemFactory *factory)
{
  g_signal_connect (factory, "bind", G_CALLBACK (follow_bind), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (follow_unbind), NULL);
}

gboolean
dy_grid_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                       gpointer user_data)
{
  const char *text = g_object_get_data (G_OBJECT (widget), "tooltip");

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
dy_grid_setup_collection_cell (GtkListItem *list_item)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *flag = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect (label, "query-tooltip", G_CALLBACK (dy_grid_query_tooltip), NULL);
  gtk_label_set_xalign (GTK_LABEL (flag), 0);
  gtk_label_set_ellipsize (GTK_LABEL (flag), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (flag, "caption");
  gtk_widget_set_has_tooltip (flag, TRUE);
  g_signal_connect (flag, "query-tooltip", G_CALLBACK (dy_grid_query_tooltip), NULL);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), flag);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  g_object_set_data (G_OBJECT (expander), "label", label);
  g_object_set_data (G_OBJECT (expander), "flag", flag);
  gtk_list_item_set_child (list_item, expander);
}

char *
dy_grid_collection_heading (DyGroup *group)
{
  g_autofree char *size = dy_format_size (dy_group_get_total_size (group));
  guint n = dy_group_get_n_items (group);

  /* TRANSLATORS: an item collection: its partition key value, item count and size */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s — %u item, %s", "%s — %u items, %s",
                                       n),
                          dy_group_get_key_text (group), n, size);
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
  g_signal_connect (label, "query-tooltip", G_CALLBACK (dy_grid_query_tooltip), NULL);
  gtk_list_item_set_child (list_item, label);
}

/* "TEXT · EXTRA", the extra part dimmed. */
static char *
with_dimmed (const char *text, const char *extra)
{
  g_autofree char *a = g_markup_escape_text (text, -1);
  g_autofree char *b = g_markup_escape_text (extra, -1);

  return g_strdup_printf ("%s <span alpha=\"55%%\">· %s</span>", a, b);
}

static char *
joined (const char *a, const char *b)
{
  if (a == NULL || b == NULL)
    return g_strdup (a != NULL ? a : b);
  return g_strdup_printf ("%s · %s", a, b);
}

char *
dy_grid_cell_markup (const DdbValue *value, DyGridTimeMode mode, gboolean ttl, gint64 now,
                     char **tooltip)
{
  g_autofree char *text = NULL;
  g_autofree char *time = NULL;
  g_autofree char *phrase = NULL;
  const char *type;

  *tooltip = NULL;
  if (value == NULL)
    return g_strdup ("");
  text = dy_format_value (value);
  type = ddb_type_name (value->type);
  if (mode != DY_GRID_TIME_OFF)
    {
      time = dy_format_time (value);
      if (ttl)
        phrase = dy_format_ttl (value, now);
    }
  /* a date alone reads as itself: nothing to add */
  if (time != NULL && phrase == NULL && g_str_equal (time, text))
    g_clear_pointer (&time, g_free);
  if (mode == DY_GRID_TIME_OFF || (time == NULL && phrase == NULL))
    {
      *tooltip = g_strdup (type);
      return g_markup_escape_text (text, -1);
    }
  if (mode == DY_GRID_TIME_BESIDE)
    {
      /* the TTL column says when; the date is in the tooltip */
      *tooltip = ttl ? joined (type, time) : g_strdup (type);
      return with_dimmed (text, phrase != NULL ? phrase : time);
    }
  *tooltip = joined (type, text);
  {
    g_autofree char *shown = joined (time, phrase);

    return g_markup_escape_text (shown, -1);
  }
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  const char *name = g_object_get_data (G_OBJECT (factory), "attribute");
  g_autoptr (GObject) object = dy_grid_row_item (gtk_list_item_get_item (list_item));
  GtkWidget *label = gtk_list_item_get_child (list_item);
  const DdbValue *value = NULL;
  DyGridTimeMode mode = dy_grid_cell_factory_get_time_mode (GTK_LIST_ITEM_FACTORY (factory));
  char *tooltip = NULL;

  if (DY_IS_ITEM (object))
    value = dy_item_get_attribute (DY_ITEM (object), name);
  if (mode == DY_GRID_TIME_OFF || value == NULL)
    {
      /* the common case stays as cheap as it was: no markup parsed */
      g_autofree char *text = value != NULL ? dy_format_value (value) : NULL;

      gtk_inscription_set_text (GTK_INSCRIPTION (label), text);
      /* the dimmed part of a recycled cell's markup would stay on the new text */
      if (gtk_inscription_get_attributes (GTK_INSCRIPTION (label)) != NULL)
        gtk_inscription_set_attributes (GTK_INSCRIPTION (label), NULL);
      if (value != NULL)
        tooltip = g_strdup (ddb_type_name (value->type));
    }
  else
    {
      g_autofree char *markup
          = dy_grid_cell_markup (value, mode,
                                 dy_grid_cell_factory_get_ttl (GTK_LIST_ITEM_FACTORY (factory)),
                                 dy_format_now (), &tooltip);

      gtk_inscription_set_markup (GTK_INSCRIPTION (label), markup);
    }
  g_object_set_data_full (G_OBJECT (label), "tooltip", tooltip, g_free);
  /* The factory, and so the name, lives as long as the column. */
  g_object_set_data (G_OBJECT (label), "attribute", (gpointer) name);
}

GtkListItemFactory *
dy_grid_cell_factory_new (const char *attribute)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_object_set_data_full (G_OBJECT (factory), "attribute", g_strdup (attribute), g_free);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), NULL);
  dy_grid_follow_slots (factory);
  return factory;
}

void
dy_grid_cell_factory_set_time_mode (GtkListItemFactory *factory, DyGridTimeMode mode,
                                    gboolean ttl)
{
  g_object_set_data (G_OBJECT (factory), "time-mode", GINT_TO_POINTER (mode));
  g_object_set_data (G_OBJECT (factory), "ttl", GINT_TO_POINTER (ttl));
}

DyGridTimeMode
dy_grid_cell_factory_get_time_mode (GtkListItemFactory *factory)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "time-mode"));
}

gboolean
dy_grid_cell_factory_get_ttl (GtkListItemFactory *factory)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "ttl"));
}

void
dy_grid_rebind_cell (GtkListItemFactory *factory, GtkListItem *list_item)
{
  bind_cell (GTK_SIGNAL_LIST_ITEM_FACTORY (factory), list_item, NULL);
}

/* The sum of the widths capped at CAP, none below its floor. */
static int
capped_sum (const int *widths, const int *floors, guint n, int cap)
{
  int sum = 0;

  for (guint i = 0; i < n; i++)
    sum += MAX (floors[i], MIN (widths[i], cap));
  return sum;
}

void
dy_grid_fit_widths (int *widths, const int *floors, guint n, int room)
{
  int low = 0, high = 0;

  for (guint i = 0; i < n; i++)
    high = MAX (high, widths[i]);
  if (capped_sum (widths, floors, n, high) <= room)
    return;
  /* the widest cap under which the columns fit */
  while (low < high)
    {
      int cap = low + (high - low + 1) / 2;

      if (capped_sum (widths, floors, n, cap) <= room)
        low = cap;
      else
        high = cap - 1;
    }
  for (guint i = 0; i < n; i++)
    widths[i] = MAX (floors[i], MIN (widths[i], low));
}

int
dy_grid_column_width (const char *name, DyRowPage *page)
{
  int chars = (int) g_utf8_strlen (name, -1) + 2;

  for (guint i = 0; page != NULL && i < page->names->len; i++)
    if (g_str_equal (page->names->pdata[i], name))
      chars = MAX (chars, g_array_index (page->widths, int, i));
  return CLAMP (chars * 8 + 24, 72, 360);
}
