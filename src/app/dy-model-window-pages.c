/* dy-model-window-pages.c: the Model window's detail pane for what the sidebar selects: a
 * table (key schema, indexes, billing), an entity (its key templates, edited in place with a
 * template's syntax error shown under it, and its attributes) or an access pattern (edited in
 * place, with the one GetItem or Query it resolves to, its request and "Copy as" code, or why
 * it is flagged). Every edit changes the model and checks it again. */
#define G_LOG_DOMAIN "dynoscope-model-window"

#include <glib/gi18n.h>
#include <string.h>

#include "app/dy-copy-as.h"
#include "app/dy-format.h"
#include "app/dy-model-window-private.h"
#include "core/ddbjson.h"

/* ---- Building blocks ---- */

static GtkWidget *
add_label (GtkBox *box, const char *text, const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  gtk_box_append (box, label);
  return label;
}

static GtkGrid *
add_grid (GtkBox *box)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_box_append (box, grid);
  return GTK_GRID (grid);
}

/* A row of GRID: a caption and WIDGET (a selectable label when WIDGET is NULL and TEXT set). */
static GtkWidget *
grid_row (GtkGrid *grid, int row, const char *caption, GtkWidget *widget, const char *text)
{
  GtkWidget *label = gtk_label_new (caption);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_set_valign (label, GTK_ALIGN_BASELINE);
  gtk_widget_add_css_class (label, "dim-label");
  if (widget == NULL)
    {
      widget = gtk_label_new (text);
      gtk_label_set_xalign (GTK_LABEL (widget), 0);
      gtk_label_set_wrap (GTK_LABEL (widget), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (widget), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_selectable (GTK_LABEL (widget), TRUE);
    }
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_valign (widget, GTK_ALIGN_BASELINE);
  gtk_grid_attach (grid, label, 0, row, 1, 1);
  gtk_grid_attach (grid, widget, 1, row, 1, 1);
  return widget;
}

static void
set_field (DyModelWindow *self, const char *name, GtkWidget *widget)
{
  g_hash_table_insert (self->fields, g_strdup (name), widget);
}

static char *
attr_text (const DyModelAttr *attr)
{
  /* TRANSLATORS: an attribute and its DynamoDB type, e.g. "PK (S)" */
  return g_strdup_printf (_ ("%s (%s)"), attr->name, attr->type != NULL ? attr->type : "?");
}

static DyModelPattern *
shown_pattern (DyModelWindow *self)
{
  if (self->model == NULL || self->kind != DY_MODEL_SELECT_PATTERN
      || self->index >= self->model->patterns->len)
    return NULL;
  return self->model->patterns->pdata[self->index];
}

static const DyResolution *
shown_resolution (DyModelWindow *self)
{
  return shown_pattern (self) != NULL ? self->report->resolutions->pdata[self->index] : NULL;
}

/* ---- Table ---- */

static char *
billing_text (const DyModelTable *table)
{
  if (g_strcmp0 (table->billing_mode, "PAY_PER_REQUEST") == 0)
    return g_strdup (_ ("On demand (PAY_PER_REQUEST)"));
  if (g_strcmp0 (table->billing_mode, "PROVISIONED") == 0)
    /* TRANSLATORS: provisioned capacity: read and write capacity units */
    return g_strdup_printf (_ ("Provisioned: %" G_GINT64_FORMAT " RCU, %" G_GINT64_FORMAT " WCU"),
                            table->rcu, table->wcu);
  return g_strdup (_ ("Not set"));
}

static char *
index_text (const DyModelIndex *index)
{
  g_autofree char *pk = attr_text (&index->partition);
  g_autofree char *sk = index->sort.name != NULL ? attr_text (&index->sort) : NULL;
  const char *projection = index->projection != NULL ? index->projection : "ALL";
  g_autofree char *projected = NULL;

  /* INCLUDE with its attributes: "INCLUDE (title, publishedAt)" */
  if (g_strcmp0 (index->projection, "INCLUDE") == 0 && index->non_key->len > 0)
    {
      g_autofree char *names = NULL;

      g_ptr_array_add (index->non_key, NULL);
      names = g_strjoinv (", ", (char **) index->non_key->pdata);
      g_ptr_array_remove_index (index->non_key, index->non_key->len - 1);
      projected = g_strdup_printf ("%s (%s)", projection, names);
    }
  else
    projected = g_strdup (projection);
  if (index->local)
    return sk != NULL
               /* TRANSLATORS: a local secondary index: its keys and what it projects */
               ? g_strdup_printf (_ ("local — partition key %s, sort key %s; projects %s"), pk, sk,
                                  projected)
               : g_strdup_printf (_ ("local — partition key %s; projects %s"), pk, projected);
  return sk != NULL
             /* TRANSLATORS: a global secondary index: its keys and what it projects */
             ? g_strdup_printf (_ ("global — partition key %s, sort key %s; projects %s"), pk, sk,
                                projected)
             : g_strdup_printf (_ ("global — partition key %s; projects %s"), pk, projected);
}

static void
show_table (DyModelWindow *self, DyModelTable *table)
{
  GtkBox *box = self->detail_box;
  GtkGrid *grid;
  int row = 0;
  g_autofree char *pk = attr_text (&table->partition);
  g_autofree char *billing = billing_text (table);
  g_autoptr (GString) entities = g_string_new (NULL);
  g_autoptr (GString) attrs = g_string_new (NULL);

  add_label (box, table->name, "title-2");
  add_label (box, _ ("Table"), "dim-label");
  grid = add_grid (box);
  grid_row (grid, row++, _ ("Partition key"), NULL, pk);
  if (table->sort.name != NULL)
    {
      g_autofree char *sk = attr_text (&table->sort);

      grid_row (grid, row++, _ ("Sort key"), NULL, sk);
    }
  else
    grid_row (grid, row++, _ ("Sort key"), NULL, _ ("None"));
  grid_row (grid, row++, _ ("Billing"), NULL, billing);
  for (guint i = 0; i < table->attrs->len; i++)
    {
      g_autofree char *text = attr_text (table->attrs->pdata[i]);

      g_string_append_printf (attrs, "%s%s", i > 0 ? ", " : "", text);
    }
  grid_row (grid, row++, _ ("Other attributes"), NULL, attrs->len > 0 ? attrs->str : _ ("None"));
  for (guint i = 0; i < self->model->entities->len; i++)
    {
      DyModelEntity *entity = self->model->entities->pdata[i];

      if (g_strcmp0 (entity->table, table->name) == 0)
        g_string_append_printf (entities, "%s%s", entities->len > 0 ? ", " : "", entity->name);
    }
  grid_row (grid, row++, _ ("Entities"), NULL, entities->len > 0 ? entities->str : _ ("None"));

  add_label (box, _ ("Secondary Indexes"), "heading");
  if (table->indexes->len == 0)
    add_label (box, _ ("None"), "dim-label");
  grid = add_grid (box);
  for (guint i = 0; i < table->indexes->len; i++)
    {
      DyModelIndex *index = table->indexes->pdata[i];
      g_autofree char *text = index_text (index);

      grid_row (grid, (int) i, index->name, NULL, text);
    }
}

/* ---- Entity ---- */

static void
key_cleared (GtkEditable *entry, DyModelWindow *self)
{
  DyModelEntity *entity = g_object_get_data (G_OBJECT (entry), "entity");
  const char *attr = g_object_get_data (G_OBJECT (entry), "attr");

  for (guint i = 0; i < entity->keys->len; i++)
    if (g_str_equal (((DyModelKey *) entity->keys->pdata[i])->attr, attr))
      g_ptr_array_remove_index (entity->keys, i--);
}

/* An emptied template goes once the text stays empty: replacing the text (a paste over it,
 * gtk_editable_set_text) empties it on the way. */
static gboolean
key_cleared_idle (gpointer data)
{
  GtkEditable *entry = data;
  DyModelWindow *self = g_object_get_data (G_OBJECT (entry), "window");

  /* still on the page shown (the page goes with its model) and still empty */
  if (gtk_widget_get_parent (GTK_WIDGET (entry)) != NULL && *gtk_editable_get_text (entry) == '\0')
    {
      key_cleared (entry, self);
      dy_model_window_changed (self);
    }
  return G_SOURCE_REMOVE;
}

static void
key_changed (GtkEditable *entry, DyModelWindow *self)
{
  DyModelEntity *entity = g_object_get_data (G_OBJECT (entry), "entity");
  const char *attr = g_object_get_data (G_OBJECT (entry), "attr");
  GtkWidget *error_label = g_object_get_data (G_OBJECT (entry), "error-label");
  const char *text = gtk_editable_get_text (entry);
  g_autoptr (GError) error = NULL;

  if (*text == '\0')
    {
      g_idle_add_full (G_PRIORITY_DEFAULT, key_cleared_idle, g_object_ref (entry), g_object_unref);
      gtk_widget_set_visible (error_label, FALSE);
      gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
      return;
    }
  if (!dy_model_entity_set_key (entity, attr, text, &error))
    {
      /* the model keeps the template it had; the text stays for the user to fix */
      gtk_label_set_text (GTK_LABEL (error_label), error->message);
      gtk_widget_set_visible (error_label, TRUE);
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      return;
    }
  gtk_widget_set_visible (error_label, FALSE);
  gtk_label_set_text (GTK_LABEL (error_label), "");
  gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
  dy_model_window_changed (self);
}

/* The key attributes an entity of TABLE may have templates for, with their role, in order:
 * the table's keys, then each index's. */
static void
key_roles (const DyModelTable *table, GPtrArray *attrs, GPtrArray *roles)
{
#define ADD_ROLE(name, role) \
  G_STMT_START \
  { \
    if ((name) != NULL && !g_ptr_array_find_with_equal_func (attrs, (name), g_str_equal, NULL)) \
      { \
        g_ptr_array_add (attrs, g_strdup (name)); \
        g_ptr_array_add (roles, (role)); \
      } \
    else \
      g_free (role); \
  } \
  G_STMT_END

  ADD_ROLE (table->partition.name, g_strdup (_ ("the table’s partition key")));
  ADD_ROLE (table->sort.name, g_strdup (_ ("the table’s sort key")));
  for (guint i = 0; i < table->indexes->len; i++)
    {
      DyModelIndex *index = table->indexes->pdata[i];

      /* TRANSLATORS: a key attribute's role: the partition key of index %s */
      ADD_ROLE (index->partition.name, g_strdup_printf (_ ("partition key of %s"), index->name));
      /* TRANSLATORS: a key attribute's role: the sort key of index %s */
      ADD_ROLE (index->sort.name, g_strdup_printf (_ ("sort key of %s"), index->name));
    }
#undef ADD_ROLE
}

static void
show_entity (DyModelWindow *self, DyModelEntity *entity)
{
  GtkBox *box = self->detail_box;
  DyModelTable *table = dy_model_find_table (self->model, entity->table);
  g_autoptr (GPtrArray) attrs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) roles = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *in_table = g_strdup_printf (_ ("Entity in table %s"), entity->table);
  g_autoptr (GString) list = g_string_new (NULL);
  GtkGrid *grid;
  int row = 0;

  add_label (box, entity->name, "title-2");
  add_label (box, in_table, "dim-label");
  add_label (box, _ ("Key Templates"), "heading");
  add_label (box,
             _ ("Literal text with {field}, {field:04} (zero-padded) or {field:%Y-%m} "
                "(parts of an ISO 8601 timestamp); an empty template: no value for that key."),
             "dim-label");
  if (table != NULL)
    key_roles (table, attrs, roles);
  /* templates for attributes that are no key of the table (flagged) are shown too */
  for (guint i = 0; i < entity->keys->len; i++)
    {
      const DyModelKey *key = entity->keys->pdata[i];

      if (!g_ptr_array_find_with_equal_func (attrs, key->attr, g_str_equal, NULL))
        {
          g_ptr_array_add (attrs, g_strdup (key->attr));
          g_ptr_array_add (roles, g_strdup (_ ("no key of the table or its indexes")));
        }
    }
  grid = add_grid (box);
  for (guint i = 0; i < attrs->len; i++)
    {
      const char *attr = attrs->pdata[i];
      const DyModelKey *key = dy_model_entity_find_key (entity, attr);
      GtkWidget *names = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      GtkWidget *name = gtk_label_new (attr);
      GtkWidget *role = gtk_label_new (roles->pdata[i]);
      GtkWidget *entry = gtk_entry_new ();
      GtkWidget *error = gtk_label_new (NULL);
      g_autofree char *key_name = g_strconcat ("key:", attr, NULL);
      g_autofree char *error_name = g_strconcat ("key-error:", attr, NULL);

      gtk_label_set_xalign (GTK_LABEL (name), 1);
      gtk_label_set_xalign (GTK_LABEL (role), 1);
      gtk_widget_add_css_class (role, "caption");
      gtk_widget_add_css_class (role, "dim-label");
      gtk_box_append (GTK_BOX (names), name);
      gtk_box_append (GTK_BOX (names), role);
      gtk_editable_set_text (GTK_EDITABLE (entry), key != NULL ? key->tpl->source : "");
      gtk_widget_add_css_class (entry, "monospace");
      gtk_widget_set_hexpand (entry, TRUE);
      gtk_widget_set_valign (entry, GTK_ALIGN_CENTER);
      gtk_label_set_xalign (GTK_LABEL (error), 0);
      gtk_label_set_wrap (GTK_LABEL (error), TRUE);
      gtk_widget_add_css_class (error, "error");
      gtk_widget_add_css_class (error, "caption");
      gtk_widget_set_visible (error, FALSE);
      g_object_set_data (G_OBJECT (entry), "entity", entity);
      g_object_set_data (G_OBJECT (entry), "window", self);
      g_object_set_data_full (G_OBJECT (entry), "attr", g_strdup (attr), g_free);
      g_object_set_data (G_OBJECT (entry), "error-label", error);
      g_signal_connect (entry, "changed", G_CALLBACK (key_changed), self);
      gtk_grid_attach (grid, names, 0, row, 1, 1);
      gtk_grid_attach (grid, entry, 1, row++, 1, 1);
      gtk_grid_attach (grid, error, 1, row++, 1, 1);
      set_field (self, key_name, entry);
      set_field (self, error_name, error);
    }

  add_label (box, _ ("Attributes"), "heading");
  for (guint i = 0; i < entity->attrs->len; i++)
    {
      g_autofree char *text = attr_text (entity->attrs->pdata[i]);

      g_string_append_printf (list, "%s%s", i > 0 ? ", " : "", text);
    }
  add_label (box, list->len > 0 ? list->str : _ ("None"), list->len > 0 ? NULL : "dim-label");
}

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
  const DyResolution *r = shown_resolution (self);
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
  DyModelPattern *p = shown_pattern (self);
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
  set_field (self, field, entry);
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
  DyModelPattern *p = shown_pattern (self);
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
  set_field (self, field, dropdown);
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
  set_field (self, name, label);
}

static void
show_pattern (DyModelWindow *self, DyModelPattern *p)
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

  grid = add_grid (box);
  grid_row (grid, row++, _ ("Name"), pattern_entry (self, "name", p->name, NULL), NULL);
  grid_row (grid, row++, _ ("Returns"),
            pattern_dropdown (self, "entity", entities, entity_selected), NULL);
  grid_row (grid, row++, _ ("Read from"), pattern_dropdown (self, "index", indexes, index_selected),
            NULL);
  grid_row (grid, row++, _ ("Inputs"),
            pattern_entry (self, "inputs", inputs, _ ("tenantId=acme, customerId=2001")), NULL);
  grid_row (grid, row++, _ ("Items"), pattern_dropdown (self, "many", many_list, p->many ? 1 : 0),
            NULL);
  grid_row (grid, row++, _ ("Order"),
            pattern_dropdown (self, "order", order_list,
                              p->order == DY_ORDER_ASCENDING    ? 1
                              : p->order == DY_ORDER_DESCENDING ? 2
                                                                : 0),
            NULL);
  grid_row (grid, row++, _ ("Sort key from"),
            pattern_entry (self, "range-from", p->range_from, _ ("an input bounding the range")),
            NULL);
  grid_row (grid, row++, _ ("Sort key to"),
            pattern_entry (self, "range-to", p->range_to, _ ("an input bounding the range")), NULL);
  grid_row (grid, row++, _ ("Filters on"),
            pattern_entry (self, "filters", filters, _ ("non-key attributes, comma-separated")),
            NULL);

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

  grid = add_grid (box);
  row = 0;
  resolution_row (self, grid, row++, _ ("Operation"), "operation", FALSE);
  gtk_widget_add_css_class (dy_model_window_get_field (self, "operation"), "heading");
  resolution_row (self, grid, row++, _ ("On"), "target", FALSE);
  resolution_row (self, grid, row++, _ ("Key condition"), "key-condition", TRUE);
  resolution_row (self, grid, row++, _ ("Direction"), "direction", FALSE);
  why = add_label (box, NULL, "warning");
  set_field (self, "why", why);

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
  set_field (self, "request", view);
  dy_model_window_update_resolution (self);
}

void
dy_model_window_copy_as (DyModelWindow *self, const char *lang)
{
  const DyResolution *r = shown_resolution (self);
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

/* ---- The pane ---- */

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
dy_model_window_show_detail (DyModelWindow *self)
{
  GtkWidget *child;
  const char *items_table = NULL;

  g_hash_table_remove_all (self->fields);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->detail_box))) != NULL)
    gtk_box_remove (self->detail_box, child);
  if (self->model == NULL)
    return;
  switch (self->kind)
    {
    case DY_MODEL_SELECT_TABLE:
      if (self->index < self->model->tables->len)
        {
          DyModelTable *table = self->model->tables->pdata[self->index];

          show_table (self, table);
          items_table = table->name;
        }
      break;
    case DY_MODEL_SELECT_ENTITY:
      if (self->index < self->model->entities->len)
        {
          DyModelEntity *entity = self->model->entities->pdata[self->index];

          show_entity (self, entity);
          items_table = entity->table;
        }
      break;
    case DY_MODEL_SELECT_PATTERN:
      if (self->index < self->model->patterns->len)
        {
          show_pattern (self, self->model->patterns->pdata[self->index]);
          dy_model_window_pattern_items (self);
          return;
        }
      break;
    }
  if (gtk_widget_get_first_child (GTK_WIDGET (self->detail_box)) == NULL)
    add_label (self->detail_box, _ ("Select a table, an entity or an access pattern."),
               "dim-label");
  if (items_table != NULL || self->items_table == NULL)
    dy_model_window_show_items (self, items_table, NULL, NULL, FALSE);
}

void
dy_model_window_pattern_items (DyModelWindow *self)
{
  DyModelPattern *p = shown_pattern (self);
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
  focus = read_partition (table, index, shown_resolution (self));
  dy_model_window_show_items (self, table->name, index, focus, TRUE);
}
