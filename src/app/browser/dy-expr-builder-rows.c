/* dy-expr-builder-rows.c: the expression builder's rows: condition rows, groups of them and
 * update action rows made, and read into exprbuild's nodes (every wrong entry marked, the first
 * error kept); dy-expr-builder-load.c fills them back from a loaded model. */
#define G_LOG_DOMAIN "dynoscope-builder"

#include <glib/gi18n.h>

#include "app/browser/dy-expr-builder-private.h"

static const char *const cond_op_labels[] = {
  "=",
  "<>",
  "<",
  "<=",
  ">",
  ">=",
  "BETWEEN",
  "IN",
  "begins_with",
  "contains",
  "attribute_exists",
  "attribute_not_exists",
  "attribute_type",
  "size =",
  "size <>",
  "size <",
  "size <=",
  "size >",
  "size >=",
  NULL,
};

const DdbNodeKind dy_expr_builder_comparison_kinds[DY_EXPR_BUILDER_N_COMPARISONS] = {
  DDB_NODE_EQ, DDB_NODE_NE, DDB_NODE_LT, DDB_NODE_LE, DDB_NODE_GT, DDB_NODE_GE,
};

/* The ten types, in the order of the type dropdowns. */
static const char *const type_labels[] = {
  "S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS", NULL,
};

static const char *const action_kind_labels[] = { "SET", "REMOVE", "ADD", "DELETE", NULL };
const DdbUpdateKind dy_expr_builder_action_kinds[DY_EXPR_BUILDER_N_ACTION_KINDS] = {
  DDB_UPDATE_SET,
  DDB_UPDATE_REMOVE,
  DDB_UPDATE_ADD,
  DDB_UPDATE_DELETE,
};

/* SET's forms, in the order of the row's dropdown. */

static const char *const set_form_labels[] = {
  N_ ("= value"),
  N_ ("= path"),
  N_ ("= path + value"),
  N_ ("= path − value"),
  N_ ("= if_not_exists(path, value)"),
  N_ ("= list_append(path, value)"),
  NULL,
};

static GtkDropDown *
dropdown_new (const char *const *labels, gboolean translate)
{
  GtkStringList *list = gtk_string_list_new (NULL);

  for (guint i = 0; labels[i] != NULL; i++)
    gtk_string_list_append (list, translate ? _ (labels[i]) : labels[i]);
  return GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (list), NULL));
}

static DyExprBuilder *
row_builder (GtkWidget *widget)
{
  return DY_EXPR_BUILDER (gtk_widget_get_ancestor (widget, DY_TYPE_EXPR_BUILDER));
}

void
dy_expr_builder_changed (DyExprBuilder *self)
{
  if (!self->loading)
    dy_expr_builder_render (self);
}

/* Path entries complete the key attributes and the attributes seen in the results. */
static GtkEntry *
path_entry_new (DyExprBuilder *self, const char *placeholder)
{
  GtkEntry *entry = GTK_ENTRY (gtk_entry_new ());
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  GtkEntryCompletion *completion = gtk_entry_completion_new ();

  gtk_entry_completion_set_model (completion, GTK_TREE_MODEL (self->names));
  gtk_entry_completion_set_text_column (completion, 0);
  gtk_entry_completion_set_minimum_key_length (completion, 1);
  gtk_entry_completion_set_popup_single_match (completion, FALSE);
  gtk_entry_set_completion (entry, completion);
  g_object_unref (completion);
  G_GNUC_END_IGNORE_DEPRECATIONS
  gtk_entry_set_placeholder_text (entry, placeholder);
  gtk_editable_set_width_chars (GTK_EDITABLE (entry), 10);
  gtk_widget_set_hexpand (GTK_WIDGET (entry), TRUE);
  g_signal_connect_swapped (entry, "changed", G_CALLBACK (dy_expr_builder_changed), self);
  return entry;
}

static GtkEntry *
value_entry_new (DyExprBuilder *self, const char *placeholder)
{
  GtkEntry *entry = GTK_ENTRY (gtk_entry_new ());

  gtk_entry_set_placeholder_text (entry, placeholder);
  gtk_editable_set_width_chars (GTK_EDITABLE (entry), 8);
  gtk_widget_set_hexpand (GTK_WIDGET (entry), TRUE);
  g_signal_connect_swapped (entry, "changed", G_CALLBACK (dy_expr_builder_changed), self);
  return entry;
}

/* ---- Condition rows -------------------------------------------------------------------- */

static void
cond_row_update_visibility (CondRow *row)
{
  CondOp op = gtk_drop_down_get_selected (row->op);
  gboolean has_value = op != OP_EXISTS && op != OP_NOT_EXISTS && op != OP_TYPE;

  gtk_widget_set_visible (GTK_WIDGET (row->type), op != OP_EXISTS && op != OP_NOT_EXISTS);
  gtk_widget_set_visible (GTK_WIDGET (row->value), has_value);
  gtk_widget_set_visible (GTK_WIDGET (row->value2), op == OP_BETWEEN);
  gtk_entry_set_placeholder_text (row->value,
                                  op == OP_IN ? _ ("JSON array: [\"a\", \"b\"]") : _ ("Value"));
}

static void
cond_op_changed (GtkDropDown *dropdown, GParamSpec *pspec, CondRow *row)
{
  DyExprBuilder *self = row_builder (row->box);
  CondOp op = gtk_drop_down_get_selected (dropdown);

  /* size() is a number: offer N rather than leave the last type. */
  if (op >= OP_SIZE_EQ)
    gtk_drop_down_set_selected (row->type, DDB_TYPE_N);
  cond_row_update_visibility (row);
  if (self != NULL)
    dy_expr_builder_changed (self);
}

/* Where the rows under PARENT (NULL: the top level) are shown and kept. */
static GtkBox *
rows_box (DyExprBuilder *self, CondRow *parent)
{
  return parent != NULL ? parent->children_box : self->condition_rows;
}

static GPtrArray *
rows_of (DyExprBuilder *self, CondRow *parent)
{
  return parent != NULL ? parent->children : self->cond_rows;
}

static void
cond_row_insert (DyExprBuilder *self, CondRow *parent, CondRow *row)
{
  row->parent = parent;
  gtk_box_append (rows_box (self, parent), row->box);
  g_ptr_array_add (rows_of (self, parent), row);
}

static void
cond_row_remove (GtkButton *button, CondRow *row)
{
  DyExprBuilder *self = row_builder (row->box);

  gtk_box_remove (rows_box (self, row->parent), row->box);
  g_ptr_array_remove (rows_of (self, row->parent), row);
  dy_expr_builder_render (self);
}

CondRow *
dy_expr_builder_cond_row_add (DyExprBuilder *self, CondRow *parent)
{
  CondRow *row = g_new0 (CondRow, 1);
  GtkWidget *remove;

  row->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  row->not_toggle = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label ("NOT"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->not_toggle), _ ("Negate this condition"));
  g_signal_connect_swapped (row->not_toggle, "toggled", G_CALLBACK (dy_expr_builder_changed), self);
  row->path = path_entry_new (self, _ ("Attribute"));
  row->op = dropdown_new (cond_op_labels, FALSE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->op), _ ("Operator"));
  row->type = dropdown_new (type_labels, FALSE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->type), _ ("Value type"));
  g_signal_connect_swapped (row->type, "notify::selected", G_CALLBACK (dy_expr_builder_changed),
                            self);
  row->value = value_entry_new (self, _ ("Value"));
  row->value2 = value_entry_new (self, _ ("and"));
  remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
  gtk_widget_set_tooltip_text (remove, _ ("Remove this condition"));
  gtk_widget_add_css_class (remove, "flat");
  g_signal_connect (remove, "clicked", G_CALLBACK (cond_row_remove), row);
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->not_toggle));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->path));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->op));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->type));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->value));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->value2));
  gtk_box_append (GTK_BOX (row->box), remove);
  g_object_set_data (G_OBJECT (row->box), "remove", remove);
  cond_row_insert (self, parent, row);
  /* Connected last: the row must be in the dialog when it reacts. */
  g_signal_connect (row->op, "notify::selected", G_CALLBACK (cond_op_changed), row);
  cond_row_update_visibility (row);
  return row;
}

/* The row of a part kept as text: an entry holding TEXT and a remove button calling REMOVE with
 * ROW. *ENTRY receives the entry. */
static GtkWidget *
raw_row_box (DyExprBuilder *self, const char *text, GtkEntry **entry, GCallback remove,
             gpointer row)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *button = gtk_button_new_from_icon_name ("list-remove-symbolic");

  *entry = GTK_ENTRY (gtk_entry_new ());
  gtk_editable_set_text (GTK_EDITABLE (*entry), text);
  gtk_widget_set_hexpand (GTK_WIDGET (*entry), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (*entry), "monospace");
  gtk_widget_set_tooltip_text (GTK_WIDGET (*entry),
                               _ ("Kept as text: the rows cannot hold this part"));
  g_signal_connect_swapped (*entry, "changed", G_CALLBACK (dy_expr_builder_changed), self);
  gtk_widget_add_css_class (button, "flat");
  g_signal_connect (button, "clicked", remove, row);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (*entry));
  gtk_box_append (GTK_BOX (box), button);
  return box;
}

/* A loaded condition the rows cannot hold: kept as validated text. */
CondRow *
dy_expr_builder_cond_row_add_raw (DyExprBuilder *self, CondRow *parent, const char *text,
                                  json_t *names, json_t *values)
{
  CondRow *row = g_new0 (CondRow, 1);

  row->raw_names = names != NULL ? json_deep_copy (names) : NULL;
  row->raw_values = values != NULL ? json_deep_copy (values) : NULL;

  row->box = raw_row_box (self, text, &row->raw, G_CALLBACK (cond_row_remove), row);
  cond_row_insert (self, parent, row);
  return row;
}

static void
group_add_row (GtkButton *button, CondRow *group)
{
  DyExprBuilder *self = row_builder (group->box);

  gtk_widget_grab_focus (GTK_WIDGET (dy_expr_builder_cond_row_add (self, group)->path));
  dy_expr_builder_render (self);
}

static void
group_add_group (GtkButton *button, CondRow *group)
{
  DyExprBuilder *self = row_builder (group->box);

  dy_expr_builder_cond_group_add (self, group);
  dy_expr_builder_render (self);
}

static GtkWidget *
icon_button (const char *icon, const char *tooltip, GCallback clicked, gpointer data)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_add_css_class (button, "flat");
  g_signal_connect (button, "clicked", clicked, data);
  return button;
}

CondRow *
dy_expr_builder_cond_group_add (DyExprBuilder *self, CondRow *parent)
{
  static const char *const join_labels[] = { N_ ("All of (AND)"), N_ ("Any of (OR)"), NULL };
  CondRow *row = g_new0 (CondRow, 1);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);

  row->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  row->not_toggle = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label ("NOT"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->not_toggle), _ ("Negate this group"));
  g_signal_connect_swapped (row->not_toggle, "toggled", G_CALLBACK (dy_expr_builder_changed), self);
  row->join = dropdown_new (join_labels, TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (row->join), _ ("How the group's rows combine"));
  gtk_widget_set_hexpand (GTK_WIDGET (row->join), TRUE);
  gtk_widget_set_halign (GTK_WIDGET (row->join), GTK_ALIGN_START);
  g_signal_connect_swapped (row->join, "notify::selected", G_CALLBACK (dy_expr_builder_changed),
                            self);
  row->children = g_ptr_array_new_with_free_func ((GDestroyNotify) dy_expr_builder_cond_row_free);
  row->children_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 6));
  gtk_widget_set_margin_start (GTK_WIDGET (row->children_box), 24);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (row->not_toggle));
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (row->join));
  gtk_box_append (GTK_BOX (header), icon_button ("list-add-symbolic", _ ("Add a condition to the group"),
                                                 G_CALLBACK (group_add_row), row));
  gtk_box_append (GTK_BOX (header),
                  icon_button ("view-list-symbolic", _ ("Add a group inside this group"),
                               G_CALLBACK (group_add_group), row));
  gtk_box_append (GTK_BOX (header), icon_button ("list-remove-symbolic", _ ("Remove this group"),
                                                 G_CALLBACK (cond_row_remove), row));
  gtk_box_append (GTK_BOX (row->box), header);
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->children_box));
  cond_row_insert (self, parent, row);
  dy_expr_builder_cond_row_add (self, row);
  return row;
}

void
dy_expr_builder_cond_row_free (CondRow *row)
{
  g_clear_pointer (&row->children, g_ptr_array_unref);
  g_clear_pointer (&row->raw_names, json_decref);
  g_clear_pointer (&row->raw_values, json_decref);
  g_free (row);
}

void
dy_expr_builder_action_row_free (ActionRow *row)
{
  g_clear_pointer (&row->raw_names, json_decref);
  g_clear_pointer (&row->raw_values, json_decref);
  g_free (row);
}

/* ---- Update action rows ---------------------------------------------------------------- */

static void
action_row_update_visibility (ActionRow *row)
{
  DdbUpdateKind kind = dy_expr_builder_action_kinds[gtk_drop_down_get_selected (row->kind)];
  SetForm form = gtk_drop_down_get_selected (row->form);
  gboolean set = kind == DDB_UPDATE_SET;

  gtk_widget_set_visible (GTK_WIDGET (row->form), set);
  gtk_widget_set_visible (GTK_WIDGET (row->path2), set && form != FORM_VALUE);
  gtk_widget_set_visible (GTK_WIDGET (row->type),
                          kind != DDB_UPDATE_REMOVE && !(set && form == FORM_PATH));
  gtk_widget_set_visible (GTK_WIDGET (row->value),
                          kind != DDB_UPDATE_REMOVE && !(set && form == FORM_PATH));
}

static void
action_shape_changed (GtkDropDown *dropdown, GParamSpec *pspec, ActionRow *row)
{
  DyExprBuilder *self = row_builder (row->box);

  action_row_update_visibility (row);
  if (self != NULL)
    dy_expr_builder_changed (self);
}

static void
action_row_remove (GtkButton *button, ActionRow *row)
{
  DyExprBuilder *self = row_builder (row->box);

  gtk_box_remove (self->action_rows, row->box);
  g_ptr_array_remove (self->action_rows_, row);
  dy_expr_builder_render (self);
}

ActionRow *
dy_expr_builder_action_row_add (DyExprBuilder *self)
{
  ActionRow *row = g_new0 (ActionRow, 1);
  GtkWidget *remove;

  row->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  row->kind = dropdown_new (action_kind_labels, FALSE);
  row->path = path_entry_new (self, _ ("Attribute"));
  row->form = dropdown_new (set_form_labels, TRUE);
  row->path2 = path_entry_new (self, _ ("Path (the same when empty)"));
  row->type = dropdown_new (type_labels, FALSE);
  g_signal_connect_swapped (row->type, "notify::selected", G_CALLBACK (dy_expr_builder_changed),
                            self);
  row->value = value_entry_new (self, _ ("Value"));
  remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
  gtk_widget_set_tooltip_text (remove, _ ("Remove this action"));
  gtk_widget_add_css_class (remove, "flat");
  g_signal_connect (remove, "clicked", G_CALLBACK (action_row_remove), row);
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->kind));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->path));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->form));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->path2));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->type));
  gtk_box_append (GTK_BOX (row->box), GTK_WIDGET (row->value));
  gtk_box_append (GTK_BOX (row->box), remove);
  gtk_box_append (self->action_rows, row->box);
  g_ptr_array_add (self->action_rows_, row);
  g_signal_connect (row->kind, "notify::selected", G_CALLBACK (action_shape_changed), row);
  g_signal_connect (row->form, "notify::selected", G_CALLBACK (action_shape_changed), row);
  action_row_update_visibility (row);
  return row;
}

ActionRow *
dy_expr_builder_action_row_add_raw (DyExprBuilder *self, const char *text, json_t *names,
                                    json_t *values)
{
  ActionRow *row = g_new0 (ActionRow, 1);

  row->raw_names = names != NULL ? json_deep_copy (names) : NULL;
  row->raw_values = values != NULL ? json_deep_copy (values) : NULL;

  row->box = raw_row_box (self, text, &row->raw, G_CALLBACK (action_row_remove), row);
  gtk_box_append (self->action_rows, row->box);
  g_ptr_array_add (self->action_rows_, row);
  return row;
}

/* ---- Filling the model from the rows --------------------------------------------------- */

/* Marks ENTRY as wrong (or right again). */
void
dy_expr_builder_mark (GtkWidget *entry, gboolean wrong)
{
  if (wrong)
    gtk_widget_add_css_class (entry, "error");
  else
    gtk_widget_remove_css_class (entry, "error");
}

/* The first problem found wins the message; every wrong entry is marked. */
static void
note_error (char **message, GtkWidget *entry, const char *part, const GError *error)
{
  if (entry != NULL)
    dy_expr_builder_mark (entry, TRUE);
  if (*message == NULL)
    *message = g_strdup_printf ("%s: %s", part, error->message);
}

static DdbType
selected_type (GtkDropDown *dropdown)
{
  DdbType type = DDB_TYPE_S;

  ddb_type_from_name (type_labels[gtk_drop_down_get_selected (dropdown)], &type);
  return type;
}

DdbValue *
dy_expr_builder_entry_value (GtkEntry *entry, DdbType type, const char *part, char **message)
{
  g_autoptr (GError) error = NULL;
  DdbValue *value
      = ddb_eb_value_from_text (type, gtk_editable_get_text (GTK_EDITABLE (entry)), &error);

  dy_expr_builder_mark (GTK_WIDGET (entry), value == NULL);
  if (value == NULL)
    note_error (message, NULL, part, error);
  return value;
}

gboolean
dy_expr_builder_entry_path (DyExprBuilder *self, GtkEntry *entry, const char *part, DdbPath *out,
                            char **message)
{
  g_autoptr (GError) error = NULL;
  gboolean ok = ddb_eb_path_parse_known (gtk_editable_get_text (GTK_EDITABLE (entry)),
                                         (const char *const *) self->known, out, &error);

  dy_expr_builder_mark (GTK_WIDGET (entry), !ok);
  if (!ok)
    note_error (message, NULL, part, error);
  return ok;
}

/* IN's operands: a JSON array, each element typed text of the row's type (strings as they
 * are, anything else as its JSON). */
static gboolean
in_operands (GtkEntry *entry, DdbType type, const char *part, GPtrArray *args, char **message)
{
  g_autoptr (GError) error = NULL;
  json_auto_t *array = json_loads (gtk_editable_get_text (GTK_EDITABLE (entry)),
                                   JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
  json_t *element;
  size_t i;

  if (!json_is_array (array) || json_array_size (array) == 0)
    {
      g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _ ("IN takes a JSON array of one or more values"));
      note_error (message, GTK_WIDGET (entry), part, error);
      return FALSE;
    }
  json_array_foreach (array, i, element)
    {
      g_autofree char *text = json_is_string (element)
                                  ? g_strdup (json_string_value (element))
                                  : json_dumps (element, JSON_ENCODE_ANY | JSON_COMPACT);
      /* A string of the IN list is JSON text, so it may hold U+0000 (\u0000), which the C text
       * would cut: it is taken whole (jansson's strings are valid UTF-8). */
      DdbValue *value = type == DDB_TYPE_S && json_is_string (element)
                            ? ddb_value_new_s (json_string_value (element),
                                               (gssize) json_string_length (element))
                            : ddb_eb_value_from_text (type, text, &error);

      if (value == NULL)
        {
          g_autofree char *where = g_strdup_printf (_ ("%s, element %zu"), part, i + 1);

          note_error (message, GTK_WIDGET (entry), where, error);
          return FALSE;
        }
      g_ptr_array_add (args, ddb_eb_node_value (value));
    }
  dy_expr_builder_mark (GTK_WIDGET (entry), FALSE);
  return TRUE;
}

static DdbEbCond *cond_build (DyExprBuilder *self, CondRow *row, const char *label,
                              char **message);

/* The condition of ROW, or NULL (an empty row, or an error in *MESSAGE). */
DdbEbCond *
dy_expr_builder_cond_row_build (DyExprBuilder *self, CondRow *row, guint n, char **message)
{
  g_autofree char *label = g_strdup_printf (_ ("Condition %u"), n);

  return cond_build (self, row, label, message);
}

/* A group's rows, combined; NULL when none is filled in (an empty group is left out). */
static DdbEbCond *
group_build (DyExprBuilder *self, CondRow *row, const char *label, char **message)
{
  DdbEbCond *group = ddb_eb_cond_new_group (gtk_drop_down_get_selected (row->join) == 1
                                                ? DDB_EB_OR
                                                : DDB_EB_AND);

  for (guint i = 0; i < row->children->len; i++)
    {
      /* TRANSLATORS: a row inside a group: "Condition 2.1" */
      g_autofree char *inner = g_strdup_printf (_ ("%s.%u"), label, i + 1);
      DdbEbCond *child = cond_build (self, row->children->pdata[i], inner, message);

      if (child != NULL)
        ddb_eb_cond_add (group, child);
    }
  if (group->children->len == 0)
    {
      ddb_eb_cond_free (group);
      return NULL;
    }
  if (gtk_toggle_button_get_active (row->not_toggle))
    {
      DdbEbCond *not = ddb_eb_cond_new_group (DDB_EB_NOT);

      ddb_eb_cond_add (not, group);
      return not;
    }
  return group;
}

static DdbEbCond *
cond_build (DyExprBuilder *self, CondRow *row, const char *label, char **message)
{
  g_autofree char *part = g_strdup (label);
  /* TRANSLATORS: the value of a condition row: "Condition 2, value" */
  g_autofree char *value_part = g_strdup_printf (_ ("%s, value"), label);
  CondOp op;
  DdbType type;
  DdbPath path = { 0 };
  DdbNode *node = NULL;
  DdbEbCond *cond;

  if (row->join != NULL)
    return group_build (self, row, label, message);
  if (row->raw != NULL)
    {
      g_autoptr (GError) error = NULL;
      DdbEbRaw *raw
          = ddb_eb_raw_new (DDB_EXPR_CONDITION, gtk_editable_get_text (GTK_EDITABLE (row->raw)),
                            row->raw_names, row->raw_values, &error);

      dy_expr_builder_mark (GTK_WIDGET (row->raw), raw == NULL);
      if (raw == NULL)
        {
          note_error (message, NULL, part, error);
          return NULL;
        }
      return ddb_eb_cond_new_raw (raw);
    }
  /* A row without a path is one not filled in yet, not an error. */
  if (*gtk_editable_get_text (GTK_EDITABLE (row->path)) == '\0')
    {
      dy_expr_builder_mark (GTK_WIDGET (row->path), FALSE);
      dy_expr_builder_mark (GTK_WIDGET (row->value), FALSE);
      dy_expr_builder_mark (GTK_WIDGET (row->value2), FALSE);
      return NULL;
    }
  if (!dy_expr_builder_entry_path (self, row->path, part, &path, message))
    return NULL;
  op = gtk_drop_down_get_selected (row->op);
  type = selected_type (row->type);
  switch (op)
    {
    case OP_EQ:
    case OP_NE:
    case OP_LT:
    case OP_LE:
    case OP_GT:
    case OP_GE:
    case OP_BEGINS_WITH:
      case OP_CONTAINS: {
        DdbValue *value = dy_expr_builder_entry_value (row->value, type, value_part, message);

        if (value == NULL)
          break;
        node = ddb_eb_node_new (op == OP_BEGINS_WITH ? DDB_NODE_BEGINS_WITH
                                : op == OP_CONTAINS  ? DDB_NODE_CONTAINS
                                                     : dy_expr_builder_comparison_kinds[op - OP_EQ],
                                2, ddb_eb_node_path (&path), ddb_eb_node_value (value));
        break;
      }
    case OP_SIZE_EQ:
    case OP_SIZE_NE:
    case OP_SIZE_LT:
    case OP_SIZE_LE:
    case OP_SIZE_GT:
      case OP_SIZE_GE: {
        DdbValue *value = dy_expr_builder_entry_value (row->value, type, value_part, message);

        if (value == NULL)
          break;
        node = ddb_eb_node_new (dy_expr_builder_comparison_kinds[op - OP_SIZE_EQ], 2,
                                ddb_eb_node_new (DDB_NODE_SIZE, 1, ddb_eb_node_path (&path)),
                                ddb_eb_node_value (value));
        break;
      }
      case OP_BETWEEN: {
        DdbValue *lo = dy_expr_builder_entry_value (row->value, type, value_part, message);
        DdbValue *hi = dy_expr_builder_entry_value (row->value2, type, value_part, message);

        if (lo == NULL || hi == NULL)
          {
            g_clear_pointer (&lo, ddb_value_free);
            g_clear_pointer (&hi, ddb_value_free);
            break;
          }
        node = ddb_eb_node_new (DDB_NODE_BETWEEN, 3, ddb_eb_node_path (&path),
                                ddb_eb_node_value (lo), ddb_eb_node_value (hi));
        break;
      }
      case OP_IN: {
        g_autoptr (GPtrArray) args = g_ptr_array_new ();

        g_ptr_array_add (args, ddb_eb_node_path (&path));
        if (!in_operands (row->value, type, value_part, args, message))
          {
            for (guint i = 0; i < args->len; i++)
              ddb_node_free (args->pdata[i]);
            break;
          }
        node = ddb_eb_node_newv (DDB_NODE_IN, args->len, (DdbNode **) args->pdata);
        break;
      }
    case OP_EXISTS:
    case OP_NOT_EXISTS:
      node = ddb_eb_node_new (op == OP_EXISTS ? DDB_NODE_ATTRIBUTE_EXISTS
                                              : DDB_NODE_ATTRIBUTE_NOT_EXISTS,
                              1, ddb_eb_node_path (&path));
      break;
    case OP_TYPE:
      node = ddb_eb_node_attribute_type (&path, type);
      break;
    }
  ddb_path_clear (&path);
  if (node == NULL)
    return NULL;
  cond = ddb_eb_cond_new_test (node);
  if (gtk_toggle_button_get_active (row->not_toggle))
    {
      DdbEbCond *not = ddb_eb_cond_new_group (DDB_EB_NOT);

      ddb_eb_cond_add (not, cond);
      cond = not ;
    }
  return cond;
}

DdbEbAction *
dy_expr_builder_action_row_build (DyExprBuilder *self, ActionRow *row, guint n, char **message)
{
  g_autofree char *part = g_strdup_printf (_ ("Action %u"), n);
  g_autofree char *value_part = g_strdup_printf (_ ("Action %u, value"), n);
  g_autofree char *path2_part = g_strdup_printf (_ ("Action %u, operand path"), n);
  DdbUpdateKind kind;
  SetForm form;
  DdbPath path = { 0 };
  DdbPath path2 = { 0 };
  DdbNode *operand = NULL;
  DdbValue *value = NULL;
  DdbEbAction *action = NULL;

  if (row->raw != NULL)
    {
      g_autoptr (GError) error = NULL;
      DdbEbRaw *raw
          = ddb_eb_raw_new (DDB_EXPR_UPDATE, gtk_editable_get_text (GTK_EDITABLE (row->raw)),
                            row->raw_names, row->raw_values, &error);

      dy_expr_builder_mark (GTK_WIDGET (row->raw), raw == NULL);
      if (raw == NULL)
        {
          note_error (message, NULL, part, error);
          return NULL;
        }
      return ddb_eb_action_new_raw (raw);
    }
  if (*gtk_editable_get_text (GTK_EDITABLE (row->path)) == '\0')
    {
      dy_expr_builder_mark (GTK_WIDGET (row->path), FALSE);
      dy_expr_builder_mark (GTK_WIDGET (row->value), FALSE);
      return NULL;
    }
  if (!dy_expr_builder_entry_path (self, row->path, part, &path, message))
    return NULL;
  kind = dy_expr_builder_action_kinds[gtk_drop_down_get_selected (row->kind)];
  form = gtk_drop_down_get_selected (row->form);
  if (kind == DDB_UPDATE_REMOVE)
    {
      action = ddb_eb_action_new (kind, &path, NULL);
      goto out;
    }
  if (kind == DDB_UPDATE_SET && form != FORM_VALUE)
    {
      /* The operand path is the target's own when left empty: `n = n + :v` is the usual. */
      if (*gtk_editable_get_text (GTK_EDITABLE (row->path2)) == '\0')
        {
          dy_expr_builder_mark (GTK_WIDGET (row->path2), FALSE);
          ddb_path_copy (&path2, &path);
        }
      else if (!dy_expr_builder_entry_path (self, row->path2, path2_part, &path2, message))
        goto out;
    }
  if (!(kind == DDB_UPDATE_SET && form == FORM_PATH))
    {
      value = dy_expr_builder_entry_value (row->value, selected_type (row->type), value_part,
                                           message);
      if (value == NULL)
        goto out;
    }
  if (kind != DDB_UPDATE_SET)
    operand = ddb_eb_node_value (value);
  else
    switch (form)
      {
      case FORM_VALUE:
        operand = ddb_eb_node_value (value);
        break;
      case FORM_PATH:
        operand = ddb_eb_node_path (&path2);
        break;
      case FORM_PLUS:
      case FORM_MINUS:
        operand = ddb_eb_node_new (form == FORM_PLUS ? DDB_NODE_PLUS : DDB_NODE_MINUS, 2,
                                   ddb_eb_node_path (&path2), ddb_eb_node_value (value));
        break;
      case FORM_IF_NOT_EXISTS:
        operand = ddb_eb_node_new (DDB_NODE_IF_NOT_EXISTS, 2, ddb_eb_node_path (&path2),
                                   ddb_eb_node_value (value));
        break;
      case FORM_LIST_APPEND:
        operand = ddb_eb_node_new (DDB_NODE_LIST_APPEND, 2, ddb_eb_node_path (&path2),
                                   ddb_eb_node_value (value));
        break;
      }
  action = ddb_eb_action_new (kind, &path, operand);

out:
  ddb_path_clear (&path);
  ddb_path_clear (&path2);
  return action;
}

/* Projection paths separated by commas, commas inside "quoted" names kept. */
GPtrArray *
dy_expr_builder_split_projection (const char *text)
{
  GPtrArray *parts = g_ptr_array_new_with_free_func (g_free);
  GString *part = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '\\' && quoted && p[1] != '\0')
        {
          g_string_append_c (part, *p++);
          g_string_append_c (part, *p);
          continue;
        }
      if (*p == '"')
        quoted = !quoted;
      if (*p == ',' && !quoted)
        {
          g_ptr_array_add (parts, g_strstrip (g_string_free (part, FALSE)));
          part = g_string_new (NULL);
          continue;
        }
      g_string_append_c (part, *p);
    }
  g_ptr_array_add (parts, g_strstrip (g_string_free (part, FALSE)));
  return parts;
}

