/* codegen-unquote.h: strict readers of the literals src/codegen/quote.c writes, one per
 * language, for the fuzz target and the unit tests. Each follows its language's own rules (the
 * Java reader applies javac's \u translation first; Go's \xHH is a byte, Python's and JS's a
 * code point; Rust's bidirectional characters are a compile error) for a subset of that syntax
 * and refuses the rest: whatever the language would refuse (a raw newline, an unknown escape,
 * a lone surrogate) and, to stay small, some forms it would accept but quote.c never writes
 * (line continuations, unquoted shell characters, \N{...}). A refusal is a finding. */
#pragma once

#include <glib.h>

#include "codegen/quote.h"

G_BEGIN_DECLS

/* Reads LIT[0..LEN), a whole string literal of LANG, and appends the UTF-8 text it denotes to
 * OUT (Go: the bytes it denotes). On FALSE, *ERROR (when not NULL) says why. */
gboolean cg_unquote_string (DdbLang lang, const char *lit, gsize len, GString *out,
                            const char **error);

/* Reads LIT[0..LEN), a whole bytes expression of LANG in the form ddb_quote_bytes writes
 * (base64 included, which must be canonical), and appends its bytes to OUT. */
gboolean cg_unquote_bytes (DdbLang lang, const char *lit, gsize len, GString *out,
                           const char **error);

G_END_DECLS
