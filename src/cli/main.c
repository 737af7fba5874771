/*
** The chive command: dispatches to one function per sub-command.
*/
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const struct {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *help;
} commands[] = {
    {"options", cli_options, "list or check configuration options"},
    {"dump", cli_dump, "print a data file's rows as JSON Lines"},
    {"demo", cli_demo, "create a warehouse, write and read a partitioned table"},
    {"sql", cli_sql, "run SQL statements on the embedded metastore"},
    {"splits", cli_splits, "print the planned splits of a table scan"},
    {"read-split", cli_read_split, "print the rows of serialized splits"},
    {"recover", cli_recover, "finish or undo the writes killed in a warehouse"},
};

void cli_warn(void *ctx, const char *msg) {
  (void)ctx;
  fflush(stdout); /* after the results printed so far */
  fprintf(stderr, "chive: warning: %s\n", msg);
}

void cli_notice(void *ctx, const char *msg) {
  (void)ctx;
  fprintf(stderr, "chive: %s\n", msg);
}

static void usage(FILE *out) {
  fprintf(out, "usage: chive <command> [args]\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
  fprintf(out, "  %-10s %s\n", "version", "print the version");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
      !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
    printf("chive %s\n", chv_version());
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name))
      return commands[i].fn(argc - 1, argv + 1);
  fprintf(stderr, "chive: unknown command '%s'\n", argv[1]);
  usage(stderr);
  return 2;
}
