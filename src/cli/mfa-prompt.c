/* mfa-prompt.c: the terminal MFA prompt: /dev/tty in non-canonical mode without echo and
 * without signals, so that Ctrl+C arrives as a byte and cancels the prompt only (the terminal's
 * settings are put back whatever happens). */
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <poll.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "cli/mfa-prompt.h"
#include "net/hash.h"

/* MFA codes are 6 digits; a line longer than this is not one. */
#define MAX_CODE 64

static void
write_all (int fd, const char *text)
{
  gsize len = strlen (text);

  while (len > 0)
    {
      ssize_t n = write (fd, text, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return;
      text += n;
      len -= (gsize) n;
    }
}

/* Reads the code into BUF; FALSE with ERROR on cancel, end of input or a read error. */
static gboolean
read_code (int fd, const struct termios *saved, char *buf, GCancellable *cancellable,
           GError **error)
{
  GPollFD fds[2] = { { fd, G_IO_IN | G_IO_HUP | G_IO_ERR, 0 } };
  gboolean have_cancel_fd = cancellable != NULL && g_cancellable_make_pollfd (cancellable, &fds[1]);
  gsize len = 0;
  gboolean ok = FALSE;

  for (;;)
    {
      char c;
      ssize_t n;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        break;
      if (g_poll (fds, have_cancel_fd ? 2 : 1, -1) < 0 && errno != EINTR)
        {
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                       "Cannot read the MFA code from the terminal: %s", g_strerror (errno));
          break;
        }
      if (fds[0].revents == 0)
        continue;
      n = read (fd, &c, 1);
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n <= 0 || c == (char) saved->c_cc[VINTR] || c == 0x03
          || (c == (char) saved->c_cc[VEOF] && len == 0))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               "The MFA prompt was cancelled");
          break;
        }
      if (c == '\r' || c == '\n')
        {
          ok = TRUE;
          break;
        }
      if (c == 0x7f || c == 0x08 || c == (char) saved->c_cc[VERASE])
        {
          if (len > 0)
            buf[--len] = '\0';
          continue;
        }
      if (c == (char) saved->c_cc[VKILL])
        {
          ddb_secure_zero (buf, MAX_CODE + 1);
          len = 0;
          continue;
        }
      if (len < MAX_CODE)
        buf[len++] = c;
    }
  if (have_cancel_fd)
    g_cancellable_release_fd (cancellable);
  buf[len] = '\0';
  return ok;
}

char *
cli_mfa_prompt (const char *profile, const char *mfa_serial, gpointer user_data,
                GCancellable *cancellable, GError **error)
{
  char buf[MAX_CODE + 1] = "";
  struct termios saved, quiet;
  g_autofree char *prompt = NULL;
  char *code = NULL;
  gboolean ok;
  int fd;

  fd = open ("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0 || tcgetattr (fd, &saved) != 0)
    {
      if (fd >= 0)
        close (fd);
      g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_UNSUPPORTED,
                   "The profile \"%s\" needs an MFA code for %s, but there is no terminal to "
                   "ask for it on (run the command in a terminal, or sign in with the AWS CLI "
                   "first)",
                   profile != NULL ? profile : "default", mfa_serial);
      return NULL;
    }
  quiet = saved;
  quiet.c_lflag &= ~(tcflag_t) (ECHO | ECHONL | ICANON | ISIG | IEXTEN);
  quiet.c_iflag &= ~(tcflag_t) (ICRNL);
  quiet.c_cc[VMIN] = 1;
  quiet.c_cc[VTIME] = 0;
  prompt = g_strdup_printf ("Enter MFA code for %s: ", mfa_serial);
  /* Quiet before the prompt shows, so that a code typed as soon as it shows is neither echoed
   * nor lost (only what was typed before the prompt is dropped). */
  tcsetattr (fd, TCSAFLUSH, &quiet);
  write_all (fd, prompt);
  ok = read_code (fd, &saved, buf, cancellable, error);
  tcsetattr (fd, TCSADRAIN, &saved);
  write_all (fd, "\n");
  close (fd);
  if (ok)
    {
      g_autofree char *trimmed = g_strstrip (g_strdup (buf));

      if (*trimmed == '\0')
        g_set_error (error, DDB_AWS_ERROR, DDB_AWS_ERROR_CREDENTIAL_RETRIEVAL,
                     "No MFA code was entered for %s", mfa_serial);
      else
        code = g_strdup (trimmed);
      ddb_secure_zero (trimmed, strlen (trimmed));
    }
  ddb_secure_zero (buf, sizeof buf);
  return code;
}
