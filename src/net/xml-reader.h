/* xml-reader.h: a small strict XML reader for the answers that hold secrets (STS's): it reads a
 * whole document in place and allocates nothing, so nothing of it is left in freed memory.
 *
 * XML 1.0 (fifth edition) well-formedness for a document in UTF-8 without a document type
 * declaration, which is what STS sends: an optional byte order mark and XML declaration
 * (version 1.x, encoding UTF-8 if given, standalone), comments, processing instructions,
 * elements with attributes in either quote (namespace declarations are attributes to it),
 * character data with the five predefined entities and character references, CDATA sections,
 * self-closing tags; line ends normalized to \n. Anything else is refused: a DOCTYPE (STS sends
 * none; its entities are what a reader of secrets can do without), bytes that are not UTF-8 or
 * not XML characters (a NUL, most C0 controls, U+FFFE, U+FFFF), undefined entities, references
 * to characters XML does not allow, a "--" in a comment, "]]>" in character data, "<" in an
 * attribute value, an attribute given twice, mismatched or unterminated anything, text or a
 * second element outside the root.
 *
 * It reads a whole document in place and allocates nothing: element names are pointers into
 * the input, and text goes to the handler in pieces, pointers into the input or a few bytes of
 * a decoded reference (wiped after). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* STS's answers are a few kilobytes and four elements deep. */
#define DDB_XML_MAX_SIZE (1024 * 1024)
#define DDB_XML_MAX_DEPTH 64
#define DDB_XML_MAX_ATTRIBUTES 32

typedef struct {
  const char *str;
  gsize len;
} DdbXmlName;

typedef struct {
  /* An element starts or ends: STACK holds the open elements, the outermost first, this one
   * last (DEPTH of them). */
  void (*start) (gpointer data, const DdbXmlName *stack, guint depth);
  void (*end) (gpointer data, const DdbXmlName *stack, guint depth);
  /* Character data of the innermost open element, decoded, in pieces. */
  void (*text) (gpointer data, const char *text, gsize len);
} DdbXmlHandler;

/* Reads the document TEXT (LEN bytes, need not be NUL-terminated) through HANDLER. FALSE when
 * it is not well-formed (or too large or too deep), with *WHY saying why and *AT about where
 * (a byte offset); the handler may have been called before that was found. */
gboolean ddb_xml_read (const char *text, gsize len, const DdbXmlHandler *handler, gpointer data,
                       const char **why, gsize *at);

G_END_DECLS
