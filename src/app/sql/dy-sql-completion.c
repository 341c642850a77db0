/* dy-sql-completion.c: completion of table and column names in the SQL editor: the tables and
 * indexes the backend has (ddb_sql_list_tables) and the columns of the tables the statement
 * reads (ddb_sql_list_columns), fetched on a worker with the tab's second DdbSql and kept.
 * After "alias." only that table's columns are offered. */
#define G_LOG_DOMAIN "dynoscope-sql"

#include <glib/gi18n.h>
#include <string.h>

#include "app/sql/dy-sql-view-private.h"

/* A proposal: a table or a column. */

#define DY_TYPE_SQL_PROPOSAL (dy_sql_proposal_get_type ())
G_DECLARE_FINAL_TYPE (DySqlProposal, dy_sql_proposal, DY, SQL_PROPOSAL, GObject)

struct _DySqlProposal {
  GObject parent_instance;
  char *name;   /* as shown and matched */
  char *text;   /* as inserted: quoted when it must be */
  char *detail; /* "table", or the table of a column */
  gboolean is_table;
};

enum { PROPOSAL_PROP_0, PROPOSAL_PROP_NAME, PROPOSAL_N_PROPS };

static GParamSpec *proposal_properties[PROPOSAL_N_PROPS];

static char *
dy_sql_proposal_get_typed_text (GtkSourceCompletionProposal *proposal)
{
  return g_strdup (DY_SQL_PROPOSAL (proposal)->text);
}

static void
dy_sql_proposal_iface_init (GtkSourceCompletionProposalInterface *iface)
{
  iface->get_typed_text = dy_sql_proposal_get_typed_text;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (DySqlProposal, dy_sql_proposal, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GTK_SOURCE_TYPE_COMPLETION_PROPOSAL,
                                                      dy_sql_proposal_iface_init))

static void
dy_sql_proposal_finalize (GObject *object)
{
  DySqlProposal *self = DY_SQL_PROPOSAL (object);

  g_free (self->name);
  g_free (self->text);
  g_free (self->detail);
  G_OBJECT_CLASS (dy_sql_proposal_parent_class)->finalize (object);
}

static void
dy_sql_proposal_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  if (prop_id == PROPOSAL_PROP_NAME)
    g_value_set_string (value, DY_SQL_PROPOSAL (object)->name);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
dy_sql_proposal_class_init (DySqlProposalClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_sql_proposal_finalize;
  G_OBJECT_CLASS (klass)->get_property = dy_sql_proposal_get_property;
  proposal_properties[PROPOSAL_PROP_NAME]
      = g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (G_OBJECT_CLASS (klass), PROPOSAL_N_PROPS, proposal_properties);
}

static void
dy_sql_proposal_init (DySqlProposal *self)
{
}

static DySqlProposal *
proposal_new (const char *name, const char *detail, gboolean is_table)
{
  DySqlProposal *self = g_object_new (DY_TYPE_SQL_PROPOSAL, NULL);

  self->name = g_strdup (name);
  self->text = dy_sql_identifier (name);
  self->detail = g_strdup (detail);
  self->is_table = is_table;
  return self;
}

/* Reading the statement: its tables and their aliases. */

typedef struct {
  const char *start;
  gsize len;
  gboolean quoted; /* "…" or `…` or […] */
} Token;

/* The next token after *P: an identifier (quoted or not) or one character of punctuation;
 * strings and comments are skipped. FALSE at the end. */
static gboolean
next_token (const char **p, Token *token)
{
  const char *s = *p;

  for (;;)
    {
      while (g_ascii_isspace (*s))
        s++;
      if (s[0] == '-' && s[1] == '-')
        {
          while (*s != '\0' && *s != '\n')
            s++;
          continue;
        }
      if (s[0] == '/' && s[1] == '*')
        {
          const char *end = strstr (s + 2, "*/");

          s = end != NULL ? end + 2 : s + strlen (s);
          continue;
        }
      if (*s == '\'')
        {
          for (s++; *s != '\0'; s++)
            if (*s == '\'' && *++s != '\'')
              break;
          continue;
        }
      break;
    }
  if (*s == '\0')
    return FALSE;
  token->quoted = FALSE;
  if (*s == '"' || *s == '`' || *s == '[')
    {
      char close = *s == '[' ? ']' : *s;
      const char *begin = ++s;

      while (*s != '\0' && !(*s == close && s[1] != close))
        s += *s == close ? 2 : 1;
      token->start = begin;
      token->len = (gsize) (s - begin);
      token->quoted = TRUE;
      *p = *s != '\0' ? s + 1 : s;
      return TRUE;
    }
  token->start = s;
  if (g_ascii_isalnum (*s) || *s == '_' || (guchar) *s >= 0x80)
    while (g_ascii_isalnum (*s) || *s == '_' || (guchar) *s >= 0x80)
      s++;
  else
    s++;
  token->len = (gsize) (s - token->start);
  *p = s;
  return TRUE;
}

static gboolean
token_is (const Token *token, const char *word)
{
  return !token->quoted && token->len == strlen (word)
         && g_ascii_strncasecmp (token->start, word, token->len) == 0;
}

static char *
token_name (const Token *token)
{
  g_autofree char *raw = g_strndup (token->start, token->len);
  char quote[3] = { token->start[-1], token->start[-1], 0 };
  g_auto (GStrv) parts = NULL;

  if (!token->quoted)
    return g_steal_pointer (&raw);
  /* a doubled quote inside stands for one */
  parts = g_strsplit (raw, quote, -1);
  quote[1] = '\0';
  return g_strjoinv (quote, parts);
}

static gboolean
is_identifier (const Token *token)
{
  return token->quoted || g_ascii_isalpha (*token->start) || *token->start == '_';
}

/* Words that end a table reference rather than name its alias. */
static gboolean
is_clause_word (const Token *token)
{
  static const char *const words[]
      = { "where",     "join",    "on",     "using",  "left",  "right",   "inner", "outer",
          "cross",     "natural", "full",   "group",  "order", "limit",   "union", "except",
          "intersect", "having",  "window", "select", "as",    "indexed", "not",   NULL };

  for (guint i = 0; words[i] != NULL; i++)
    if (token_is (token, words[i]))
      return TRUE;
  return FALSE;
}

static gboolean
ends_from (const Token *token)
{
  static const char *const words[] = { "where", "group",  "order",     "limit",  "having", "window",
                                       "union", "except", "intersect", "select", "values", NULL };

  for (guint i = 0; words[i] != NULL; i++)
    if (token_is (token, words[i]))
      return TRUE;
  return FALSE;
}

GHashTable *
dy_sql_completion_scan_tables (const char *text)
{
  GHashTable *aliases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *p = text;
  Token token;
  gboolean expect_table = FALSE;
  gboolean in_from = FALSE; /* in a FROM clause, at FROM_DEPTH parentheses */
  int depth = 0, from_depth = 0;

  while (next_token (&p, &token))
    {
      gboolean punct = !token.quoted && token.len == 1 && !g_ascii_isalnum (*token.start)
                       && *token.start != '_';

      if (punct && *token.start == '(')
        depth++;
      else if (punct && *token.start == ')' && --depth < from_depth)
        in_from = FALSE;
      if (token_is (&token, "from") || token_is (&token, "join"))
        {
          expect_table = TRUE;
          in_from = TRUE;
          from_depth = depth;
          continue;
        }
      if (in_from && depth == from_depth && ends_from (&token))
        in_from = FALSE;
      /* FROM a x, b y (also after a JOIN's ON condition) */
      if (punct && *token.start == ',' && in_from && depth == from_depth)
        {
          expect_table = TRUE;
          continue;
        }
      if (!expect_table || !is_identifier (&token) || is_clause_word (&token))
        {
          expect_table = FALSE;
          continue;
        }
      {
        g_autofree char *table = token_name (&token);
        const char *after = p;
        Token next;

        g_hash_table_replace (aliases, g_strdup (table), g_strdup (table));
        expect_table = FALSE;
        if (!next_token (&after, &next))
          break;
        if (token_is (&next, "as") && !next_token (&after, &next))
          break;
        if (is_identifier (&next) && !is_clause_word (&next) && !ends_from (&next))
          {
            g_autofree char *alias = token_name (&next);

            g_hash_table_replace (aliases, g_steal_pointer (&alias), g_strdup (table));
            p = after;
          }
      }
    }
  return aliases;
}

/* The provider. */

struct _DySqlCompletion {
  GObject parent_instance;

  DySqlSession *session;
  GPtrArray *tables;   /* char*, NULL until listed */
  GHashTable *columns; /* table -> GPtrArray of char* */
  gboolean prefetching;
};

static void dy_sql_completion_provider_init (GtkSourceCompletionProviderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DySqlCompletion, dy_sql_completion, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GTK_SOURCE_TYPE_COMPLETION_PROVIDER,
                                                      dy_sql_completion_provider_init))

/* What a worker fetches, and what it found. */
typedef struct {
  DySqlSession *session;
  gboolean want_tables;
  GPtrArray *want_columns; /* table names */
  char *word;
  char *qualifier;     /* the table after which "x." was typed, or NULL */
  GPtrArray *tables;   /* found */
  GHashTable *columns; /* found: table -> GPtrArray */
} Fetch;

static void
fetch_free (Fetch *f)
{
  dy_sql_session_unref (f->session);
  g_ptr_array_unref (f->want_columns);
  g_free (f->word);
  g_free (f->qualifier);
  g_clear_pointer (&f->tables, g_ptr_array_unref);
  g_hash_table_unref (f->columns);
  g_free (f);
}

static Fetch *
fetch_new (DySqlCompletion *self)
{
  Fetch *f = g_new0 (Fetch, 1);

  f->session = dy_sql_session_ref (self->session);
  f->want_tables = self->tables == NULL;
  f->want_columns = g_ptr_array_new_with_free_func (g_free);
  f->columns
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  return f;
}

static void
fetch_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Fetch *f = task_data;
  GError *error = NULL;
  DdbSql *sql;

  g_mutex_lock (&f->session->names_lock);
  sql = dy_sql_session_names (f->session, &error);
  if (sql != NULL && f->want_tables)
    f->tables = ddb_sql_list_tables (sql, cancellable, &error);
  for (guint i = 0; sql != NULL && error == NULL && i < f->want_columns->len; i++)
    {
      g_autoptr (GError) local = NULL;
      GPtrArray *columns
          = ddb_sql_list_columns (sql, f->want_columns->pdata[i], cancellable, &local);

      /* a name that is no table (a typo, a CTE) has no columns to offer */
      g_hash_table_insert (f->columns, g_strdup (f->want_columns->pdata[i]),
                           columns != NULL ? columns : g_ptr_array_new_with_free_func (g_free));
    }
  g_mutex_unlock (&f->session->names_lock);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* Takes in what a worker found. */
static void
merge (DySqlCompletion *self, Fetch *f)
{
  GHashTableIter iter;
  gpointer table, columns;

  if (f->tables != NULL && self->tables == NULL)
    self->tables = g_ptr_array_ref (f->tables);
  g_hash_table_iter_init (&iter, f->columns);
  while (g_hash_table_iter_next (&iter, &table, &columns))
    if (!g_hash_table_contains (self->columns, table))
      g_hash_table_insert (self->columns, g_strdup (table), g_ptr_array_ref (columns));
}

static void
prefetched (GObject *source, GAsyncResult *result, gpointer user_data)
{
  DySqlCompletion *self = DY_SQL_COMPLETION (source);
  g_autoptr (GError) error = NULL;

  self->prefetching = FALSE;
  if (g_task_propagate_boolean (G_TASK (result), &error))
    merge (self, g_task_get_task_data (G_TASK (result)));
  else
    g_debug ("no table names for completion: %s", error->message);
}

void
dy_sql_completion_prefetch (DySqlCompletion *self)
{
  g_autoptr (GTask) task = NULL;

  if (self->tables != NULL || self->prefetching)
    return;
  self->prefetching = TRUE;
  task = g_task_new (self, NULL, prefetched, NULL);
  g_task_set_source_tag (task, dy_sql_completion_prefetch);
  g_task_set_task_data (task, fetch_new (self), (GDestroyNotify) fetch_free);
  g_task_run_in_thread (task, fetch_thread);
}

GPtrArray *
dy_sql_completion_get_tables (DySqlCompletion *self)
{
  return self->tables;
}

GPtrArray *
dy_sql_completion_get_columns (DySqlCompletion *self, const char *table)
{
  return g_hash_table_lookup (self->columns, table);
}

/* The text of the buffer, and the name before "." just before the word being typed. */
static char *
qualifier_before (GtkSourceCompletionContext *context)
{
  GtkTextIter begin, end, start;
  g_autofree char *before = NULL;
  gsize len;
  const char *p;

  if (!gtk_source_completion_context_get_bounds (context, &begin, &end))
    return NULL;
  start = begin;
  gtk_text_iter_set_line_offset (&start, 0);
  before = gtk_text_iter_get_slice (&start, &begin);
  len = strlen (before);
  if (len < 2 || before[len - 1] != '.')
    return NULL;
  before[len - 1] = '\0';
  p = before + len - 1;
  if (p[-1] == '"')
    {
      const char *open = g_strrstr_len (before, (gssize) (p - 1 - before), "\"");

      return open != NULL ? g_strndup (open + 1, (gsize) (p - 2 - open)) : NULL;
    }
  while (p > before && (g_ascii_isalnum (p[-1]) || p[-1] == '_'))
    p--;
  return *p != '\0' ? g_strdup (p) : NULL;
}

static void
dy_sql_completion_populate_async (GtkSourceCompletionProvider *provider,
                                  GtkSourceCompletionContext *context, GCancellable *cancellable,
                                  GAsyncReadyCallback callback, gpointer user_data)
{
  DySqlCompletion *self = DY_SQL_COMPLETION (provider);
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (gtk_source_completion_context_get_buffer (context));
  GtkTextIter start, end;
  g_autofree char *text = NULL;
  g_autoptr (GHashTable) aliases = NULL;
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autofree char *qualifier = qualifier_before (context);
  Fetch *f = fetch_new (self);
  GHashTableIter iter;
  gpointer table;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  aliases = dy_sql_completion_scan_tables (text);
  f->word = gtk_source_completion_context_get_word (context);
  if (qualifier != NULL)
    {
      const char *resolved = g_hash_table_lookup (aliases, qualifier);

      f->qualifier = g_strdup (resolved != NULL ? resolved : qualifier);
      if (!g_hash_table_contains (self->columns, f->qualifier))
        g_ptr_array_add (f->want_columns, g_strdup (f->qualifier));
    }
  else
    {
      g_hash_table_iter_init (&iter, aliases);
      while (g_hash_table_iter_next (&iter, NULL, &table))
        if (!g_hash_table_contains (self->columns, table)
            && !g_ptr_array_find_with_equal_func (f->want_columns, table, g_str_equal, NULL))
          g_ptr_array_add (f->want_columns, g_strdup (table));
      /* the columns of the tables the statement reads, whatever alias they go by */
      g_object_set_data_full (G_OBJECT (task), "tables", g_hash_table_ref (aliases),
                              (GDestroyNotify) g_hash_table_unref);
    }
  g_task_set_source_tag (task, dy_sql_completion_populate_async);
  g_task_set_task_data (task, f, (GDestroyNotify) fetch_free);
  g_task_run_in_thread (task, fetch_thread);
}

static void
add_columns (GListStore *store, GHashTable *seen, const char *table, GPtrArray *columns)
{
  for (guint i = 0; columns != NULL && i < columns->len; i++)
    if (g_hash_table_add (seen, columns->pdata[i]))
      {
        g_autoptr (DySqlProposal) p = proposal_new (columns->pdata[i], table, FALSE);

        g_list_store_append (store, p);
      }
}

static GListModel *
dy_sql_completion_populate_finish (GtkSourceCompletionProvider *provider, GAsyncResult *result,
                                   GError **error)
{
  DySqlCompletion *self = DY_SQL_COMPLETION (provider);
  Fetch *f = g_task_get_task_data (G_TASK (result));
  GHashTable *aliases = g_object_get_data (G_OBJECT (result), "tables");
  g_autoptr (GListStore) store = g_list_store_new (DY_TYPE_SQL_PROPOSAL);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GtkStringFilter *filter;
  GtkExpression *expression;

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;
  merge (self, f);
  if (f->qualifier != NULL)
    add_columns (store, seen, f->qualifier, g_hash_table_lookup (self->columns, f->qualifier));
  else
    {
      GHashTableIter iter;
      gpointer table;
      g_autoptr (GHashTable) done = g_hash_table_new (g_str_hash, g_str_equal);

      g_hash_table_iter_init (&iter, aliases);
      while (g_hash_table_iter_next (&iter, NULL, &table))
        if (g_hash_table_add (done, table))
          add_columns (store, seen, table, g_hash_table_lookup (self->columns, table));
      for (guint i = 0; self->tables != NULL && i < self->tables->len; i++)
        {
          g_autoptr (DySqlProposal) p = proposal_new (self->tables->pdata[i], _ ("table"), TRUE);

          g_list_store_append (store, p);
        }
    }
  expression = gtk_property_expression_new (DY_TYPE_SQL_PROPOSAL, NULL, "name");
  filter = gtk_string_filter_new (expression);
  gtk_string_filter_set_match_mode (filter, GTK_STRING_FILTER_MATCH_MODE_PREFIX);
  gtk_string_filter_set_ignore_case (filter, TRUE);
  gtk_string_filter_set_search (filter, f->word);
  return G_LIST_MODEL (
      gtk_filter_list_model_new (G_LIST_MODEL (g_steal_pointer (&store)), GTK_FILTER (filter)));
}

static void
dy_sql_completion_refilter (GtkSourceCompletionProvider *provider,
                            GtkSourceCompletionContext *context, GListModel *model)
{
  g_autofree char *word = gtk_source_completion_context_get_word (context);
  GtkFilter *filter = GTK_IS_FILTER_LIST_MODEL (model)
                          ? gtk_filter_list_model_get_filter (GTK_FILTER_LIST_MODEL (model))
                          : NULL;

  if (GTK_IS_STRING_FILTER (filter))
    gtk_string_filter_set_search (GTK_STRING_FILTER (filter), word);
}

static void
dy_sql_completion_display (GtkSourceCompletionProvider *provider,
                           GtkSourceCompletionContext *context,
                           GtkSourceCompletionProposal *proposal, GtkSourceCompletionCell *cell)
{
  DySqlProposal *p = DY_SQL_PROPOSAL (proposal);

  switch (gtk_source_completion_cell_get_column (cell))
    {
    case GTK_SOURCE_COMPLETION_COLUMN_ICON:
      gtk_source_completion_cell_set_icon_name (cell, p->is_table ? "view-grid-symbolic"
                                                                  : "format-justify-left-symbolic");
      break;
    case GTK_SOURCE_COMPLETION_COLUMN_TYPED_TEXT:
      gtk_source_completion_cell_set_text (cell, p->name);
      break;
    case GTK_SOURCE_COMPLETION_COLUMN_AFTER:
      gtk_source_completion_cell_set_text (cell, p->detail);
      break;
    case GTK_SOURCE_COMPLETION_COLUMN_BEFORE:
    case GTK_SOURCE_COMPLETION_COLUMN_COMMENT:
    case GTK_SOURCE_COMPLETION_COLUMN_DETAILS:
    default:
      gtk_source_completion_cell_set_text (cell, NULL);
      break;
    }
}

static void
dy_sql_completion_activate (GtkSourceCompletionProvider *provider,
                            GtkSourceCompletionContext *context,
                            GtkSourceCompletionProposal *proposal)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (gtk_source_completion_context_get_buffer (context));
  GtkTextIter begin, end;

  gtk_source_completion_context_get_bounds (context, &begin, &end);
  gtk_text_buffer_begin_user_action (buffer);
  gtk_text_buffer_delete (buffer, &begin, &end);
  gtk_text_buffer_insert (buffer, &begin, DY_SQL_PROPOSAL (proposal)->text, -1);
  gtk_text_buffer_end_user_action (buffer);
}

static char *
dy_sql_completion_get_title (GtkSourceCompletionProvider *provider)
{
  return g_strdup (_ ("Tables and columns"));
}

static gboolean
dy_sql_completion_is_trigger (GtkSourceCompletionProvider *provider, const GtkTextIter *iter,
                              gunichar ch)
{
  /* "p." offers p's columns at once */
  return ch == '.';
}

static void
dy_sql_completion_provider_init (GtkSourceCompletionProviderInterface *iface)
{
  iface->get_title = dy_sql_completion_get_title;
  iface->is_trigger = dy_sql_completion_is_trigger;
  iface->populate_async = dy_sql_completion_populate_async;
  iface->populate_finish = dy_sql_completion_populate_finish;
  iface->refilter = dy_sql_completion_refilter;
  iface->display = dy_sql_completion_display;
  iface->activate = dy_sql_completion_activate;
}

static void
dy_sql_completion_finalize (GObject *object)
{
  DySqlCompletion *self = DY_SQL_COMPLETION (object);

  dy_sql_session_unref (self->session);
  g_clear_pointer (&self->tables, g_ptr_array_unref);
  g_hash_table_unref (self->columns);
  G_OBJECT_CLASS (dy_sql_completion_parent_class)->finalize (object);
}

static void
dy_sql_completion_class_init (DySqlCompletionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dy_sql_completion_finalize;
}

static void
dy_sql_completion_init (DySqlCompletion *self)
{
  self->columns
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
}

DySqlCompletion *
dy_sql_completion_new (DySqlSession *session)
{
  DySqlCompletion *self = g_object_new (DY_TYPE_SQL_COMPLETION, NULL);

  self->session = dy_sql_session_ref (session);
  return self;
}
