/* dy-table-view-filter.c: the table view's filter row: the table or index picked and its keys,
 * the sort key condition, the filter conditions (the first one and the extra rows), the Limit,
 * and the preview saying before it runs whether a Run will Query or Scan. */
#define G_LOG_DOMAIN "dynoscope-table-view"

#include <glib/gi18n.h>
#include <string.h>

#include "app/browser/dy-table-view-private.h"

void
dy_table_view_keys_free (DyTableViewKeys *keys)
{
  g_free (keys->name);
  g_free (keys->pk);
  g_free (keys->sk);
  g_free (keys);
}

const DyTableViewKeys *
dy_table_view_current_keys (DyTableView *self)
{
  guint i = gtk_drop_down_get_selected (self->index_dropdown);

  if (self->keys->len == 0)
    return NULL;
  return self->keys->pdata[i < self->keys->len ? i : 0];
}

void
dy_table_view_fill_spec (DyTableView *self, DyQuerySpec *spec)
{
  const DyTableViewKeys *keys = dy_table_view_current_keys (self);
  static const DdbType filter_types[] = { DDB_TYPE_S, DDB_TYPE_N, DDB_TYPE_BOOL };
  guint type = gtk_drop_down_get_selected (self->filter_type_dropdown);

  memset (spec, 0, sizeof *spec);
  spec->table_name = self->table_name;
  if (keys == NULL)
    return;
  spec->index_name = keys->name;
  spec->pk_name = keys->pk;
  spec->pk_type = keys->pk_type;
  spec->sk_name = keys->sk;
  spec->sk_type = keys->sk_type;
  spec->pk_value = gtk_editable_get_text (GTK_EDITABLE (self->pk_entry));
  spec->sk_op = (DySortOp) gtk_drop_down_get_selected (self->sk_op_dropdown);
  spec->sk_value = gtk_editable_get_text (GTK_EDITABLE (self->sk_entry));
  spec->sk_value2 = gtk_editable_get_text (GTK_EDITABLE (self->sk_entry2));
  spec->descending = gtk_toggle_button_get_active (self->desc_toggle);
  spec->filter_attr = gtk_editable_get_text (GTK_EDITABLE (self->filter_attr_entry));
  spec->filter_op = (DyFilterOp) gtk_drop_down_get_selected (self->filter_op_dropdown);
  spec->filter_type = filter_types[MIN (type, G_N_ELEMENTS (filter_types) - 1)];
  spec->filter_value = gtk_editable_get_text (GTK_EDITABLE (self->filter_value_entry));
  g_array_set_size (self->filter_conds, 0);
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->extra_filters_box));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      DyFilterCond cond;
      guint t = gtk_drop_down_get_selected (g_object_get_data (G_OBJECT (row), "type"));

      cond.attr = gtk_editable_get_text (g_object_get_data (G_OBJECT (row), "attr"));
      cond.op = (DyFilterOp) gtk_drop_down_get_selected (g_object_get_data (G_OBJECT (row), "op"));
      cond.type = filter_types[MIN (t, G_N_ELEMENTS (filter_types) - 1)];
      cond.value = gtk_editable_get_text (g_object_get_data (G_OBJECT (row), "value"));
      g_array_append_val (self->filter_conds, cond);
    }
  spec->filters = (const DyFilterCond *) (void *) self->filter_conds->data;
  spec->n_filters = self->filter_conds->len;
  spec->limit = (guint) gtk_spin_button_get_value_as_int (self->limit_spin);
}

/* Says before running what will run: a Query of one partition or a Scan of everything. */
static void
update_preview (DyTableView *self)
{
  DyQuerySpec spec;
  g_autoptr (GError) error = NULL;
  json_t *request;
  const DyTableViewKeys *keys = dy_table_view_current_keys (self);
  g_autofree char *text = NULL;
  g_autofree char *request_text = NULL;
  DySortOp op;

  if (keys == NULL)
    return;
  op = (DySortOp) gtk_drop_down_get_selected (self->sk_op_dropdown);
  gtk_widget_set_visible (GTK_WIDGET (self->sk_entry), keys->sk != NULL && op != DY_SORT_NONE);
  gtk_widget_set_visible (GTK_WIDGET (self->sk_entry2), keys->sk != NULL && op == DY_SORT_BETWEEN);
  dy_table_view_fill_spec (self, &spec);
  if (dy_query_spec_is_query (&spec))
    /* TRANSLATORS: %s is the partition key attribute's name */
    text = g_strdup_printf (_("Will Query one partition (%s given)"), keys->pk);
  else
    text = g_strdup (_("Will Scan the whole table: no partition key value"));
  gtk_label_set_text (self->mode_label, text);
  /* the label ellipsizes where the row is narrow */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->mode_label), text);
  gtk_widget_set_sensitive (GTK_WIDGET (self->sk_op_dropdown), keys->sk != NULL && dy_query_spec_is_query (&spec));
  gtk_widget_set_sensitive (GTK_WIDGET (self->desc_toggle), dy_query_spec_is_query (&spec));

  if (self->running)
    return;
  request = dy_query_build (&spec, &error);
  if (request == NULL)
    {
      dy_table_view_set_request_text (self, error->message);
      return;
    }
  request_text = json_dumps (request, JSON_INDENT (2));
  dy_table_view_set_request_text (self, request_text);
  json_decref (request);
}

void
dy_table_view_update_key_labels (DyTableView *self)
{
  const DyTableViewKeys *keys = dy_table_view_current_keys (self);
  g_autofree char *pk = NULL;

  if (keys == NULL)
    return;
  pk = g_strdup_printf ("%s =", keys->pk);
  gtk_label_set_text (self->pk_label, pk);
  gtk_label_set_text (self->sk_label, keys->sk != NULL ? keys->sk : _("no sort key"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->sk_label), keys->sk != NULL);
  update_preview (self);
}

static void
index_changed (DyTableView *self)
{
  dy_table_view_update_key_labels (self);
}

/* Extra filter conditions: rows of attribute, operator, type and value, AND-joined. */

static void
remove_filter_row (GtkButton *button, DyTableView *self)
{
  GtkWidget *row = gtk_widget_get_parent (GTK_WIDGET (button));

  gtk_box_remove (self->extra_filters_box, row);
  update_preview (self);
}

static void
add_filter_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (_("and"));
  GtkWidget *attr = gtk_entry_new ();
  GtkWidget *op = gtk_drop_down_new (g_object_ref (gtk_drop_down_get_model (self->filter_op_dropdown)),
                                     NULL);
  GtkWidget *type = gtk_drop_down_new (g_object_ref (gtk_drop_down_get_model (self->filter_type_dropdown)),
                                       NULL);
  GtkWidget *value = gtk_entry_new ();
  GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");

  gtk_widget_add_css_class (row, "filter-row");
  gtk_widget_set_size_request (label, gtk_widget_get_width (gtk_widget_get_first_child (
                                 gtk_widget_get_parent (GTK_WIDGET (self->filter_attr_entry)))), -1);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_entry_set_placeholder_text (GTK_ENTRY (attr), _("attribute"));
  gtk_editable_set_width_chars (GTK_EDITABLE (attr), 12);
  gtk_entry_set_placeholder_text (GTK_ENTRY (value), _("value"));
  gtk_widget_set_hexpand (value, TRUE);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (op), DY_FILTER_EQ);
  gtk_widget_set_tooltip_text (remove, _("Remove this condition"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (attr), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Filter attribute"), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (value), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Filter value"), -1);
  gtk_box_append (GTK_BOX (row), label);
  gtk_box_append (GTK_BOX (row), attr);
  gtk_box_append (GTK_BOX (row), op);
  gtk_box_append (GTK_BOX (row), type);
  gtk_box_append (GTK_BOX (row), value);
  gtk_box_append (GTK_BOX (row), remove);
  g_object_set_data (G_OBJECT (row), "attr", attr);
  g_object_set_data (G_OBJECT (row), "op", op);
  g_object_set_data (G_OBJECT (row), "type", type);
  g_object_set_data (G_OBJECT (row), "value", value);
  g_object_set_data (G_OBJECT (row), "remove", remove);
  g_signal_connect_swapped (attr, "changed", G_CALLBACK (update_preview), self);
  g_signal_connect_swapped (value, "changed", G_CALLBACK (update_preview), self);
  g_signal_connect_swapped (op, "notify::selected", G_CALLBACK (update_preview), self);
  g_signal_connect_swapped (type, "notify::selected", G_CALLBACK (update_preview), self);
  g_signal_connect (remove, "clicked", G_CALLBACK (remove_filter_row), self);
  gtk_box_append (self->extra_filters_box, row);
  gtk_widget_grab_focus (attr);
  update_preview (self);
}

static void
focus_filter_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  DyTableView *self = DY_TABLE_VIEW (widget);

  gtk_widget_grab_focus (GTK_WIDGET (self->pk_entry));
}

/* DescribeTable: which keys the filter row offers. */

static gboolean
attribute_type (json_t *definitions, const char *name, DdbType *type)
{
  size_t i;
  json_t *def;

  json_array_foreach (definitions, i, def)
    if (g_strcmp0 (json_string_value (json_object_get (def, "AttributeName")), name) == 0)
      return ddb_type_from_name (json_string_value (json_object_get (def, "AttributeType")),
                                 type);
  return FALSE;
}

static DyTableViewKeys *
keys_new (const char *name, json_t *schema, json_t *definitions)
{
  DyTableViewKeys *keys = g_new0 (DyTableViewKeys, 1);
  size_t i;
  json_t *element;

  keys->name = g_strdup (name);
  json_array_foreach (schema, i, element)
    {
      const char *attr = json_string_value (json_object_get (element, "AttributeName"));
      const char *kind = json_string_value (json_object_get (element, "KeyType"));

      if (g_strcmp0 (kind, "HASH") == 0)
        {
          keys->pk = g_strdup (attr);
          attribute_type (definitions, attr, &keys->pk_type);
        }
      else if (g_strcmp0 (kind, "RANGE") == 0)
        {
          keys->sk = g_strdup (attr);
          attribute_type (definitions, attr, &keys->sk_type);
        }
    }
  return keys;
}

static void
add_indexes (DyTableView *self, GtkStringList *choices, json_t *indexes, json_t *definitions,
             const char *kind)
{
  size_t i;
  json_t *index;

  json_array_foreach (indexes, i, index)
    {
      const char *name = json_string_value (json_object_get (index, "IndexName"));
      DyTableViewKeys *keys = keys_new (name, json_object_get (index, "KeySchema"), definitions);
      g_autofree char *label = NULL;

      if (keys->pk == NULL)
        {
          dy_table_view_keys_free (keys);
          continue;
        }
      /* TRANSLATORS: an index in the index picker: kind (GSI, LSI), name, its keys */
      label = g_strdup_printf (_("%s %s (%s%s%s)"), kind, name, keys->pk,
                               keys->sk != NULL ? ", " : "", keys->sk != NULL ? keys->sk : "");
      g_ptr_array_add (self->keys, keys);
      gtk_string_list_append (choices, label);
    }
}

gboolean
dy_table_view_set_key_schema (DyTableView *self, json_t *table)
{
  json_t *definitions = json_object_get (table, "AttributeDefinitions");
  DyTableViewKeys *keys = keys_new (NULL, json_object_get (table, "KeySchema"), definitions);
  GtkStringList *choices;
  g_autofree char *label = NULL;

  if (keys->pk == NULL)
    {
      dy_table_view_keys_free (keys);
      return FALSE;
    }
  g_ptr_array_add (self->keys, keys);
  choices = gtk_string_list_new (NULL);
  /* TRANSLATORS: the table itself in the index picker, with its keys */
  label = g_strdup_printf (_("Table (%s%s%s)"), keys->pk, keys->sk != NULL ? ", " : "",
                           keys->sk != NULL ? keys->sk : "");
  gtk_string_list_append (choices, label);
  add_indexes (self, choices, json_object_get (table, "GlobalSecondaryIndexes"), definitions,
               "GSI");
  add_indexes (self, choices, json_object_get (table, "LocalSecondaryIndexes"), definitions,
               "LSI");
  gtk_drop_down_set_model (self->index_dropdown, G_LIST_MODEL (choices));
  g_object_unref (choices);
  return TRUE;
}

void
dy_table_view_filter_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, update_preview);
  gtk_widget_class_bind_template_callback (widget_class, index_changed);
  gtk_widget_class_install_action (widget_class, "view.focus-filter", NULL, focus_filter_action);
  gtk_widget_class_install_action (widget_class, "view.add-filter", NULL, add_filter_action);
}
