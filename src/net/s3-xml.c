/* s3-xml.c: S3's XML answers read with GLib's GMarkup: the <Error> body (Code, Message, Region)
 * and ListObjectsV2's <ListBucketResult> pages (Contents, CommonPrefixes, IsTruncated,
 * NextContinuationToken, EncodingType). */
#include <stdlib.h>
#include <string.h>

#include "net/s3.h"

/* The element path and the text of the element being read; ON_END gets each element's name, its
 * parent's name and its text. */
typedef struct {
  GPtrArray *stack; /* char * */
  GString *text;
  void (*on_end) (gpointer data, const char *parent, const char *name, const char *text);
  gpointer data;
  char *root;
} Reader;

static void
reader_start (GMarkupParseContext *ctx, const char *name, const char **attr_names,
              const char **attr_values, gpointer user_data, GError **error)
{
  Reader *r = user_data;

  if (r->stack->len == 0 && r->root == NULL)
    r->root = g_strdup (name);
  g_ptr_array_add (r->stack, g_strdup (name));
  g_string_truncate (r->text, 0);
}

static void
reader_end (GMarkupParseContext *ctx, const char *name, gpointer user_data, GError **error)
{
  Reader *r = user_data;
  const char *parent = r->stack->len >= 2 ? g_ptr_array_index (r->stack, r->stack->len - 2)
                                          : NULL;

  r->on_end (r->data, parent, name, r->text->str);
  g_ptr_array_remove_index (r->stack, r->stack->len - 1);
  g_string_truncate (r->text, 0);
}

static void
reader_text (GMarkupParseContext *ctx, const char *text, gsize len, gpointer user_data,
             GError **error)
{
  Reader *r = user_data;

  g_string_append_len (r->text, text, (gssize) len);
}

/* Parses XML; *ROOT receives the root element's name. */
static gboolean
reader_run (const char *xml, gsize len,
            void (*on_end) (gpointer, const char *, const char *, const char *), gpointer data,
            char **root, GError **error)
{
  static const GMarkupParser parser = { reader_start, reader_end, reader_text, NULL, NULL };
  Reader r = { 0 };
  GMarkupParseContext *ctx;
  gboolean ok;

  r.stack = g_ptr_array_new_with_free_func (g_free);
  r.text = g_string_new ("");
  r.on_end = on_end;
  r.data = data;
  ctx = g_markup_parse_context_new (&parser, G_MARKUP_PREFIX_ERROR_POSITION, &r, NULL);
  ok = g_markup_parse_context_parse (ctx, xml, (gssize) len, error)
       && g_markup_parse_context_end_parse (ctx, error);
  g_markup_parse_context_free (ctx);
  g_ptr_array_unref (r.stack);
  g_string_free (r.text, TRUE);
  if (ok && r.root == NULL)
    {
      g_set_error_literal (error, G_MARKUP_ERROR, G_MARKUP_ERROR_EMPTY, "No element");
      ok = FALSE;
    }
  if (ok)
    *root = r.root;
  else
    g_free (r.root);
  return ok;
}

/* ---- <Error> ---- */

typedef struct {
  char *code;
  char *message;
  char *region;
} ErrorBody;

static void
error_on_end (gpointer data, const char *parent, const char *name, const char *text)
{
  ErrorBody *e = data;
  char **field = NULL;

  if (parent == NULL || strcmp (parent, "Error") != 0)
    return;
  if (strcmp (name, "Code") == 0)
    field = &e->code;
  else if (strcmp (name, "Message") == 0)
    field = &e->message;
  else if (strcmp (name, "Region") == 0)
    field = &e->region;
  if (field != NULL)
    {
      g_free (*field);
      *field = g_strdup (text);
    }
}

gboolean
ddb_s3_parse_error (const char *xml, gsize len, char **code, char **message, char **region)
{
  ErrorBody e = { 0 };
  g_autofree char *root = NULL;
  gboolean ok;

  *code = *message = *region = NULL;
  ok = xml != NULL && len > 0 && reader_run (xml, len, error_on_end, &e, &root, NULL)
       && strcmp (root, "Error") == 0;
  if (!ok)
    {
      g_free (e.code);
      g_free (e.message);
      g_free (e.region);
      return FALSE;
    }
  *code = e.code;
  *message = e.message;
  *region = e.region;
  return TRUE;
}

/* ---- <ListBucketResult> ---- */

static void
object_free (gpointer p)
{
  DdbS3Object *o = p;

  g_free (o->key);
  g_free (o->etag);
  g_free (o);
}

DdbS3Listing *
ddb_s3_listing_new (void)
{
  DdbS3Listing *l = g_new0 (DdbS3Listing, 1);

  l->objects = g_ptr_array_new_with_free_func (object_free);
  l->common_prefixes = g_ptr_array_new_with_free_func (g_free);
  return l;
}

void
ddb_s3_listing_free (DdbS3Listing *listing)
{
  if (listing == NULL)
    return;
  g_ptr_array_unref (listing->objects);
  g_ptr_array_unref (listing->common_prefixes);
  g_free (listing);
}

typedef struct {
  GPtrArray *objects;  /* this page's */
  GPtrArray *prefixes; /* this page's */
  DdbS3Object *current;
  char *next_token;
  char *encoding;
  gboolean truncated;
  gboolean bad_number;
} ListPage;

static gint64
parse_time (const char *text)
{
  g_autoptr (GDateTime) dt = g_date_time_new_from_iso8601 (text, NULL);

  return dt != NULL ? g_date_time_to_unix (dt) : 0;
}

static void
list_on_end (gpointer data, const char *parent, const char *name, const char *text)
{
  ListPage *p = data;

  if (parent == NULL)
    return;
  if (strcmp (parent, "ListBucketResult") == 0)
    {
      if (strcmp (name, "IsTruncated") == 0)
        p->truncated = strcmp (text, "true") == 0;
      else if (strcmp (name, "NextContinuationToken") == 0)
        {
          g_free (p->next_token);
          p->next_token = g_strdup (text);
        }
      else if (strcmp (name, "EncodingType") == 0)
        {
          g_free (p->encoding);
          p->encoding = g_strdup (text);
        }
      else if (strcmp (name, "Contents") == 0 && p->current != NULL)
        {
          g_ptr_array_add (p->objects, p->current);
          p->current = NULL;
        }
    }
  else if (strcmp (parent, "Contents") == 0)
    {
      if (p->current == NULL)
        p->current = g_new0 (DdbS3Object, 1);
      if (strcmp (name, "Key") == 0)
        {
          g_free (p->current->key);
          p->current->key = g_strdup (text);
        }
      else if (strcmp (name, "ETag") == 0)
        {
          g_free (p->current->etag);
          p->current->etag = g_strdup (text);
        }
      else if (strcmp (name, "Size") == 0)
        {
          char *end = NULL;

          p->current->size = g_ascii_strtoull (text, &end, 10);
          if (*text == '\0' || end == NULL || *end != '\0')
            p->bad_number = TRUE;
        }
      else if (strcmp (name, "LastModified") == 0)
        p->current->last_modified = parse_time (text);
    }
  else if (strcmp (parent, "CommonPrefixes") == 0 && strcmp (name, "Prefix") == 0)
    g_ptr_array_add (p->prefixes, g_strdup (text));
}

/* Python's unquote_plus, as botocore decodes url-encoded listings: '+' is a space, %XX a
 * byte. */
static char *
unquote_plus (const char *s)
{
  GString *out = g_string_new ("");

  for (const char *p = s; *p != '\0'; p++)
    {
      if (*p == '+')
        g_string_append_c (out, ' ');
      else if (*p == '%' && g_ascii_isxdigit (p[1]) && g_ascii_isxdigit (p[2]))
        {
          g_string_append_c (out, (char) (g_ascii_xdigit_value (p[1]) * 16
                                          + g_ascii_xdigit_value (p[2])));
          p += 2;
        }
      else
        g_string_append_c (out, *p);
    }
  return g_string_free (out, FALSE);
}

gboolean
ddb_s3_parse_list_page (const char *xml, gsize len, DdbS3Listing *listing, char **next_token,
                        GError **error)
{
  ListPage p = { 0 };
  g_autofree char *root = NULL;
  g_autoptr (GError) local = NULL;
  gboolean url_encoded;
  gboolean ok;

  *next_token = NULL;
  p.objects = g_ptr_array_new_with_free_func (object_free);
  p.prefixes = g_ptr_array_new_with_free_func (g_free);
  ok = reader_run (xml, len, list_on_end, &p, &root, &local);
  if (ok && strcmp (root, "ListBucketResult") != 0)
    ok = FALSE;
  for (guint i = 0; ok && i < p.objects->len; i++)
    if (((DdbS3Object *) g_ptr_array_index (p.objects, i))->key == NULL)
      ok = FALSE;
  if (ok && (p.bad_number || (p.truncated && (p.next_token == NULL || *p.next_token == '\0'))))
    ok = FALSE;
  if (!ok)
    g_set_error (error, DDB_S3_ERROR, DDB_S3_ERROR_BAD_RESPONSE,
                 "BadResponse: the ListObjectsV2 answer does not parse%s%s",
                 local != NULL ? ": " : "", local != NULL ? local->message : "");
  url_encoded = p.encoding != NULL && strcmp (p.encoding, "url") == 0;
  for (guint i = 0; ok && i < p.objects->len; i++)
    {
      DdbS3Object *o = g_ptr_array_index (p.objects, i);

      if (url_encoded)
        {
          char *decoded = unquote_plus (o->key);

          g_free (o->key);
          o->key = decoded;
        }
      g_ptr_array_add (listing->objects, o);
    }
  if (ok)
    g_ptr_array_set_free_func (p.objects, NULL);
  for (guint i = 0; ok && i < p.prefixes->len; i++)
    {
      char *prefix = g_ptr_array_index (p.prefixes, i);

      g_ptr_array_add (listing->common_prefixes,
                       url_encoded ? unquote_plus (prefix) : g_strdup (prefix));
    }
  if (ok && p.truncated)
    *next_token = g_steal_pointer (&p.next_token);
  if (p.current != NULL)
    object_free (p.current);
  g_ptr_array_unref (p.objects);
  g_ptr_array_unref (p.prefixes);
  g_free (p.next_token);
  g_free (p.encoding);
  return ok;
}
