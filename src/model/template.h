/* template.h: key templates such as "WS#{workspaceId}" or "PROJ#{createdAt}#{seq:04}": parsed into
 * literal and field parts, rendered from an item's or a request's inputs, and their literal prefix
 * (what a begins_with key condition can fix). GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DY_TEMPLATE_ERROR (dy_template_error_quark ())

typedef enum {
  DY_TEMPLATE_ERROR_SYNTAX,        /* malformed template text */
  DY_TEMPLATE_ERROR_MISSING_INPUT, /* a field has no value to render */
  DY_TEMPLATE_ERROR_BAD_VALUE,     /* a padded field's value is not a whole number */
} DyTemplateErrorCode;

GQuark dy_template_error_quark (void);

typedef enum {
  DY_TEMPLATE_LITERAL,
  DY_TEMPLATE_FIELD,
} DyTemplatePartKind;

typedef struct {
  DyTemplatePartKind kind;
  char *text;  /* the literal text (escapes resolved), or the field's name */
  guint width; /* a field's zero-padded width ("{seq:04}" is 4); 0 when unpadded */
  char *format; /* a timestamp field's date format ("{createdAt:%Y-%m}" is "%Y-%m"), else NULL */
} DyTemplatePart;

typedef struct {
  char *source;     /* the text as written */
  GPtrArray *parts; /* of DyTemplatePart*, adjacent literals merged */
} DyTemplate;

/* Parses TEXT: "{name}" a field, "{name:04}" a field zero-padded to 4 digits, "{name:%Y-%m}"
 * the year and month of a field holding an ISO 8601 timestamp (%Y %m %d %H %M %S %j and %%, all
 * fixed width, in UTC), "{{" and "}}" a literal brace, anything else literal. Names are letters, digits, '_', '-' and '.', not empty.
 * Fails with DY_TEMPLATE_ERROR_SYNTAX naming the offset of the fault. */
DyTemplate *dy_template_parse (const char *text, GError **error);
void dy_template_free (DyTemplate *tpl);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DyTemplate, dy_template_free)

/* Renders TPL with INPUTS (field name -> string value). A missing field fails with
 * DY_TEMPLATE_ERROR_MISSING_INPUT naming it; a padded field whose value is not a whole number
 * fails with DY_TEMPLATE_ERROR_BAD_VALUE, as does a dated field whose value is not an ISO 8601
 * timestamp. Values longer than their width are kept whole. */
char *dy_template_render (const DyTemplate *tpl, GHashTable *inputs, GError **error);

/* Appends one field PART of TPL rendered from VALUE to OUT; fails as dy_template_render does. */
gboolean dy_template_render_field (const DyTemplate *tpl, const DyTemplatePart *part,
                                   const char *value, GString *out, GError **error);

/* The literal text before the first field ("PROJ#" for "PROJ#{createdAt}"); the whole text when
 * there is no field; "" when the template starts with a field. */
char *dy_template_literal_prefix (const DyTemplate *tpl);

/* The number of field parts; 0 for a constant such as "META". */
guint dy_template_n_fields (const DyTemplate *tpl);

/* TRUE when every field of TPL has a value in INPUTS (NULL INPUTS: only for a constant). */
gboolean dy_template_fixed_by (const DyTemplate *tpl, GHashTable *inputs);

/* The rendered length in bytes, at most: literals as they are, a field as MAX_LENGTHS says
 * (field name -> GUINT_TO_POINTER (bytes)), else DEFAULT_LENGTH, and never under its width. */
gsize dy_template_max_length (const DyTemplate *tpl, GHashTable *max_lengths, gsize default_length);

G_END_DECLS
