/* dy-model-window-pages.c: the Model window's detail pane for what the sidebar selects: a
 * table (key schema, indexes, billing) or an entity (its key templates, edited in place with a
 * template's syntax error shown under it, and its attributes); an access pattern's page is
 * dy-model-window-pattern.c's. The building blocks both use. Every edit changes the model and
 * checks it again. */
#define G_LOG_DOMAIN "dynoscope-model-window"

#include <glib/gi18n.h>

#include "app/common/dy-format.h"
#include "app/model/dy-model-window-private.h"

/* ---- Building blocks ---- */

GtkWidget *
dy_model_page_label (GtkBox *box, const char *text, const char *css_class)
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

GtkGrid *
dy_model_page_grid (GtkBox *box)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_box_append (box, grid);
  return GTK_GRID (grid);
}

/* A row of GRID: a caption and WIDGET (a selectable label when WIDGET is NULL and TEXT set). */
GtkWidget *
dy_model_page_row (GtkGrid *grid, int row, const char *caption, GtkWidget *widget, const char *text)
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

void
dy_model_page_set_field (DyModelWindow *self, const char *name, GtkWidget *widget)
{
  g_hash_table_insert (self->fields, g_strdup (name), widget);
}

static char *
attr_text (const DyModelAttr *attr)
{
  /* TRANSLATORS: an attribute and its DynamoDB type, e.g. "PK (S)" */
  return g_strdup_printf (_ ("%s (%s)"), attr->name, attr->type != NULL ? attr->type : "?");
}

DyModelPattern *
dy_model_window_shown_pattern (DyModelWindow *self)
{
  if (self->model == NULL || self->kind != DY_MODEL_SELECT_PATTERN
      || self->index >= self->model->patterns->len)
    return NULL;
  return self->model->patterns->pdata[self->index];
}

const DyResolution *
dy_model_window_shown_resolution (DyModelWindow *self)
{
  return dy_model_window_shown_pattern (self) != NULL
             ? self->report->resolutions->pdata[self->index]
             : NULL;
}

/* ---- Table ---- */

static char *
billing_text (const DyModelTable *table)
{
  if (g_strcmp0 (table->billing_mode, "PAY_PER_REQUEST") == 0)
    return g_strdup (_ ("On demand (PAY_PER_REQUEST)"));
  if (g_strcmp0 (table->billing_mode, "PROVISIONED") == 0)
    /* TRANSLATORS: provisioned capacity: read and write capacity units */
    {
      g_autofree char *rcu = g_strdup_printf ("%" G_GINT64_FORMAT, table->rcu);
      g_autofree char *wcu = g_strdup_printf ("%" G_GINT64_FORMAT, table->wcu);

      return g_strdup_printf (_ ("Provisioned: %s RCU, %s WCU"), rcu, wcu);
    }
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

  dy_model_page_label (box, table->name, "title-2");
  dy_model_page_label (box, _ ("Table"), "dim-label");
  grid = dy_model_page_grid (box);
  dy_model_page_row (grid, row++, _ ("Partition key"), NULL, pk);
  if (table->sort.name != NULL)
    {
      g_autofree char *sk = attr_text (&table->sort);

      dy_model_page_row (grid, row++, _ ("Sort key"), NULL, sk);
    }
  else
    dy_model_page_row (grid, row++, _ ("Sort key"), NULL, _ ("None"));
  dy_model_page_row (grid, row++, _ ("Billing"), NULL, billing);
  for (guint i = 0; i < table->attrs->len; i++)
    {
      g_autofree char *text = attr_text (table->attrs->pdata[i]);

      g_string_append_printf (attrs, "%s%s", i > 0 ? ", " : "", text);
    }
  dy_model_page_row (grid, row++, _ ("Other attributes"), NULL,
                     attrs->len > 0 ? attrs->str : _ ("None"));
  for (guint i = 0; i < self->model->entities->len; i++)
    {
      DyModelEntity *entity = self->model->entities->pdata[i];

      if (g_strcmp0 (entity->table, table->name) == 0)
        g_string_append_printf (entities, "%s%s", entities->len > 0 ? ", " : "", entity->name);
    }
  dy_model_page_row (grid, row++, _ ("Entities"), NULL,
                     entities->len > 0 ? entities->str : _ ("None"));

  dy_model_page_label (box, _ ("Secondary Indexes"), "heading");
  if (table->indexes->len == 0)
    dy_model_page_label (box, _ ("None"), "dim-label");
  grid = dy_model_page_grid (box);
  for (guint i = 0; i < table->indexes->len; i++)
    {
      DyModelIndex *index = table->indexes->pdata[i];
      g_autofree char *text = index_text (index);

      dy_model_page_row (grid, (int) i, index->name, NULL, text);
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

  dy_model_page_label (box, entity->name, "title-2");
  dy_model_page_label (box, in_table, "dim-label");
  dy_model_page_label (box, _ ("Key Templates"), "heading");
  dy_model_page_label (
      box,
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
  grid = dy_model_page_grid (box);
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
      dy_model_page_set_field (self, key_name, entry);
      dy_model_page_set_field (self, error_name, error);
    }

  dy_model_page_label (box, _ ("Attributes"), "heading");
  for (guint i = 0; i < entity->attrs->len; i++)
    {
      g_autofree char *text = attr_text (entity->attrs->pdata[i]);

      g_string_append_printf (list, "%s%s", i > 0 ? ", " : "", text);
    }
  dy_model_page_label (box, list->len > 0 ? list->str : _ ("None"),
                       list->len > 0 ? NULL : "dim-label");
}

/* ---- The pane ---- */

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
          dy_model_window_show_pattern (self, self->model->patterns->pdata[self->index]);
          dy_model_window_pattern_items (self);
          return;
        }
      break;
    }
  if (gtk_widget_get_first_child (GTK_WIDGET (self->detail_box)) == NULL)
    dy_model_page_label (self->detail_box, _ ("Select a table, an entity or an access pattern."),
                         "dim-label");
  if (items_table != NULL || self->items_table == NULL)
    dy_model_window_show_items (self, items_table, NULL, NULL, FALSE);
}
