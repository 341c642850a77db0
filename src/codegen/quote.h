/* quote.h: string and byte-string literals in each language codegen writes, exact for any
 * content: every byte of a UTF-8 string (U+0000 included, except in a shell word) and of a
 * binary value comes back unchanged when the language reads the literal. Characters that would
 * hide or reorder source text (controls, bidirectional overrides, line and paragraph
 * separators, BOM, noncharacters) are escaped; other printable Unicode (emoji, right-to-left
 * letters, combining marks) is written as it is. Hex digits in escapes are lowercase. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  DDB_LANG_CLI,    /* AWS CLI v2 in bash */
  DDB_LANG_PYTHON, /* Python 3, boto3 client */
  DDB_LANG_JS,     /* JavaScript (Node.js), AWS SDK v3 */
  DDB_LANG_JAVA,   /* Java, AWS SDK v2 */
  DDB_LANG_GO,     /* Go, AWS SDK v2 */
  DDB_LANG_RUST,   /* Rust, aws-sdk-dynamodb */
} DdbLang;

#define DDB_N_LANGS 6

/* "cli", "python", "js", "java", "go", "rust". */
const char *ddb_lang_name (DdbLang lang);
/* Also accepts "bash", "py", "javascript", "node", "golang", "rs". */
gboolean ddb_lang_from_name (const char *name, DdbLang *out);
/* "AWS CLI", "Python", "JavaScript", "Java", "Go", "Rust": for menus. */
const char *ddb_lang_title (DdbLang lang);

/* Appends a literal of `lang` holding the UTF-8 text DATA[0..LEN) (valid UTF-8, may contain
 * U+0000 except for the CLI):
 *   CLI:    a bash word: text in single quotes, ' written as \' ("'a'\''b'"), and the
 *           characters to escape in $'...' as \n \r \t or their UTF-8 bytes \xHH
 *           ("'a'$'\n''b'", "$'\xe2\x80\xae'"; bytes, since bash reads \u by the locale).
 *           No word can hold U+0000 (arguments are C strings): passing one is a programming
 *           error (g_return_if_fail), the JSON the CLI reads spells it \u0000.
 *   PYTHON: "..." with \\ \" \n \r \t and \xHH / \uHHHH / \UHHHHHHHH for the escaped characters
 *   JS:     "..." with \\ \" \n \r \t and \xHH / \uHHHH (astral escaped ones as surrogate pairs)
 *   JAVA:   "..." with \\ \" \n \r \t \b \f, other controls below U+0020 as three-digit octal
 *           (\000, never \u: Java reads \u escapes before it reads the literal), others \uHHHH
 *           (astral escaped ones as surrogate pairs)
 *   GO:     "..." with \\ \" \n \r \t, \xHH below U+0080, \uHHHH / \UHHHHHHHH above
 *   RUST:   "..." with \\ \" \n \r \t \0 and \u{H...} for the others
 * For the CLI the text is the shell word only: JSON escaping, when the word holds JSON, is the
 * caller's. */
void ddb_quote_string (GString *out, DdbLang lang, const char *data, gsize len);

/* Appends an expression of `lang` whose value is the bytes DATA[0..LEN) exactly:
 *   CLI:    the base64 text in a single-quoted word (the AWS CLI v2 reads blobs as base64)
 *   PYTHON: b"..." with \\ \" \n \r \t and \xHH for every other byte outside printable ASCII
 *   JS:     Buffer.from("BASE64", "base64")
 *   JAVA:   SdkBytes.fromByteArray(Base64.getDecoder().decode("BASE64"))
 *   GO:     []byte("...") with \\ \" \n \r \t and \xHH for every other byte outside printable
 *           ASCII
 *   RUST:   Blob::new(b"...".to_vec()) with \\ \" \n \r \t \0 and \xHH likewise */
void ddb_quote_bytes (GString *out, DdbLang lang, const guchar *data, gsize len);

/* TRUE for the code points codegen escapes even though the language could hold them as they
 * are: C0 and C1 controls, DEL, U+00AD, U+061C, U+180E, U+200B..U+200F, U+2028..U+202E,
 * U+2060..U+2069, U+FEFF, U+FFF9..U+FFFB, and the noncharacters U+FDD0..U+FDEF and U+xFFFE,
 * U+xFFFF of every plane (valid UTF-8, and accepted by g_utf8_validate and jansson, but
 * invisible, and some tools take U+FFFF for end of input). Surrogates never occur in valid
 * UTF-8. */
gboolean ddb_quote_must_escape (gunichar c);

G_END_DECLS
