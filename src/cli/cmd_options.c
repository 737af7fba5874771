/* chive options (not built yet). */
#include "cli/cli.h"

#include <stdio.h>

int cli_options(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "chive options: not available in this build\n");
  return 1;
}
