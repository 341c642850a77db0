/* dy-copy-dialog.c: Copy To, the choice of a target table for a grid selection. */
#define G_LOG_DOMAIN "dynoscope-bulk"

#include <glib/gi18n.h>

#include "app/bulk/dy-copy-dialog.h"
#include "app/common/dy-describe.h"
#include "app/staging/dy-staging.h"
#include "app/window/dy-window.h"

struct _DyCopyDialog {
  AdwWindow parent_instance;

  DyConnection *source;
  char *table;
  char *pk, *sk;
  GPtrArray *connections; /* DyConnection*, the window's, in the dropdown's order */
  AdwComboRow *connection_row;
  AdwComboRow *table_row;
  AdwActionRow *mapping_row;
  GtkSwitch *overwrite_switch;
  GtkButton *stage_button;
  char *mapping;
  gulong tables_handler;
  gulong described_handler;
  DyConnection *watched; /* whose table list the table row shows */
};

G_DEFINE_FINAL_TYPE (DyCopyDialog, dy_copy_dialog, ADW_TYPE_WINDOW)

static guint chosen_signal;

static DyConnection *
chosen_connection (DyCopyDialog *self)
{
  guint i = adw_combo_row_get_selected (self->connection_row);

  return i < self->connections->len ? self->connections->pdata[i] : NULL;
}

static char *
chosen_table (DyCopyDialog *self)
{
  GObject *item = adw_combo_row_get_selected_item (self->table_row);

  return GTK_IS_STRING_OBJECT (item) ? g_strdup (gtk_string_object_get_string (GTK_STRING_OBJECT (item)))
                                     : NULL;
}

/* What the key attributes become, as the staging will map them (staging/copystage.h). */
static void
update_mapping (DyCopyDialog *self)
{
  DyConnection *target = chosen_connection (self);
  g_autofree char *table = chosen_table (self);
  json_t *description = NULL;
  const char *why = NULL;
  GString *text = g_string_new (NULL);
  gboolean same;

  same = target == self->source && g_strcmp0 (table, self->table) == 0;
  if (target != NULL && table != NULL)
    description = dy_connection_get_table_description (target, table, &why);
  g_clear_pointer (&self->mapping, g_free);
  if (same)
    g_string_append (text, _ ("The items are already in this table: choose another"));
  else if (description == NULL)
    g_string_append (text, why != NULL ? why : _ ("Reading the table’s key…"));
  else
    {
      const char *pk = dy_describe_key_name (json_object_get (description, "KeySchema"), "HASH");
      const char *sk = dy_describe_key_name (json_object_get (description, "KeySchema"), "RANGE");

      /* TRANSLATORS: a key attribute copied under another name: "PK → pk" */
      g_string_append_printf (text, g_strcmp0 (pk, self->pk) == 0 ? "%s" : _ ("%s → %s"),
                              self->pk, pk);
      if (self->sk != NULL && sk != NULL)
        {
          g_string_append (text, ", ");
          g_string_append_printf (text, g_strcmp0 (sk, self->sk) == 0 ? "%s" : _ ("%s → %s"),
                                  self->sk, sk);
        }
      else if (sk != NULL)
        /* TRANSLATORS: the target's sort key, which the source table does not have */
        g_string_append_printf (text, _ (", %s from each item’s own attribute"), sk);
      else if (self->sk != NULL)
        /* TRANSLATORS: the source's sort key, kept as an ordinary attribute */
        g_string_append_printf (text, _ (", %s kept as an attribute"), self->sk);
      self->mapping = g_strdup (text->str);
    }
  adw_action_row_set_subtitle (self->mapping_row, text->str);
  gtk_widget_set_sensitive (GTK_WIDGET (self->stage_button),
                            target != NULL && table != NULL && !same);
  g_string_free (text, TRUE);
}

/* A table of the source's name in another connection is picked while the user has not picked
 * another (the table list comes in pages). */
static void
pick_same_name (DyCopyDialog *self)
{
  GListModel *tables = adw_combo_row_get_model (self->table_row);

  if (tables != NULL && self->watched != self->source && adw_combo_row_get_selected (self->table_row) == 0)
    for (guint i = 0; i < g_list_model_get_n_items (tables); i++)
      {
        g_autoptr (GtkStringObject) name = g_list_model_get_item (tables, i);

        if (g_strcmp0 (gtk_string_object_get_string (name), self->table) == 0)
          {
            adw_combo_row_set_selected (self->table_row, i);
            break;
          }
      }
  update_mapping (self);
}

/* The table row lists TARGET's tables; a table of the source's name is picked when there is
 * one (the copy users ask for most: the same table, another account or a local copy). */
static void
watch_connection (DyCopyDialog *self, DyConnection *target)
{
  GListModel *tables;

  if (self->watched != NULL)
    {
      g_clear_signal_handler (&self->tables_handler, dy_connection_get_tables (self->watched));
      g_clear_signal_handler (&self->described_handler, self->watched);
      g_clear_object (&self->watched);
    }
  if (target == NULL)
    {
      adw_combo_row_set_model (self->table_row, NULL);
      return;
    }
  self->watched = g_object_ref (target);
  tables = dy_connection_get_tables (target);
  adw_combo_row_set_model (self->table_row, tables);
  self->tables_handler = g_signal_connect_object (tables, "items-changed",
                                                  G_CALLBACK (pick_same_name), self,
                                                  G_CONNECT_SWAPPED);
  self->described_handler = g_signal_connect_object (target, "tables-described",
                                                     G_CALLBACK (update_mapping), self,
                                                     G_CONNECT_SWAPPED);
  dy_connection_ensure_tables (target);
  /* a profile's staging id is resolved on a thread: started now, ready by Stage */
  dy_staging_prepare (dy_staging_get_default (), target);
  pick_same_name (self);
  update_mapping (self);
}

static void
connection_chosen (DyCopyDialog *self)
{
  watch_connection (self, chosen_connection (self));
}

gboolean
dy_copy_dialog_select (DyCopyDialog *self, DyConnection *target, const char *table)
{
  GListModel *tables;

  for (guint i = 0; i < self->connections->len; i++)
    if (self->connections->pdata[i] == target)
      {
        adw_combo_row_set_selected (self->connection_row, i);
        tables = dy_connection_get_tables (target);
        for (guint t = 0; t < g_list_model_get_n_items (tables); t++)
          {
            g_autoptr (GtkStringObject) name = g_list_model_get_item (tables, t);

            if (g_strcmp0 (gtk_string_object_get_string (name), table) == 0)
              {
                adw_combo_row_set_selected (self->table_row, t);
                update_mapping (self);
                return TRUE;
              }
          }
        return FALSE;
      }
  return FALSE;
}

const char *
dy_copy_dialog_get_mapping (DyCopyDialog *self)
{
  return self->mapping;
}

static void
stage_clicked (DyCopyDialog *self)
{
  DyConnection *target = chosen_connection (self);
  g_autofree char *table = chosen_table (self);

  if (target == NULL || table == NULL)
    return;
  g_signal_emit (self, chosen_signal, 0, target, table,
                 gtk_switch_get_active (self->overwrite_switch));
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
dy_copy_dialog_dispose (GObject *object)
{
  DyCopyDialog *self = DY_COPY_DIALOG (object);

  watch_connection (self, NULL);
  g_clear_object (&self->source);
  g_clear_pointer (&self->connections, g_ptr_array_unref);
  G_OBJECT_CLASS (dy_copy_dialog_parent_class)->dispose (object);
}

static void
dy_copy_dialog_finalize (GObject *object)
{
  DyCopyDialog *self = DY_COPY_DIALOG (object);

  g_free (self->table);
  g_free (self->pk);
  g_free (self->sk);
  g_free (self->mapping);
  G_OBJECT_CLASS (dy_copy_dialog_parent_class)->finalize (object);
}

static void
dy_copy_dialog_class_init (DyCopyDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = dy_copy_dialog_dispose;
  object_class->finalize = dy_copy_dialog_finalize;
  chosen_signal = g_signal_new ("chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                NULL, NULL, G_TYPE_NONE, 3, DY_TYPE_CONNECTION, G_TYPE_STRING,
                                G_TYPE_BOOLEAN);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
dy_copy_dialog_init (DyCopyDialog *self)
{
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_ ("_Cancel"));
  GtkWidget *page = adw_preferences_page_new ();
  GtkWidget *group = adw_preferences_group_new ();
  GtkWidget *overwrite_row = adw_action_row_new ();
  g_autoptr (GtkExpression) expression
      = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");

  self->connections = g_ptr_array_new_with_free_func (g_object_unref);
  gtk_window_set_title (GTK_WINDOW (self), _ ("Copy the Selected Items"));
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (self), 520, -1);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (self), TRUE);

  adw_header_bar_set_show_end_title_buttons (ADW_HEADER_BAR (header), FALSE);
  adw_header_bar_set_show_start_title_buttons (ADW_HEADER_BAR (header), FALSE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (cancel), "window.close");
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), cancel);
  self->stage_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_ ("_Stage")));
  gtk_widget_add_css_class (GTK_WIDGET (self->stage_button), "suggested-action");
  g_signal_connect_swapped (self->stage_button, "clicked", G_CALLBACK (stage_clicked), self);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), GTK_WIDGET (self->stage_button));
  gtk_box_append (GTK_BOX (content), header);

  adw_preferences_group_set_description (
      ADW_PREFERENCES_GROUP (group),
      _ ("Each item is staged as a put into the table: nothing is written until you commit, and "
         "an item that exists there is a conflict unless you overwrite it."));
  self->connection_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->connection_row), _ ("_Connection"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (self->connection_row), TRUE);
  self->table_row = ADW_COMBO_ROW (adw_combo_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->table_row), _ ("_Table"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (self->table_row), TRUE);
  adw_combo_row_set_expression (self->table_row, expression);
  self->mapping_row = ADW_ACTION_ROW (adw_action_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->mapping_row), _ ("Key"));
  gtk_widget_add_css_class (GTK_WIDGET (self->mapping_row), "property");
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (overwrite_row),
                                 _ ("_Overwrite Items That Exist"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (overwrite_row), TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (overwrite_row),
                               _ ("Each is read now and staged as an update from what it holds, "
                                  "guarded at commit by those values"));
  self->overwrite_switch = GTK_SWITCH (gtk_switch_new ());
  gtk_widget_set_valign (GTK_WIDGET (self->overwrite_switch), GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (overwrite_row), GTK_WIDGET (self->overwrite_switch));
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (overwrite_row),
                                         GTK_WIDGET (self->overwrite_switch));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), GTK_WIDGET (self->connection_row));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), GTK_WIDGET (self->table_row));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), GTK_WIDGET (self->mapping_row));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), overwrite_row);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (group));
  gtk_widget_set_vexpand (page, TRUE);
  gtk_box_append (GTK_BOX (content), page);
  adw_window_set_content (ADW_WINDOW (self), content);
  g_signal_connect_swapped (self->connection_row, "notify::selected",
                            G_CALLBACK (connection_chosen), self);
  g_signal_connect_swapped (self->table_row, "notify::selected", G_CALLBACK (update_mapping),
                            self);
}

DyCopyDialog *
dy_copy_dialog_new (GtkWindow *parent, DyConnection *source, const char *table,
                    const char *partition_key, const char *sort_key)
{
  DyCopyDialog *self = g_object_new (DY_TYPE_COPY_DIALOG, "transient-for", parent, NULL);
  g_autoptr (GtkStringList) titles = gtk_string_list_new (NULL);
  GListModel *connections = DY_IS_WINDOW (parent) ? dy_window_get_connections (DY_WINDOW (parent))
                                                  : NULL;
  guint pick = 0;

  self->source = g_object_ref (source);
  self->table = g_strdup (table);
  self->pk = g_strdup (partition_key);
  self->sk = g_strdup (sort_key);
  /* the source's connection is a choice too (another table of it), listed where it is */
  for (guint i = 0; connections != NULL && i < g_list_model_get_n_items (connections); i++)
    {
      DyConnection *c = g_list_model_get_item (connections, i);

      g_ptr_array_add (self->connections, c);
      gtk_string_list_append (titles, dy_connection_get_title (c));
    }
  if (self->connections->len == 0)
    {
      g_ptr_array_add (self->connections, g_object_ref (source));
      gtk_string_list_append (titles, dy_connection_get_title (source));
    }
  /* the first other connection: copies go from one account, or a snapshot, to another */
  for (guint i = 0; i < self->connections->len; i++)
    if (self->connections->pdata[i] != source)
      {
        pick = i;
        break;
      }
  adw_combo_row_set_model (self->connection_row, G_LIST_MODEL (titles));
  adw_combo_row_set_selected (self->connection_row, pick);
  watch_connection (self, chosen_connection (self));
  return self;
}
