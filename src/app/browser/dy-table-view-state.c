/* dy-table-view-state.c: the tab's query as a GVariant (a{sv}), saved when the window closes
 * and given back at the next start: the table or index picked, the key conditions, the sort
 * order, every filter condition, the Limit and the grouping. A state given before DescribeTable
 * has answered waits for it (the index picker is empty until then). */
#define G_LOG_DOMAIN "dynoscope-table-view"

#include "app/browser/dy-table-view-private.h"

static void
set_text (GtkEntry *entry, GVariantDict *dict, const char *key)
{
  const char *text = NULL;

  if (g_variant_dict_lookup (dict, key, "&s", &text))
    gtk_editable_set_text (GTK_EDITABLE (entry), text);
}

/* A choice saved by another version may not exist: it is left as it is. */
static void
select_choice (GtkDropDown *dropdown, guint32 choice)
{
  if (choice < g_list_model_get_n_items (gtk_drop_down_get_model (dropdown)))
    gtk_drop_down_set_selected (dropdown, choice);
}

static void
set_choice (GtkDropDown *dropdown, GVariantDict *dict, const char *key)
{
  guint32 choice;

  if (g_variant_dict_lookup (dict, key, "u", &choice))
    select_choice (dropdown, choice);
}

/* The index picker's choice named INDEX ("" for the table), or the table's. */
static guint
index_position (DyTableView *self, const char *index)
{
  for (guint i = 0; i < self->keys->len; i++)
    {
      const DyTableViewKeys *keys = self->keys->pdata[i];

      if (g_strcmp0 (keys->name != NULL ? keys->name : "", index) == 0)
        return i;
    }
  return 0;
}

static void
apply_state (DyTableView *self, GVariant *state)
{
  g_auto (GVariantDict) dict;
  const char *index = "";
  gboolean flag;
  guint32 limit;
  GVariantIter *filters = NULL;
  GtkWidget *row;

  g_variant_dict_init (&dict, state);
  if (g_variant_dict_lookup (&dict, "index", "&s", &index))
    gtk_drop_down_set_selected (self->index_dropdown, index_position (self, index));
  set_text (self->pk_entry, &dict, "pk");
  set_choice (self->sk_op_dropdown, &dict, "sk-op");
  set_text (self->sk_entry, &dict, "sk");
  set_text (self->sk_entry2, &dict, "sk2");
  if (g_variant_dict_lookup (&dict, "descending", "b", &flag))
    gtk_toggle_button_set_active (self->desc_toggle, flag);
  set_text (self->filter_attr_entry, &dict, "filter-attr");
  set_choice (self->filter_op_dropdown, &dict, "filter-op");
  set_choice (self->filter_type_dropdown, &dict, "filter-type");
  set_text (self->filter_value_entry, &dict, "filter-value");
  while ((row = gtk_widget_get_first_child (GTK_WIDGET (self->extra_filters_box))) != NULL)
    gtk_box_remove (self->extra_filters_box, row);
  if (g_variant_dict_lookup (&dict, "filters", "a(suus)", &filters))
    {
      const char *attr, *value;
      guint32 op, type;

      while (g_variant_iter_next (filters, "(&suu&s)", &attr, &op, &type, &value))
        {
          gtk_widget_activate_action (GTK_WIDGET (self), "view.add-filter", NULL);
          row = gtk_widget_get_last_child (GTK_WIDGET (self->extra_filters_box));
          gtk_editable_set_text (g_object_get_data (G_OBJECT (row), "attr"), attr);
          gtk_editable_set_text (g_object_get_data (G_OBJECT (row), "value"), value);
          select_choice (g_object_get_data (G_OBJECT (row), "op"), op);
          select_choice (g_object_get_data (G_OBJECT (row), "type"), type);
        }
      g_variant_iter_free (filters);
    }
  if (g_variant_dict_lookup (&dict, "limit", "u", &limit))
    gtk_spin_button_set_value (self->limit_spin, limit);
  if (g_variant_dict_lookup (&dict, "grouped", "b", &flag) && flag != self->grouped)
    g_object_set (self, "grouped", flag, NULL);
}

GVariant *
dy_table_view_save_state (DyTableView *self)
{
  const DyTableViewKeys *keys = dy_table_view_current_keys (self);
  GVariantBuilder filters;
  g_auto (GVariantDict) dict;

  if (self->pending_state != NULL)
    return g_variant_ref (self->pending_state);
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "index", "s", keys != NULL && keys->name != NULL ? keys->name : "");
  g_variant_dict_insert (&dict, "pk", "s", gtk_editable_get_text (GTK_EDITABLE (self->pk_entry)));
  g_variant_dict_insert (&dict, "sk-op", "u", gtk_drop_down_get_selected (self->sk_op_dropdown));
  g_variant_dict_insert (&dict, "sk", "s", gtk_editable_get_text (GTK_EDITABLE (self->sk_entry)));
  g_variant_dict_insert (&dict, "sk2", "s", gtk_editable_get_text (GTK_EDITABLE (self->sk_entry2)));
  g_variant_dict_insert (&dict, "descending", "b", gtk_toggle_button_get_active (self->desc_toggle));
  g_variant_dict_insert (&dict, "filter-attr", "s",
                         gtk_editable_get_text (GTK_EDITABLE (self->filter_attr_entry)));
  g_variant_dict_insert (&dict, "filter-op", "u",
                         gtk_drop_down_get_selected (self->filter_op_dropdown));
  g_variant_dict_insert (&dict, "filter-type", "u",
                         gtk_drop_down_get_selected (self->filter_type_dropdown));
  g_variant_dict_insert (&dict, "filter-value", "s",
                         gtk_editable_get_text (GTK_EDITABLE (self->filter_value_entry)));
  g_variant_builder_init (&filters, G_VARIANT_TYPE ("a(suus)"));
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->extra_filters_box));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    g_variant_builder_add (&filters, "(suus)",
                           gtk_editable_get_text (g_object_get_data (G_OBJECT (row), "attr")),
                           gtk_drop_down_get_selected (g_object_get_data (G_OBJECT (row), "op")),
                           gtk_drop_down_get_selected (g_object_get_data (G_OBJECT (row), "type")),
                           gtk_editable_get_text (g_object_get_data (G_OBJECT (row), "value")));
  g_variant_dict_insert_value (&dict, "filters", g_variant_builder_end (&filters));
  g_variant_dict_insert (&dict, "limit", "u",
                         (guint32) gtk_spin_button_get_value_as_int (self->limit_spin));
  g_variant_dict_insert (&dict, "grouped", "b", self->grouped);
  return g_variant_ref_sink (g_variant_dict_end (&dict));
}

void
dy_table_view_restore_state (DyTableView *self, GVariant *state)
{
  g_return_if_fail (g_variant_is_of_type (state, G_VARIANT_TYPE_VARDICT));
  g_clear_pointer (&self->pending_state, g_variant_unref);
  if (self->ready)
    apply_state (self, state);
  else
    self->pending_state = g_variant_ref_sink (state);
}

void
dy_table_view_apply_pending_state (DyTableView *self)
{
  g_autoptr (GVariant) state = g_steal_pointer (&self->pending_state);

  if (state != NULL)
    apply_state (self, state);
}
