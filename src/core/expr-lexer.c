/* expr-lexer.c: the tokenizer of DynamoDB's expression language, a pure function over the
 * text in the manner of SQLite's tokenize.c. */
#include "core/expr-lexer.h"

#include <string.h>

static gboolean
is_letter (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static gboolean
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

static gboolean
is_word_char (char c)
{
  return is_letter (c) || is_digit (c) || c == '_';
}

static gboolean
is_space (char c)
{
  /* Only these four: any other control character is a syntax error in DynamoDB. */
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static const struct {
  const char *word;
  DdbTokenKind kind;
} keywords[] = {
  { "AND", DDB_TOK_AND },         { "OR", DDB_TOK_OR },   { "NOT", DDB_TOK_NOT },
  { "BETWEEN", DDB_TOK_BETWEEN }, { "IN", DDB_TOK_IN },   { "SET", DDB_TOK_SET },
  { "REMOVE", DDB_TOK_REMOVE },   { "ADD", DDB_TOK_ADD }, { "DELETE", DDB_TOK_DELETE },
};

static DdbTokenKind
word_kind (const char *w, gsize n)
{
  for (guint i = 0; i < G_N_ELEMENTS (keywords); i++)
    if (strlen (keywords[i].word) == n && g_ascii_strncasecmp (w, keywords[i].word, n) == 0)
      return keywords[i].kind;
  return DDB_TOK_ID;
}

/* Length of the UTF-8 sequence starting at s[0], clamped to what is left; 1 for a stray byte,
 * so a bad token never splits a character in an error message. */
static gsize
utf8_char_len (const char *s, gsize left)
{
  guchar c = (guchar) s[0];
  gsize n = 1;

  if (c >= 0xf0 && c < 0xf8)
    n = 4;
  else if (c >= 0xe0)
    n = c < 0xf0 ? 3 : 1;
  else if (c >= 0xc0)
    n = 2;
  if (n > left)
    return 1;
  for (gsize i = 1; i < n; i++)
    if (((guchar) s[i] & 0xc0) != 0x80)
      return 1;
  return n;
}

gsize
ddb_expr_lex (const char *text, gsize len, gsize pos, DdbToken *tok)
{
  gsize i = pos;
  gsize start;
  char c;

  while (i < len && is_space (text[i]))
    i++;
  tok->start = (guint) i;
  if (i >= len)
    {
      tok->kind = DDB_TOK_EOF;
      tok->start = (guint) len;
      tok->len = 0;
      return len;
    }

  start = i;
  c = text[i];
  if (is_letter (c))
    {
      while (i < len && is_word_char (text[i]))
        i++;
      tok->kind = word_kind (text + start, i - start);
    }
  else if (c == '#' || c == ':')
    {
      i++;
      while (i < len && is_word_char (text[i]))
        i++;
      if (i == start + 1)
        tok->kind = DDB_TOK_BAD;
      else
        tok->kind = c == '#' ? DDB_TOK_NAME : DDB_TOK_VALUE;
    }
  else if (is_digit (c))
    {
      /* A leading zero stands alone, so "01" is two tokens and a syntax error. */
      i++;
      if (c != '0')
        while (i < len && is_digit (text[i]))
          i++;
      tok->kind = DDB_TOK_INT;
    }
  else
    {
      char d = i + 1 < len ? text[i + 1] : '\0';

      i++;
      switch (c)
        {
        case '=':
          tok->kind = DDB_TOK_EQ;
          break;
        case '<':
          if (d == '>')
            {
              tok->kind = DDB_TOK_NE;
              i++;
            }
          else if (d == '=')
            {
              tok->kind = DDB_TOK_LE;
              i++;
            }
          else
            tok->kind = DDB_TOK_LT;
          break;
        case '>':
          if (d == '=')
            {
              tok->kind = DDB_TOK_GE;
              i++;
            }
          else
            tok->kind = DDB_TOK_GT;
          break;
        case '(':
          tok->kind = DDB_TOK_LPAREN;
          break;
        case ')':
          tok->kind = DDB_TOK_RPAREN;
          break;
        case '[':
          tok->kind = DDB_TOK_LBRACKET;
          break;
        case ']':
          tok->kind = DDB_TOK_RBRACKET;
          break;
        case ',':
          tok->kind = DDB_TOK_COMMA;
          break;
        case '.':
          tok->kind = DDB_TOK_DOT;
          break;
        case '+':
          tok->kind = DDB_TOK_PLUS;
          break;
        case '-':
          tok->kind = DDB_TOK_MINUS;
          break;
        default:
          tok->kind = DDB_TOK_BAD;
          i = start + utf8_char_len (text + start, len - start);
          break;
        }
    }
  tok->len = (guint) (i - start);
  return i;
}
