/* dy-preferences.c: the Preferences window: production and read-only patterns, a mark per
 * connection, and the parallel Scan segments of Load All. Changes are saved at once (a pattern row
 * when applied). */
#define G_LOG_DOMAIN "dynoscope-window"

#include <glib/gi18n.h>
#include <stdlib.h>

#include "app/connections/dy-marks.h"
#include "app/window/dy-preferences.h"

#define PATTERN_ROWS_KEY "dy-pattern-rows"
#define MARK_ROWS_KEY "dy-mark-rows"
#define SEGMENTS_ROW_KEY "dy-segments-row"

/* The choices of a connection's row, in order: no mark of its own, then the marks. */
static const char *const choices[] = { "pattern", "normal", "production", "read-only" };

static void
patterns_applied (AdwEntryRow *row, GSettings *settings)
{
  g_auto (GStrv) patterns = dy_marks_split_patterns (gtk_editable_get_text (GTK_EDITABLE (row)));
  g_autofree char *joined = dy_marks_join_patterns ((const char *const *) patterns);

  g_settings_set_strv (settings, g_object_get_data (G_OBJECT (row), "dy-key"),
                       (const char *const *) patterns);
  gtk_editable_set_text (GTK_EDITABLE (row), joined);
}

static GtkWidget *
patterns_row (GSettings *settings, const char *key, const char *title)
{
  GtkWidget *row = adw_entry_row_new ();
  g_auto (GStrv) patterns = g_settings_get_strv (settings, key);
  g_autofree char *joined = dy_marks_join_patterns ((const char *const *) patterns);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_entry_row_set_show_apply_button (ADW_ENTRY_ROW (row), TRUE);
  gtk_editable_set_text (GTK_EDITABLE (row), joined);
  g_object_set_data_full (G_OBJECT (row), "dy-key", g_strdup (key), g_free);
  g_signal_connect_object (row, "apply", G_CALLBACK (patterns_applied), settings, 0);
  return row;
}

static void
mark_selected (AdwComboRow *row, GParamSpec *pspec, GSettings *settings)
{
  DyConnection *connection = g_object_get_data (G_OBJECT (row), "dy-connection");
  guint selected = adw_combo_row_get_selected (row);
  DyConnectionMark mark;

  if (selected == 0)
    dy_marks_forget (settings, connection);
  else if (selected < G_N_ELEMENTS (choices) && dy_marks_parse (choices[selected], &mark))
    dy_marks_save (settings, connection, mark);
}

/* The row says the mark the connection has now (by pattern or its own). */
static void
mark_row_update (DyConnection *connection, GParamSpec *pspec, AdwComboRow *row)
{
  static const char *const now[] = { N_ ("Normal now"), N_ ("Production now"),
                                     N_ ("Read-only now") };
  const char *subtitle = dy_connection_get_subtitle (connection);
  g_autofree char *text
      = g_strdup_printf ("%s%s%s", subtitle != NULL ? subtitle : "", subtitle != NULL ? " · " : "",
                         _ (now[dy_connection_get_mark (connection)]));

  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), text);
}

static GtkWidget *
mark_row (GSettings *settings, DyConnection *connection)
{
  GtkWidget *row = adw_combo_row_new ();
  g_autoptr (GtkStringList) model = gtk_string_list_new (NULL);
  DyConnectionMark mark;
  guint selected = 0;

  /* TRANSLATORS: a connection's mark in Preferences: none of its own, the patterns decide */
  gtk_string_list_append (model, _ ("By pattern"));
  gtk_string_list_append (model, _ ("Normal"));
  gtk_string_list_append (model, _ ("Production"));
  gtk_string_list_append (model, _ ("Read-only"));
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (model));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), dy_connection_get_title (connection));
  if (dy_marks_get_saved (settings, connection, &mark))
    selected = (guint) mark + 1;
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), selected);
  g_object_set_data_full (G_OBJECT (row), "dy-connection", g_object_ref (connection),
                          g_object_unref);
  mark_row_update (connection, NULL, ADW_COMBO_ROW (row));
  g_signal_connect_object (connection, "notify::mark", G_CALLBACK (mark_row_update), row, 0);
  g_signal_connect_object (row, "notify::selected", G_CALLBACK (mark_selected), settings, 0);
  return row;
}

/* The choices of the Scan segments row: automatic (0), then counts. */
static const int segment_choices[] = { 0, 1, 2, 4, 8, 16 };

static void
segments_selected (AdwComboRow *row, GParamSpec *pspec, GSettings *settings)
{
  guint selected = adw_combo_row_get_selected (row);
  GListModel *model = adw_combo_row_get_model (row);
  const char *text;

  if (selected == 0)
    g_settings_set_int (settings, "scan-segments", 0);
  else if (selected < g_list_model_get_n_items (model)
           && (text = gtk_string_list_get_string (GTK_STRING_LIST (model), selected)) != NULL)
    g_settings_set_int (settings, "scan-segments", atoi (text));
}

static GtkWidget *
segments_row (GSettings *settings)
{
  GtkWidget *row = adw_combo_row_new ();
  g_autoptr (GtkStringList) model = gtk_string_list_new (NULL);
  int value = g_settings_get_int (settings, "scan-segments");
  guint selected = G_MAXUINT;

  /* TRANSLATORS: the number of parallel Scan segments, chosen by the table's size */
  gtk_string_list_append (model, _ ("Automatic"));
  for (guint i = 1; i < G_N_ELEMENTS (segment_choices); i++)
    {
      g_autofree char *text = g_strdup_printf ("%d", segment_choices[i]);

      gtk_string_list_append (model, text);
      if (segment_choices[i] == value)
        selected = i;
    }
  if (value == 0)
    selected = 0;
  else if (selected == G_MAXUINT)
    {
      /* a count set elsewhere (gsettings) is one of the choices too */
      g_autofree char *text = g_strdup_printf ("%d", value);

      gtk_string_list_append (model, text);
      selected = G_N_ELEMENTS (segment_choices);
    }
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (model));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _ ("Parallel _Scan segments"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_action_row_set_subtitle (
      ADW_ACTION_ROW (row),
      _ ("Load All reads a remote table’s Scan in this many parts at once; automatic: one per "
         "8 MiB of the table, at most 8"));
  adw_combo_row_set_selected (ADW_COMBO_ROW (row), selected);
  g_signal_connect_object (row, "notify::selected", G_CALLBACK (segments_selected), settings, 0);
  return row;
}

GtkWidget *
dy_preferences_get_segments_row (GtkWidget *preferences)
{
  return g_object_get_data (G_OBJECT (preferences), SEGMENTS_ROW_KEY);
}

GtkWidget *
dy_preferences_new (DyWindow *window)
{
  GtkWidget *prefs = adw_preferences_window_new ();
  GtkWidget *page = adw_preferences_page_new ();
  GtkWidget *patterns = adw_preferences_group_new ();
  GtkWidget *marks = adw_preferences_group_new ();
  GtkWidget *loading = adw_preferences_group_new ();
  GSettings *settings = dy_window_get_settings (window);
  GListModel *connections = dy_window_get_connections (window);
  GPtrArray *pattern_rows = g_ptr_array_new ();
  GPtrArray *mark_rows = g_ptr_array_new ();

  gtk_window_set_transient_for (GTK_WINDOW (prefs), GTK_WINDOW (window));
  gtk_window_set_modal (GTK_WINDOW (prefs), TRUE);
  adw_preferences_page_set_title (ADW_PREFERENCES_PAGE (page), _ ("Connections"));
  adw_preferences_page_set_icon_name (ADW_PREFERENCES_PAGE (page), "network-server-symbolic");
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (patterns),
                                   _ ("Production and Read-Only"));
  adw_preferences_group_set_description (
      ADW_PREFERENCES_GROUP (patterns),
      _ ("Patterns on AWS profile names and account ids, * and ? as wildcards, separated by "
         "commas: “prod-*, 123456789012”. A production connection is tinted and asks for the "
         "table’s name before a commit; a read-only one refuses every write. A connection "
         "both match is read-only."));
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (marks), _ ("Marked Connections"));
  adw_preferences_group_set_description (
      ADW_PREFERENCES_GROUP (marks),
      _ ("A connection’s own mark overrides the patterns; the sidebar’s menu (right-click a "
         "connection) sets it too."));
  if (settings != NULL)
    {
      GtkWidget *production = patterns_row (settings, "production-patterns",
                                            _ ("_Production patterns"));
      GtkWidget *read_only = patterns_row (settings, "read-only-patterns",
                                           _ ("_Read-only patterns"));

      g_object_set_data (G_OBJECT (production), "dy-mark", (gpointer) "production");
      g_object_set_data (G_OBJECT (read_only), "dy-mark", (gpointer) "read-only");
      g_ptr_array_add (pattern_rows, production);
      g_ptr_array_add (pattern_rows, read_only);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (patterns), production);
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (patterns), read_only);
      for (guint i = 0; i < g_list_model_get_n_items (connections); i++)
        {
          g_autoptr (DyConnection) c = g_list_model_get_item (connections, i);
          GtkWidget *row = mark_row (settings, c);

          g_ptr_array_add (mark_rows, row);
          adw_preferences_group_add (ADW_PREFERENCES_GROUP (marks), row);
        }
      {
        GtkWidget *segments = segments_row (settings);

        g_object_set_data (G_OBJECT (prefs), SEGMENTS_ROW_KEY, segments);
        adw_preferences_group_add (ADW_PREFERENCES_GROUP (loading), segments);
      }
    }
  else
    adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (patterns),
                                           _ ("The settings schema is not installed: nothing "
                                              "can be saved."));
  g_object_set_data_full (G_OBJECT (prefs), PATTERN_ROWS_KEY, pattern_rows,
                          (GDestroyNotify) g_ptr_array_unref);
  g_object_set_data_full (G_OBJECT (prefs), MARK_ROWS_KEY, mark_rows,
                          (GDestroyNotify) g_ptr_array_unref);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (patterns));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (marks));
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (loading), _ ("Loading"));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (loading));
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (prefs), ADW_PREFERENCES_PAGE (page));
  return prefs;
}

GtkWidget *
dy_preferences_get_patterns_row (GtkWidget *preferences, const char *mark)
{
  GPtrArray *rows = g_object_get_data (G_OBJECT (preferences), PATTERN_ROWS_KEY);

  for (guint i = 0; rows != NULL && i < rows->len; i++)
    if (g_strcmp0 (g_object_get_data (rows->pdata[i], "dy-mark"), mark) == 0)
      return rows->pdata[i];
  return NULL;
}

GtkWidget *
dy_preferences_get_mark_row (GtkWidget *preferences, DyConnection *connection)
{
  GPtrArray *rows = g_object_get_data (G_OBJECT (preferences), MARK_ROWS_KEY);

  for (guint i = 0; rows != NULL && i < rows->len; i++)
    if (g_object_get_data (rows->pdata[i], "dy-connection") == connection)
      return rows->pdata[i];
  return NULL;
}
