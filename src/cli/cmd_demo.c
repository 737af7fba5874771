/* chive demo (not built yet). */
#include "cli/cli.h"

#include <stdio.h>

int cli_demo(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "chive demo: not available in this build\n");
  return 1;
}
