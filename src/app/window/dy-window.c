/* dy-window.c: the main window. */
#define G_LOG_DOMAIN "dynoscope-window"

#include <glib/gi18n.h>
#include <string.h>

#include "app/changes/dy-changes-view.h"
#include "app/window/dy-demo.h"
#include "app/staging/dy-staging-panel.h"
#include "app/tables/dy-import.h"
#include "app/sql/dy-sql-view.h"
#include "app/window/dy-window-private.h"

#define MAX_RECENT 10


G_DEFINE_FINAL_TYPE (DyWindow, dy_window, ADW_TYPE_APPLICATION_WINDOW)

static GSettings *
settings_new (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;

  /* A build run in place may have no compiled schema; the app then just forgets. */
  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, "io.github.dynoscope.Dynoscope", TRUE);
  if (schema == NULL)
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

void
dy_window_toast (DyWindow *self, const char *message)
{
  AdwToast *t = adw_toast_new (message);

  adw_toast_set_timeout (t, 8);
  adw_toast_overlay_add_toast (self->toast_overlay, t);
}

static void
add_connection (DyWindow *self, DyConnection *connection)
{
  g_list_store_append (self->connections, connection);
  dy_connection_refresh_tables (connection);
  dy_window_expand_connection (self, connection);
}

static void
remember (DyWindow *self, const char *path)
{
  g_auto (GStrv) old = NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_auto (GStrv) recent = NULL;
  guint n = 1;

  if (self->settings == NULL)
    return;
  old = g_settings_get_strv (self->settings, "recent-databases");
  g_strv_builder_add (builder, path);
  for (guint i = 0; old[i] != NULL && n < MAX_RECENT; i++)
    if (g_strcmp0 (old[i], path) != 0)
      {
        g_strv_builder_add (builder, old[i]);
        n++;
      }
  recent = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "recent-databases", (const char *const *) recent);
}

static gboolean
has_connection (DyWindow *self, const char *path)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->connections)); i++)
    {
      g_autoptr (DyConnection) c = g_list_model_get_item (G_LIST_MODEL (self->connections), i);

      if (g_strcmp0 (dy_connection_get_path (c), path) == 0)
        return TRUE;
    }
  return FALSE;
}

typedef struct {
  DyWindow *window;
  gboolean remember;
} OpenData;

static void
open_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  OpenData *data = user_data;
  g_autoptr (DyWindow) self = data->window;
  g_autoptr (GError) error = NULL;
  g_autoptr (DyConnection) connection = dy_connection_open_finish (result, &error);

  if (connection == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        dy_window_toast (self, error->message);
    }
  else if (!has_connection (self, dy_connection_get_path (connection)))
    {
      add_connection (self, connection);
      if (data->remember)
        remember (self, dy_connection_get_path (connection));
    }
  g_free (data);
}

/* A database made here (an import): listed, opened on its tables and remembered. */
void
dy_window_add_database (DyWindow *self, DyConnection *connection)
{
  if (has_connection (self, dy_connection_get_path (connection)))
    return;
  add_connection (self, connection);
  remember (self, dy_connection_get_path (connection));
}

void
dy_window_open_database (DyWindow *self, const char *path, gboolean remember_it)
{
  g_autofree char *title = g_path_get_basename (path);
  OpenData *data = g_new0 (OpenData, 1);

  data->window = g_object_ref (self);
  data->remember = remember_it;
  dy_connection_open_async (title, path, self->cancellable, open_done, data);
}

typedef struct {
  char *data_dir;
  char *db_path;
} DemoData;

static void
demo_data_free (DemoData *data)
{
  g_free (data->data_dir);
  g_free (data->db_path);
  g_free (data);
}

static void
demo_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  DemoData *data = task_data;
  GError *error = NULL;
  DdbBackend *backend;

  data->db_path = dy_demo_database_path (data->data_dir, &error);
  if (data->db_path == NULL || !dy_demo_ensure (data->db_path, data->data_dir, cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  backend = ddb_backend_open_database (data->db_path, &error);
  if (backend == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, dy_connection_new (_("Demo database"), data->db_path, backend),
                           g_object_unref);
}

static void
demo_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyWindow *self = DY_WINDOW (source);
  g_autoptr (GError) error = NULL;
  g_autoptr (DyConnection) connection = g_task_propagate_pointer (G_TASK (result), &error);

  if (connection == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* TRANSLATORS: %s is why the demo database could not be built */
          g_autofree char *message = g_strdup_printf (_("The demo database could not be built: %s"),
                                                      error->message);
          dy_window_toast (self, message);
        }
      return;
    }
  /* The demo comes first: it is what a new user looks at. */
  g_list_store_insert (self->connections, 0, connection);
  dy_connection_refresh_tables (connection);
  dy_window_expand_connection (self, connection);
}

void
dy_window_open_demo (DyWindow *self)
{
  g_autoptr (GTask) task = g_task_new (self, self->cancellable, demo_done, NULL);
  DemoData *data = g_new0 (DemoData, 1);

  data->data_dir = dy_demo_data_dir ();
  g_task_set_source_tag (task, dy_window_open_demo);
  g_task_set_task_data (task, data, (GDestroyNotify) demo_data_free);
  g_task_run_in_thread (task, demo_thread);
}

/* AWS profiles and local endpoints. */

static void
profiles_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  GPtrArray *profiles = dy_list_aws_profiles (&error);

  if (profiles == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, profiles, (GDestroyNotify) g_ptr_array_unref);
}

static void
profiles_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DyWindow *self = DY_WINDOW (source);
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) profiles = g_task_propagate_pointer (G_TASK (result), &error);

  if (profiles == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      /* TRANSLATORS: %s says why the AWS config files could not be read */
      g_autofree char *message = g_strdup_printf (_("AWS profiles could not be read: %s"),
                                                  error->message);
      dy_window_toast (self, message);
    }
  for (guint i = 0; profiles != NULL && i < profiles->len; i++)
    {
      DyProfileInfo *info = profiles->pdata[i];
      g_autoptr (DyConnection) c = dy_connection_new_profile (info->name, info->region);

      g_list_store_append (self->connections, c);
    }
  self->profiles_loaded = TRUE;
}

gboolean
dy_window_get_profiles_loaded (DyWindow *self)
{
  return self->profiles_loaded;
}

DyConnection *
dy_window_find_connection (DyWindow *self, DyConnectionKind kind, const char *name)
{
  GListModel *model = G_LIST_MODEL (self->connections);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (DyConnection) c = g_list_model_get_item (model, i);
      const char *key = kind == DY_CONNECTION_PROFILE    ? dy_connection_get_profile (c)
                        : kind == DY_CONNECTION_ENDPOINT ? dy_connection_get_url (c)
                                                         : dy_connection_get_path (c);

      if (dy_connection_get_kind (c) == kind && g_strcmp0 (key, name) == 0)
        return c;
    }
  return NULL;
}

static void
remember_endpoints (DyWindow *self)
{
  GListModel *model = G_LIST_MODEL (self->connections);
  GVariantBuilder builder;

  if (self->settings == NULL)
    return;
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(ss)"));
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (DyConnection) c = g_list_model_get_item (model, i);

      if (dy_connection_get_kind (c) == DY_CONNECTION_ENDPOINT)
        g_variant_builder_add (&builder, "(ss)", dy_connection_get_url (c),
                               dy_connection_get_region (c));
    }
  g_settings_set_value (self->settings, "endpoints", g_variant_builder_end (&builder));
}

/* An http(s) URL with a host and nothing after the path "/". */
static char *
normalize_endpoint (const char *text, GError **error)
{
  g_autofree char *trimmed = g_strstrip (g_strdup (text != NULL ? text : ""));
  g_autoptr (GUri) uri = NULL;
  const char *scheme;
  const char *path;

  if (*trimmed == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Give the endpoint’s URL, for example http://localhost:8000"));
      return NULL;
    }
  uri = g_uri_parse (trimmed, G_URI_FLAGS_NONE, NULL);
  scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;
  path = uri != NULL ? g_uri_get_path (uri) : NULL;
  if (uri == NULL || g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0'
      || (g_strcmp0 (scheme, "http") != 0 && g_strcmp0 (scheme, "https") != 0)
      || (path != NULL && *path != '\0' && g_strcmp0 (path, "/") != 0)
      || g_uri_get_query (uri) != NULL)
    {
      /* TRANSLATORS: %s is what the user typed as an endpoint URL */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not an endpoint URL: use http://HOST:PORT or https://HOST"),
                   trimmed);
      return NULL;
    }
  if (g_str_has_suffix (trimmed, "/"))
    trimmed[strlen (trimmed) - 1] = '\0';
  return g_steal_pointer (&trimmed);
}

DyConnection *
dy_window_add_endpoint (DyWindow *self, const char *url, const char *region,
                        gboolean remember_it, GError **error)
{
  g_autofree char *normal = normalize_endpoint (url, error);
  g_autoptr (DyConnection) c = NULL;

  if (normal == NULL)
    return NULL;
  if (region != NULL && *region != '\0' && !g_regex_match_simple ("^[a-z0-9-]+$", region, 0, 0))
    {
      /* TRANSLATORS: %s is what the user typed as a region */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not a region name (for example us-east-1)"), region);
      return NULL;
    }
  if (dy_window_find_connection (self, DY_CONNECTION_ENDPOINT, normal) != NULL)
    return dy_window_find_connection (self, DY_CONNECTION_ENDPOINT, normal);
  c = dy_connection_new_endpoint (normal, region);
  g_list_store_append (self->connections, c);
  if (remember_it)
    remember_endpoints (self);
  return c;
}

/* Expands CONNECTION's sidebar row, which lists its tables. */
void
dy_window_expand_connection (DyWindow *self, DyConnection *connection)
{
  GListModel *rows = G_LIST_MODEL (gtk_list_view_get_model (self->sidebar_list));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

      if (object == G_OBJECT (connection))
        {
          gtk_tree_list_row_set_expanded (row, TRUE);
          /* The row may not be bound to a widget (scrolled away): load all the same. */
          dy_connection_ensure_tables (connection);
          return;
        }
    }
}

gboolean
dy_window_select_table (DyWindow *self, DyConnection *connection, const char *table)
{
  GtkSelectionModel *selection = gtk_list_view_get_model (self->sidebar_list);
  GListModel *rows = G_LIST_MODEL (selection);
  gboolean in_connection = FALSE;

  dy_window_expand_connection (self, connection);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

      if (DY_IS_CONNECTION (object))
        in_connection = object == G_OBJECT (connection);
      else if (in_connection
               && g_strcmp0 (gtk_string_object_get_string (GTK_STRING_OBJECT (object)), table) == 0)
        {
          gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (selection), i);
          gtk_widget_activate_action (GTK_WIDGET (self->sidebar_list), "list.scroll-to-item",
                                      "u", i);
          return TRUE;
        }
    }
  return FALSE;
}

static void
endpoint_response (AdwMessageDialog *dialog, const char *response, DyWindow *self)
{
  GtkEditable *url = g_object_get_data (G_OBJECT (dialog), "url-entry");
  GtkEditable *region = g_object_get_data (G_OBJECT (dialog), "region-entry");
  g_autoptr (GError) error = NULL;
  DyConnection *c;

  self->endpoint_dialog = NULL;
  if (g_strcmp0 (response, "add") != 0)
    return;
  c = dy_window_add_endpoint (self, gtk_editable_get_text (url), gtk_editable_get_text (region),
                              TRUE, &error);
  if (c == NULL)
    dy_window_toast (self, error->message);
  else
    dy_window_expand_connection (self, c);
}

static void
endpoint_url_changed (GtkEditable *url, AdwMessageDialog *dialog)
{
  g_autofree char *normal = normalize_endpoint (gtk_editable_get_text (url), NULL);

  adw_message_dialog_set_response_enabled (dialog, "add", normal != NULL);
  if (normal != NULL)
    gtk_widget_remove_css_class (GTK_WIDGET (url), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (url), "error");
}

AdwMessageDialog *
dy_window_get_endpoint_dialog (DyWindow *self)
{
  return self->endpoint_dialog;
}

static void
add_endpoint_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyWindow *self = DY_WINDOW (widget);
  GtkWidget *dialog;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *url = gtk_entry_new ();
  GtkWidget *region = gtk_entry_new ();

  if (self->endpoint_dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (self->endpoint_dialog));
      return;
    }
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Add Local Endpoint"),
                                   _("A DynamoDB-compatible server such as DynamoDB Local, "
                                     "dynalite or dynoscope-cli serve. Requests are signed with "
                                     "placeholder keys for the region given."));
  gtk_entry_set_placeholder_text (GTK_ENTRY (url), "http://localhost:8000");
  gtk_entry_set_input_purpose (GTK_ENTRY (url), GTK_INPUT_PURPOSE_URL);
  gtk_entry_set_activates_default (GTK_ENTRY (url), TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (region), _("Region (default us-east-1)"));
  gtk_entry_set_activates_default (GTK_ENTRY (region), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (url), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Endpoint URL"), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (region), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Region"), -1);
  gtk_box_append (GTK_BOX (box), url);
  gtk_box_append (GTK_BOX (box), region);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), box);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"),
                                    "add", _("_Add"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "add",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "add");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "add", FALSE);
  g_object_set_data (G_OBJECT (dialog), "url-entry", url);
  g_object_set_data (G_OBJECT (dialog), "region-entry", region);
  g_signal_connect (url, "changed", G_CALLBACK (endpoint_url_changed), dialog);
  g_signal_connect (dialog, "response", G_CALLBACK (endpoint_response), self);
  self->endpoint_dialog = ADW_MESSAGE_DIALOG (dialog);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (url);
}

GListModel *
dy_window_get_connections (DyWindow *self)
{
  return G_LIST_MODEL (self->connections);
}

AdwTabView *
dy_window_get_tab_view (DyWindow *self)
{
  return self->tab_view;
}

/* The selected tab's DyTableView or DySqlView, or NULL. */
GtkWidget *
dy_window_current_child (DyWindow *self)
{
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);

  return page != NULL ? adw_tab_page_get_child (page) : NULL;
}

DyTableView *
dy_window_get_current_view (DyWindow *self)
{
  GtkWidget *child = dy_window_current_child (self);

  return DY_IS_TABLE_VIEW (child) ? DY_TABLE_VIEW (child) : NULL;
}

/* A tab whose table does not exist (deleted since the tab was saved) says so on the tab. */
static void
table_missing (DyTableView *view, GParamSpec *pspec, AdwTabPage *page)
{
  g_autoptr (GIcon) icon = g_themed_icon_new ("dialog-warning-symbolic");
  /* TRANSLATORS: the tooltip of a tab's warning sign; %s is a table's name */
  g_autofree char *tooltip = g_strdup_printf (_("Table %s does not exist on this connection"),
                                              dy_table_view_get_table_name (view));

  if (!dy_table_view_get_missing (view))
    return;
  adw_tab_page_set_indicator_icon (page, icon);
  adw_tab_page_set_indicator_tooltip (page, tooltip);
  adw_tab_page_set_needs_attention (page, TRUE);
}

/* Work on a tab's selected rows finished: says what was done, and shows what it staged. */
static void
view_bulk_done (DyTableView *view, const char *message, DyConnection *connection,
                const char *table, DyWindow *self)
{
  dy_window_toast (self, message);
  if (connection != NULL)
    dy_window_show_staging (self, connection, table);
}

DyTableView *
dy_window_new_tab (DyWindow *self, DyConnection *connection, const char *table)
{
  GtkWidget *view = dy_table_view_new (connection, table);
  AdwTabPage *page = adw_tab_view_append (self->tab_view, view);

  adw_tab_page_set_title (page, table);
  adw_tab_page_set_tooltip (page, dy_connection_get_title (connection));
  if (self->settings != NULL)
    dy_table_view_set_layout_settings (DY_TABLE_VIEW (view), self->settings);
  g_signal_connect_object (view, "notify::missing", G_CALLBACK (table_missing), page, 0);
  g_signal_connect_object (view, "bulk-done", G_CALLBACK (view_bulk_done), self, 0);
  g_object_bind_property (view, "running", page, "loading", G_BINDING_SYNC_CREATE);
  adw_tab_view_set_selected_page (self->tab_view, page);
  gtk_stack_set_visible_child_name (self->content_stack, "tabs");
  dy_staging_attach_inspector (dy_staging_get_default (),
                               dy_table_view_get_inspector (DY_TABLE_VIEW (view)), connection,
                               table);
  return DY_TABLE_VIEW (view);
}

DyTableView *
dy_window_open_table (DyWindow *self, DyConnection *connection, const char *table)
{
  for (int i = 0; i < adw_tab_view_get_n_pages (self->tab_view); i++)
    {
      AdwTabPage *page = adw_tab_view_get_nth_page (self->tab_view, i);
      GtkWidget *view = adw_tab_page_get_child (page);

      if (DY_IS_TABLE_VIEW (view)
          && dy_table_view_get_connection (DY_TABLE_VIEW (view)) == connection
          && g_strcmp0 (dy_table_view_get_table_name (DY_TABLE_VIEW (view)), table) == 0)
        {
          adw_tab_view_set_selected_page (self->tab_view, page);
          return DY_TABLE_VIEW (view);
        }
    }
  return dy_window_new_tab (self, connection, table);
}

/* Actions. */

static void
open_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  DyWindow *self = DY_WINDOW (user_data);

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        dy_window_open_database (self, path, TRUE);
    }
  g_object_unref (dialog);
}

static void
open_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  GtkFileChooserNative *dialog;
  GtkFileFilter *filter = gtk_file_filter_new ();
  GtkFileFilter *all = gtk_file_filter_new ();

  dialog = gtk_file_chooser_native_new (_("Open Database"), GTK_WINDOW (widget),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("Dynoscope databases"));
  gtk_file_filter_add_pattern (filter, "*.db");
  gtk_file_filter_add_pattern (filter, "*.sqlite");
  gtk_file_filter_add_pattern (filter, "*.dynoscope");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  g_object_unref (filter);
  g_object_unref (all);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (open_response), widget);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
import_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  if (parameter != NULL)
    dy_import_dialog_new (DY_WINDOW (widget), g_variant_get_string (parameter, NULL));
  else if (g_str_equal (action_name, "win.import-s3"))
    dy_import_choose_s3 (DY_WINDOW (widget));
  else
    dy_import_choose (DY_WINDOW (widget), g_str_equal (action_name, "win.import-folder"));
}

/* Staging: the panel beside the tabs shows the current tab's connection. */

static void
staging_count_changed (DyWindow *self)
{
  guint n = dy_staging_panel_get_n_changes (self->staging_panel);
  g_autofree char *label = NULL;

  /* TRANSLATORS: the header bar's staging button with the number of staged changes */
  label = n > 0 ? g_strdup_printf (_("%u Staged"), n) : g_strdup (_("Staged"));
  adw_button_content_set_label (self->staging_button_content, label);
  if (n > 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->staging_button), "has-staged");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->staging_button), "has-staged");
}

/* The connection of the selected tab, or NULL. */
DyConnection *
dy_window_current_connection (DyWindow *self)
{
  GtkWidget *child = dy_window_current_child (self);

  if (DY_IS_SQL_VIEW (child))
    return dy_sql_view_get_connection (DY_SQL_VIEW (child));
  if (DY_IS_CHANGES_VIEW (child))
    return dy_changes_view_get_connection (DY_CHANGES_VIEW (child));
  return child != NULL ? dy_table_view_get_connection (DY_TABLE_VIEW (child)) : NULL;
}

/* The staging panel (one for the window) goes where the selected tab wants it: over a table
 * view's grid and inspector, below its filter rows, so that it takes no width from the grid
 * and covers neither Run nor the filters; beside other tabs. The header bar's Staged button
 * says whether it is shown. */
static void
place_staging (DyWindow *self)
{
  GtkWidget *child = dy_window_current_child (self);
  GtkWidget *panel = GTK_WIDGET (self->staging_panel);
  AdwFlap *target = DY_IS_TABLE_VIEW (child)
      ? dy_table_view_get_staging_flap (DY_TABLE_VIEW (child)) : self->staging_flap;
  AdwFlap *home = ADW_FLAP (gtk_widget_get_ancestor (panel, ADW_TYPE_FLAP));

  if (home != target)
    {
      g_object_ref (panel);
      if (home != NULL)
        {
          adw_flap_set_reveal_flap (home, FALSE);
          adw_flap_set_flap (home, NULL);
        }
      adw_flap_set_flap (target, panel);
      g_object_unref (panel);
      dy_staging_panel_moved (self->staging_panel);
    }
  adw_flap_set_reveal_flap (target, gtk_toggle_button_get_active (self->staging_button));
}

static void
selected_page_changed (DyWindow *self)
{
  dy_staging_panel_set_connection (self->staging_panel, dy_window_current_connection (self));
  place_staging (self);
}

DyStagingPanel *
dy_window_get_staging_panel (DyWindow *self)
{
  return self->staging_panel;
}

GSettings *
dy_window_get_settings (DyWindow *self)
{
  return self->settings;
}

static void
pages_changed (DyWindow *self)
{
  gboolean any = adw_tab_view_get_n_pages (self->tab_view) > 0;

  gtk_stack_set_visible_child_name (self->content_stack, any ? "tabs" : "empty");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.close-tab", any);
}

/* GObject. */

static void
dy_window_dispose (GObject *object)
{
  DyWindow *self = DY_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  /* the tabs closing do not move the staging panel about */
  if (self->tab_view != NULL)
    g_signal_handlers_disconnect_by_func (self->tab_view, selected_page_changed, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_WINDOW);
  g_clear_object (&self->staging_panel);
  G_OBJECT_CLASS (dy_window_parent_class)->dispose (object);
}

static void
dy_window_finalize (GObject *object)
{
  DyWindow *self = DY_WINDOW (object);

  g_clear_object (&self->connections);
  g_clear_pointer (&self->pending_tabs, g_ptr_array_unref);
  g_clear_weak_pointer (&self->restored_page);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (dy_window_parent_class)->finalize (object);
}

static gboolean
dy_window_close_request (GtkWindow *window)
{
  DyWindow *self = DY_WINDOW (window);

  if (self->settings != NULL)
    {
      int width, height;

      gtk_window_get_default_size (window, &width, &height);
      g_settings_set (self->settings, "window-size", "(ii)", width, height);
      g_settings_set_boolean (self->settings, "window-maximized",
                              gtk_window_is_maximized (window));
      dy_window_save_session (self);
    }
  /* edits typed in an inspector and not staged are not dropped without a word */
  if (dy_staging_confirm_close (dy_staging_get_default (), window))
    return TRUE;
  return GTK_WINDOW_CLASS (dy_window_parent_class)->close_request (window);
}

static void
dy_window_class_init (DyWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dy_window_dispose;
  object_class->finalize = dy_window_finalize;
  GTK_WINDOW_CLASS (klass)->close_request = dy_window_close_request;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dy-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DyWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, DyWindow, sidebar_paned);
  gtk_widget_class_bind_template_child (widget_class, DyWindow, sidebar_list);
  gtk_widget_class_bind_template_child (widget_class, DyWindow, tab_view);
  gtk_widget_class_bind_template_child (widget_class, DyWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, DyWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, DyWindow, staging_flap);
  gtk_widget_class_bind_template_child (widget_class, DyWindow, staging_button);
  gtk_widget_class_bind_template_child (widget_class, DyWindow, staging_button_content);
  gtk_widget_class_bind_template_callback_full (widget_class, "sidebar_activate",
                                                G_CALLBACK (dy_window_sidebar_activate));
  gtk_widget_class_bind_template_callback (widget_class, pages_changed);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.import", NULL, import_action);
  gtk_widget_class_install_action (widget_class, "win.import-folder", NULL, import_action);
  gtk_widget_class_install_action (widget_class, "win.import-s3", NULL, import_action);
  /* The import dialog for a given snapshot path (tests, and files dropped on the app later). */
  gtk_widget_class_install_action (widget_class, "win.import-source", "s", import_action);
  gtk_widget_class_install_action (widget_class, "win.add-endpoint", NULL, add_endpoint_action);
  dy_window_actions_class_init (widget_class);
  dy_window_tables_class_init (widget_class);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.import", NULL);
}

/* The settings the View section of the main menu changes (win.NAME, stateful). */
static const char *const layout_keys[] = { "sidebar-visible", "inspector-visible",
                                           "inspector-position" };

static void
dy_window_init (DyWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
#ifdef DYNOSCOPE_DEVELOPMENT
  gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
#endif
  self->cancellable = g_cancellable_new ();
  self->connections = g_list_store_new (DY_TYPE_CONNECTION);
  self->settings = settings_new ();
  if (self->settings != NULL)
    {
      int width, height;

      g_settings_get (self->settings, "window-size", "(ii)", &width, &height);
      gtk_window_set_default_size (GTK_WINDOW (self), width, height);
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
      /* F9 hides the sidebar, Shift+F9 the inspectors; both stay so at the next start, and
       * the panes keep the sizes they were dragged to */
      g_settings_bind (self->settings, "sidebar-visible", self->sidebar, "visible",
                       G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "sidebar-width", self->sidebar_paned, "position",
                       G_SETTINGS_BIND_DEFAULT);
      for (guint i = 0; i < G_N_ELEMENTS (layout_keys); i++)
        {
          g_autoptr (GAction) action = g_settings_create_action (self->settings, layout_keys[i]);

          g_action_map_add_action (G_ACTION_MAP (self), action);
        }
    }

  dy_window_actions_init (self);
  dy_window_sidebar_init (self);
  dy_window_marks_init (self);
  pages_changed (self);

  {
    /* held by the window: it moves from tab to tab (place_staging) */
    self->staging_panel = g_object_ref_sink (DY_STAGING_PANEL (dy_staging_panel_new (NULL)));
    place_staging (self);
    g_signal_connect_object (self->staging_button, "notify::active", G_CALLBACK (place_staging),
                             self, G_CONNECT_SWAPPED);
    g_signal_connect_object (self->staging_panel, "notify::n-changes",
                             G_CALLBACK (staging_count_changed), self, G_CONNECT_SWAPPED);
    g_signal_connect_object (self->tab_view, "notify::selected-page",
                             G_CALLBACK (selected_page_changed), self, G_CONNECT_SWAPPED);
  }
  /* the saved tabs open as their connections get listed (some already are) */
  dy_window_restore_session (self);

  if (self->settings != NULL)
    {
      g_auto (GStrv) recent = g_settings_get_strv (self->settings, "recent-databases");

      g_autoptr (GVariant) endpoints = g_settings_get_value (self->settings, "endpoints");
      GVariantIter iter;
      const char *url, *region;

      for (guint i = 0; recent[i] != NULL; i++)
        if (g_file_test (recent[i], G_FILE_TEST_IS_REGULAR))
          dy_window_open_database (self, recent[i], FALSE);
      g_variant_iter_init (&iter, endpoints);
      while (g_variant_iter_next (&iter, "(&s&s)", &url, &region))
        dy_window_add_endpoint (self, url, region, FALSE, NULL);
    }
  {
    g_autoptr (GTask) task = g_task_new (self, self->cancellable, profiles_done, NULL);

    g_task_set_source_tag (task, profiles_thread);
    g_task_run_in_thread (task, profiles_thread);
  }
}

DyWindow *
dy_window_new (AdwApplication *application)
{
  return g_object_new (DY_TYPE_WINDOW, "application", application, NULL);
}
