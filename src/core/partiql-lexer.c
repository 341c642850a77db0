/* partiql-lexer.c: PartiQL tokens: names, quoted names, strings, numbers, punctuation;
 * `--` line comments and block comments are blanks. */
#include "core/partiql-lexer.h"

#include <string.h>

void
pql_token_clear (PqlToken *t)
{
  if (t->text != NULL)
    g_string_free (t->text, TRUE);
  t->text = NULL;
}

static void
skip_blanks (const char *s, gsize n, gsize *pos, gboolean *unterminated)
{
  gsize i = *pos;

  for (;;)
    {
      while (i < n && g_ascii_isspace (s[i]))
        i++;
      if (i + 1 < n && s[i] == '-' && s[i + 1] == '-')
        {
          while (i < n && s[i] != '\n')
            i++;
          continue;
        }
      if (i + 1 < n && s[i] == '/' && s[i + 1] == '*')
        {
          const char *end = g_strstr_len (s + i + 2, n - i - 2, "*/");

          if (end == NULL)
            {
              *unterminated = TRUE;
              i = n;
              break;
            }
          i = end - s + 2;
          continue;
        }
      break;
    }
  *pos = i;
}

/* A quoted name or string from s[*pos] (the quote); a doubled quote stands for itself. */
static gboolean
lex_quoted (const char *s, gsize n, gsize *pos, char quote, GString **text)
{
  gsize i = *pos + 1;
  GString *out = g_string_new (NULL);

  while (i < n)
    {
      if (s[i] == quote)
        {
          if (i + 1 < n && s[i + 1] == quote)
            {
              g_string_append_c (out, quote);
              i += 2;
              continue;
            }
          *pos = i + 1;
          *text = out;
          return TRUE;
        }
      g_string_append_c (out, s[i]);
      i++;
    }
  g_string_free (out, TRUE);
  *pos = n;
  return FALSE;
}

static gsize
lex_number (const char *s, gsize n, gsize i)
{
  while (i < n && g_ascii_isdigit (s[i]))
    i++;
  if (i < n && s[i] == '.')
    {
      i++;
      while (i < n && g_ascii_isdigit (s[i]))
        i++;
    }
  if (i < n && (s[i] == 'e' || s[i] == 'E'))
    {
      gsize j = i + 1;

      if (j < n && (s[j] == '+' || s[j] == '-'))
        j++;
      if (j < n && g_ascii_isdigit (s[j]))
        {
          i = j;
          while (i < n && g_ascii_isdigit (s[i]))
            i++;
        }
    }
  return i;
}

void
pql_lex (const char *s, gsize n, gsize *pos, PqlToken *out)
{
  gboolean unterminated = FALSE;
  gsize i;
  char c, d;

  memset (out, 0, sizeof *out);
  skip_blanks (s, n, pos, &unterminated);
  i = *pos;
  out->start = s + i;
  if (unterminated)
    {
      out->kind = T_BAD;
      return;
    }
  if (i >= n)
    {
      out->kind = T_EOF;
      return;
    }
  c = s[i];
  d = i + 1 < n ? s[i + 1] : '\0';
  if (g_ascii_isalpha (c) || c == '_')
    {
      while (i < n && (g_ascii_isalnum (s[i]) || s[i] == '_'))
        i++;
      out->kind = T_WORD;
    }
  else if (c == '"' || c == '\'')
    {
      out->kind = c == '"' ? T_QNAME : T_STRING;
      if (!lex_quoted (s, n, &i, c, &out->text))
        out->kind = T_BAD;
    }
  else if (g_ascii_isdigit (c) || (c == '.' && g_ascii_isdigit (d)))
    {
      i = lex_number (s, n, i);
      out->kind = T_NUMBER;
    }
  else
    {
      static const struct {
        const char *text;
        PqlTokenKind kind;
      } punct[] = {
        { "<<", T_LBAG },    { ">>", T_RBAG },  { "<>", T_NE },       { "!=", T_NE },
        { "<=", T_LE },      { ">=", T_GE },    { "<", T_LT },        { ">", T_GT },
        { "=", T_EQ },       { "(", T_LPAREN }, { ")", T_RPAREN },    { "[", T_LBRACKET },
        { "]", T_RBRACKET }, { "{", T_LBRACE }, { "}", T_RBRACE },    { ",", T_COMMA },
        { ".", T_DOT },      { ":", T_COLON },  { ";", T_SEMICOLON }, { "*", T_STAR },
        { "+", T_PLUS },     { "-", T_MINUS },  { "?", T_QMARK },
      };

      out->kind = T_BAD;
      for (guint k = 0; k < G_N_ELEMENTS (punct); k++)
        {
          gsize len = strlen (punct[k].text);

          if (i + len <= n && memcmp (s + i, punct[k].text, len) == 0)
            {
              out->kind = punct[k].kind;
              i += len;
              break;
            }
        }
      if (out->kind == T_BAD)
        i++;
    }
  out->len = i - *pos;
  *pos = i;
}
