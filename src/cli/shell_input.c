/*
** cli/shell_input: the line reader of the interactive shell, and the shell
** commands every input (terminal, -e, -f, a pipe) may hold.
**
** The reader is libedit's readline interface with its history (one entry a
** statement, saved after each in $CHIVE_HISTORY, else ~/.chive_history)
** and tab completion (shell_complete.c).  libedit's own signal handling is
** off (rl_catch_signals): the shell's SIGINT handler only sets a flag, and
** the reader's input function waits for a key with ppoll(), which SIGINT
** interrupts, so Ctrl-C ends the line being edited at once and the shell
** drops it (shell_readline() sets *cleared); a resize (SIGWINCH) is passed
** on to libedit the same way.
**
** A shell command stands at the start of a statement, alone on the rest of
** its line, and needs no ';' (one is allowed); a dot or backslash command
** ends at a ';', after which SQL may follow on the line (".mode csv; SELECT
** 1"), and quit, exit and help may also be a statement of their own, ended
** by ';' ("SELECT 1; exit; ..."):
**   .help  \?  help             the commands and a few SQL pointers
**   .mode [MODE]                table|csv|tsv|jsonl|markdown
**   .maxrows [N]                rows a table shows (-1: all)
**   .timer [on|off]             "Run Time: real S s" after each statement
**   .quit  .exit  \q  quit  exit
** An unknown dot or backslash command is an error naming it.
**
** INTERFACE: shell_input_open(), shell_input_close(), shell_readline(),
** shell_history_add(), shell_command(), shell_word_command().
*/
#include "shell.h"

#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <wchar.h>

#include <editline/readline.h>

/* ---- the reader ---------------------------------------------------------- */

static char hist_buf[4096];
static const char *hist; /* the history file, or NULL */

/* The history file of the interactive shell: $CHIVE_HISTORY (empty: none),
** else ~/.chive_history. */
static const char *history_path(void) {
  const char *e = getenv("CHIVE_HISTORY");
  if (e) return *e ? e : NULL;
  const char *home = getenv("HOME");
  if (!home || !*home) return NULL;
  snprintf(hist_buf, sizeof hist_buf, "%s/.chive_history", home);
  return hist_buf;
}

/* The terminal was resized (SIGWINCH), and libedit not told yet. */
static volatile sig_atomic_t resized;

static void on_sigwinch(int sig) {
  (void)sig;
  resized = 1;
}

/* One byte of fd, waiting with SIGINT and SIGWINCH let in only inside
** ppoll(), so that neither is missed between the flags' check and the
** wait; EOF at the end of input or once Ctrl-C came.  A resize is passed
** on to libedit here, outside the handler (libedit's own handlers are
** off, see rl_catch_signals). */
static int read_byte(int fd) {
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGWINCH);
  for (;;) {
    pthread_sigmask(SIG_BLOCK, &block, &old);
    if (shell_interrupted()) {
      pthread_sigmask(SIG_SETMASK, &old, NULL);
      return EOF;
    }
    if (resized) {
      resized = 0;
      pthread_sigmask(SIG_SETMASK, &old, NULL);
      rl_resize_terminal();
      continue;
    }
    struct pollfd pfd = {fd, POLLIN, 0};
    int r = ppoll(&pfd, 1, NULL, &old);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return EOF;
    unsigned char c;
    ssize_t k = read(fd, &c, 1);
    if (k == 1) return c;
    if (k < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    return EOF;
  }
}

/* libedit's input function: one character (of the locale's encoding, so
** UTF-8 text arrives whole), or EOF. */
static int shell_getc(FILE *f) {
  int fd = fileno(f);
  mbstate_t st;
  memset(&st, 0, sizeof st);
  for (int n = 0;; n++) {
    int b = read_byte(fd);
    if (b == EOF) return EOF;
    char c = (char)b;
    wchar_t wc;
    size_t r = mbrtowc(&wc, &c, 1, &st);
    if (r == (size_t)-2 && n < 8) continue; /* more bytes of it to come */
    if (r == (size_t)-1 || r == (size_t)-2) return b; /* not the locale's */
    return (int)wc;
  }
}

void shell_input_open(struct shell *sh) {
  setlocale(LC_CTYPE, ""); /* the terminal's characters, for libedit */
  rl_catch_signals = 0;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigwinch;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGWINCH, &sa, NULL);
  rl_getc_function = shell_getc;
  rl_attempted_completion_function = shell_complete;
  rl_basic_word_break_characters = " \t\n\"'`@$><=;|&{(),+-*/%";
  shell_complete_init(sh);
  hist = history_path();
  using_history();
  stifle_history(2000);
  if (hist) read_history(hist);
}

void shell_input_close(void) {}

char *shell_readline(const char *prompt, bool *cleared) {
  *cleared = false;
  char *line = readline(prompt);
  if (shell_interrupted()) { /* Ctrl-C: the line goes */
    free(line);
    shell_interrupt_clear();
    fputc('\n', stdout);
    fflush(stdout);
    *cleared = true;
    return NULL;
  }
  return line;
}

void shell_history_add(const char *entry) {
  add_history(entry);
  if (hist) write_history(hist);
}

/* ---- commands ------------------------------------------------------------ */

static void help(FILE *out) {
  fputs(
      "Shell commands (at the start of a line; no ';' needed):\n"
      "  .help, \\?, help        this help\n"
      "  .mode [MODE]           how results print: table (default), csv, tsv,\n"
      "                         jsonl, markdown\n"
      "  .maxrows [N]           rows a table shows, its first and last ones\n"
      "                         (-1: all; 40 on a terminal, else all)\n"
      "  .timer [on|off]        the run time of each statement, on stderr\n"
      "  .quit, .exit, \\q, quit, exit   leave (Ctrl-D too)\n"
      "Keys: Tab completes keywords, tables and columns; Ctrl-C cancels the\n"
      "running statement or clears the line; the arrows recall the history.\n"
      "SQL (each statement ends with ';'):\n"
      "  SHOW DATABASES;  SHOW TABLES;  DESCRIBE t;  SHOW CREATE TABLE t;\n"
      "  CREATE TABLE t (a INT, b STRING) PARTITIONED BY (dt STRING)\n"
      "    STORED AS PARQUET;\n"
      "  INSERT INTO t PARTITION (dt = '2026-01-01') VALUES (1, 'x');\n"
      "  SELECT b, count(*) FROM t WHERE dt = '2026-01-01' GROUP BY b;\n"
      "  EXPLAIN SELECT ...;  SET 'key' = 'value';  (`chive options` lists "
      "the keys)\n"
      "More in docs/sql.md and docs/cli.md.\n",
      out);
}

/* The command's word (up to a blank) in name, the rest in args. */
static void split_command(const char *line, size_t n, char *name, size_t nsize,
                          const char **args, size_t *nargs) {
  size_t i = 0;
  while (i < n && !isspace((unsigned char)line[i]))
    i++;
  size_t k = i < nsize ? i : nsize - 1;
  memcpy(name, line, k);
  name[k] = '\0';
  while (i < n && isspace((unsigned char)line[i]))
    i++;
  *args = line + i;
  *nargs = n - i;
}

static bool arg_is(const char *a, size_t n, const char *word) {
  return strlen(word) == n && !strncasecmp(a, word, n);
}

static enum shell_cmd dot_command(struct shell *sh, const char *name,
                                  const char *args, size_t nargs, char *msg,
                                  size_t msgsize) {
  char arg[64];
  snprintf(arg, sizeof arg, "%.*s", (int)nargs, args);
  if (!strcmp(name, ".help")) {
    help(sh->out);
    return SHELL_CMD_OK;
  }
  if (!strcmp(name, ".quit") || !strcmp(name, ".exit")) return SHELL_CMD_QUIT;
  if (!strcmp(name, ".mode")) {
    if (!nargs) {
      fprintf(sh->out, "%s\n", shell_mode_name(sh->mode));
      return SHELL_CMD_OK;
    }
    if (nargs >= sizeof arg || !shell_mode_parse(arg, &sh->mode)) {
      snprintf(msg, msgsize, ".mode: unknown mode '%.*s' (%s)",
               nargs > 100 ? 100 : (int)nargs, args, shell_mode_list());
      return SHELL_CMD_ERROR;
    }
    return SHELL_CMD_OK;
  }
  if (!strcmp(name, ".timer")) {
    if (!nargs) {
      fprintf(sh->out, "%s\n", sh->timer ? "on" : "off");
    } else if (arg_is(args, nargs, "on")) {
      sh->timer = true;
    } else if (arg_is(args, nargs, "off")) {
      sh->timer = false;
    } else {
      snprintf(msg, msgsize, ".timer: expected on or off, found '%.*s'",
               nargs > 100 ? 100 : (int)nargs, args);
      return SHELL_CMD_ERROR;
    }
    return SHELL_CMD_OK;
  }
  if (!strcmp(name, ".maxrows")) {
    if (!nargs) {
      fprintf(sh->out, "%lld\n", (long long)sh->maxrows);
      return SHELL_CMD_OK;
    }
    char *e;
    errno = 0;
    long long v = nargs < sizeof arg ? strtoll(arg, &e, 10) : 0;
    if (nargs >= sizeof arg || errno || *e || v < -1) {
      snprintf(msg, msgsize,
               ".maxrows: expected a number of rows (-1: all), found '%.*s'",
               nargs > 100 ? 100 : (int)nargs, args);
      return SHELL_CMD_ERROR;
    }
    sh->maxrows = v;
    return SHELL_CMD_OK;
  }
  snprintf(msg, msgsize, "unknown command '%s' (.help lists the commands)",
           name);
  return SHELL_CMD_ERROR;
}

enum shell_cmd shell_word_command(struct shell *sh, const char *text,
                                  size_t len) {
  if (arg_is(text, len, "quit") || arg_is(text, len, "exit"))
    return SHELL_CMD_QUIT;
  if (arg_is(text, len, "help")) {
    help(sh->out);
    return SHELL_CMD_OK;
  }
  return SHELL_CMD_NONE;
}

enum shell_cmd shell_command(struct shell *sh, const char *text, size_t len,
                             size_t *end, char *msg, size_t msgsize) {
  size_t i = 0;
  while (i < len && (text[i] == ' ' || text[i] == '\t'))
    i++;
  size_t eol = i;
  while (eol < len && text[eol] != '\n')
    eol++;
  *end = eol < len ? eol + 1 : eol;
  /* a dot or backslash command ends at a ';' too: SQL may follow it on its
  ** line (-e '.mode csv; SELECT 1') */
  if (i < len && (text[i] == '.' || text[i] == '\\')) {
    const char *semi = memchr(text + i, ';', eol - i);
    if (semi) {
      eol = (size_t)(semi - text);
      *end = eol + 1;
    }
  }
  /* the line without trailing blanks and one ';' */
  const char *line = text + i;
  size_t n = eol - i;
  while (n && isspace((unsigned char)line[n - 1]))
    n--;
  if (n && line[n - 1] == ';') n--;
  while (n && isspace((unsigned char)line[n - 1]))
    n--;
  if (!n) return SHELL_CMD_NONE;
  enum shell_cmd w = shell_word_command(sh, line, n);
  if (w != SHELL_CMD_NONE) return w;
  if (line[0] != '.' && line[0] != '\\') return SHELL_CMD_NONE;
  char name[64];
  const char *args;
  size_t nargs;
  split_command(line, n, name, sizeof name, &args, &nargs);
  if (line[0] == '\\') {
    if (!strcmp(name, "\\q")) return SHELL_CMD_QUIT;
    if (!strcmp(name, "\\?")) {
      help(sh->out);
      return SHELL_CMD_OK;
    }
    snprintf(msg, msgsize, "unknown command '%s' (.help lists the commands)",
             name);
    return SHELL_CMD_ERROR;
  }
  return dot_command(sh, name, args, nargs, msg, msgsize);
}
