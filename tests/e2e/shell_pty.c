/*
** The interactive shell on a pseudo-terminal: `chive sql` started under
** forkpty() shows its prompt, takes a statement over two lines (with the
** continuation prompt), edits a line (Ctrl-A moves to its start), recalls
** the previous statement with the up arrow, writes the history file, and
** leaves on Ctrl-D.  A second session sees the first one's history.
**
** usage: shell_pty CHIVE WORKDIR
*/
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char out[1 << 16];
static size_t nout;

/* Reads what the child prints until `want` appears (or 10 s pass). */
static int wait_for(int fd, const char *want) {
  time_t end = time(NULL) + 10;
  while (time(NULL) < end) {
    out[nout] = '\0';
    if (strstr(out, want)) return 0;
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, 200) <= 0) continue;
    ssize_t n = read(fd, out + nout, sizeof out - 1 - nout);
    if (n <= 0) break;
    nout += (size_t)n;
  }
  out[nout] = '\0';
  fprintf(stderr, "did not see \"%s\" in:\n%s\n", want, out);
  return 1;
}

static void type(int fd, const char *s) {
  if (write(fd, s, strlen(s)) < 0) perror("write");
  usleep(50000);
}

static int session(const char *chive, const char *dir, int round) {
  char wh[4096], hist[4096];
  snprintf(wh, sizeof wh, "%s/wh", dir);
  snprintf(hist, sizeof hist, "%s/history", dir);
  setenv("CHIVE_HISTORY", hist, 1);
  setenv("TERM", "dumb", 1);
  int fd;
  pid_t pid = forkpty(&fd, NULL, NULL, NULL);
  if (pid < 0) {
    perror("forkpty");
    return 1;
  }
  if (pid == 0) {
    execl(chive, chive, "sql", "--warehouse", wh, (char *)NULL);
    _exit(127);
  }
  nout = 0;
  int bad = wait_for(fd, "chive> ");
  if (round == 0) {
    type(fd, "SELECT 40 +\r");
    bad |= wait_for(fd, "-> ");
    type(fd, " 2 AS answer;\r");
    bad |= wait_for(fd, "42");
    /* "ECT 'edited'" then Ctrl-A and the start of the word */
    type(fd, "ECT 'edited' AS e;\x01SEL\r");
    bad |= wait_for(fd, "edited\r\n(1 row)");
  } else {
    /* up arrow: the last statement of the previous session */
    type(fd, "\x1b[A\r");
    bad |= wait_for(fd, "edited\r\n(1 row)");
  }
  type(fd, "\x04"); /* Ctrl-D */
  /* Drain what it prints until it exits (the terminal reads EIO once the
  ** child has closed it, which may come before the process is gone: a
  ** sanitizer's exit checks take a while), for up to 20 s. */
  int st = 0;
  pid_t done = 0;
  bool open_ = true;
  for (int i = 0; i < 200 && (done = waitpid(pid, &st, WNOHANG)) == 0; i++) {
    char buf[256];
    struct pollfd p = {fd, POLLIN, 0};
    if (open_ && poll(&p, 1, 100) > 0) {
      if (read(fd, buf, sizeof buf) < 0) open_ = false;
    } else if (!open_) {
      usleep(100000);
    }
  }
  if (done == 0) {
    fprintf(stderr, "chive sql did not leave on Ctrl-D\n");
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    bad = 1;
  } else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr, "chive sql exited with status %d\n", st);
    bad = 1;
  }
  close(fd);
  return bad;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: shell_pty CHIVE WORKDIR\n");
    return 2;
  }
  int bad = session(argv[1], argv[2], 0);
  char hist[4096], line[512];
  snprintf(hist, sizeof hist, "%s/history", argv[2]);
  FILE *f = fopen(hist, "r");
  int found = 0;
  while (f && fgets(line, sizeof line, f))
    found |= strstr(line, "'edited'") != NULL; /* libedit writes spaces as \040 */
  if (f) fclose(f);
  if (!found) {
    fprintf(stderr, "the history file %s lacks the edited statement\n", hist);
    bad = 1;
  }
  bad |= session(argv[1], argv[2], 1);
  if (!bad) printf("shell_pty: ok\n");
  return bad;
}
