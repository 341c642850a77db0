/* xml-reader.c: the strict XML reader of xml-reader.h. */
#include "net/xml-reader.h"

#include "net/hash.h"

#include <string.h>

typedef struct {
  const char *start, *p, *end;
  const DdbXmlHandler *handler;
  gpointer data;
  DdbXmlName stack[DDB_XML_MAX_DEPTH];
  guint depth;
  const char *why; /* the first reason for refusing, and where */
  gsize why_at;
} XmlReader;

static gboolean
xml_fail (XmlReader *r, const char *why)
{
  if (r->why == NULL)
    {
      r->why = why;
      r->why_at = (gsize) (r->p - r->start);
    }
  return FALSE;
}

static gboolean
xml_at (const XmlReader *r, const char *literal)
{
  gsize n = strlen (literal);

  return (gsize) (r->end - r->p) >= n && memcmp (r->p, literal, n) == 0;
}

static gboolean
xml_skip (XmlReader *r, const char *literal)
{
  if (!xml_at (r, literal))
    return FALSE;
  r->p += strlen (literal);
  return TRUE;
}

static gboolean
xml_is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Skips S?; TRUE when there was some. */
static gboolean
xml_skip_space (XmlReader *r)
{
  const char *from = r->p;

  while (r->p < r->end && xml_is_space (*r->p))
    r->p++;
  return r->p != from;
}

/* The first LITERAL in [P, END), or NULL. */
static const char *
xml_find (const char *p, const char *end, const char *literal)
{
  gsize n = strlen (literal);

  while ((gsize) (end - p) >= n)
    {
      const char *c = memchr (p, literal[0], (gsize) (end - p) - n + 1);

      if (c == NULL)
        return NULL;
      if (memcmp (c, literal, n) == 0)
        return c;
      p = c + 1;
    }
  return NULL;
}

/* Char: what a document may hold, raw or by reference. */
static gboolean
xml_is_char (gunichar c)
{
  return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF)
         || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
}

/* The whole input is UTF-8 (which refuses a NUL and the surrogates) of XML characters: the
 * reader after this may decode without checking. */
static gboolean
xml_valid_chars (const char *text, gsize len)
{
  const char *end = text + len;

  if (!g_utf8_validate_len (text, len, NULL))
    return FALSE;
  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    if ((guchar) *p < 0x80 ? !xml_is_char ((guchar) *p) : !xml_is_char (g_utf8_get_char (p)))
      return FALSE;
  return TRUE;
}

static gboolean
xml_is_name_start (gunichar c)
{
  return c == ':' || (c >= 'A' && c <= 'Z') || c == '_' || (c >= 'a' && c <= 'z')
         || (c >= 0xC0 && c <= 0xD6) || (c >= 0xD8 && c <= 0xF6) || (c >= 0xF8 && c <= 0x2FF)
         || (c >= 0x370 && c <= 0x37D) || (c >= 0x37F && c <= 0x1FFF)
         || (c >= 0x200C && c <= 0x200D) || (c >= 0x2070 && c <= 0x218F)
         || (c >= 0x2C00 && c <= 0x2FEF) || (c >= 0x3001 && c <= 0xD7FF)
         || (c >= 0xF900 && c <= 0xFDCF) || (c >= 0xFDF0 && c <= 0xFFFD)
         || (c >= 0x10000 && c <= 0xEFFFF);
}

static gboolean
xml_is_name_char (gunichar c)
{
  return xml_is_name_start (c) || c == '-' || c == '.' || (c >= '0' && c <= '9') || c == 0xB7
         || (c >= 0x300 && c <= 0x36F) || (c >= 0x203F && c <= 0x2040);
}

static gboolean
xml_name (XmlReader *r, DdbXmlName *name)
{
  const char *p = r->p;

  if (p == r->end || !xml_is_name_start (g_utf8_get_char (p)))
    return xml_fail (r, "a name expected");
  do
    p = g_utf8_next_char (p);
  while (p < r->end && xml_is_name_char (g_utf8_get_char (p)));
  name->str = r->p;
  name->len = (gsize) (p - r->p);
  r->p = p;
  return TRUE;
}

static gboolean
xml_name_equal (const DdbXmlName *a, const DdbXmlName *b)
{
  return a->len == b->len && memcmp (a->str, b->str, a->len) == 0;
}

/* Hands LEN bytes of character data to the handler, each \r\n and lone \r as \n. */
static void
xml_text (XmlReader *r, const char *text, gsize len)
{
  const char *end = text + len;

  if (r->handler->text == NULL)
    return;
  while (text < end)
    {
      const char *cr = memchr (text, '\r', (gsize) (end - text));

      if (cr == NULL)
        {
          r->handler->text (r->data, text, (gsize) (end - text));
          return;
        }
      if (cr > text)
        r->handler->text (r->data, text, (gsize) (cr - text));
      r->handler->text (r->data, "\n", 1);
      text = cr + 1;
      if (text < end && *text == '\n')
        text++;
    }
}

/* At "&": an entity or character reference, its UTF-8 into OUT (at most 4 bytes). */
static gboolean
xml_reference (XmlReader *r, char out[8], gsize *out_len)
{
  static const struct {
    const char *name;
    char c;
  } entities[]
      = { { "lt", '<' }, { "gt", '>' }, { "amp", '&' }, { "quot", '"' }, { "apos", '\'' } };
  gunichar c = 0;

  r->p++;
  if (xml_skip (r, "#"))
    {
      guint base = xml_skip (r, "x") ? 16 : 10;
      const char *digits = r->p;

      /* Saturates above U+10FFFF rather than overflow. */
      while (r->p < r->end
             && (base == 16 ? g_ascii_isxdigit (*r->p) : g_ascii_isdigit (*r->p)))
        {
          c = MIN (c * base + (guint) g_ascii_xdigit_value (*r->p), 0x110000);
          r->p++;
        }
      if (r->p == digits || !xml_skip (r, ";"))
        return xml_fail (r, "a malformed character reference");
      if (!xml_is_char (c))
        return xml_fail (r, "a reference to a character XML does not allow");
      *out_len = (gsize) g_unichar_to_utf8 (c, out);
      return TRUE;
    }
  else
    {
      DdbXmlName name;

      if (!xml_name (r, &name) || !xml_skip (r, ";"))
        return xml_fail (r, "a malformed entity reference");
      for (guint i = 0; i < G_N_ELEMENTS (entities); i++)
        if (name.len == strlen (entities[i].name)
            && memcmp (name.str, entities[i].name, name.len) == 0)
          {
            out[0] = entities[i].c;
            *out_len = 1;
            return TRUE;
          }
      return xml_fail (r, "an undefined entity");
    }
}

/* At a quote: an attribute value, checked and dropped. */
static gboolean
xml_attribute_value (XmlReader *r)
{
  char quote, buf[8];
  gsize n;

  if (r->p == r->end || (*r->p != '"' && *r->p != '\''))
    return xml_fail (r, "a quoted attribute value expected");
  quote = *r->p++;
  for (;;)
    {
      if (r->p == r->end)
        return xml_fail (r, "an unterminated attribute value");
      if (*r->p == quote)
        {
          r->p++;
          return TRUE;
        }
      if (*r->p == '<')
        return xml_fail (r, "a '<' in an attribute value");
      if (*r->p == '&')
        {
          if (!xml_reference (r, buf, &n))
            return FALSE;
        }
      else
        r->p++;
    }
}

/* At "<" and a name: a start tag, its element pushed. *EMPTY for "/>". */
static gboolean
xml_start_tag (XmlReader *r, gboolean *empty)
{
  DdbXmlName name, attributes[DDB_XML_MAX_ATTRIBUTES];
  guint n_attributes = 0;

  r->p++;
  if (!xml_name (r, &name))
    return FALSE;
  if (r->depth == DDB_XML_MAX_DEPTH)
    return xml_fail (r, "elements nested too deep");
  r->stack[r->depth++] = name;
  for (;;)
    {
      gboolean space = xml_skip_space (r);
      DdbXmlName *attribute;

      if (xml_skip (r, ">"))
        {
          *empty = FALSE;
          return TRUE;
        }
      if (xml_skip (r, "/>"))
        {
          *empty = TRUE;
          return TRUE;
        }
      if (r->p == r->end)
        return xml_fail (r, "an unterminated start tag");
      if (!space)
        return xml_fail (r, "a space expected before an attribute");
      if (n_attributes == DDB_XML_MAX_ATTRIBUTES)
        return xml_fail (r, "too many attributes");
      attribute = &attributes[n_attributes];
      if (!xml_name (r, attribute))
        return FALSE;
      for (guint i = 0; i < n_attributes; i++)
        if (xml_name_equal (&attributes[i], attribute))
          return xml_fail (r, "an attribute given twice");
      n_attributes++;
      xml_skip_space (r);
      if (!xml_skip (r, "="))
        return xml_fail (r, "'=' expected after an attribute name");
      xml_skip_space (r);
      if (!xml_attribute_value (r))
        return FALSE;
    }
}

/* At "</": the end tag of the innermost open element. */
static gboolean
xml_end_tag (XmlReader *r)
{
  DdbXmlName name;

  r->p += 2;
  if (!xml_name (r, &name))
    return FALSE;
  xml_skip_space (r);
  if (!xml_skip (r, ">"))
    return xml_fail (r, "'>' expected to end an end tag");
  if (!xml_name_equal (&name, &r->stack[r->depth - 1]))
    return xml_fail (r, "an end tag that does not match its start tag");
  return TRUE;
}

/* At "<!--". */
static gboolean
xml_comment (XmlReader *r)
{
  const char *dashes = xml_find (r->p + 4, r->end, "--");

  if (dashes == NULL || dashes + 2 == r->end)
    return xml_fail (r, "an unterminated comment");
  if (dashes[2] != '>')
    return xml_fail (r, "a '--' in a comment");
  r->p = dashes + 3;
  return TRUE;
}

/* At "<?": a processing instruction, skipped. */
static gboolean
xml_pi (XmlReader *r)
{
  DdbXmlName target;
  const char *close;

  r->p += 2;
  if (!xml_name (r, &target))
    return FALSE;
  if (target.len == 3 && g_ascii_strncasecmp (target.str, "xml", 3) == 0)
    return xml_fail (r, "an XML declaration that does not start the document");
  if (xml_skip (r, "?>"))
    return TRUE;
  if (!xml_skip_space (r))
    return xml_fail (r, "a space expected after a processing instruction's target");
  close = xml_find (r->p, r->end, "?>");
  if (close == NULL)
    return xml_fail (r, "an unterminated processing instruction");
  r->p = close + 2;
  return TRUE;
}

/* Comments, processing instructions and white space (Misc*), before and after the root. */
static gboolean
xml_misc (XmlReader *r)
{
  for (;;)
    {
      xml_skip_space (r);
      if (xml_at (r, "<!--"))
        {
          if (!xml_comment (r))
            return FALSE;
        }
      else if (xml_at (r, "<?"))
        {
          if (!xml_pi (r))
            return FALSE;
        }
      else
        return TRUE;
    }
}

/* Eq, then a quoted value without references (the XML declaration's). */
static gboolean
xml_declaration_value (XmlReader *r, const char **value, gsize *len)
{
  const char *close;
  char quote;

  xml_skip_space (r);
  if (!xml_skip (r, "="))
    return xml_fail (r, "'=' expected in the XML declaration");
  xml_skip_space (r);
  if (r->p == r->end || (*r->p != '"' && *r->p != '\''))
    return xml_fail (r, "a quoted value expected in the XML declaration");
  quote = *r->p++;
  close = memchr (r->p, quote, (gsize) (r->end - r->p));
  if (close == NULL)
    return xml_fail (r, "an unterminated XML declaration");
  *value = r->p;
  *len = (gsize) (close - r->p);
  r->p = close + 1;
  return TRUE;
}

static gboolean
xml_value_is (const char *value, gsize len, const char *literal)
{
  return len == strlen (literal) && memcmp (value, literal, len) == 0;
}

/* At "<?xml" and a space: the XML declaration. */
static gboolean
xml_declaration (XmlReader *r)
{
  const char *value;
  gsize len;
  gboolean space;

  r->p += 5;
  xml_skip_space (r);
  if (!xml_skip (r, "version"))
    return xml_fail (r, "a version expected in the XML declaration");
  if (!xml_declaration_value (r, &value, &len))
    return FALSE;
  if (len < 3 || memcmp (value, "1.", 2) != 0)
    return xml_fail (r, "an XML version other than 1.x");
  for (gsize i = 2; i < len; i++)
    if (!g_ascii_isdigit (value[i]))
      return xml_fail (r, "an XML version other than 1.x");
  space = xml_skip_space (r);
  if (space && xml_skip (r, "encoding"))
    {
      if (!xml_declaration_value (r, &value, &len))
        return FALSE;
      /* The reader reads UTF-8 only (GMarkup read anything as UTF-8). */
      if (len != 5 || g_ascii_strncasecmp (value, "UTF-8", 5) != 0)
        return xml_fail (r, "an encoding other than UTF-8");
      space = xml_skip_space (r);
    }
  if (space && xml_skip (r, "standalone"))
    {
      if (!xml_declaration_value (r, &value, &len))
        return FALSE;
      if (!xml_value_is (value, len, "yes") && !xml_value_is (value, len, "no"))
        return xml_fail (r, "standalone other than yes or no");
      xml_skip_space (r);
    }
  if (!xml_skip (r, "?>"))
    return xml_fail (r, "'?>' expected to end the XML declaration");
  return TRUE;
}

/* At "<": a start tag, the handler told; and the end if it is an empty-element tag. */
static gboolean
xml_open (XmlReader *r)
{
  gboolean empty;

  if (!xml_start_tag (r, &empty))
    return FALSE;
  r->handler->start (r->data, r->stack, r->depth);
  if (empty)
    {
      r->handler->end (r->data, r->stack, r->depth);
      r->depth--;
    }
  return TRUE;
}

/* At "<": the root element, and everything in it. */
static gboolean
xml_element (XmlReader *r)
{
  char buf[8];
  gsize n;

  if (!xml_open (r))
    return FALSE;
  while (r->depth > 0)
    {
      if (r->p == r->end)
        return xml_fail (r, "an unterminated element");
      if (xml_at (r, "</"))
        {
          if (!xml_end_tag (r))
            return FALSE;
          r->handler->end (r->data, r->stack, r->depth);
          r->depth--;
        }
      else if (xml_at (r, "<!--"))
        {
          if (!xml_comment (r))
            return FALSE;
        }
      else if (xml_skip (r, "<![CDATA["))
        {
          const char *close = xml_find (r->p, r->end, "]]>");

          if (close == NULL)
            return xml_fail (r, "an unterminated CDATA section");
          xml_text (r, r->p, (gsize) (close - r->p));
          r->p = close + 3;
        }
      else if (xml_at (r, "<?"))
        {
          if (!xml_pi (r))
            return FALSE;
        }
      else if (*r->p == '<')
        {
          if (!xml_open (r))
            return FALSE;
        }
      else if (*r->p == '&')
        {
          if (!xml_reference (r, buf, &n))
            return FALSE;
          if (r->handler->text != NULL)
            r->handler->text (r->data, buf, n);
          ddb_secure_zero (buf, sizeof buf);
        }
      else
        {
          const char *run = r->p;

          while (r->p < r->end && *r->p != '<' && *r->p != '&')
            r->p++;
          if (xml_find (run, r->p, "]]>") != NULL)
            return xml_fail (r, "a ']]>' in character data");
          xml_text (r, run, (gsize) (r->p - run));
        }
    }
  return TRUE;
}

gboolean
ddb_xml_read (const char *text, gsize len, const DdbXmlHandler *handler, gpointer data,
          const char **why, gsize *at)
{
  XmlReader r = { 0 };
  gboolean ok;

  r.start = r.p = text != NULL ? text : "";
  r.end = r.p + len;
  r.handler = handler;
  r.data = data;
  if (len > DDB_XML_MAX_SIZE)
    ok = xml_fail (&r, "a document too large");
  else if (!xml_valid_chars (r.p, len))
    ok = xml_fail (&r, "bytes that are not UTF-8 or not XML characters");
  else
    {
      xml_skip (&r, "\xEF\xBB\xBF");
      ok = (!xml_at (&r, "<?xml") || r.end - r.p < 6 || !xml_is_space (r.p[5])
            || xml_declaration (&r))
           && xml_misc (&r);
      if (!ok)
        ;
      else if (xml_at (&r, "<!DOCTYPE"))
        ok = xml_fail (&r, "a document type declaration");
      else if (r.p == r.end || *r.p != '<')
        ok = xml_fail (&r, r.p == r.end ? "no root element" : "text outside the root element");
      else
        ok = xml_element (&r) && xml_misc (&r)
             && (r.p == r.end || xml_fail (&r, "text or an element after the root element"));
    }
  *why = r.why;
  *at = r.why_at;
  return ok;
}
