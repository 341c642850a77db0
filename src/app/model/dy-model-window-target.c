/* dy-model-window-target.c: the question that Create on… and Infer from Table… ask first:
 * which of the browser window's connections (and, for Infer, which of its tables), listed as
 * the sidebar lists them, the tables fetched when the connection is picked. */
#define G_LOG_DOMAIN "dynoscope-model-window"

#include <glib/gi18n.h>

#include "app/model/dy-model-window-private.h"
#include "app/window/dy-window.h"

typedef struct {
  DyModelWindow *self;
  GtkDropDown *connections;
  GtkDropDown *tables; /* NULL: no table asked for */
  DyModelTargetFunc func;
  gpointer user_data;
} Choose;

static void
choose_free (Choose *choose)
{
  g_object_unref (choose->self);
  g_free (choose);
}

/* The browser window whose connections are offered, or NULL. */
static DyWindow *
browser_window (DyModelWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  for (GList *l = app != NULL ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    if (DY_IS_WINDOW (l->data))
      return l->data;
  return NULL;
}

static DyConnection *
chosen_connection (Choose *choose)
{
  gpointer item = gtk_drop_down_get_selected_item (choose->connections);

  return DY_IS_CONNECTION (item) ? item : NULL;
}

static void
connection_changed (Choose *choose)
{
  DyConnection *connection = chosen_connection (choose);

  if (choose->tables == NULL)
    return;
  /* the table list is the connection's own, filled as ListTables answers */
  if (connection != NULL)
    dy_connection_ensure_tables (connection);
  gtk_drop_down_set_model (choose->tables,
                           connection != NULL ? dy_connection_get_tables (connection) : NULL);
}

static void
chosen (AdwMessageDialog *dialog, const char *response, Choose *choose)
{
  DyConnection *connection = chosen_connection (choose);
  gpointer table = choose->tables != NULL ? gtk_drop_down_get_selected_item (choose->tables) : NULL;

  if (!g_str_equal (response, "choose"))
    return;
  if (connection == NULL)
    dy_model_window_toast (choose->self, _ ("Pick a connection first"));
  else if (choose->tables != NULL && !GTK_IS_STRING_OBJECT (table))
    dy_model_window_toast (choose->self, _ ("Pick a table first"));
  else
    choose->func (choose->self, connection,
                  table != NULL ? gtk_string_object_get_string (GTK_STRING_OBJECT (table)) : NULL,
                  choose->user_data);
}

static GtkWidget *
labelled (const char *text, GtkWidget *widget)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *label = gtk_label_new_with_mnemonic (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), widget);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), widget);
  return box;
}

GtkWidget *
dy_model_window_choose_target (DyModelWindow *self, const char *heading, const char *body,
                               const char *action_label, gboolean with_table,
                               DyModelTargetFunc func, gpointer user_data)
{
  DyWindow *browser = browser_window (self);
  GListModel *connections = browser != NULL ? dy_window_get_connections (browser) : NULL;
  GtkExpression *title;
  GtkWidget *dialog, *box;
  Choose *choose;

  if (connections == NULL || g_list_model_get_n_items (connections) == 0)
    {
      dy_model_window_toast (self, _ ("No connection: open a database or add an endpoint in the "
                                      "browser window first"));
      return NULL;
    }
  choose = g_new0 (Choose, 1);
  choose->self = g_object_ref (self);
  choose->func = func;
  choose->user_data = user_data;
  title = gtk_property_expression_new (DY_TYPE_CONNECTION, NULL, "title");
  choose->connections
      = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (connections)), title));
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_box_append (GTK_BOX (box), labelled (_ ("_Connection"), GTK_WIDGET (choose->connections)));
  if (with_table)
    {
      choose->tables = GTK_DROP_DOWN (gtk_drop_down_new (
          NULL, gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string")));
      gtk_drop_down_set_enable_search (choose->tables, TRUE);
      gtk_box_append (GTK_BOX (box), labelled (_ ("_Table"), GTK_WIDGET (choose->tables)));
    }
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, body);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), box);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _ ("_Cancel"), "choose",
                                    action_label, NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "choose",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "choose");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_swapped (choose->connections, "notify::selected-item",
                            G_CALLBACK (connection_changed), choose);
  connection_changed (choose);
  g_signal_connect_data (dialog, "response", G_CALLBACK (chosen), choose,
                         (GClosureNotify) (void (*) (void)) choose_free, 0);
  g_object_set_data (G_OBJECT (dialog), "connections", choose->connections);
  g_object_set_data (G_OBJECT (dialog), "tables", choose->tables);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}
