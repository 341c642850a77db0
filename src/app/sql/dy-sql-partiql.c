/* dy-sql-partiql.c: the SQL tab's PartiQL mode: the editor's statement sent as it is to the
 * tab's connection with ExecuteStatement (on a worker, Cancel at any time), each page's items
 * into the exact-value grid (columns the union of the items' attributes, the table's key
 * first), Load more following NextToken, the parameters row for `?`, a confirmation before a
 * write reaches a live connection, Copy as for the request, and the tab saying the mode. */
#define G_LOG_DOMAIN "dynoscope-sql"

#include <glib/gi18n.h>

#include "app/common/dy-copy-as.h"
#include "app/sql/dy-partiql.h"
#include "app/sql/dy-sql-history.h"
#include "app/sql/dy-sql-view-private.h"
#include "backend/read-only.h"
#include "core/error.h"

/* The request. */

json_t *
dy_sql_view_partiql_request (DySqlView *self, GError **error)
{
  g_autofree char *text = g_strstrip (dy_sql_view_statement_text (self));
  json_t *parameters = dy_partiql_parse_parameters (
      gtk_editable_get_text (GTK_EDITABLE (self->params_entry)), error);
  int limit = gtk_spin_button_get_value_as_int (self->limit_spin);
  json_t *request;

  if (parameters == NULL)
    return NULL;
  request = json_pack ("{ss}", "Statement", text);
  if (json_array_size (parameters) > 0)
    json_object_set (request, "Parameters", parameters);
  json_decref (parameters);
  if (limit > 0)
    json_object_set_new (request, "Limit", json_integer (limit));
  /* the footer says what the pages cost */
  json_object_set_new (request, "ReturnConsumedCapacity", json_string ("TOTAL"));
  return request;
}

/* A page, on a worker. */

typedef struct {
  DySqlSession *session;
  json_t *request; /* with NextToken for a page after the first */
  char *table;     /* whose key is looked up first; NULL: none */
  guint serial;
  GCancellable *cancellable;
  DyRowStore *store;
  /* for the callback */
  json_t *response;
  json_t *extra; /* a DynamoDB error's members */
  DyRowPage *page;
  GStrv keys;
} Page;

static void
page_free (Page *p)
{
  dy_sql_session_unref (p->session);
  json_decref (p->request);
  g_free (p->table);
  g_object_unref (p->cancellable);
  dy_row_store_unref (p->store);
  if (p->response != NULL)
    json_decref (p->response);
  if (p->extra != NULL)
    json_decref (p->extra);
  g_clear_pointer (&p->page, dy_row_page_free);
  g_strfreev (p->keys);
  g_free (p);
}

/* The table's key attributes, partition key first; NULL when it cannot be described (the
 * statement's own answer says why, if it matters). */
static GStrv
describe_keys (DdbBackend *backend, const char *table, GCancellable *cancellable)
{
  json_auto_t *request = json_pack ("{ss}", "TableName", table);
  json_t *response = NULL;
  json_t *element;
  size_t i;
  const char *hash = NULL, *range = NULL;
  GPtrArray *keys;

  if (!ddb_backend_call (backend, "DescribeTable", request, cancellable, &response, NULL))
    {
      if (response != NULL)
        json_decref (response);
      return NULL;
    }
  json_array_foreach (json_object_get (json_object_get (response, "Table"), "KeySchema"), i,
                      element)
    {
      const char *name = json_string_value (json_object_get (element, "AttributeName"));
      const char *type = json_string_value (json_object_get (element, "KeyType"));

      if (g_strcmp0 (type, "HASH") == 0)
        hash = name;
      else if (g_strcmp0 (type, "RANGE") == 0)
        range = name;
    }
  keys = g_ptr_array_new ();
  if (hash != NULL)
    g_ptr_array_add (keys, g_strdup (hash));
  if (range != NULL)
    g_ptr_array_add (keys, g_strdup (range));
  g_ptr_array_add (keys, NULL);
  json_decref (response);
  return (GStrv) g_ptr_array_free (keys, FALSE);
}

static void
page_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Page *p = task_data;
  GError *error = NULL;
  DdbBackend *backend = dy_sql_session_backend (p->session, &error);
  json_t *items;

  if (backend == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (p->table != NULL)
    p->keys = describe_keys (backend, p->table, p->cancellable);
  if (!ddb_backend_call (backend, "ExecuteStatement", p->request, p->cancellable, &p->response,
                         &error))
    {
      p->extra = g_steal_pointer (&p->response);
      g_task_return_error (task, error);
      return;
    }
  items = json_object_get (p->response, "Items");
  if (items == NULL)
    items = json_array ();
  else
    json_incref (items);
  p->page = dy_row_page_new (p->store, items, &error);
  json_decref (items);
  if (p->page == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* The footer after a page. */
static void
set_page_status (DySqlView *self, guint page_items)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  g_autofree char *items = NULL;
  g_autofree char *pages = NULL;
  g_autofree char *rcu = g_strdup_printf ("%.1f", self->partiql_rcu);
  const char *more;

  /* TRANSLATORS: the PartiQL footer's parts: items shown, pages read */
  items = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u item", "%u items", n), n);
  pages = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u page", "%u pages", self->pages),
                           self->pages);
  if (self->next_token != NULL && page_items == 0)
    /* an empty page is not the end: DynamoDB stopped at its Limit or 1 MB before a match */
    more = _ ("this page was empty, but more pages may hold items: Load More (Ctrl+L)");
  else if (self->next_token != NULL)
    more = _ ("more pages: Load More (Ctrl+L)");
  else
    more = _ ("the last page");
  g_free (self->status);
  /* TRANSLATORS: items · pages · whether more pages exist · read capacity · seconds */
  self->status = g_strdup_printf (_ ("%s · %s · %s · %s RCU · %.2f s"), items, pages, more, rcu,
                                  (double) self->elapsed / G_USEC_PER_SEC);
  dy_sql_view_update_footer (self);
}

static void
page_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DySqlView *self = DY_SQL_VIEW (source);
  Page *p = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  json_t *capacity;

  if (!g_task_propagate_boolean (G_TASK (result), &error) && p->serial == self->serial)
    {
      g_autofree char *text = dy_connection_describe_error (self->connection, error, p->extra);
      const char *name = error->domain == DDB_ERROR ? ddb_backend_error_name (error, p->extra)
                                                    : NULL;

      self->elapsed = g_get_monotonic_time () - self->started;
      dy_sql_view_set_running (self, FALSE);
      /* Retry sends the same page again: the first, or the one after the rows shown */
      dy_sql_view_show_failure (self, text, error, name,
                                self->pages == 0 ? DY_SQL_RETRY_PARTIQL_FIRST
                                                 : DY_SQL_RETRY_PARTIQL_NEXT,
                                NULL);
      g_free (self->status);
      /* the pages read before stay, and so does their NextToken: Load More tries again */
      self->status = self->pages == 0 ? g_strdup (_ ("Not run: DynamoDB refused the statement"))
                                      : g_strdup (_ ("The next page could not be read"));
      dy_sql_view_update_footer (self);
      dy_sql_view_update_actions (self);
      return;
    }
  if (p->serial != self->serial)
    return; /* cancelled, or a newer Run */
  if (p->keys != NULL)
    {
      g_strfreev (self->key_names);
      self->key_names = g_steal_pointer (&p->keys);
    }
  {
    g_autoptr (GPtrArray) added = dy_partiql_new_columns (
        dy_sql_view_get_columns (self), p->page->names, (const char *const *) self->key_names);

    if (added->len > 0)
      dy_sql_results_append_columns (self, added);
  }
  if (!self->widths_set && p->page->lengths->len > 0)
    dy_sql_results_size_columns (self, p->page);
  dy_rows_add_page (self->rows, p->page);
  g_clear_pointer (&self->next_token, g_free);
  self->next_token = g_strdup (json_string_value (json_object_get (p->response, "NextToken")));
  self->pages++;
  capacity = json_object_get (p->response, "ConsumedCapacity");
  self->partiql_rcu += json_number_value (json_object_get (capacity, "CapacityUnits"));
  self->elapsed = g_get_monotonic_time () - self->started;
  dy_sql_view_set_running (self, FALSE);
  set_page_status (self, p->page->lengths->len);
  dy_sql_view_update_actions (self);
}

/* Reads the next page (or the first, TOKEN NULL) of the last statement. */
static void
start_page (DySqlView *self, const char *token)
{
  g_autoptr (GTask) task = NULL;
  Page *p = g_new0 (Page, 1);

  self->serial++;
  self->cancelled = FALSE;
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  p->session = dy_sql_session_ref (self->session);
  p->request = json_deep_copy (self->partiql_request);
  if (token != NULL)
    json_object_set_new (p->request, "NextToken", json_string (token));
  else
    dy_partiql_kind (json_string_value (json_object_get (p->request, "Statement")), &p->table);
  p->serial = self->serial;
  p->cancellable = g_object_ref (self->cancellable);
  p->store = dy_row_store_ref (dy_rows_get_store (self->rows));
  g_free (self->status);
  self->status = token != NULL ? g_strdup (_ ("Reading the next page…"))
                               : g_strdup (_ ("Running the statement…"));
  self->started = g_get_monotonic_time ();
  dy_sql_view_show_error (self, NULL);
  dy_sql_view_set_running (self, TRUE);
  dy_sql_view_update_footer (self);
  task = g_task_new (self, NULL, page_done, NULL);
  g_task_set_source_tag (task, start_page);
  g_task_set_task_data (task, p, (GDestroyNotify) page_free);
  g_task_run_in_thread (task, page_thread);
}

static void
start_statement (DySqlView *self)
{
  dy_sql_results_clear (self);
  g_clear_pointer (&self->next_token, g_free);
  g_clear_pointer (&self->key_names, g_strfreev);
  self->pages = 0;
  self->partiql_rcu = 0;
  start_page (self, NULL);
}

/* A write to a live connection: asked first. */

static void
write_response (AdwMessageDialog *dialog, const char *response, DySqlView *self)
{
  if (self->write_dialog == dialog)
    self->write_dialog = NULL;
  if (g_strcmp0 (response, "run") == 0)
    start_statement (self);
  else
    {
      g_free (self->status);
      self->status = g_strdup (_ ("Not sent: the write was not confirmed"));
      dy_sql_view_update_footer (self);
    }
}

static void
confirm_write (DySqlView *self, DyPartiqlKind kind, const char *table)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  /* TRANSLATORS: %s: INSERT, UPDATE or DELETE, then the table */
  heading = g_strdup_printf (_ ("Run an %s on %s?"), dy_partiql_kind_name (kind),
                             table != NULL ? table : _ ("a table"));
  /* TRANSLATORS: %s: the statement kind, the table, the connection */
  body = g_strdup_printf (_ ("This %s writes to %s on %s, a live connection, as soon as it is "
                             "sent: it is not staged, and there is no undo."),
                          dy_partiql_kind_name (kind), table != NULL ? table : _ ("a table"),
                          dy_connection_get_title (self->connection));
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, heading, body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "run",
                                    _ ("_Write"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "run",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (write_response), self, 0);
  self->write_dialog = ADW_MESSAGE_DIALOG (dialog);
  g_free (self->status);
  self->status = g_strdup (_ ("Waiting for your answer: the write has not been sent"));
  dy_sql_view_update_footer (self);
  gtk_window_present (GTK_WINDOW (dialog));
}

void
dy_sql_partiql_run (DySqlView *self)
{
  g_autoptr (GError) error = NULL;
  json_t *request;
  const char *text;
  g_autofree char *table = NULL;
  DyPartiqlKind kind;

  if (self->running || self->write_dialog != NULL)
    return;
  request = dy_sql_view_partiql_request (self, &error);
  if (request == NULL)
    {
      dy_sql_view_show_error (self, error->message);
      return;
    }
  text = json_string_value (json_object_get (request, "Statement"));
  if (*text == '\0')
    {
      json_decref (request);
      dy_sql_view_show_error (
          self,
          _ ("Type a statement first, for example SELECT * FROM \"Blog\" WHERE PK = 'USER#12'"));
      return;
    }
  dy_sql_history_add_in_mode (dy_sql_history_get_default (), text, DY_SQL_MODE_PARTIQL);
  if (self->partiql_request != NULL)
    json_decref (self->partiql_request);
  self->partiql_request = request;
  kind = dy_partiql_kind (text, &table);
  dy_sql_view_show_error (self, NULL);
  /* a read-only connection: a statement that may write is refused before it is sent (its
   * backend would refuse it too); a SELECT runs */
  if (dy_connection_get_read_only (self->connection))
    {
      g_autoptr (GError) why = NULL;

      if (ddb_backend_operation_writes ("ExecuteStatement", request, &why))
        {
          g_autofree char *reason = dy_connection_dup_read_only_reason (self->connection);
          /* TRANSLATORS: a refused PartiQL write: "Prod is read-only: this INSERT is not
           * sent"; the second %s is INSERT, UPDATE or DELETE */
          g_autofree char *refusal
              = kind != DY_PARTIQL_READ
                    ? g_strdup_printf (_ ("%s: this %s is not sent"), reason,
                                       dy_partiql_kind_name (kind))
                    : g_strdup_printf ("%s: %s", reason, why->message);

          dy_sql_view_show_error (self, refusal);
          g_free (self->status);
          self->status = g_strdup (_ ("Not sent: the connection is read-only"));
          dy_sql_view_update_footer (self);
          return;
        }
    }
  if (kind != DY_PARTIQL_READ
      && dy_connection_get_kind (self->connection) != DY_CONNECTION_DATABASE)
    confirm_write (self, kind, table);
  else
    start_statement (self);
}

void
dy_sql_partiql_retry (DySqlView *self, gboolean next_page)
{
  g_autofree char *table = NULL;
  DyPartiqlKind kind;

  if (self->running || self->write_dialog != NULL || self->partiql_request == NULL)
    return;
  if (next_page)
    {
      if (self->next_token != NULL)
        start_page (self, self->next_token);
      return;
    }
  /* a write that failed may have been made all the same: asked about again */
  kind = dy_partiql_kind (json_string_value (json_object_get (self->partiql_request, "Statement")),
                          &table);
  if (kind != DY_PARTIQL_READ
      && dy_connection_get_kind (self->connection) != DY_CONNECTION_DATABASE)
    confirm_write (self, kind, table);
  else
    start_statement (self);
}

gboolean
dy_sql_view_get_can_load_more (DySqlView *self)
{
  return self->partiql && self->next_token != NULL;
}

AdwMessageDialog *
dy_sql_view_get_write_dialog (DySqlView *self)
{
  return self->write_dialog;
}

static void
load_more_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DySqlView *self = DY_SQL_VIEW (widget);

  if (!self->running && dy_sql_view_get_can_load_more (self))
    start_page (self, self->next_token);
}

static void
toggle_language_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DySqlView *self = DY_SQL_VIEW (widget);

  dy_sql_view_set_partiql (self, !self->partiql);
}

static void
copy_as_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DySqlView *self = DY_SQL_VIEW (widget);
  g_autoptr (GError) error = NULL;
  json_t *request = dy_sql_view_partiql_request (self, &error);
  g_autofree char *program = NULL;
  DdbLang lang;

  if (request != NULL)
    {
      program = dy_copy_as_program (self->connection, g_variant_get_string (parameter, NULL),
                                    "ExecuteStatement", request, &error);
      json_decref (request);
    }
  if (program == NULL)
    {
      dy_sql_view_show_error (self, error->message);
      return;
    }
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), program);
  dy_sql_view_show_error (self, NULL);
  ddb_lang_from_name (g_variant_get_string (parameter, NULL), &lang);
  g_free (self->status);
  /* TRANSLATORS: the footer after Copy As; %s is a language such as Python */
  self->status
      = g_strdup_printf (_ ("Copied the ExecuteStatement request as %s"), ddb_lang_title (lang));
  dy_sql_view_update_footer (self);
}

/* The tab. */

void
dy_sql_partiql_update_tab (DySqlView *self)
{
  GtkWidget *tabs = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TAB_VIEW);
  AdwTabPage *page
      = tabs != NULL ? adw_tab_view_get_page (ADW_TAB_VIEW (tabs), GTK_WIDGET (self)) : NULL;
  const char *name = dy_connection_get_title (self->connection);
  g_autofree char *title = NULL;
  g_autofree char *tooltip = NULL;

  if (page == NULL)
    return;
  /* TRANSLATORS: the title of a SQL tab; %s is the connection's name */
  title = self->partiql ? g_strdup_printf (_ ("PartiQL · %s"), name)
                        : g_strdup_printf (_ ("SQL · %s"), name);
  /* TRANSLATORS: the SQL tab's tooltip: the connection, then the mode */
  tooltip = g_strdup_printf (self->partiql ? _ ("%s · PartiQL (ExecuteStatement)") : _ ("%s · SQL"),
                             name);
  adw_tab_page_set_title (page, title);
  adw_tab_page_set_tooltip (page, tooltip);
}

void
dy_sql_partiql_update_actions (DySqlView *self)
{
  gboolean more = !self->running && dy_sql_view_get_can_load_more (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "view.load-more", more);
  gtk_widget_set_visible (GTK_WIDGET (self->load_more_button),
                          self->partiql && self->next_token != NULL);
}

void
dy_sql_partiql_init (DySqlView *self)
{
  g_autoptr (GMenuModel) menu = dy_copy_as_menu_new ("view.partiql-copy-as");
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_menu_button_set_menu_model (self->copy_as_button, menu);
  /* Enter in the parameters runs, as Ctrl+Return does */
  g_signal_connect_swapped (self->params_entry, "activate", G_CALLBACK (dy_sql_view_run), self);
  /* before the editor, like Ctrl+Return */
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  gtk_event_controller_set_name (controller, "dy-sql-language");
  gtk_shortcut_controller_add_shortcut (
      GTK_SHORTCUT_CONTROLLER (controller),
      gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_p, GDK_CONTROL_MASK | GDK_SHIFT_MASK),
                        gtk_named_action_new ("view.toggle-language")));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

void
dy_sql_partiql_dispose (DySqlView *self)
{
  if (self->write_dialog != NULL)
    {
      AdwMessageDialog *dialog = g_steal_pointer (&self->write_dialog);

      gtk_window_destroy (GTK_WINDOW (dialog));
    }
}

void
dy_sql_partiql_finalize (DySqlView *self)
{
  if (self->partiql_request != NULL)
    json_decref (self->partiql_request);
  g_free (self->next_token);
  g_strfreev (self->key_names);
}

void
dy_sql_partiql_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "view.load-more", NULL, load_more_action);
  gtk_widget_class_install_action (widget_class, "view.toggle-language", NULL,
                                   toggle_language_action);
  gtk_widget_class_install_action (widget_class, "view.partiql-copy-as", "s", copy_as_action);
}
