/* dy-sql-view.c: a SQL tab: the class, its session on the connection, the editor (SQL
 * highlighting and completion), history and saved queries, and the tab itself. Running is
 * dy-sql-results.c's; the other parts are listed in dy-sql-view-private.h. */
#define G_LOG_DOMAIN "dynoscope-sql"

#include <glib/gi18n.h>
#include <string.h>

#include "app/sql/dy-sql-history.h"
#include "app/sql/dy-sql-view-private.h"

G_DEFINE_FINAL_TYPE (DySqlView, dy_sql_view, GTK_TYPE_BOX)

enum { PROP_0, PROP_CONNECTION, PROP_RUNNING, PROP_LANGUAGE, N_PROPS };

static GParamSpec *properties[N_PROPS];

/* The session. */

DySqlSession *
dy_sql_session_new (DyConnection *connection)
{
  DySqlSession *session = g_atomic_rc_box_new0 (DySqlSession);

  session->connection = g_object_ref (connection);
  g_mutex_init (&session->open_lock);
  g_mutex_init (&session->run_lock);
  g_mutex_init (&session->names_lock);
  return session;
}

DySqlSession *
dy_sql_session_ref (DySqlSession *session)
{
  return g_atomic_rc_box_acquire (session);
}

static void
session_clear (DySqlSession *session)
{
  g_clear_pointer (&session->sql, ddb_sql_free);
  g_clear_pointer (&session->names_sql, ddb_sql_free);
  /* after the DdbSqls, which borrow it */
  g_clear_pointer (&session->backend, ddb_backend_free);
  g_object_unref (session->connection);
  g_mutex_clear (&session->open_lock);
  g_mutex_clear (&session->run_lock);
  g_mutex_clear (&session->names_lock);
}

void
dy_sql_session_unref (DySqlSession *session)
{
  g_atomic_rc_box_release_full (session, (GDestroyNotify) session_clear);
}

DdbBackend *
dy_sql_session_backend (DySqlSession *session, GError **error)
{
  DdbBackend *backend;

  g_mutex_lock (&session->open_lock);
  if (session->backend == NULL)
    {
      /* A backend of its own: a long statement must not queue the tab's browsing behind it. */
      session->backend = dy_connection_open_backend (session->connection, 0, error);
      session->remote = session->backend != NULL
                        && ddb_backend_get_kind (session->backend) == DDB_BACKEND_REMOTE;
    }
  backend = session->backend;
  /* kept while the tab is open: it follows the connection's mark as it is now */
  if (backend != NULL)
    dy_connection_apply_mark (session->connection, backend);
  g_mutex_unlock (&session->open_lock);
  return backend;
}

gboolean
dy_sql_session_open (DySqlSession *session, GError **error)
{
  gboolean ok = TRUE;

  if (dy_sql_session_backend (session, error) == NULL)
    return FALSE;
  g_mutex_lock (&session->open_lock);
  if (session->sql == NULL)
    ok = (session->sql = ddb_sql_new (session->backend, error)) != NULL;
  g_mutex_unlock (&session->open_lock);
  return ok;
}

DdbSql *
dy_sql_session_names (DySqlSession *session, GError **error)
{
  DdbSql *sql = NULL;

  if (!dy_sql_session_open (session, error))
    return NULL;
  g_mutex_lock (&session->open_lock);
  if (session->names_sql == NULL)
    session->names_sql = ddb_sql_new (session->backend, error);
  sql = session->names_sql;
  g_mutex_unlock (&session->open_lock);
  return sql;
}

void
dy_sql_session_cancel (DySqlSession *session)
{
  g_mutex_lock (&session->open_lock);
  if (session->stepping && session->sql != NULL)
    ddb_sql_cancel (session->sql);
  g_mutex_unlock (&session->open_lock);
}

static gboolean
plain_identifier (const char *name)
{
  /* words SQLite would read as part of the statement */
  static const char *const keywords[]
      = { "select", "from",   "where",   "group", "order",  "by",       "limit", "join",
          "on",     "as",     "and",     "or",    "not",    "null",     "is",    "in",
          "left",   "inner",  "outer",   "cross", "union",  "having",   "case",  "when",
          "then",   "else",   "end",     "index", "table",  "values",   "key",   "between",
          "like",   "exists", "natural", "using", "offset", "distinct", "all",   "default" };
  g_autofree char *lower = NULL;

  if (!(g_ascii_isalpha (*name) || *name == '_'))
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_'))
      return FALSE;
  lower = g_ascii_strdown (name, -1);
  for (gsize i = 0; i < G_N_ELEMENTS (keywords); i++)
    if (g_str_equal (lower, keywords[i]))
      return FALSE;
  return TRUE;
}

char *
dy_sql_identifier (const char *name)
{
  return plain_identifier (name) ? g_strdup (name) : ddb_sql_quote_identifier (name);
}

/* Running state. */

void
dy_sql_view_set_running (DySqlView *self, gboolean running)
{
  if (self->running == running)
    return;
  self->running = running;
  gtk_spinner_set_spinning (self->spinner, running);
  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button),
                          running || self->export_cancellable != NULL);
  dy_sql_view_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

void
dy_sql_view_update_actions (DySqlView *self)
{
  gboolean busy = self->running || self->export_cancellable != NULL;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.run", !self->running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.retry",
                                 !self->running && self->retry != DY_SQL_RETRY_NONE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.cancel", busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.export", !busy && self->columns->len > 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.stage-update",
                                 !busy && !self->partiql && self->target != NULL && n > 0);
  /* a JOIN: SQL's alone */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.find-drift", !self->partiql);
  dy_sql_partiql_update_actions (self);
}

/* The editor. */

static GtkTextBuffer *
editor_buffer (DySqlView *self)
{
  return gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->editor));
}

void
dy_sql_view_set_text (DySqlView *self, const char *text)
{
  GtkTextBuffer *buffer = editor_buffer (self);
  GtkTextIter start, end;

  /* one step to undo, unlike gtk_text_buffer_set_text */
  gtk_text_buffer_begin_user_action (buffer);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_delete (buffer, &start, &end);
  gtk_text_buffer_insert (buffer, &start, text, -1);
  gtk_text_buffer_end_user_action (buffer);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_place_cursor (buffer, &start);
}

char *
dy_sql_view_dup_text (DySqlView *self)
{
  GtkTextBuffer *buffer = editor_buffer (self);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
update_scheme (DySqlView *self)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  const char *id = adw_style_manager_get_dark (manager) ? "Adwaita-dark" : "Adwaita";

  gtk_source_buffer_set_style_scheme (GTK_SOURCE_BUFFER (editor_buffer (self)),
                                      gtk_source_style_scheme_manager_get_scheme (schemes, id));
}

/* A first statement to edit: the demo blog's users, or a look at the first table. */
static char *
starting_text (DySqlView *self)
{
  GListModel *tables = dy_connection_get_tables (self->connection);
  g_autofree char *first = NULL;
  g_autofree char *quoted = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (tables); i++)
    {
      g_autoptr (GtkStringObject) name = g_list_model_get_item (tables, i);

      if (g_str_equal (gtk_string_object_get_string (name), "Blog"))
        return g_strdup ("SELECT PK, SK, name, email\nFROM Blog\nWHERE SK = 'META'\n");
      if (first == NULL)
        first = g_strdup (gtk_string_object_get_string (name));
    }
  if (first == NULL)
    return g_strdup ("");
  quoted = dy_sql_identifier (first);
  return g_strdup_printf ("SELECT *\nFROM %s\nLIMIT 100\n", quoted);
}

/* History and saved queries: menus made again when they change. */

static void
fill_menus (DySqlView *self)
{
  DySqlHistory *history = dy_sql_history_get_default ();
  g_autoptr (GMenu) recent = g_menu_new ();
  g_autoptr (GMenu) saved = g_menu_new ();
  g_autoptr (GMenu) save_section = g_menu_new ();
  g_autoptr (GMenu) names_section = g_menu_new ();
  g_autoptr (GMenu) forget = g_menu_new ();
  g_auto (GStrv) names = dy_sql_history_list_queries (history);
  guint n = MIN (dy_sql_history_get_n_statements (history), 25);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *summary
          = dy_sql_history_summary (dy_sql_history_get_statement (history, i), 60);
      /* TRANSLATORS: a PartiQL statement in the SQL tab's history menu */
      g_autofree char *label = dy_sql_history_get_mode (history, i) == DY_SQL_MODE_PARTIQL
                                   ? g_strdup_printf (_ ("PartiQL: %s"), summary)
                                   : g_strdup (summary);
      g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target_value (item, "view.load-history", g_variant_new_uint32 (i));
      g_menu_append_item (recent, item);
    }
  if (n == 0)
    {
      g_autoptr (GMenuItem) item = g_menu_item_new (_ ("Nothing run yet"), "view.none");

      g_menu_append_item (recent, item);
    }
  gtk_menu_button_set_menu_model (self->history_button, G_MENU_MODEL (recent));

  g_menu_append (save_section, _ ("_Save Query…"), "view.save-query");
  g_menu_append_section (saved, NULL, G_MENU_MODEL (save_section));
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autoptr (GMenuItem) item = g_menu_item_new (names[i], NULL);
      g_autoptr (GMenuItem) drop = g_menu_item_new (names[i], NULL);

      g_menu_item_set_action_and_target_value (item, "view.load-saved",
                                               g_variant_new_string (names[i]));
      g_menu_append_item (names_section, item);
      g_menu_item_set_action_and_target_value (drop, "view.forget-saved",
                                               g_variant_new_string (names[i]));
      g_menu_append_item (forget, drop);
    }
  if (names[0] != NULL)
    {
      g_menu_append_section (saved, NULL, G_MENU_MODEL (names_section));
      g_menu_append_submenu (saved, _ ("_Forget"), G_MENU_MODEL (forget));
    }
  gtk_menu_button_set_menu_model (self->saved_button, G_MENU_MODEL (saved));
}

static void
load_history_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DySqlView *self = DY_SQL_VIEW (widget);
  DySqlHistory *history = dy_sql_history_get_default ();
  guint i = g_variant_get_uint32 (parameter);
  const char *text = dy_sql_history_get_statement (history, i);

  if (text != NULL)
    {
      /* the statement comes back in the language it was run in */
      dy_sql_view_set_partiql (self, dy_sql_history_get_mode (history, i) == DY_SQL_MODE_PARTIQL);
      dy_sql_view_set_text (self, text);
    }
  gtk_widget_grab_focus (GTK_WIDGET (self->editor));
}

static void
load_saved_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DySqlView *self = DY_SQL_VIEW (widget);
  const char *text = dy_sql_history_get_query (dy_sql_history_get_default (),
                                               g_variant_get_string (parameter, NULL));

  if (text != NULL)
    dy_sql_view_set_text (self, text);
  gtk_widget_grab_focus (GTK_WIDGET (self->editor));
}

static void
forget_saved_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  dy_sql_history_remove_query (dy_sql_history_get_default (),
                               g_variant_get_string (parameter, NULL));
}

static void
save_response (AdwMessageDialog *dialog, const char *response, DySqlView *self)
{
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "name-entry");
  g_autofree char *text = NULL;

  if (g_strcmp0 (response, "save") != 0)
    return;
  text = dy_sql_view_dup_text (self);
  dy_sql_history_save_query (dy_sql_history_get_default (), gtk_editable_get_text (entry), text);
}

static void
save_name_changed (GtkEditable *entry, AdwMessageDialog *dialog)
{
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

  adw_message_dialog_set_response_enabled (dialog, "save", *name != '\0');
}

static void
save_query_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DySqlView *self = DY_SQL_VIEW (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  g_autofree char *text = dy_sql_view_dup_text (self);
  g_autofree char *summary = dy_sql_history_summary (text, 40);
  GtkWidget *entry = gtk_entry_new ();
  GtkWidget *dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                              _ ("Save Query"), summary);

  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _ ("Name"));
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _ ("Name of the saved query"), -1);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), entry);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "save",
                                    _ ("_Save"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "save",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "save");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "save", FALSE);
  g_object_set_data (G_OBJECT (dialog), "name-entry", entry);
  g_signal_connect (entry, "changed", G_CALLBACK (save_name_changed), dialog);
  g_signal_connect_object (dialog, "response", G_CALLBACK (save_response), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
  gtk_widget_grab_focus (entry);
}

/* GObject. */

static void
dy_sql_view_constructed (GObject *object)
{
  DySqlView *self = DY_SQL_VIEW (object);
  g_autofree char *text = starting_text (self);
  GtkSourceCompletion *completion = gtk_source_view_get_completion (self->editor);

  G_OBJECT_CLASS (dy_sql_view_parent_class)->constructed (object);
  self->session = dy_sql_session_new (self->connection);
  self->completion = dy_sql_completion_new (self->session);
  gtk_source_completion_add_provider (completion,
                                      GTK_SOURCE_COMPLETION_PROVIDER (self->completion));
  dy_sql_completion_prefetch (self->completion);
  dy_sql_view_set_text (self, text);
  dy_sql_view_update_actions (self);
  dy_sql_view_update_footer (self);
}

static void
dy_sql_view_dispose (GObject *object)
{
  DySqlView *self = DY_SQL_VIEW (object);

  dy_sql_results_dispose (self);
  dy_sql_partiql_dispose (self);
  dy_sql_export_cancel (self);
  g_clear_signal_handler (&self->history_handler, dy_sql_history_get_default ());
  gtk_widget_dispose_template (GTK_WIDGET (self), DY_TYPE_SQL_VIEW);
  g_clear_object (&self->selection);
  g_clear_object (&self->feed);
  G_OBJECT_CLASS (dy_sql_view_parent_class)->dispose (object);
}

static void
dy_sql_view_finalize (GObject *object)
{
  DySqlView *self = DY_SQL_VIEW (object);

  g_clear_object (&self->completion);
  g_clear_pointer (&self->session, dy_sql_session_unref);
  g_clear_object (&self->connection);
  g_clear_object (&self->rows);
  g_ptr_array_unref (self->columns);
  g_clear_pointer (&self->target, dy_sql_target_free);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->settings);
  g_free (self->plan);
  g_free (self->error);
  g_free (self->retry_text);
  g_free (self->status);
  dy_sql_partiql_finalize (self);
  G_OBJECT_CLASS (dy_sql_view_parent_class)->finalize (object);
}

static void
dy_sql_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  DySqlView *self = DY_SQL_VIEW (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      g_value_set_object (value, self->connection);
      break;
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    case PROP_LANGUAGE:
      g_value_set_string (value, self->partiql ? "partiql" : "sql");
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dy_sql_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  DySqlView *self = DY_SQL_VIEW (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      self->connection = g_value_dup_object (value);
      break;
    case PROP_LANGUAGE:
      dy_sql_view_set_partiql (self, g_strcmp0 (g_value_get_string (value), "partiql") == 0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
focus_editor_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  gtk_widget_grab_focus (GTK_WIDGET (DY_SQL_VIEW (widget)->editor));
}

static void
dy_sql_view_class_init (DySqlViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = dy_sql_view_constructed;
  object_class->dispose = dy_sql_view_dispose;
  object_class->finalize = dy_sql_view_finalize;
  object_class->get_property = dy_sql_view_get_property;
  object_class->set_property = dy_sql_view_set_property;

  properties[PROP_CONNECTION]
      = g_param_spec_object ("connection", NULL, NULL, DY_TYPE_CONNECTION,
                             G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING]
      = g_param_spec_boolean ("running", NULL, NULL, FALSE,
                              G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* "sql" or "partiql": what Run sends (view.language) */
  properties[PROP_LANGUAGE]
      = g_param_spec_string ("language", NULL, NULL, "sql",
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/dynoscope/Dynoscope/dy-sql-view.ui");
  gtk_widget_class_bind_template_child (widget_class, DySqlView, editor);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, column_view);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, plan_revealer);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, plan_label);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, stats_label);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, error_label);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, footer_label);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, spinner);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, history_button);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, saved_button);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, partiql_revealer);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, params_entry);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, limit_spin);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, copy_as_button);
  gtk_widget_class_bind_template_child (widget_class, DySqlView, load_more_button);

  dy_sql_results_class_init (widget_class);
  dy_sql_export_class_init (widget_class);
  dy_sql_drift_class_init (widget_class);
  dy_sql_stage_class_init (widget_class);
  dy_sql_partiql_class_init (widget_class);
  gtk_widget_class_install_property_action (widget_class, "view.language", "language");
  gtk_widget_class_install_action (widget_class, "view.load-history", "u", load_history_action);
  gtk_widget_class_install_action (widget_class, "view.load-saved", "s", load_saved_action);
  gtk_widget_class_install_action (widget_class, "view.forget-saved", "s", forget_saved_action);
  gtk_widget_class_install_action (widget_class, "view.save-query", NULL, save_query_action);
  gtk_widget_class_install_action (widget_class, "view.focus-filter", NULL, focus_editor_action);
}

static void
dy_sql_view_init (DySqlView *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceBuffer *buffer;

  gtk_widget_init_template (GTK_WIDGET (self));
  buffer = GTK_SOURCE_BUFFER (editor_buffer (self));
  gtk_source_buffer_set_language (buffer,
                                  gtk_source_language_manager_get_language (languages, "sql"));
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (update_scheme), self, G_CONNECT_SWAPPED);
  update_scheme (self);
  self->rows = dy_rows_new ();
  self->feed = dy_row_feed_new (G_LIST_MODEL (self->rows));
  self->columns = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->columns, NULL);
  self->confirm_rcu = DY_SQL_CONFIRM_RCU;
  self->cancellable = g_cancellable_new ();
  dy_sql_results_init (self);
  dy_sql_partiql_init (self);
  self->history_handler = g_signal_connect_swapped (dy_sql_history_get_default (), "changed",
                                                    G_CALLBACK (fill_menus), self);
  fill_menus (self);
}

GtkWidget *
dy_sql_view_new (DyConnection *connection)
{
  return g_object_new (DY_TYPE_SQL_VIEW, "connection", connection, NULL);
}

DySqlView *
dy_sql_view_open (DyWindow *window, DyConnection *connection)
{
  AdwTabView *tabs = dy_window_get_tab_view (window);
  GtkWidget *view;
  AdwTabPage *page;
  g_autoptr (GIcon) icon = NULL;

  for (int i = 0; i < adw_tab_view_get_n_pages (tabs); i++)
    {
      GtkWidget *child = adw_tab_page_get_child (adw_tab_view_get_nth_page (tabs, i));

      if (DY_IS_SQL_VIEW (child) && DY_SQL_VIEW (child)->connection == connection)
        {
          adw_tab_view_set_selected_page (tabs, adw_tab_view_get_nth_page (tabs, i));
          gtk_widget_grab_focus (GTK_WIDGET (DY_SQL_VIEW (child)->editor));
          return DY_SQL_VIEW (child);
        }
    }
  view = dy_sql_view_new (connection);
  if (dy_window_get_settings (window) != NULL)
    {
      DY_SQL_VIEW (view)->settings = g_object_ref (dy_window_get_settings (window));
      DY_SQL_VIEW (view)->confirm_rcu
          = g_settings_get_double (DY_SQL_VIEW (view)->settings, "sql-confirm-rcu");
    }
  page = adw_tab_view_append (tabs, view);
  dy_sql_partiql_update_tab (DY_SQL_VIEW (view));
  icon = g_themed_icon_new ("utilities-terminal-symbolic");
  adw_tab_page_set_icon (page, icon);
  g_object_bind_property (view, "running", page, "loading", G_BINDING_SYNC_CREATE);
  adw_tab_view_set_selected_page (tabs, page);
  gtk_widget_grab_focus (GTK_WIDGET (DY_SQL_VIEW (view)->editor));
  return DY_SQL_VIEW (view);
}

DySqlView *
dy_sql_view_open_current (DyWindow *window, DyConnection *connection, gpointer sidebar_row)
{
  g_autoptr (GtkTreeListRow) parent = NULL;
  g_autoptr (GObject) item = NULL;

  if (connection != NULL)
    return dy_sql_view_open (window, connection);
  if (GTK_IS_TREE_LIST_ROW (sidebar_row))
    {
      /* a table's row: its connection is its parent */
      parent = gtk_tree_list_row_get_parent (sidebar_row);
      item = gtk_tree_list_row_get_item (parent != NULL ? parent : sidebar_row);
    }
  else
    item = g_list_model_get_item (dy_window_get_connections (window), 0);
  return DY_IS_CONNECTION (item) ? dy_sql_view_open (window, DY_CONNECTION (item)) : NULL;
}

DyConnection *
dy_sql_view_get_connection (DySqlView *self)
{
  return self->connection;
}

void
dy_sql_view_set_partiql (DySqlView *self, gboolean partiql)
{
  if (self->partiql == !!partiql)
    return;
  self->partiql = !!partiql;
  gtk_revealer_set_reveal_child (self->partiql_revealer, self->partiql);
  dy_sql_partiql_update_tab (self);
  dy_sql_view_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LANGUAGE]);
}

gboolean
dy_sql_view_get_partiql (DySqlView *self)
{
  return self->partiql;
}

gboolean
dy_sql_view_get_running (DySqlView *self)
{
  return self->running;
}

GListModel *
dy_sql_view_get_rows (DySqlView *self)
{
  return G_LIST_MODEL (self->rows);
}

const char *const *
dy_sql_view_get_columns (DySqlView *self)
{
  return (const char *const *) self->columns->pdata;
}

const char *
dy_sql_view_get_plan (DySqlView *self)
{
  return self->plan;
}

const char *
dy_sql_view_get_error (DySqlView *self)
{
  return self->error;
}

const char *
dy_sql_view_get_status (DySqlView *self)
{
  return gtk_label_get_text (self->footer_label);
}

void
dy_sql_view_get_stats (DySqlView *self, DdbSqlStats *stats)
{
  *stats = self->stats;
}

gboolean
dy_sql_view_get_cancelled (DySqlView *self)
{
  return self->cancelled;
}

void
dy_sql_view_set_confirm_rcu (DySqlView *self, double rcu)
{
  self->confirm_rcu = rcu;
}

AdwMessageDialog *
dy_sql_view_get_confirm_dialog (DySqlView *self)
{
  return self->confirm_dialog;
}

const char *
dy_sql_view_get_stage_table (DySqlView *self)
{
  return self->target != NULL ? self->target->table : NULL;
}

gboolean
dy_sql_view_get_exporting (DySqlView *self)
{
  return self->export_cancellable != NULL;
}

GPtrArray *
dy_sql_view_get_completion_tables (DySqlView *self)
{
  return dy_sql_completion_get_tables (self->completion);
}

GPtrArray *
dy_sql_view_get_completion_columns (DySqlView *self, const char *table)
{
  return dy_sql_completion_get_columns (self->completion, table);
}
