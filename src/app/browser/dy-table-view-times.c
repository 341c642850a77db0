/* dy-table-view-times.c: the grid's time columns. Each attribute column shows values that read
 * as times (epoch numbers, ISO 8601 strings: core/timestamp) as its mode says: Off, Beside (the
 * local date and time dimmed after the value) or Instead (the date and time, the exact value in
 * the tooltip), chosen in the column's header menu. The table's TTL attribute column says when
 * the item expires.
 *
 * Defaults: the TTL attribute's column is Beside; so is a column whose values, among the last
 * PROBE_ROWS rows loaded when it appeared, all read as times (at least one): a column of
 * `createdAt` epochs or ISO strings. Any other column is Off, as a column of numbers that only
 * happen to fall in a time range (IDs, amounts) must not grow dates.
 *
 * What the user picks is remembered per table across restarts in the "time-columns" setting
 * (a{sa{ss}}: "connection key<TAB>table" (dy_connection_dup_key) -> column -> "off", "beside"
 * or "instead"), only the
 * columns the user set, the tables last set first, at most MAX_TABLES of them. */
#define G_LOG_DOMAIN "dynoscope-table-view"

#include <glib/gi18n.h>

#include "app/browser/dy-grid.h"
#include "app/browser/dy-table-view-private.h"
#include "core/timestamp.h"

#define PROBE_ROWS 200
#define MAX_TABLES 200
#define SETTINGS_KEY "time-columns"

static const char *const mode_names[] = { "off", "beside", "instead" };

static gboolean
mode_from_name (const char *name, DyGridTimeMode *mode)
{
  for (guint i = 0; i < G_N_ELEMENTS (mode_names); i++)
    if (g_strcmp0 (name, mode_names[i]) == 0)
      {
        *mode = (DyGridTimeMode) i;
        return TRUE;
      }
  return FALSE;
}

const char *
dy_table_view_ttl_attribute (DyTableView *self)
{
  const char *status = json_string_value (json_object_get (self->ttl, "TimeToLiveStatus"));

  if (g_strcmp0 (status, "ENABLED") != 0 && g_strcmp0 (status, "ENABLING") != 0)
    return NULL;
  return json_string_value (json_object_get (self->ttl, "AttributeName"));
}

/* The setting */

static char *
table_key (DyTableView *self)
{
  g_autofree char *connection = dy_connection_dup_key (self->connection);

  return g_strdup_printf ("%s\t%s", connection, self->table_name);
}

static gboolean
has_setting (DyTableView *self)
{
  GSettingsSchema *schema = NULL;
  gboolean has;

  if (self->layout_settings == NULL)
    return FALSE;
  g_object_get (self->layout_settings, "settings-schema", &schema, NULL);
  has = schema != NULL && g_settings_schema_has_key (schema, SETTINGS_KEY);
  g_clear_pointer (&schema, g_settings_schema_unref);
  return has;
}

/* The mode the user set for COLUMN of this table, if any. */
static gboolean
saved_mode (DyTableView *self, const char *column, DyGridTimeMode *mode)
{
  g_autoptr (GVariant) all = NULL;
  g_autoptr (GVariant) columns = NULL;
  g_autofree char *key = NULL;
  const char *name = NULL;

  if (!has_setting (self))
    return FALSE;
  all = g_settings_get_value (self->layout_settings, SETTINGS_KEY);
  key = table_key (self);
  columns = g_variant_lookup_value (all, key, G_VARIANT_TYPE ("a{ss}"));
  return columns != NULL && g_variant_lookup (columns, column, "&s", &name)
         && mode_from_name (name, mode);
}

static void
save_mode (DyTableView *self, const char *column, DyGridTimeMode mode)
{
  g_autoptr (GVariant) all = NULL;
  g_autoptr (GVariant) old = NULL;
  g_autofree char *key = NULL;
  GVariantBuilder tables, columns;
  GVariantIter iter;
  const char *name, *value;
  GVariant *entry;
  guint n = 1;

  if (!has_setting (self))
    return;
  all = g_settings_get_value (self->layout_settings, SETTINGS_KEY);
  key = table_key (self);
  old = g_variant_lookup_value (all, key, G_VARIANT_TYPE ("a{ss}"));
  g_variant_builder_init (&columns, G_VARIANT_TYPE ("a{ss}"));
  g_variant_builder_add (&columns, "{ss}", column, mode_names[mode]);
  if (old != NULL)
    {
      g_variant_iter_init (&iter, old);
      while (g_variant_iter_next (&iter, "{&s&s}", &name, &value))
        if (!g_str_equal (name, column))
          g_variant_builder_add (&columns, "{ss}", name, value);
    }
  /* this table first, then the others as they were */
  g_variant_builder_init (&tables, G_VARIANT_TYPE ("a{sa{ss}}"));
  g_variant_builder_add (&tables, "{s@a{ss}}", key, g_variant_builder_end (&columns));
  g_variant_iter_init (&iter, all);
  while ((entry = g_variant_iter_next_value (&iter)) != NULL)
    {
      const char *other = NULL;

      g_variant_get_child (entry, 0, "&s", &other);
      if (!g_str_equal (other, key) && n < MAX_TABLES)
        {
          g_variant_builder_add_value (&tables, entry);
          n++;
        }
      g_variant_unref (entry);
    }
  g_settings_set_value (self->layout_settings, SETTINGS_KEY, g_variant_builder_end (&tables));
}

/* A column's mode */

static GtkListItemFactory *
column_factory (GtkColumnViewColumn *column)
{
  return gtk_column_view_column_get_factory (column);
}

/* Characters a date and time takes ("2024-12-05 12:00:00.123"), and what Beside adds to the
 * value (" · " and the date, or a TTL phrase such as " · expired 4 hours ago, awaiting
 * deletion": the column then takes the widest a column gets). */
#define DATE_CHARS 23
#define BESIDE_CHARS 26
#define TTL_CHARS 42

/* The width COLUMN wants in MODE: the values' own (measured when it was added) with the dates
 * beside them, or the dates alone. A column the user did not resize takes it. */
static void
resize_for_mode (GtkColumnViewColumn *column, DyGridTimeMode mode, gboolean ttl)
{
  int value_width = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "value-width"));
  int fixed = gtk_column_view_column_get_fixed_width (column);
  int fitted = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "fitted-width"));
  int width = value_width;

  if (value_width == 0)
    {
      value_width = width
          = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "natural-width"));
      if (value_width == 0)
        return;
      g_object_set_data (G_OBJECT (column), "value-width", GINT_TO_POINTER (value_width));
    }
  /* dy_grid_column_width's measure: 8 pixels a character, at most 360 */
  if (mode == DY_GRID_TIME_BESIDE)
    width = value_width + 8 * (ttl ? TTL_CHARS : BESIDE_CHARS);
  else if (mode == DY_GRID_TIME_INSTEAD)
    width = MAX (value_width, 8 * (DATE_CHARS + (ttl ? TTL_CHARS : 0)) + 24);
  width = MIN (width, MAX (value_width, 360));
  g_object_set_data (G_OBJECT (column), "natural-width", GINT_TO_POINTER (width));
  if (fixed == fitted)
    {
      g_object_set_data (G_OBJECT (column), "fitted-width", GINT_TO_POINTER (width));
      gtk_column_view_column_set_fixed_width (column, width);
    }
}

/* Sets COLUMN's mode and shows it in the cells bound now. */
static void
apply_mode (DyTableView *self, GtkColumnViewColumn *column, DyGridTimeMode mode)
{
  GtkListItemFactory *factory = column_factory (column);
  const char *name = gtk_column_view_column_get_title (column);
  const char *ttl = dy_table_view_ttl_attribute (self);
  GActionGroup *group = g_object_get_data (G_OBJECT (column), "time-group");
  GHashTableIter iter;
  gpointer list_item;

  dy_grid_cell_factory_set_time_mode (factory, mode, g_strcmp0 (ttl, name) == 0);
  resize_for_mode (column, mode, g_strcmp0 (ttl, name) == 0);
  if (group != NULL)
    g_simple_action_set_state (
        G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (group), "time-mode")),
        g_variant_new_string (mode_names[mode]));
  g_hash_table_iter_init (&iter, self->bound_cells);
  while (g_hash_table_iter_next (&iter, &list_item, NULL))
    {
      GtkWidget *cell = gtk_list_item_get_child (list_item);

      if (cell != NULL
          && g_strcmp0 (g_object_get_data (G_OBJECT (cell), "attribute"), name) == 0)
        dy_grid_rebind_cell (factory, list_item);
    }
}

static void
change_mode (GSimpleAction *action, GVariant *state, gpointer user_data)
{
  GtkColumnViewColumn *column = user_data;
  DyTableView *self = g_object_get_data (G_OBJECT (column), "time-view");
  DyGridTimeMode mode;

  if (self == NULL || !mode_from_name (g_variant_get_string (state, NULL), &mode))
    return;
  g_object_set_data (G_OBJECT (column), "time-probe", NULL);
  apply_mode (self, column, mode);
  dy_table_view_fit_columns (self);
  save_mode (self, gtk_column_view_column_get_title (column), mode);
}

/* The header menu: the three modes as radio items of the column's own action group. */
static GMenuModel *
header_menu (const char *prefix)
{
  static const char *labels[] = {
    /* TRANSLATORS: a column's header menu: how values that read as times are shown */
    N_("Value Only"),
    N_("Date and Time Beside Value"),
    N_("Date and Time Instead of Value"),
  };
  g_autoptr (GMenu) menu = g_menu_new ();
  g_autoptr (GMenu) section = g_menu_new ();
  g_autofree char *action = g_strdup_printf ("%s.time-mode", prefix);

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      g_autoptr (GMenuItem) item = g_menu_item_new (_(labels[i]), NULL);

      g_menu_item_set_action_and_target (item, action, "s", mode_names[i]);
      g_menu_append_item (section, item);
    }
  /* TRANSLATORS: the section of a column's header menu about epoch numbers and ISO dates */
  g_menu_append_section (menu, _("Times"), G_MENU_MODEL (section));
  return G_MENU_MODEL (g_steal_pointer (&menu));
}

/* The default of the columns still to be decided: Beside when the values the last rows
 * loaded hold all read as times. */
static gboolean
probe_idle (gpointer data)
{
  DyTableView *self = data;
  GHashTableIter iter;
  gpointer name, column;
  gboolean changed = FALSE;
  guint n;

  self->times_probe = 0;
  if (self->items == NULL || self->columns == NULL)
    return G_SOURCE_REMOVE;
  n = g_list_model_get_n_items (G_LIST_MODEL (self->items));
  g_hash_table_iter_init (&iter, self->columns);
  while (g_hash_table_iter_next (&iter, &name, &column))
    {
      guint times = 0, others = 0;

      if (g_object_get_data (column, "time-probe") == NULL)
        continue;
      g_object_set_data (column, "time-probe", NULL);
      for (guint i = n > PROBE_ROWS ? n - PROBE_ROWS : 0; i < n && others == 0; i++)
        {
          g_autoptr (DyItem) item = dy_rows_get_row (self->items, i);
          const DdbValue *value = item != NULL ? dy_item_get_attribute (item, name) : NULL;
          DdbTime time;

          if (value == NULL)
            continue;
          if (ddb_time_from_value (value, NULL, &time))
            times++;
          else
            others++;
        }
      if (times > 0 && others == 0)
        {
          apply_mode (self, column, DY_GRID_TIME_BESIDE);
          changed = TRUE;
        }
    }
  if (changed)
    dy_table_view_fit_columns (self);
  return G_SOURCE_REMOVE;
}

void
dy_table_view_times_column_added (DyTableView *self, GtkColumnViewColumn *column)
{
  static guint serial;
  const char *name = gtk_column_view_column_get_title (column);
  g_autoptr (GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr (GSimpleAction) action = NULL;
  g_autoptr (GMenuModel) menu = NULL;
  char *prefix = g_strdup_printf ("time-column-%u", ++serial);
  DyGridTimeMode mode = DY_GRID_TIME_OFF;

  action = g_simple_action_new_stateful ("time-mode", G_VARIANT_TYPE_STRING,
                                         g_variant_new_string ("off"));
  g_signal_connect_object (action, "change-state", G_CALLBACK (change_mode), column, 0);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (action));
  gtk_widget_insert_action_group (GTK_WIDGET (self->column_view), prefix, G_ACTION_GROUP (group));
  g_object_set_data (G_OBJECT (column), "time-view", self);
  g_object_set_data (G_OBJECT (column), "time-group", group);
  menu = header_menu (prefix);
  gtk_column_view_column_set_header_menu (column, menu);
  /* the prefix of its actions (tests activate them as the menu does) */
  g_object_set_data_full (G_OBJECT (column), "time-actions", prefix, g_free);

  if (saved_mode (self, name, &mode))
    apply_mode (self, column, mode);
  else if (g_strcmp0 (dy_table_view_ttl_attribute (self), name) == 0)
    apply_mode (self, column, DY_GRID_TIME_BESIDE);
  else
    {
      apply_mode (self, column, DY_GRID_TIME_OFF);
      /* the page's rows are added after its columns: they are read once they are in */
      g_object_set_data (G_OBJECT (column), "time-probe", GINT_TO_POINTER (1));
      if (self->times_probe == 0)
        self->times_probe = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, probe_idle,
                                             g_object_ref (self), g_object_unref);
    }
}

void
dy_table_view_times_column_removed (DyTableView *self, GtkColumnViewColumn *column)
{
  const char *prefix = g_object_get_data (G_OBJECT (column), "time-actions");

  if (prefix != NULL && self->column_view != NULL)
    gtk_widget_insert_action_group (GTK_WIDGET (self->column_view), prefix, NULL);
  g_object_set_data (G_OBJECT (column), "time-view", NULL);
  g_object_set_data (G_OBJECT (column), "time-group", NULL);
  g_object_set_data (G_OBJECT (column), "time-probe", NULL);
}
