/* dy-model-window-pattern.c: the Model window's page for an access pattern: its editors (name,
 * entity, index, inputs with example values, one or many, order, sort-key range, filters),
 * each edit checked again at once, and beside them what it resolves to: the one GetItem or
 * Query (table or index, key condition, direction, the request, Copy as) or why it is flagged;
 * and the sample items as the pattern reads them. */
#define G_LOG_DOMAIN "dynoscope-model-window"

#include <glib/gi18n.h>
#include <string.h>

#include "app/common/dy-copy-as.h"
#include "app/common/dy-format.h"
#include "app/model/dy-model-window-private.h"
#include "core/ddbjson.h"

/* ---- Access pattern ---- */

char *
dy_model_window_resolution_summary (const DyResolution *r)
{
  switch (r->kind)
    {
    case DY_RESOLVED_GET_ITEM:
      return g_strdup_printf ("GetItem · %s", r->index != NULL ? r->index : r->table);
    case DY_RESOLVED_QUERY:
      return g_strdup_printf ("Query · %s", r->index != NULL ? r->index : r->table);
    case DY_RESOLVED_FLAGGED:
    default:
      /* TRANSLATORS: a flagged access pattern in the sidebar, and why */
      return g_strdup_printf (_ ("Flagged: %s"), r->why != NULL ? r->why : "");
    }
}

void
dy_model_window_update_resolution (DyModelWindow *self)
{
  const DyResolution *r = dy_model_window_shown_resolution (self);
  GtkWidget *operation = dy_model_window_get_field (self, "operation");
  g_autofree char *target = NULL;
  g_autofree char *request = NULL;
  const char *direction = NULL;
  GtkWidget *widget;

  if (r == NULL || operation == NULL)
    return;
  gtk_label_set_text (GTK_LABEL (operation), r->kind == DY_RESOLVED_GET_ITEM ? "GetItem"
                                             : r->kind == DY_RESOLVED_QUERY  ? "Query"
                                                                             : _ ("Flagged"));
  if (r->kind == DY_RESOLVED_FLAGGED)
    gtk_widget_add_css_class (operation, "warning");
  else
    gtk_widget_remove_css_class (operation, "warning");
  if (r->table != NULL && r->index != NULL)
    /* TRANSLATORS: where a request goes: a table's index */
    target = g_strdup_printf (_ ("index %s of table %s"), r->index, r->table);
  else if (r->table != NULL)
    target = g_strdup_printf (_ ("table %s"), r->table);
  widget = dy_model_window_get_field (self, "target");
  gtk_label_set_text (GTK_LABEL (widget), target != NULL ? target : "");
  gtk_widget_set_visible (gtk_widget_get_parent (widget), target != NULL);
  widget = dy_model_window_get_field (self, "key-condition");
  gtk_label_set_text (GTK_LABEL (widget), r->key_condition != NULL ? r->key_condition : "");
  gtk_widget_set_visible (gtk_widget_get_parent (widget), r->key_condition != NULL);
  if (r->kind == DY_RESOLVED_QUERY)
    direction = r->forward ? _ ("ascending (ScanIndexForward true)")
                           : _ ("descending (ScanIndexForward false)");
  widget = dy_model_window_get_field (self, "direction");
  gtk_label_set_text (GTK_LABEL (widget), direction != NULL ? direction : "");
  gtk_widget_set_visible (gtk_widget_get_parent (widget), direction != NULL);
  widget = dy_model_window_get_field (self, "why");
  gtk_label_set_text (GTK_LABEL (widget), r->why != NULL ? r->why : "");
  gtk_widget_set_visible (widget, r->why != NULL);
  if (r->kind != DY_RESOLVED_FLAGGED && r->request != NULL)
    request = json_dumps (r->request, JSON_INDENT (2) | JSON_SORT_KEYS);
  widget = dy_model_window_get_field (self, "request");
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (widget)),
                            request != NULL ? request : "", -1);
  gtk_widget_set_visible (g_object_get_data (G_OBJECT (widget), "frame"), request != NULL);
}

/* The pattern's inputs as edited: "tenantId=acme, customerId" (an example value after '='). */
static char *
inputs_text (const DyModelPattern *p)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < p->inputs->len; i++)
    {
      const char *name = p->inputs->pdata[i];
      const char *example = g_hash_table_lookup (p->examples, name);

      g_string_append_printf (text, "%s%s%s%s", i > 0 ? ", " : "", name, example != NULL ? "=" : "",
                              example != NULL ? example : "");
    }
  return g_string_free (text, FALSE);
}

static void
set_list (GPtrArray *list, const char *text, GHashTable *examples)
{
  g_auto (GStrv) parts = g_strsplit (text, ",", -1);

  g_ptr_array_set_size (list, 0);
  if (examples != NULL)
    g_hash_table_remove_all (examples);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *part = g_strstrip (parts[i]);
      char *eq = examples != NULL ? strchr (part, '=') : NULL;

      if (eq != NULL)
        {
          *eq = '\0';
          g_strstrip (part);
          if (*part != '\0')
            g_hash_table_replace (examples, g_strdup (part), g_strdup (g_strstrip (eq + 1)));
        }
      if (*part != '\0')
        g_ptr_array_add (list, g_strdup (part));
    }
}

static void
set_optional (char **member, const char *text)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));

  g_free (*member);
  *member = *copy != '\0' ? g_steal_pointer (&copy) : NULL;
}

static void
entry_changed (GtkEditable *entry, DyModelWindow *self)
{
  DyModelPattern *p = dy_model_window_shown_pattern (self);
  const char *field = g_object_get_data (G_OBJECT (entry), "field");
  const char *text = gtk_editable_get_text (entry);

  if (p == NULL)
    return;
  if (g_str_equal (field, "name"))
    {
      g_free (p->name);
      p->name = g_strdup (text);
    }
  else if (g_str_equal (field, "inputs"))
    set_list (p->inputs, text, p->examples);
  else if (g_str_equal (field, "filters"))
    set_list (p->filters, text, NULL);
  else if (g_str_equal (field, "range-from"))
    set_optional (&p->range_from, text);
  else if (g_str_equal (field, "range-to"))
    set_optional (&p->range_to, text);
  dy_model_window_changed (self);
}

static GtkWidget *
pattern_entry (DyModelWindow *self, const char *field, const char *text, const char *placeholder)
{
  GtkWidget *entry = gtk_entry_new ();

  gtk_editable_set_text (GTK_EDITABLE (entry), text != NULL ? text : "");
  if (placeholder != NULL)
    gtk_entry_set_placeholder_text (GTK_ENTRY (entry), placeholder);
  g_object_set_data (G_OBJECT (entry), "field", (gpointer) field);
  g_signal_connect (entry, "changed", G_CALLBACK (entry_changed), self);
  dy_model_page_set_field (self, field, entry);
  return entry;
}

/* The index choices of the pattern's entity's table: the table first, then its indexes. */
static GtkStringList *
index_choices (DyModelWindow *self, const DyModelPattern *p, guint *selected)
{
  const DyModelEntity *entity = dy_model_find_entity (self->model, p->entity);
  const DyModelTable *table
      = entity != NULL ? dy_model_find_table (self->model, entity->table) : NULL;
  GtkStringList *list = gtk_string_list_new (NULL);

  gtk_string_list_append (list, _ ("The table"));
  *selected = 0;
  for (guint i = 0; table != NULL && i < table->indexes->len; i++)
    {
      const DyModelIndex *index = table->indexes->pdata[i];

      gtk_string_list_append (list, index->name);
      if (g_strcmp0 (p->index, index->name) == 0)
        *selected = i + 1;
    }
  /* an index the table does not have stays visible, so that the check's flag makes sense */
  if (p->index != NULL && *selected == 0)
    {
      gtk_string_list_append (list, p->index);
      *selected = g_list_model_get_n_items (G_LIST_MODEL (list)) - 1;
    }
  return list;
}

static void
dropdown_changed (GtkDropDown *dropdown, GParamSpec *pspec, DyModelWindow *self)
{
  DyModelPattern *p = dy_model_window_shown_pattern (self);
  const char *field = g_object_get_data (G_OBJECT (dropdown), "field");
  guint selected = gtk_drop_down_get_selected (dropdown);
  GObject *item = gtk_drop_down_get_selected_item (dropdown);
  const char *name = item != NULL ? gtk_string_object_get_string (GTK_STRING_OBJECT (item)) : NULL;

  if (p == NULL || selected == GTK_INVALID_LIST_POSITION
      || g_object_get_data (G_OBJECT (dropdown), "filling") != NULL)
    return;
  if (g_str_equal (field, "entity"))
    {
      GtkDropDown *index = GTK_DROP_DOWN (dy_model_window_get_field (self, "index"));
      g_autoptr (GtkStringList) choices = NULL;
      guint index_selected;

      g_free (p->entity);
      p->entity = g_strdup (name);
      /* the index list is that of the entity's table */
      g_clear_pointer (&p->index, g_free);
      choices = index_choices (self, p, &index_selected);
      g_object_set_data (G_OBJECT (index), "filling", GINT_TO_POINTER (TRUE));
      gtk_drop_down_set_model (index, G_LIST_MODEL (choices));
      gtk_drop_down_set_selected (index, index_selected);
      g_object_set_data (G_OBJECT (index), "filling", NULL);
    }
  else if (g_str_equal (field, "index"))
    {
      g_free (p->index);
      p->index = selected > 0 ? g_strdup (name) : NULL;
    }
  else if (g_str_equal (field, "many"))
    p->many = selected == 1;
  else if (g_str_equal (field, "order"))
    p->order = selected == 1   ? DY_ORDER_ASCENDING
               : selected == 2 ? DY_ORDER_DESCENDING
                               : DY_ORDER_NONE;
  dy_model_window_changed (self);
}

static GtkWidget *
pattern_dropdown (DyModelWindow *self, const char *field, GtkStringList *choices, guint selected)
{
  /* the drop-down takes a reference of its own */
  GtkWidget *dropdown = gtk_drop_down_new (G_LIST_MODEL (g_object_ref (choices)), NULL);

  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), selected);
  gtk_widget_set_halign (dropdown, GTK_ALIGN_START);
  g_object_set_data (G_OBJECT (dropdown), "field", (gpointer) field);
  g_signal_connect (dropdown, "notify::selected", G_CALLBACK (dropdown_changed), self);
  dy_model_page_set_field (self, field, dropdown);
  return dropdown;
}

/* A row of the resolution: caption and a selectable label named NAME. */
static void
resolution_row (DyModelWindow *self, GtkGrid *grid, int row, const char *caption, const char *name,
                gboolean monospace)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *title = gtk_label_new (caption);

  gtk_label_set_xalign (GTK_LABEL (title), 1);
  gtk_widget_add_css_class (title, "dim-label");
  gtk_widget_set_valign (title, GTK_ALIGN_START);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_hexpand (label, TRUE);
  if (monospace)
    gtk_widget_add_css_class (label, "monospace");
  gtk_box_append (GTK_BOX (box), label);
  /* the caption hides with its value: both live in the row's box */
  g_object_bind_property (box, "visible", title, "visible", G_BINDING_SYNC_CREATE);
  gtk_grid_attach (grid, title, 0, row, 1, 1);
  gtk_grid_attach (grid, box, 1, row, 1, 1);
  dy_model_page_set_field (self, name, label);
}

void
dy_model_window_show_pattern (DyModelWindow *self, DyModelPattern *p)
{
  /* the pattern's editors and its resolution side by side, both in sight as one edits */
  GtkWidget *columns = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 24);
  GtkWidget *form = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *resolution = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkBox *box = GTK_BOX (form);
  g_autoptr (GtkStringList) entities = gtk_string_list_new (NULL);
  g_autoptr (GtkStringList) indexes = NULL;
  static const char *const many[] = { N_ ("One item"), N_ ("Many items"), NULL };
  static const char *const orders[]
      = { N_ ("Any order"), N_ ("Ascending sort key"), N_ ("Descending sort key"), NULL };
  g_autoptr (GtkStringList) many_list = gtk_string_list_new (NULL);
  g_autoptr (GtkStringList) order_list = gtk_string_list_new (NULL);
  g_autofree char *inputs = inputs_text (p);
  g_autofree char *filters = NULL;
  g_autoptr (GMenuModel) copy_menu = NULL;
  GtkWidget *header, *title, *remove, *heading, *copy, *frame, *scrolled, *view, *why;
  guint entity_selected = G_MAXUINT, index_selected = 0;
  GtkGrid *grid;
  int row = 0;

  for (guint i = 0; i < self->model->entities->len; i++)
    {
      const DyModelEntity *entity = self->model->entities->pdata[i];

      gtk_string_list_append (entities, entity->name);
      if (g_strcmp0 (entity->name, p->entity) == 0)
        entity_selected = i;
    }
  /* an entity the model does not define stays visible, so that the check's flag makes sense */
  if (entity_selected == G_MAXUINT)
    {
      gtk_string_list_append (entities, p->entity != NULL ? p->entity : "");
      entity_selected = self->model->entities->len;
    }
  indexes = index_choices (self, p, &index_selected);
  for (guint i = 0; many[i] != NULL; i++)
    gtk_string_list_append (many_list, _ (many[i]));
  for (guint i = 0; orders[i] != NULL; i++)
    gtk_string_list_append (order_list, _ (orders[i]));
  g_ptr_array_add (p->filters, NULL);
  filters = g_strjoinv (", ", (char **) p->filters->pdata);
  g_ptr_array_remove_index (p->filters, p->filters->len - 1);

  gtk_box_set_homogeneous (GTK_BOX (columns), TRUE);
  gtk_box_append (GTK_BOX (columns), form);
  gtk_box_append (GTK_BOX (columns), resolution);
  gtk_box_append (self->detail_box, columns);
  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  title = gtk_label_new (_ ("Access Pattern"));
  gtk_widget_add_css_class (title, "title-2");
  gtk_widget_set_hexpand (title, TRUE);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  remove = gtk_button_new_with_mnemonic (_ ("_Remove Pattern"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (remove), "model.remove-pattern");
  gtk_widget_add_css_class (remove, "destructive-action");
  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (header), title);
  gtk_box_append (GTK_BOX (header), remove);
  gtk_box_append (box, header);

  grid = dy_model_page_grid (box);
  dy_model_page_row (grid, row++, _ ("Name"), pattern_entry (self, "name", p->name, NULL), NULL);
  dy_model_page_row (grid, row++, _ ("Returns"),
                     pattern_dropdown (self, "entity", entities, entity_selected), NULL);
  dy_model_page_row (grid, row++, _ ("Read from"),
                     pattern_dropdown (self, "index", indexes, index_selected), NULL);
  dy_model_page_row (grid, row++, _ ("Inputs"),
                     pattern_entry (self, "inputs", inputs, _ ("tenantId=acme, customerId=2001")),
                     NULL);
  dy_model_page_row (grid, row++, _ ("Items"),
                     pattern_dropdown (self, "many", many_list, p->many ? 1 : 0), NULL);
  dy_model_page_row (grid, row++, _ ("Order"),
                     pattern_dropdown (self, "order", order_list,
                                       p->order == DY_ORDER_ASCENDING    ? 1
                                       : p->order == DY_ORDER_DESCENDING ? 2
                                                                         : 0),
                     NULL);
  dy_model_page_row (
      grid, row++, _ ("Sort key from"),
      pattern_entry (self, "range-from", p->range_from, _ ("an input bounding the range")), NULL);
  dy_model_page_row (
      grid, row++, _ ("Sort key to"),
      pattern_entry (self, "range-to", p->range_to, _ ("an input bounding the range")), NULL);
  dy_model_page_row (
      grid, row++, _ ("Filters on"),
      pattern_entry (self, "filters", filters, _ ("non-key attributes, comma-separated")), NULL);

  box = GTK_BOX (resolution);
  heading = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  title = gtk_label_new (_ ("Resolution"));
  gtk_widget_add_css_class (title, "title-2");
  gtk_widget_set_hexpand (title, TRUE);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  copy_menu = dy_copy_as_menu_new ("model.copy-as");
  copy = gtk_menu_button_new ();
  gtk_menu_button_set_label (GTK_MENU_BUTTON (copy), _ ("Copy as"));
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (copy), copy_menu);
  gtk_widget_set_tooltip_text (copy, _ ("Copy the request as a program"));
  gtk_box_append (GTK_BOX (heading), title);
  gtk_box_append (GTK_BOX (heading), copy);
  gtk_box_append (box, heading);

  grid = dy_model_page_grid (box);
  row = 0;
  resolution_row (self, grid, row++, _ ("Operation"), "operation", FALSE);
  gtk_widget_add_css_class (dy_model_window_get_field (self, "operation"), "heading");
  resolution_row (self, grid, row++, _ ("On"), "target", FALSE);
  resolution_row (self, grid, row++, _ ("Key condition"), "key-condition", TRUE);
  resolution_row (self, grid, row++, _ ("Direction"), "direction", FALSE);
  why = dy_model_page_label (box, NULL, "warning");
  dy_model_page_set_field (self, "why", why);

  view = gtk_text_view_new ();
  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (view, "request-view");
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_NEVER);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  frame = gtk_frame_new (NULL);
  gtk_frame_set_child (GTK_FRAME (frame), scrolled);
  gtk_box_append (box, frame);
  g_object_set_data (G_OBJECT (view), "frame", frame);
  g_object_set_data (G_OBJECT (view), "copy", copy);
  g_object_bind_property (frame, "visible", copy, "sensitive", G_BINDING_SYNC_CREATE);
  dy_model_page_set_field (self, "request", view);
  dy_model_window_update_resolution (self);
}

void
dy_model_window_copy_as (DyModelWindow *self, const char *lang)
{
  const DyResolution *r = dy_model_window_shown_resolution (self);
  g_autoptr (GError) error = NULL;
  g_autofree char *program = NULL;

  if (r == NULL || r->kind == DY_RESOLVED_FLAGGED || r->request == NULL)
    return;
  /* no connection: the program uses the SDK's default configuration */
  program = dy_copy_as_program (NULL, lang, r->kind == DY_RESOLVED_GET_ITEM ? "GetItem" : "Query",
                                r->request, &error);
  if (program == NULL)
    {
      dy_model_window_toast (self, error->message);
      return;
    }
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), program);
  dy_model_window_toast (self, _ ("Program copied"));
}

/* The partition key value (as the item collections show it) that R's request reads, or NULL. */
static char *
read_partition (const DyModelTable *table, const char *index, const DyResolution *r)
{
  const char *pk = NULL, *sk = NULL;
  json_t *value = NULL;
  g_autoptr (DdbValue) parsed = NULL;

  if (r == NULL || r->request == NULL)
    return NULL;
  dy_model_key_names (table, index != NULL ? dy_model_table_find_index (table, index) : NULL, &pk,
                      &sk);
  if (r->kind == DY_RESOLVED_GET_ITEM && pk != NULL)
    value = json_object_get (json_object_get (r->request, "Key"), pk);
  else if (r->kind == DY_RESOLVED_QUERY)
    {
      json_t *names = json_object_get (r->request, "ExpressionAttributeNames");
      const char *placeholder;
      json_t *name;

      /* the placeholder that names the partition key: #pk = :pk */
      json_object_foreach (names, placeholder, name)
        if (g_strcmp0 (json_string_value (name), pk) == 0 && placeholder[0] == '#')
          {
            g_autofree char *values_name = g_strconcat (":", placeholder + 1, NULL);

            value = json_object_get (json_object_get (r->request, "ExpressionAttributeValues"),
                                     values_name);
            break;
          }
    }
  if (value == NULL || (parsed = ddb_json_to_value (value, NULL)) == NULL)
    return NULL;
  return dy_format_key (parsed);
}

void
dy_model_window_pattern_items (DyModelWindow *self)
{
  DyModelPattern *p = dy_model_window_shown_pattern (self);
  const DyModelEntity *entity = p != NULL ? dy_model_find_entity (self->model, p->entity) : NULL;
  const DyModelTable *table
      = entity != NULL ? dy_model_find_table (self->model, entity->table) : NULL;
  const char *index = NULL;
  g_autofree char *focus = NULL;

  if (table == NULL)
    return;
  /* the items as the pattern reads them: by its index's key, its collection open */
  if (p->index != NULL && dy_model_table_find_index (table, p->index) != NULL)
    index = p->index;
  focus = read_partition (table, index, dy_model_window_shown_resolution (self));
  dy_model_window_show_items (self, table->name, index, focus, TRUE);
}
